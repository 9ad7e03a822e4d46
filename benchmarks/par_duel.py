"""Par against strong, head to head: 10-car races, 5 par drivers against 5 strong ones, on the
compiled kernel (or ``--engine reference``: the same races, event for event, slower), and the par
side's share of the wins with its 95% interval.

The par drivers are cars 1, 3, 5, 7 and 9, the strong ones cars 2, 4, 6, 8 and 10: the grid is
drawn by the dice in every race, and the boxes go by team (cars 1 and 2 share one, and so on;
GP Online's garages by grid place), so neither side has better slots or boxes. Race ``i`` has
the test drives' seed of ``i`` (``race_seed(seed, i)``), whatever ``--workers`` is. Prints
figures, no assertions.

    python benchmarks/par_duel.py                          # Monaco, 200 races
    python benchmarks/par_duel.py --track board.json --races 2000 --laps 1 --workers 2

Each process solves par once per box its par cars stop at (on Monaco, two laps: five solves of
some 10 to 20 s), in the race where a par car first stops there; the times printed leave those
races out.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from trackformat.io import load_track  # noqa: E402
from trackformat.rules import load_ruleset  # noqa: E402
from trackformat.sim import Board, CarStatus, run_race  # noqa: E402
from trackformat.sim.batch.chunks import race_seed  # noqa: E402
from trackformat.sim.batch.stats import wilson  # noqa: E402
from trackformat.sim.drivers.bots import DRIVERS  # noqa: E402
from trackformat.sim.kernel.race import KernelRacer  # noqa: E402

SIDES = ("par", "strong")
CARS = 10


@dataclass
class Tally:
    """What the races of one process came to."""

    races: int = 0
    par_wins: int = 0
    no_winner: int = 0
    places: tuple[int, int] = (0, 0)
    """Sum of the finishing places of each side's classified cars."""
    classified: tuple[int, int] = (0, 0)
    out: tuple[int, int] = (0, 0)
    """Cars of each side not classified."""
    decisions: int = 0
    fallbacks: int = 0
    """Decisions of the par drivers, and those the strong driver took for them."""
    seconds: float = 0.0
    """CPU seconds racing (the solves left out)."""
    timed: int = 0
    """The races those seconds are of (the races that solved par for a box left out)."""

    def add(self, other: Tally) -> None:
        self.races += other.races
        self.par_wins += other.par_wins
        self.no_winner += other.no_winner
        self.places = _plus(self.places, other.places)
        self.classified = _plus(self.classified, other.classified)
        self.out = _plus(self.out, other.out)
        self.decisions += other.decisions
        self.fallbacks += other.fallbacks
        self.seconds += other.seconds
        self.timed += other.timed


def _plus(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    return a[0] + b[0], a[1] + b[1]


def race_some(track_path: str, ruleset: str, laps: int, seed: int, indices: list[int],
              engine: str = "kernel") -> Tally:
    """Race the duels ``indices`` of the batch in this process."""
    track, rules = load_track(track_path), load_ruleset(ruleset)
    board = Board.of(track)
    bots = [SIDES[car % 2] for car in range(CARS)]
    racer = KernelRacer(board, rules, bots, laps) if engine == "kernel" else None
    tally = Tally()
    drivers: list[object] = []
    for index in indices:
        started = time.process_time()
        if racer is not None:
            solved = len(racer.par_boxes)
            result = racer.race(race_seed(seed, index))
            solving = len(racer.par_boxes) != solved
        else:
            drivers = [DRIVERS[bot](seed) for bot in bots]
            solving = tally.races == 0
            result = run_race(board, rules, drivers, race_seed(seed, index), laps=laps)  # type: ignore[arg-type]
        if not solving:  # a race that solved par for a box: not a race's time
            tally.seconds += time.process_time() - started
            tally.timed += 1
        tally.races += 1
        if result.finish_order:
            tally.par_wins += result.finish_order[0] % 2 == 0
        else:
            tally.no_winner += 1
        for car in result.cars:
            side = car.car % 2
            if car.status == CarStatus.FINISHED and car.place is not None:
                tally.places = _plus(tally.places, (car.place, 0) if side == 0 else (0, car.place))
                tally.classified = _plus(tally.classified, (1 - side, side))
            else:
                tally.out = _plus(tally.out, (1 - side, side))
        for car in range(0, CARS, 2) if racer is None else ():
            tally.decisions += getattr(drivers[car], "decisions", 0)
            tally.fallbacks += getattr(drivers[car], "fallbacks", 0)
    if racer is not None:
        tally.decisions, tally.fallbacks = (int(n) for n in racer.par_counts().sum(axis=0))
    return tally


def _shares(races: int, workers: int) -> Iterator[list[int]]:
    """The race indices of each worker, interleaved (each worker's share as even as can be)."""
    for worker in range(workers):
        yield list(range(worker, races, workers))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--track", default="tracks/monaco.json")
    parser.add_argument("--races", type=int, default=200)
    parser.add_argument("--laps", type=int, default=None, help="default: the track's")
    parser.add_argument("--ruleset", default="formula-d")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--engine", choices=("kernel", "reference"), default="kernel")
    parser.add_argument("--workers", type=int, default=1,
                        help="processes to race in (each solves par on its own)")
    args = parser.parse_args()
    laps = args.laps if args.laps is not None else load_track(args.track).metadata.laps
    print(f"par against strong on {Path(args.track).name}, {laps} laps, {args.ruleset}: "
          f"{args.races} races of {CARS} cars (5 par, 5 strong), {args.engine} engine")
    started = time.perf_counter()
    tally = Tally()
    workers = max(1, min(args.workers, args.races))
    if workers == 1:
        tally = race_some(args.track, args.ruleset, laps, args.seed, list(range(args.races)),
                          args.engine)
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(race_some, args.track, args.ruleset, laps, args.seed, share,
                                   args.engine)
                       for share in _shares(args.races, workers)]
            for future in futures:
                tally.add(future.result())
    wall = time.perf_counter() - started
    decided = tally.races - tally.no_winner
    low, high = wilson(tally.par_wins, decided) if decided else (math.nan, math.nan)
    share = tally.par_wins / decided if decided else math.nan
    print(f"  par side's win share: {share:.1%} of {decided} races with a winner "
          f"(95% interval {low:.1%} to {high:.1%}); {tally.no_winner} without a winner")
    for side, name in enumerate(SIDES):
        placed = tally.classified[side]
        mean = tally.places[side] / placed if placed else math.nan
        print(f"  {name}: mean finishing place {mean:.2f} over {placed} classified cars, "
              f"{tally.out[side]} not classified")
    if tally.decisions:
        print(f"  par drivers: {tally.decisions:,} decisions, {tally.fallbacks:,} taken by the "
              f"strong driver ({tally.fallbacks / tally.decisions:.2%})")
    if tally.timed > 0:
        print(f"  {tally.seconds / tally.timed:.3f} CPU s a race (solves left out); "
              f"{wall:.0f} s wall in all, {workers} process{'es' if workers > 1 else ''}")


if __name__ == "__main__":
    main()
