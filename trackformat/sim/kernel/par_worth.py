"""Par's values as the compiled par driver reads them, and what a move is worth to it:
``Solution.value_of`` and ``gear_of``, and ``MoveWorth`` of :mod:`trackformat.par.driver`, on the
kernel's car rows (see :mod:`~trackformat.sim.kernel.par`, which makes the choices).

A move's worth is found as the readable driver finds it: the kernel's own
:func:`~trackformat.sim.kernel.resolve.play_move` plays it on a copy of the race, with a black
die that shows one face (the rules' table of the black die swapped for one of that face alone),
and what it rolled for is read back from a log of its own.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from trackformat.sim.kernel import cars as kc
from trackformat.sim.kernel import price as kp
from trackformat.sim.kernel import resolve as kr
from trackformat.sim.kernel.game import AHEAD, CONTACTS, CORNER, CROSSING, IN_PIT, NUMBERS, TRIGGERS
from trackformat.sim.kernel.jit import compiled, copy_into
from trackformat.sim.kernel.log import (
    E_COLLISION_ROLL,
    E_DEBRIS_ROLL,
    E_ENGINE_ROLL,
    L_ARGS,
    L_CAR,
    L_KIND,
    L_USED,
    NO_ROLL,
)
from trackformat.sim.kernel.strong_tables import (
    S_BODY_TURNS,
    S_CONTACT,
    S_DEBRIS,
    S_DNF,
    S_SUSPENSION_TURNS,
)

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]

(P_NUMBERS, P_INDEX, P_VALUES, P_CHOICES, P_FREE, P_CONTEXT, P_GEARS, P_SOLUTION, P_STARTS,
 P_POLES, P_NEEDED, P_CORNER, P_TOPS, P_BLACK, P_CARS, P_RACE, P_DEBRIS, P_LOG, P_CURSOR,
 P_DICE, P_ROLLS, P_COUNTS) = range(22)
"""The parts of the par driver's tables (see :func:`trackformat.par.kernel_tables.par_tables`):

- ``numbers``: :data:`N_ENGINE_LOSS`, :data:`N_SLOW`, :data:`N_QUICK`, :data:`N_PRICED`;
- ``index``: by solution, space, lap, stops, spun, pit stops and kind, the place (-1: none);
- ``values``, ``choices``: par's values and gear choices, every solution's places end to end;
- ``free``, ``context``: per place, whether the gear is free there, and its gear context (each
  solution's counted from its own in ``gears``);
- ``gears``: the gear of each option, by context, gear slot, WP and option;
- ``solution``: per car, the number of its solution (-1: not a par driver);
- ``starts``, ``poles``: per solution, par from pole and the pole's space;
- ``needed``, ``corner``: per space, the stops its corner asks and the corner (as par reads
  the car's stops);
- ``tops``: the car's starting WP in the modelled categories;
- ``black``: the rules' tables with a black die of one face: quiet, slow stop, quick stop;
- the rest: a copy of the race to play moves on, its log and dice, each car's gear roll this
  turn, and each car's count of decisions and of fallbacks to the strong driver."""

N_ENGINE_LOSS, N_SLOW, N_QUICK, N_PRICED = range(4)
FACE_QUIET, FACE_SLOW, FACE_QUICK = range(3)
KIND_TURN, KIND_WAIT, KIND_EXIT = range(3)
COUNT_DECISIONS, COUNT_FALLBACKS = range(2)

ParTables = tuple[Any, ...]

NOT_SOLVED = np.nan
"""The worth of a move that leads where par has not solved (the readable driver's None)."""


# Values ---------------------------------------------------------------------------------------


@compiled
def _place(par: ParTables, car: Ints, solution: int) -> int:
    """``Solution._place``: the place of a started car, racing or spun; -1 if par has none."""
    index, needed, corner = par[P_INDEX], par[P_NEEDED], par[P_CORNER]
    space = car[kc.C_SPACE]
    stops = min(car[kc.C_STOPS], needed[space])
    if car[kc.C_CORNER] != corner[space]:
        stops = 0
    kind = KIND_WAIT if car[kc.C_PIT_WAIT] else KIND_EXIT if car[kc.C_PIT_EXIT] else KIND_TURN
    lap, pits, spun = car[kc.C_LAP], car[kc.C_PIT_STOPS], int(car[kc.C_STATUS] == kc.SPUN)
    if not (0 <= lap < index.shape[2] and 0 <= stops < index.shape[3]
            and 0 <= pits < index.shape[5]):
        return -1
    return int(index[solution, space, lap, stops, spun, pits, kind])


@compiled
def value_of(par: ParTables, car: Ints, solution: int) -> float:
    """``Solution.value_of``: the expected turns left of ``car`` alone; NaN where par has not
    solved its state."""
    status = car[kc.C_STATUS]
    if status == kc.FINISHED:
        return 0.0
    if status == kc.ELIMINATED:
        return np.inf
    if not car[kc.C_STARTED]:
        if car[kc.C_SPACE] == par[P_POLES][solution]:
            return float(par[P_STARTS][solution])
        return NOT_SOLVED
    place = _place(par, car, solution)
    if place < 0:
        return NOT_SOLVED
    tops = par[P_TOPS]
    tyres, brakes = car[kc.C_TYRES], car[kc.C_BRAKES]
    gearbox, engine = car[kc.C_GEARBOX], car[kc.C_ENGINE]
    if not (0 <= tyres <= tops[0] and 0 <= brakes <= tops[1] and 0 <= gearbox <= tops[2]
            and 0 <= engine <= tops[3]):
        return NOT_SOLVED
    if engine <= 0:
        return np.inf
    slot = 0 if par[P_FREE][place] else car[kc.C_GEAR]
    return float(par[P_VALUES][place, slot, tyres, brakes, gearbox, engine])


@compiled
def gear_of(par: ParTables, car: Ints, solution: int) -> int:
    """``Solution.gear_of``: the gear par's policy takes for ``car`` alone; -1 for none."""
    if np.isnan(value_of(par, car, solution)) or not car[kc.C_STARTED] or car[kc.C_PIT_EXIT]:
        return -1
    place = _place(par, car, solution)
    slot = 0 if par[P_FREE][place] else car[kc.C_GEAR]
    tyres, brakes = car[kc.C_TYRES], car[kc.C_BRAKES]
    gearbox, engine = car[kc.C_GEARBOX], car[kc.C_ENGINE]
    chosen = int(par[P_CHOICES][place, slot, tyres, brakes, gearbox, engine])
    if chosen < 0:
        return -1
    context = par[P_CONTEXT][place]
    return int(par[P_GEARS][context, slot, tyres, brakes, gearbox, engine, chosen, 0])


# A move's worth -------------------------------------------------------------------------------


@compiled
def _played(par: ParTables, face: int, move: Ints, cars: Ints, race: Ints, debris: Ints,
            index: int, die: int, after_gear: int, board: tuple[Ints, ...],
            rules: tuple[Ints, ...], contact: float, debris_worth: float) -> float:
    """``MoveWorth._played``: ``move`` played on a copy of the race with the black die showing
    face ``face`` of :data:`FACE_QUIET` and the others; the worth of where it leads."""
    scratch, scratch_race, scratch_debris = par[P_CARS], par[P_RACE], par[P_DEBRIS]
    log, cursor = par[P_LOG], par[P_CURSOR]
    for k in range(len(cars)):
        copy_into(scratch[k], cars[k])
    copy_into(scratch_race, race)
    copy_into(scratch_debris, debris)
    cursor[:] = 0
    kr.play_move(scratch, scratch_race, scratch_debris, index, move, die, par[P_DICE],
                 board[CORNER], board[IN_PIT], board[AHEAD], board[CROSSING], board[CONTACTS],
                 rules[NUMBERS], par[P_BLACK][face], rules[TRIGGERS], log, cursor)
    moved = scratch[index]
    if after_gear >= 0 and moved[kc.C_STATUS] <= kc.SPUN:
        moved[kc.C_GEAR] = after_gear
    solution = par[P_SOLUTION][index]
    value = value_of(par, moved, solution)
    if np.isnan(value):
        return NOT_SOLVED
    engine_roll = False
    contacts = 0
    rolled_debris = 0
    for row in range(cursor[L_USED]):
        if log[row, L_CAR] != index:
            continue
        kind = log[row, L_KIND]
        if kind == E_ENGINE_ROLL:
            engine_roll = True
        elif kind == E_COLLISION_ROLL and log[row, L_ARGS + 1] != NO_ROLL:
            contacts += 1
        elif kind == E_DEBRIS_ROLL:
            rolled_debris += 1
    loss = par[P_NUMBERS][N_ENGINE_LOSS]
    if loss > 0 and engine_roll:
        value = (1.0 - loss) * value + loss * _lose_engine(par, moved, solution)
    if contacts:
        value += contacts * contact
    if rolled_debris:
        value += rolled_debris * debris_worth
    return value


@compiled
def _lose_engine(par: ParTables, car: Ints, solution: int) -> float:
    """``MoveWorth._lose_engine``: the value of ``car`` one engine WP down (the last one: out,
    even at the flag)."""
    if car[kc.C_ENGINE] <= 1:
        return np.inf
    if car[kc.C_STATUS] == kc.FINISHED:
        return 0.0
    car[kc.C_ENGINE] -= 1
    lower = value_of(par, car, solution)
    car[kc.C_ENGINE] += 1
    return np.inf if np.isnan(lower) else lower


@compiled
def worth(par: ParTables, strong: Any, move: Ints, cars: Ints, race: Ints, debris: Ints,
          index: int, die: int, after_gear: int, board: tuple[Ints, ...],
          rules: tuple[Ints, ...]) -> float:
    """``MoveWorth.worth``: the expected turns left once ``move`` is played by car ``index``
    (``die``: the gear die's roll, -1 for none; ``after_gear``: the gear a super start leaves
    the car in, -1 for none); NaN where it leads where par has not solved."""
    if move[kp.M_ELIMINATED] != kp.NOT_ELIMINATED:
        return np.inf
    numbers = strong[0]
    car = cars[index]
    dnf = numbers[S_DNF]
    contact = numbers[S_CONTACT] * (dnf if car[kc.C_BODY] <= 1 else numbers[S_BODY_TURNS])
    debris_worth = numbers[S_DEBRIS] * (dnf if car[kc.C_SUSPENSION] <= 1
                                        else numbers[S_SUSPENSION_TURNS])
    if not move[kp.M_BOX]:
        return _played(par, FACE_QUIET, move, cars, race, debris, index, die, after_gear,
                       board, rules, contact, debris_worth)
    chances = par[P_NUMBERS]
    value = 0.0
    for chance, face in ((chances[N_SLOW], FACE_SLOW), (chances[N_QUICK], FACE_QUICK)):
        if chance > 0:
            played = _played(par, face, move, cars, race, debris, index, die, after_gear,
                             board, rules, contact, debris_worth)
            if np.isnan(played):
                return NOT_SOLVED
            value += chance * played
    return value


@compiled
def least(par: ParTables, strong: Any, moves: Ints, first: int, last: int, cars: Ints,
           race: Ints, debris: Ints, index: int, die: int, after_gear: int,
           board: tuple[Ints, ...], rules: tuple[Ints, ...]) -> tuple[int, float]:
    """The readable driver's ``_least`` (without ``finite``): the row of the least worth among
    ``moves[first:last]`` (the first on a tie) and its worth; -1 when one leads where par has
    not solved."""
    best, position = np.inf, first
    for m in range(first, last):
        value = worth(par, strong, moves[m], cars, race, debris, index, die, after_gear, board,
                      rules)
        if np.isnan(value):
            return -1, NOT_SOLVED
        if value < best:
            best, position = value, m
    return position, best
