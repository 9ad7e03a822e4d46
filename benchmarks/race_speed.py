"""How fast the race engine plays: races per second and milliseconds per car-turn, per driver.

Prints a table, no assertions: run it before and after touching the engine or a driver. The
issue's yardstick is 10 cars, 2 laps of Monaco, one core: 200 races/s with the random driver and
20 races/s with the strong one. Times are CPU time of this process (``time.process_time``), so a
busy machine disturbs them less than wall-clock time would; the first races on a board also fill
its caches, so a few warm-up races are played and not counted. ``run_race`` rests Python's cycle
collector during a race (as test drives do for a chunk of races), so the figures are those of a
test drive.

    python benchmarks/race_speed.py                 # random, cautious, strong on Monaco
    python benchmarks/race_speed.py --races 50 --drivers strong --warmup 5
    python benchmarks/race_speed.py --track ring    # the test ring instead
    python benchmarks/race_speed.py --rules formule-de-basic --drivers random   # both engines

Each driver's row is followed by the compiled kernel's where the kernel races that driver yet
(see ``KERNEL_DRIVERS``), the same races by seed (``--kernel-races`` races more of them).

The track is ``tracks/monaco.json``; when it is missing, Monaco is built in memory with
``tools/build_monaco.py``, and failing that the factory ring of the tests stands in. The table
says which one was used.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from trackformat.collector import collection_deferred  # noqa: E402
from trackformat.io import load_track  # noqa: E402
from trackformat.model import Track  # noqa: E402
from trackformat.rules import load_ruleset  # noqa: E402
from trackformat.sim import DRIVERS, Board, events, run_race  # noqa: E402


def monaco() -> tuple[Track, str]:
    """Monaco from its file, else built in memory, else the ring; with a word on which."""
    path = ROOT / "tracks" / "monaco.json"
    if path.exists():
        return load_track(path), "Monaco (tracks/monaco.json)"
    try:
        sys.path.insert(0, str(ROOT / "tools"))
        import build_monaco  # type: ignore[import-not-found]

        track: Track = build_monaco.build_monaco()
        return track, "Monaco (built in memory by tools/build_monaco.py)"
    except Exception as error:  # any failure falls back to the ring
        print(f"could not build Monaco ({error}); using the ring", file=sys.stderr)
        return ring(), "the factory ring (Monaco not available)"


def ring() -> Track:
    from tests.factories import ring as factory_ring

    return factory_ring(lanes=3, per_lane=160)


def measure(board: Board, driver: str, races: int, cars: int, laps: int, warmup: int,
            rules_name: str) -> tuple[float, float, float, float]:
    """(races/s, ms per car-turn, mean game turns, finishers per race) over ``races`` races."""
    rules = load_ruleset(rules_name)
    make = DRIVERS[driver]
    for seed in range(10_000, 10_000 + warmup):
        run_race(board, rules, [make(seed * 100 + car) for car in range(cars)], seed, laps=laps)
    spent = 0.0
    car_turns = 0
    turns = []
    finishers = 0
    for seed in range(races):
        drivers = [make(seed * 100 + car) for car in range(cars)]
        start = time.process_time()
        result = run_race(board, rules, drivers, seed, laps=laps)
        spent += time.process_time() - start
        car_turns += sum(isinstance(e, events.Moved) for e in result.events)
        turns.append(result.turns)
        finishers += len(result.finish_order)
    return (races / spent, 1000.0 * spent / max(car_turns, 1), statistics.mean(turns),
            finishers / races)


def kernel_can_race(driver: str) -> bool:
    """Whether the compiled kernel races this driver yet."""
    from trackformat.sim.kernel.race import KERNEL_DRIVERS

    return driver in KERNEL_DRIVERS


def measure_kernel(board: Board, driver: str, races: int, cars: int, laps: int, warmup: int,
                   rules_name: str) -> tuple[float, float, float, float]:
    """The same figures as :func:`measure`, for the same races, in the compiled kernel, raced
    as a test drive races them: counted in compiled code, their events not read back, Python's
    cycle collector resting for the batch."""
    from trackformat.sim.kernel.race import KernelRacer

    rules = load_ruleset(rules_name)
    racer = KernelRacer(board, rules, [driver] * cars, laps)
    for seed in range(10_000, 10_000 + max(warmup, 1)):  # compiles, or loads from the cache
        racer.race(seed, [seed * 100 + car for car in range(cars)])
        racer.count(seed, *racer.count_tables())  # the counting too, before the clock starts
    corners, spaces = racer.count_tables()
    spent = 0.0
    turns = []
    finishers = 0
    with collection_deferred():  # as a test drive races a chunk
        for seed in range(races):
            start = time.process_time()
            result = racer.count(seed, corners, spaces,
                                 [seed * 100 + car for car in range(cars)])
            spent += time.process_time() - start
            turns.append(result.turns)
            finishers += len(result.finish_order)
    car_turns = int(spaces[:, 0].sum())  # every move ends on a space: the moves made
    return races / spent, spent * 1000 / max(car_turns, 1), statistics.mean(turns), (
        finishers / races)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--drivers", nargs="+", default=["random", "cautious", "strong"],
                        choices=sorted(DRIVERS))
    parser.add_argument("--races", type=int, default=0,
                        help="races per driver (default: 100 random, 10 for the others)")
    parser.add_argument("--kernel-races", type=int, default=0,
                        help="races per driver in the kernel (default: as many as the reference)")
    parser.add_argument("--cars", type=int, default=10)
    parser.add_argument("--laps", type=int, default=2)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--rules", default="formula-d")
    parser.add_argument("--track", choices=["monaco", "ring"], default="monaco")
    args = parser.parse_args(argv)
    track, name = monaco() if args.track == "monaco" else (ring(), "the factory ring")
    start = time.process_time()
    board = Board.of(track)
    built = time.process_time() - start
    print(f"track: {name}; board built in {built * 1000:.0f} ms")
    print(f"{args.cars} cars, {args.laps} laps, rules {args.rules}, one core (CPU time)")
    print(f"{'driver':<10}{'engine':<11}{'races':>7}{'races/s':>10}{'ms/car-turn':>13}"
          f"{'turns':>8}{'finishers':>11}")
    for driver in args.drivers:
        races = args.races or (100 if driver == "random" else 10)
        rate, per_turn, turns, finished = measure(board, driver, races, args.cars, args.laps,
                                                  args.warmup, args.rules)
        print(f"{driver:<10}{'reference':<11}{races:>7}{rate:>10.1f}{per_turn:>13.3f}"
              f"{turns:>8.1f}{finished:>11.1f}")
        if kernel_can_race(driver):
            many = args.kernel_races or races
            fast, per_turn, turns, finished = measure_kernel(
                board, driver, many, args.cars, args.laps, args.warmup, args.rules)
            print(f"{'':<10}{'kernel':<11}{many:>7}{fast:>10.1f}{per_turn:>13.3f}{turns:>8.1f}"
                  f"{finished:>11.1f}   ({fast / rate:.1f} times the reference)")
        else:
            print(f"{'':<10}{'kernel':<11}  not yet")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
