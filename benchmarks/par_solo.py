"""Par against the drivers that race alone: N races of the par driver alone on the readable
engine, held to par's 99% interval, and N races of the strong driver alone on the compiled
kernel, with its gap to par. One row per track; prints figures, no assertions.

The par driver (``testdrive --bot par``'s, from the drivers' registry) is what is checked: its
mean over N races must fall within the 99% interval (2.576 standard errors of the races' own
spread) of the par its own solve gives, on every track, or the engine and par disagree about
what a turn is. The strong driver alone is raced on the kernel, as ``testdrive --cars 1 --bot
strong`` races it; the races it is eliminated from are counted apart (a race that ends early
is no measure of the turns to the flag), and the mean of those it finished is set beside par.

    python benchmarks/par_solo.py                                    # Monaco, 2,000 races
    python benchmarks/par_solo.py tracks/monaco.json board.dat --races 10000 --workers 2

A ``.dat`` (GP Online) is imported first, as ``import gponline`` does. Race ``i`` has the seed
``i`` on both engines, whatever ``--workers`` is. Each worker solves par once for the box the
car stops at (20 to 40 s on two laps) before its first race; the racing time printed leaves
that out.
"""

from __future__ import annotations

import argparse
import math
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from trackformat.io import load_track, save_track  # noqa: E402
from trackformat.model.track import Track  # noqa: E402
from trackformat.rules import load_ruleset  # noqa: E402

Z99 = 2.576


@dataclass
class Drives:
    """The par driver's races alone in one process."""

    turns: list[int] = field(default_factory=list)
    not_finished: int = 0
    decisions: int = 0
    fallbacks: int = 0
    par: float = math.nan
    seconds: float = 0.0
    """CPU seconds racing (the solve left out)."""


def drive_par(track_json: str, ruleset: str, laps: int, seeds: range) -> Drives:
    """Race the par driver alone with each of ``seeds`` on the readable engine."""
    from trackformat.par.driver import ParDriver, solution_for
    from trackformat.sim import Board, CarStatus, run_race
    from trackformat.sim.core.dice import Dice
    from trackformat.sim.drivers.bots import DRIVERS
    from trackformat.sim.race.grid import new_race

    track, rules = load_track(track_json), load_ruleset(ruleset)
    board = Board.of(track)
    alone = new_race(board, rules, 1, laps, Dice(0), []).cars[0]
    drives = Drives(par=solution_for(track, rules, laps, alone.box).par)
    started = time.process_time()
    for seed in seeds:
        driver = DRIVERS["par"](seed)
        assert isinstance(driver, ParDriver)
        result = run_race(board, rules, [driver], seed=seed, laps=laps)
        drives.not_finished += result.cars[0].status != CarStatus.FINISHED
        drives.turns.append(result.turns)
        drives.decisions += driver.decisions
        drives.fallbacks += driver.fallbacks
    drives.seconds = time.process_time() - started
    return drives


@dataclass
class StrongDrives:
    """The strong driver's races alone on the compiled kernel."""

    finished: list[int] = field(default_factory=list)
    """The turns of each race the car finished."""
    out: int = 0
    """Races in which it was eliminated."""


def drive_strong(track_json: str, ruleset: str, laps: int, races: int) -> StrongDrives:
    """Race the strong driver alone with the seeds ``0 .. races - 1`` on the compiled kernel
    (as ``testdrive --cars 1 --bot strong`` does); a race it is eliminated from counts apart,
    its turns not with those of the races it finished (they end early)."""
    from trackformat.sim import Board, CarStatus
    from trackformat.sim.kernel.race import KernelRacer

    racer = KernelRacer(Board.of(load_track(track_json)), load_ruleset(ruleset), ["strong"],
                        laps)
    corners, spaces = racer.count_tables()
    drives = StrongDrives()
    for seed in range(races):
        outcome = racer.count(seed, corners, spaces)
        if outcome.cars[0].status == CarStatus.FINISHED:
            drives.finished.append(outcome.turns)
        else:
            drives.out += 1
    return drives


def mean_and_half(turns: list[int]) -> tuple[float, float]:
    """The mean of ``turns`` and the half-width of its 99% interval."""
    mean = sum(turns) / len(turns)
    spread = math.sqrt(sum((t - mean) ** 2 for t in turns) / (len(turns) - 1))
    return mean, Z99 * spread / math.sqrt(len(turns))


def track_file(path: Path, folder: Path) -> tuple[str, Track]:
    """A track file to race ``path`` from (a ``.dat`` imported into ``folder``)."""
    if path.suffix.lower() != ".dat":
        return str(path), load_track(path)
    from trackformat.interop.gponline import import_file

    track = import_file(path).track
    saved = folder / f"{path.stem}.json"
    save_track(track, saved)
    return str(saved), track


def one_track(path: Path, folder: Path, args: argparse.Namespace,
              pool: ProcessPoolExecutor) -> None:
    track_json, track = track_file(path, folder)
    laps = args.laps or track.metadata.laps
    par = math.nan
    if args.races:
        share = math.ceil(args.races / args.workers)
        parts = [range(start, min(start + share, args.races))
                 for start in range(0, args.races, share)]
        started = time.perf_counter()
        futures = [pool.submit(drive_par, track_json, args.ruleset, laps, seeds)
                   for seeds in parts]
        done = [f.result() for f in futures]
        wall = time.perf_counter() - started
        turns = [t for d in done for t in d.turns]
        par = done[0].par
        mean, half = mean_and_half(turns)
        verdict = "inside" if abs(mean - par) <= half else "OUTSIDE"
        print(f"{path.stem}, {laps} laps: par {par:.3f}; par driver alone, {len(turns):,} "
              f"races: mean {mean:.3f} (99% interval {mean - half:.3f} to {mean + half:.3f}, "
              f"par {verdict}), {sum(d.not_finished for d in done)} not finished, "
              f"{sum(d.fallbacks for d in done)} of {sum(d.decisions for d in done):,} "
              f"decisions left to the strong driver; {sum(d.seconds for d in done):.0f} s of "
              f"CPU racing, {wall:.0f} s wall in all", flush=True)
    if args.strong_races:
        if math.isnan(par):
            from trackformat.par import par_report

            par = float(par_report(track, load_ruleset(args.ruleset), laps)[0]["par"])
        strong = drive_strong(track_json, args.ruleset, laps, args.strong_races)
        mean, half = mean_and_half(strong.finished)
        gap = mean - par
        print(f"{path.stem}, {laps} laps: strong driver alone, {args.strong_races:,} races: "
              f"{strong.out} eliminated ({strong.out / args.strong_races:.1%}); the "
              f"{len(strong.finished):,} finished took {mean:.3f} turns on average (99% "
              f"half-interval {half:.3f}), {gap:+.3f} on par {par:.3f} ({gap / par:+.1%})"
              f"{'; BEATS PAR' if gap < -half else ''}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tracks", nargs="*", type=Path, default=[ROOT / "tracks/monaco.json"])
    parser.add_argument("--races", type=int, default=2000,
                        help="races of the par driver alone (0: none)")
    parser.add_argument("--strong-races", type=int, default=None,
                        help="races of the strong driver alone (default: --races; 0: none)")
    parser.add_argument("--laps", type=int, default=None, help="default: the track's")
    parser.add_argument("--ruleset", default="formula-d")
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    if args.strong_races is None:
        args.strong_races = args.races
    with tempfile.TemporaryDirectory() as folder, \
            ProcessPoolExecutor(max_workers=args.workers) as pool:
        for path in args.tracks:
            one_track(path, Path(folder), args, pool)


if __name__ == "__main__":
    main()
