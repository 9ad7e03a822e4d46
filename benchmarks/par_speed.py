"""How long par takes: solved cold (nothing cached), solved with the compiled code kept but no
par cached, and asked again from the cache (warm); with the states solved and where the time
goes. Optionally, races of the readable engine driven by par's policy, against the par.

Prints figures, no assertions. Each ask is a fresh process, the one a user gets
(``python -m trackformat par TRACK --json``), from the interpreter's start to its exit, its CPU
time (user + system, from ``resource``) and its wall-clock time. "Cold" empties both caches
(numba's, for the kernel's move generation and par's compiled induction, and par's own);
"par cold" keeps the compiled code and empties par's cache; "warm" asks again. The stages of a
solve are timed in this process, after a warm-up solve.

    python benchmarks/par_speed.py                           # Monaco, 2 laps, formula-d
    python benchmarks/par_speed.py tracks/monaco.json --laps 1
    python benchmarks/par_speed.py --skip-cold               # keep the user's compiled code
    python benchmarks/par_speed.py --races 2000              # and race the policy 2,000 times
    python benchmarks/par_speed.py --driver-races 2000 --skip-timing   # the par driver alone

``--driver-races N`` races the par driver (``testdrive --bot par``'s, from the drivers'
registry) alone N times on the readable engine and prints its mean against par with the 99%
interval; ``--skip-timing`` leaves out the solve times (minutes of fresh processes).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from trackformat.io import load_track  # noqa: E402
from trackformat.rules import load_ruleset  # noqa: E402
from trackformat.sim.kernel.cache import cache_folder  # noqa: E402


def ask(track: str, laps: int, ruleset: str, numba_cache: str | None,
        par_cache: str) -> tuple[float, float, dict[str, object]]:
    """(CPU s, wall s, document) of ``trackformat par --json`` in a new process, keeping par
    in ``par_cache`` and compiled code in ``numba_cache`` (None: the user's)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), XDG_CACHE_HOME=par_cache)
    # par's cache follows XDG_CACHE_HOME, and so would the compiled code's: named explicitly.
    env["NUMBA_CACHE_DIR"] = numba_cache or os.environ.get("NUMBA_CACHE_DIR") or str(
        cache_folder())
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "trackformat", "par", track, "--laps",
                           str(laps), "--ruleset", ruleset, "--json"], env=env, check=True,
                          cwd=ROOT, capture_output=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, json.loads(done.stdout)


def stages(track_path: str, laps: int, ruleset: str) -> None:
    """Where the time of a solve goes, in this process (compiled code loaded first)."""
    from trackformat.par.report import report
    from trackformat.par.solve import solve

    track, rules = load_track(track_path), load_ruleset(ruleset)
    solve(track, rules, 1)  # loads the compiled code
    started = time.process_time()
    solution = solve(track, rules, laps)
    solved = time.process_time()
    report(solution)
    reported = time.process_time()
    figures = solution.figures
    print(f"  stages (CPU s): places and move tables {figures.layout_seconds:.1f}, backward "
          f"induction {figures.solve_seconds:.1f}, report {reported - solved:.1f} "
          f"(a solve {solved - started:.1f})")
    print(f"  {figures.places:,} places, {figures.states:,} states solved, "
          f"{figures.moves:,} moves tabled, {figures.kernel_calls:,} kernel walks; "
          f"values {solution.values.nbytes / 2**20:.0f} MiB")


def simulate(track_path: str, laps: int, ruleset: str, races: int) -> None:
    """Races of the readable engine driven by par's policy (the test's driver), against par."""
    from tests.par.test_simulation import ParDriver
    from trackformat.par.solve import solve
    from trackformat.sim import Board, run_race
    from trackformat.sim.core.state import CarStatus

    track, rules = load_track(track_path), load_ruleset(ruleset)
    solution = solve(track, rules, laps)
    board, driver = Board.of(track), ParDriver(solution)
    started = time.process_time()
    turns, out = [], 0
    for seed in range(races):
        result = run_race(board, rules, [driver], seed=seed, laps=laps)
        out += result.cars[0].status != CarStatus.FINISHED
        turns.append(result.turns)
    mean = sum(turns) / races
    spread = math.sqrt(sum((t - mean) ** 2 for t in turns) / (races - 1))
    half = 2.576 * spread / math.sqrt(races)
    print(f"  {races:,} races of the readable engine on par's policy: mean {mean:.3f} turns "
          f"(99% interval {mean - half:.3f} to {mean + half:.3f}), par {solution.par:.3f}; "
          f"{out} not finished; {time.process_time() - started:.0f} s of CPU")


def drive_alone(track_path: str, laps: int, ruleset: str, races: int) -> None:
    """Races of the readable engine with the par driver alone, against par: the driver's own
    solve (from every grid slot, for its box) gives the par it is held to."""
    from trackformat.par.driver import ParDriver, solution_for
    from trackformat.sim import Board, run_race
    from trackformat.sim.core.dice import Dice
    from trackformat.sim.core.state import CarStatus
    from trackformat.sim.race.grid import new_race

    track, rules = load_track(track_path), load_ruleset(ruleset)
    board = Board.of(track)
    solved = time.process_time()
    alone = new_race(board, rules, 1, laps, Dice(0), []).cars[0]
    par = solution_for(track, rules, laps, alone.box).par  # kept: the drivers find it solved
    solved = time.process_time() - solved
    started = time.process_time()
    turns, out, decisions, fallbacks = [], 0, 0, 0
    for seed in range(races):
        driver = ParDriver()
        result = run_race(board, rules, [driver], seed=seed, laps=laps)
        out += result.cars[0].status != CarStatus.FINISHED
        turns.append(result.turns)
        decisions += driver.decisions
        fallbacks += driver.fallbacks
    mean = sum(turns) / races
    spread = math.sqrt(sum((t - mean) ** 2 for t in turns) / (races - 1)) if races > 1 else 0.0
    half = 2.576 * spread / math.sqrt(races)
    print(f"  {races:,} races of the par driver alone (readable engine): mean {mean:.3f} turns "
          f"(99% interval {mean - half:.3f} to {mean + half:.3f}), par {par:.3f} "
          f"({'inside' if abs(mean - par) <= half else 'OUTSIDE'} the interval); "
          f"{out} not finished; {fallbacks} of {decisions:,} decisions taken by the strong "
          f"driver; {time.process_time() - started:.0f} s of CPU racing, {solved:.0f} s "
          "solving")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("track", nargs="?", default="tracks/monaco.json")
    parser.add_argument("--laps", type=int, default=2)
    parser.add_argument("--ruleset", default="formula-d")
    parser.add_argument("--skip-cold", action="store_true",
                        help="keep the user's compiled code (no cold compile)")
    parser.add_argument("--races", type=int, default=0,
                        help="also race the policy this many times on the readable engine")
    parser.add_argument("--driver-races", type=int, default=0, metavar="N",
                        help="also race the par driver alone this many times")
    parser.add_argument("--skip-timing", action="store_true",
                        help="leave out the solve times (cold, warm, stages)")
    args = parser.parse_args()
    if args.skip_timing:
        if args.races:
            simulate(args.track, args.laps, args.ruleset, args.races)
        if args.driver_races:
            drive_alone(args.track, args.laps, args.ruleset, args.driver_races)
        return
    name = Path(args.track).name
    print(f"par of {name}, {args.laps} laps, {args.ruleset} (CPU s / wall s of the process)")
    with tempfile.TemporaryDirectory() as numba_cache, \
            tempfile.TemporaryDirectory() as par_cache:
        if not args.skip_cold:
            cpu, wall, document = ask(args.track, args.laps, args.ruleset, numba_cache,
                                      par_cache)
            print(f"  cold (nothing compiled, nothing cached): {cpu:.1f} / {wall:.1f}  "
                  f"par {document['par']:.4f}")
        with tempfile.TemporaryDirectory() as fresh:
            cpu, wall, document = ask(args.track, args.laps, args.ruleset,
                                      None if args.skip_cold else numba_cache, fresh)
            print(f"  par cold (code compiled, par not cached): {cpu:.1f} / {wall:.1f}  "
                  f"par {document['par']:.4f}")
            cpu, wall, document = ask(args.track, args.laps, args.ruleset,
                                      None if args.skip_cold else numba_cache, fresh)
            print(f"  warm (par cached): {cpu:.2f} / {wall:.2f}  cached {document['cached']}")
    stages(args.track, args.laps, args.ruleset)
    if args.races:
        simulate(args.track, args.laps, args.ruleset, args.races)
    if args.driver_races:
        drive_alone(args.track, args.laps, args.ruleset, args.driver_races)


if __name__ == "__main__":
    main()
