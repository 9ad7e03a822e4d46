"""The cars as a table of ints, and the choices before a move: the gears a car may take and the
order the cars play in, as compiled code.

A car is a row of :data:`CAR_COLUMNS` ints (the ``C_*`` columns): its space number, gear, the
six wear categories in the car sheet's order, lap, box, corner and stops, status, the pit
stop's state, its arrival number, its place (-1: none yet), why it is out (0: it is not), and
the six categories' starting WP (a built car's own).
The same readings as :func:`~trackformat.sim.move.gears.gear_options` and
:func:`~trackformat.sim.race.grid.turn_order`.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from trackformat.rules import WEAR_CATEGORIES, Ruleset, TieBreak
from trackformat.sim.core.state import CarStatus, Cause, RaceState
from trackformat.sim.kernel.arrays import BoardArrays
from trackformat.sim.kernel.jit import compiled, copy_into, from_python

Ints = npt.NDArray[np.int64]

(C_SPACE, C_GEAR, C_TYRES, C_BRAKES, C_GEARBOX, C_BODY, C_ENGINE, C_SUSPENSION, C_LAP, C_BOX,
 C_CORNER, C_STOPS, C_STATUS, C_STARTED, C_PIT_STOPS, C_PIT_WAIT, C_PIT_EXIT, C_ARRIVAL,
 C_PLACE, C_CAUSE, C_START) = range(21)
CAR_COLUMNS = C_START + 6
C_WEAR = C_TYRES
"""The first of the six wear columns."""
C_START_TYRES = C_START
"""The first of the six columns of the car's starting WP (its build's, or the ruleset's), in
the car sheet's order: what a pit stop refills to and the team race's repairs mend up to."""

STATUS = {CarStatus.RACING: 0, CarStatus.SPUN: 1, CarStatus.FINISHED: 2,
          CarStatus.ELIMINATED: 3}
"""Status codes; racing and spun cars (0 and 1) are on the board."""
RACING, SPUN, FINISHED, ELIMINATED = 0, 1, 2, 3

CAUSES = (None, Cause.MISSED_STOPS, Cause.OVERSHOOT, Cause.SPIN, Cause.BLOCKED, Cause.BODY,
          Cause.ENGINE, Cause.SUSPENSION, Cause.SHIFT, Cause.TURN_LIMIT)
"""Cause codes (the C_CAUSE column; 0: none); the first four are the move's own."""
BY_BODY, BY_ENGINE, BY_SUSPENSION = 5, 6, 7

O_GEAR, O_COST, O_ELIMINATES = 0, 1, 7
OPTION_COLUMNS = 8
"""A gear option: the gear, its cost in the six wear categories, whether it eliminates."""

(S_MAX_UP, S_MAX_DOWN, S_MAX_DOWN_WITHOUT_GEARBOX, S_GEARS, S_RESTART_GEAR,
 S_SLOW_MAX_GEAR) = range(6)
SHIFTING_COLUMNS = 6


def car_rows(state: RaceState, board: BoardArrays) -> Ints:
    """The cars of ``state`` as a table (one row per car, in car order)."""
    rows = np.zeros((len(state.cars), CAR_COLUMNS), np.int64)
    for car in state.cars:
        row = rows[car.index]
        row[C_SPACE] = board.number[car.space]
        row[C_GEAR] = car.gear
        for n, category in enumerate(WEAR_CATEGORIES):
            row[C_WEAR + n] = getattr(car.wear, category)
        row[C_LAP] = car.lap
        row[C_BOX] = board.number[car.box] if car.box is not None else -1
        row[C_CORNER] = (board.corner_names.index(car.corner)
                         if car.corner in board.corner_names else -1)
        row[C_STOPS] = car.stops
        row[C_STATUS] = STATUS[car.status]
        row[C_STARTED] = car.started
        row[C_PIT_STOPS] = car.pit_stops
        row[C_PIT_WAIT] = car.pit_wait
        row[C_PIT_EXIT] = car.pit_exit
        row[C_ARRIVAL] = car.arrival
        row[C_PLACE] = car.place if car.place is not None else -1
        row[C_CAUSE] = CAUSES.index(car.cause)
        start = state.starting_wear(car.index)
        for n, category in enumerate(WEAR_CATEGORIES):
            row[C_START + n] = getattr(start, category)
    return rows


def shifting(rules: Ruleset) -> tuple[Ints, Ints]:
    """The shifting numbers of ``rules`` (``S_*``), and the cost of each downshift by the gears
    dropped (a row of six wear categories per drop, from 0)."""
    numbers = np.zeros(SHIFTING_COLUMNS, np.int64)
    numbers[S_MAX_UP] = rules.shifting.max_up
    numbers[S_MAX_DOWN] = rules.shifting.max_down
    numbers[S_MAX_DOWN_WITHOUT_GEARBOX] = rules.shifting.max_down_without_gearbox
    numbers[S_GEARS] = len(rules.dice.gears)
    numbers[S_RESTART_GEAR] = rules.spin_out.restart_gear
    numbers[S_SLOW_MAX_GEAR] = rules.pits.slow_max_gear
    costs = np.zeros((len(rules.dice.gears) + 1, 6), np.int64)
    for drop in range(2, len(rules.dice.gears) + 1):
        cost = rules.shifting.downshift_cost(drop)
        costs[drop] = [getattr(cost, category) for category in WEAR_CATEGORIES]
    return numbers, costs


@compiled
def gear_option_rows(car: Ints, in_pit_space: bool, numbers: Ints, costs: Ints) -> Ints:
    """The gears a car may take this turn, lowest first (``O_*`` columns)."""
    options = np.zeros((numbers[S_GEARS] + 1, OPTION_COLUMNS), np.int64)
    if car[C_STATUS] == 1:
        options[0, O_GEAR] = numbers[S_RESTART_GEAR]
        return options[:1]
    if car[C_GEAR] == 0:
        options[0, O_GEAR] = 1
        return options[:1]
    top = min(car[C_GEAR] + numbers[S_MAX_UP], numbers[S_GEARS])
    count = 0
    if car[C_PIT_WAIT]:
        for gear in range(1, numbers[S_SLOW_MAX_GEAR] + 1):
            options[count, O_GEAR] = gear
            count += 1
        return options[:count]
    for gear in range(1, top + 1):
        drop = car[C_GEAR] - gear
        if drop > numbers[S_MAX_DOWN]:
            continue
        if car[C_GEARBOX] == 0 and drop > numbers[S_MAX_DOWN_WITHOUT_GEARBOX]:
            continue
        if in_pit_space:
            # The pit lane waives the cost of shifting down, not its limits.
            options[count, O_GEAR] = gear
            count += 1
            continue
        covered = True
        if drop >= 2:
            for k in range(6):
                if car[C_WEAR + k] < costs[drop, k]:
                    covered = False
        if not covered:
            continue
        options[count, O_GEAR] = gear
        if drop >= 2:
            copy_into(options[count, O_COST:O_COST + 6], costs[drop])
            engine = costs[drop, C_ENGINE - C_WEAR]
            options[count, O_ELIMINATES] = 1 if engine > 0 and car[C_ENGINE] == engine else 0
        count += 1
    return options[:count]


@compiled
def turn_order(cars: Ints, in_pit: Ints, progress: Ints, inside: Ints, pit_half: Ints,
               pit_entry_rank: int, tie_inside: bool) -> Ints:
    """The cars on the board in the order they play this game turn (car numbers)."""
    keys = np.zeros((len(cars), 7), np.int64)
    playing = np.zeros(len(cars), np.int64)
    count = 0
    for index in range(len(cars)):
        car = cars[index]
        if car[C_STATUS] > 1:
            continue
        space = car[C_SPACE]
        key = keys[count]
        key[0] = car[C_LAP]
        if in_pit[space]:
            key[1], key[2], key[3], key[4], key[5] = pit_entry_rank, 0, pit_half[space], 0, 0
        else:
            key[1], key[2], key[3] = progress[space], 1, car[C_GEAR]
            if tie_inside:
                key[4], key[5] = -inside[space], -car[C_ARRIVAL]
            else:
                key[4], key[5] = -car[C_ARRIVAL], -inside[space]
        key[6] = -index
        playing[count] = index
        count += 1
    # Furthest first: insertion sort by key, largest first (ten cars at most).
    order = np.arange(count)
    for i in range(1, count):
        j = i
        while j > 0 and key_above(keys[order[j]], keys[order[j - 1]]):
            order[j], order[j - 1] = order[j - 1], order[j]
            j -= 1
    return playing[order]


@compiled
def key_above(a: Ints, b: Ints) -> bool:
    """Whether key ``a`` ranks strictly above ``b``, column by column (as Python compares
    tuples): the order of play and the cautious driver's choice of move both rank by one."""
    for k in range(len(a)):
        if a[k] != b[k]:
            return bool(a[k] > b[k])
    return False


def kernel_gear_options(state: RaceState, car: int,
                        board: BoardArrays) -> list[tuple[int, tuple[int, ...], bool]]:
    """The kernel's gear options of ``car`` as (gear, cost in the six categories, eliminates)."""
    numbers, costs = shifting(state.rules)
    row = car_rows(state, board)[car]
    options = from_python(gear_option_rows)(row, bool(board.in_pit[row[C_SPACE]]), numbers, costs)
    return [(int(o[O_GEAR]), tuple(int(c) for c in o[O_COST:O_COST + 6]),
             bool(o[O_ELIMINATES])) for o in options]


def kernel_turn_order(state: RaceState, board: BoardArrays) -> tuple[int, ...]:
    """The kernel's order of play for ``state``."""
    return tuple(int(c) for c in from_python(turn_order)(
        car_rows(state, board), board.in_pit, board.progress, board.inside, board.pit_half,
        board.pit_entry_rank, state.rules.tie_break == TieBreak.INSIDE))
