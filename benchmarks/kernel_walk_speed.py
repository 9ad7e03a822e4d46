"""How fast the compiled move walk runs, and how long it takes to compile.

Prints, for Monaco (10 cars, 2 laps, no assertions):

(a) the compiled time of one :func:`~trackformat.sim.kernel.moves.legal_move_rows` call asking
    every face of a gear die, per gear, over positions sampled from races of cautious drivers
    (the calls run in a compiled loop, so the time is the kernel's, not Python's);
(b) races per second of random drivers in the kernel, and of cautious ones where the kernel
    races them (:class:`~trackformat.sim.kernel.race.KernelRacer`, counting corners and spaces
    as test drives do), CPU time;
(c) the CPU time of compiling the move walk and its pricing from an empty cache (in a fresh
    process with its own temporary ``NUMBA_CACHE_DIR``);
(d) with ``--whole-kernel``, the CPU time of the first race of each driver the kernel races
    (random, cautious), in a fresh process with an empty cache: the whole kernel compiled, and
    one race each.

The machine's speed drifts: to compare two versions of the kernel, run this script from both
checkouts back to back, twice. The moves found are summed into a check figure that two versions
giving the same moves print alike.

    python benchmarks/kernel_walk_speed.py
    python benchmarks/kernel_walk_speed.py --positions 400 --races 200 --whole-kernel
    python benchmarks/kernel_walk_speed.py --skip-compile
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from trackformat.io import load_track  # noqa: E402
from trackformat.rules import Ruleset, load_ruleset  # noqa: E402
from trackformat.sim import DRIVERS, Board, CarStatus, RaceState, run_race  # noqa: E402
from trackformat.sim.kernel.jit import numba  # noqa: E402
from trackformat.sim.kernel.moves import _setting, blocking_table, legal_move_rows  # noqa: E402
from trackformat.sim.move.gears import GearOption  # noqa: E402
from trackformat.sim.move.routes import may_enter_pit  # noqa: E402
from trackformat.sim.move.value import Move  # noqa: E402

Ints = npt.NDArray[np.int64]

(S_ROLLS, S_MAY_PIT, S_BOX, S_BRAKES, S_TYRES, S_SPUN) = range(6)
"""Columns of a call's numbers (the rolls asked, then what the car brings)."""


class Recorder:
    """A driver that plays as ``inner`` does and keeps every position it is asked to move in."""

    def __init__(self, inner: object, kept: list[tuple[RaceState, int]]) -> None:
        self.inner = inner
        self.kept = kept

    def start_race(self, seed: int, car: int) -> None:
        self.inner.start_race(seed, car)  # type: ignore[attr-defined]

    def choose_gear(self, state: RaceState, car: int,
                    options: Sequence[GearOption]) -> GearOption:
        answer: GearOption = self.inner.choose_gear(state, car, options)  # type: ignore[attr-defined]
        return answer

    def choose_move(self, state: RaceState, car: int, roll: int,
                    moves: Sequence[Move]) -> Move:
        self.kept.append((state, car))
        answer: Move = self.inner.choose_move(state, car, roll, moves)  # type: ignore[attr-defined]
        return answer

    def choose_slipstream(self, state: RaceState, car: int, move: Move,
                          options: Sequence[Move]) -> Move | None:
        answer: Move | None = self.inner.choose_slipstream(  # type: ignore[attr-defined]
            state, car, move, options)
        return answer


def positions(board: Board, rules: Ruleset, wanted: int, cars: int,
              laps: int) -> list[tuple[RaceState, int]]:
    """``wanted`` positions spread evenly over races of cautious drivers (car to move given)."""
    kept: list[tuple[RaceState, int]] = []
    seed = 0
    while len(kept) < 4 * wanted and seed < 50:
        drivers = [Recorder(DRIVERS["cautious"](seed * 100 + car), kept) for car in range(cars)]
        run_race(board, rules, drivers, seed, laps=laps)
        seed += 1
    step = max(len(kept) // wanted, 1)
    return kept[::step][:wanted]


def calls(board: Board, rules: Ruleset,
          sampled: list[tuple[RaceState, int]]) -> tuple[Ints, Ints, Ints, Ints, Ints, Ints]:
    """The arguments of one call per position and gear, stacked: origins, occupied, debris,
    cars and debris by lane, their counts, and the numbers (``S_*`` columns then the rolls)."""
    gears = len(rules.dice.gears)
    width = max(len(f) for f in rules.dice.gears)
    rows = len(sampled) * gears
    spaces = len(board.kind)
    lanes = 1 + max(board.lane.values(), default=0)
    origins = np.zeros((rows, 0), np.int64)
    occupied = np.zeros((rows, spaces), np.int64)
    debris = np.zeros((rows, spaces), np.int64)
    passable = np.full((rows, lanes, cars_and_debris(sampled)), -1, np.int64)
    counts = np.zeros((rows, lanes), np.int64)
    numbers = np.zeros((rows, S_SPUN + 1 + width), np.int64)
    for p, (state, car) in enumerate(sampled):
        arrays, origin, occ, deb, pas, cnt = _setting(state, car)
        current = state.cars[car]
        if origins.shape[1] == 0:
            origins = np.zeros((rows, len(origin)), np.int64)
        for gear, faces in enumerate(rules.dice.gears):
            r = p * gears + gear
            origins[r] = origin
            occupied[r], debris[r] = occ, deb
            passable[r, : pas.shape[0], : pas.shape[1]] = pas
            counts[r, : len(cnt)] = cnt
            numbers[r, S_ROLLS] = len(faces)
            numbers[r, S_MAY_PIT] = may_enter_pit(state, current)
            numbers[r, S_BOX] = arrays.number[current.box] if current.box is not None else -1
            numbers[r, S_BRAKES], numbers[r, S_TYRES] = current.wear.brakes, current.wear.tyres
            numbers[r, S_SPUN] = current.status == CarStatus.SPUN
            numbers[r, S_SPUN + 1: S_SPUN + 1 + len(faces)] = sorted(faces)
    return origins, occupied, debris, passable, counts, numbers


def cars_and_debris(sampled: list[tuple[RaceState, int]]) -> int:
    """The most cars and debris any position has (the width of the lanes' tables)."""
    return max(len(state.cars) + len(state.debris) for state, _ in sampled) + 1


@numba.njit
def _all_calls(board: tuple[Ints, Ints, Ints, Ints, Ints, Ints, Ints, Ints, Ints, Ints],
               origins: Ints, occupied: Ints, debris: Ints, passable: Ints, counts: Ints,
               numbers: Ints, rules: Ints, block_brakes: Ints, block_tyres: Ints,
               first: int, stop: int, step: int, check_moves: bool) -> tuple[int, int]:
    """Every ``step``-th call from ``first``: the moves found and, when ``check_moves``, a
    check figure of them (0 otherwise: the timed runs leave it out)."""
    (track_next, pit_next, pit_entry, lane, lane_index, lane_length, corner, corner_stops,
     in_pit, is_box) = board
    found, check = 0, 0
    for r in range(first, stop, step):
        rolls = numbers[r, S_SPUN + 1: S_SPUN + 1 + numbers[r, S_ROLLS]].copy()
        rows = legal_move_rows(
            track_next, pit_next, pit_entry, lane, lane_index, lane_length, corner,
            corner_stops, in_pit, is_box, origins[r], occupied[r], debris[r], passable[r],
            counts[r], rolls, numbers[r, S_MAY_PIT] == 1, numbers[r, S_BOX], rules[0],
            numbers[r, S_BRAKES], numbers[r, S_TYRES], numbers[r, S_SPUN] == 1, rules[1],
            rules[2], rules[3], rules[4], rules[5], block_brakes, block_tyres)
        found += len(rows)
        if not check_moves:
            continue
        for i in range(len(rows)):
            for j in range(rows.shape[1]):
                check = (check * 31 + rows[i, j] + 7) % 1000000007
    return found, check


def walk_speed(board: Board, rules: Ruleset, sampled: list[tuple[RaceState, int]],
               repeat: int) -> None:
    """(a): microseconds per call, by gear, in compiled code."""
    from trackformat.sim.kernel.moves import board_arrays

    arrays = board_arrays(board)
    table = (arrays.track_next, arrays.pit_next, arrays.pit_entry, arrays.lane,
             arrays.lane_index, arrays.lane_length, arrays.corner, arrays.corner_stops,
             arrays.in_pit, arrays.is_box)
    origins, occupied, debris, passable, counts, numbers = calls(board, rules, sampled)
    block_brakes, block_tyres, block_from = blocking_table(rules)
    numbers_of_rules = np.array([rules.movement.max_lane_changes_on_straight,
                                 rules.movement.brakes_per_space, rules.corners.tyres_per_space,
                                 rules.corners.eliminated_missing,
                                 rules.spin_out.respin_max_spaces, block_from], np.int64)
    gears = len(rules.dice.gears)
    everything = (table, origins, occupied, debris, passable, counts, numbers, numbers_of_rules,
                  block_brakes, block_tyres)
    _all_calls(*everything, 0, 1, 1, False)  # compiled (or loaded) before the clock starts
    print(f"(a) legal_move_rows, every face of a gear, {len(sampled)} positions, "
          f"compiled loop, CPU time (best of {repeat})")
    print(f"    {'gear':<6}{'faces':>6}{'us/call':>10}{'moves/call':>12}{'check':>12}")
    total_spent, total_calls, total_check = 0.0, 0, 0
    for gear in range(gears):
        spent = float("inf")
        for _ in range(repeat):
            start = time.process_time()
            _all_calls(*everything, gear, len(numbers), gears, False)
            spent = min(spent, time.process_time() - start)
        found, check = _all_calls(*everything, gear, len(numbers), gears, True)
        per_call = 1e6 * spent / len(sampled)
        total_spent += spent
        total_calls += len(sampled)
        total_check = (total_check * 31 + check) % 1000000007
        print(f"    {gear + 1:<6}{len(rules.dice.gears[gear]):>6}{per_call:>10.1f}"
              f"{found / len(sampled):>12.1f}{check:>12}")
    print(f"    {'all':<6}{'':>6}{1e6 * total_spent / total_calls:>10.1f}{'':>12}"
          f"{total_check:>12}")


def race_speed(board: Board, rules: Ruleset, races: int, cars: int, laps: int) -> None:
    """(b): races per second in the kernel, per driver it races."""
    from trackformat.sim.kernel import race as kernel_race

    for bot in ("random", "cautious"):
        if bot not in getattr(kernel_race, "KERNEL_DRIVERS", {"random"}):
            continue
        play = racer(board, rules, bot, cars, laps)
        for seed in range(10_000, 10_003):
            play(seed)
        wanted = races if bot == "random" else max(races // 10, 3)
        start = time.process_time()
        for seed in range(wanted):
            play(seed)
        spent = time.process_time() - start
        print(f"(b) {bot} drivers in the kernel: {wanted} races, CPU time, "
              f"{wanted / spent:.1f} races/s, {1000 * spent / wanted:.2f} ms/race")


def racer(board: Board, rules: Ruleset, bot: str, cars: int,
          laps: int) -> Callable[[int], object]:
    """A function racing one race of ``bot`` drivers by seed, as test drives race them (by the
    kernel's first interface, whole races of random drivers, where that is all it has)."""
    from trackformat.sim.kernel import race as kernel_race

    if hasattr(kernel_race, "KernelRacer"):
        kernel = kernel_race.KernelRacer(board, rules, [bot] * cars, laps)
        corners, spaces = kernel.count_tables()
        return lambda seed: kernel.count(seed, corners, spaces)
    return lambda seed: kernel_race.kernel_random_race(  # type: ignore[attr-defined]
        board, rules, cars, seed, laps, [seed * 100 + car for car in range(cars)])


COLD_WALK = """
import time
import numpy as np
from trackformat.sim.kernel import moves as km, price as kp, route_rows as kw
start = time.process_time()
ints = np.int64
none = np.full((2, 1), -1, ints)
zeros = np.zeros(2, ints)
origin = np.zeros(kw.ROUTE_COLUMNS, ints)
origin[kw.R_PATH:] = -1
origin[kw.R_LOCK] = -1
origin[kw.R_CORNER] = -1
# A car on a straight of two spaces, with the argument types of a real board.
km.legal_move_rows(
    np.array([[1], [-1]], ints), none, none, zeros, np.array([0, 1], ints), np.array([2], ints),
    np.full(2, -1, ints), np.zeros(1, ints), zeros, zeros, origin, zeros, zeros,
    np.full((1, 1), -1, ints), np.zeros(1, ints), np.array([1], ints), False, -1, 2, 3, 6,
    False, 1, 1, 2, 1, 7, np.zeros(7, ints), np.zeros(7, ints))
move = np.full(kp.MOVE_COLUMNS, -1, ints)
move[kp.M_ROLL] = move[kp.M_DISTANCE] = 1
move[kp.M_DEST] = move[kp.M_ROUTE] = 1
move[kp.M_SLIPSTREAM] = move[kp.M_ENTRIES] = 0
km.slipstream_rows(
    np.array([[1], [-1]], ints), none, none, zeros, np.array([0, 1], ints), np.array([2], ints),
    np.full(2, -1, ints), np.zeros(1, ints), zeros, zeros, origin, zeros, zeros,
    np.full((1, 1), -1, ints), np.zeros(1, ints), move, 2, np.zeros((1, 2), ints), 1, 1, False,
    -1, 2, 3, 6, False, 1, 1, 2, 1, 7, np.zeros(7, ints), np.zeros(7, ints))
print(time.process_time() - start)
"""

COLD_RACE = """
import time
import sys
sys.path.insert(0, {root!r})
from benchmarks.kernel_walk_speed import racer
from trackformat.io import load_track
from trackformat.rules import load_ruleset
from trackformat.sim import Board
from trackformat.sim.kernel import race
board = Board.of(load_track({track!r}))
rules = load_ruleset("formula-d")
raced = getattr(race, "KERNEL_DRIVERS", {{"random"}}) & {{"random", "cautious"}}
plays = [racer(board, rules, bot, 10, 2) for bot in sorted(raced)]
start = time.process_time()
for play in plays:
    play(1)
print(time.process_time() - start)
"""


def cold(script: str) -> float:
    """CPU seconds the timed part of ``script`` took in a fresh process with an empty cache."""
    with tempfile.TemporaryDirectory() as folder:
        env = dict(os.environ, NUMBA_CACHE_DIR=folder, PYTHONPATH=str(ROOT))
        done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                              text=True, check=True)
    return float(done.stdout.split()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=5,
                        help="times each gear's calls are timed (the best counts)")
    parser.add_argument("--races", type=int, default=100)
    parser.add_argument("--cars", type=int, default=10)
    parser.add_argument("--laps", type=int, default=2)
    parser.add_argument("--rules", default="formula-d")
    parser.add_argument("--skip-compile", action="store_true",
                        help="leave out (c): the cold compile of the walk")
    parser.add_argument("--whole-kernel", action="store_true",
                        help="add (d): the cold compile of the whole kernel (a minute or so)")
    args = parser.parse_args(argv)
    track = ROOT / "tracks" / "monaco.json"
    board = Board.of(load_track(track))
    rules = load_ruleset(args.rules)
    print(f"Monaco, {args.cars} cars, {args.laps} laps, rules {args.rules}, one core")
    sampled = positions(board, rules, args.positions, args.cars, args.laps)
    walk_speed(board, rules, sampled, args.repeat)
    race_speed(board, rules, args.races, args.cars, args.laps)
    if not args.skip_compile:
        print(f"(c) cold compile of the walk and its pricing: {cold(COLD_WALK):.1f} s CPU")
    if args.whole_kernel:
        seconds = cold(COLD_RACE.format(root=str(ROOT), track=str(track)))
        print(f"(d) first race of each driver with an empty cache (the whole kernel compiled): "
              f"{seconds:.1f} s CPU")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
