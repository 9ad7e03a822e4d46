"""The par driver in compiled code: :class:`~trackformat.par.driver.ParDriver`'s three choices,
answer for answer.

The readable driver reads par's values (:class:`~trackformat.par.solve.Solution`) of the state
each move leads to; the compiled one reads the same values from the arrays of
:func:`trackformat.par.kernel_tables.par_tables` (every par car's solution laid end to end,
and a dense index from a car's row to its place), and adds and compares the same floats in the
same order:

- :func:`gear`: ``choose_gear``: par's gear when nothing is within reach of the car's moves
  (:func:`_alone`), else each option's expectation over its die of the best move of each face;
  the strong driver's choice where par says nothing.
- :func:`move`: ``choose_move``, the first of the least worth.
- :func:`slipstream`: ``choose_slipstream``, an extra when it is worth less than the move.

A move's worth (``MoveWorth``) is found as the readable driver finds it: the kernel's own
:func:`~trackformat.sim.kernel.resolve.play_move` plays it on a copy of the race, with a black
die that shows one face (the rules' table of the black die swapped for one of that face
alone), and what it rolled for is read back from a log of its own.

The readable driver remembers the best move of each face from its gear choice and plays it
when the runner offers that very list of moves; the kernel looks afresh, as the strong
driver's kernel does: the plan was made on the same car, cars and moves, so the fresh look
finds the same move (the plan keeps only the faces par has a finite value for, and only for a
gear par chose itself, so a fresh look never falls back where the plan would not).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from trackformat.sim.kernel import ask
from trackformat.sim.kernel import cars as kc
from trackformat.sim.kernel import price as kp
from trackformat.sim.kernel import resolve as kr
from trackformat.sim.kernel import strong as kstrong
from trackformat.sim.kernel.game import (
    AHEAD,
    CONTACTS,
    CORNER,
    CROSSING,
    IN_PIT,
    NUMBERS,
    PIT_ENTRY,
    PIT_NEXT,
    TRACK_NEXT,
    TRIGGERS,
)
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
    CHANCE,
    S_BODY_TURNS,
    S_CONTACT,
    S_DEBRIS,
    S_DNF,
    S_SUSPENSION_TURNS,
)
from trackformat.sim.kernel.workspace import Workspace

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
def _least(par: ParTables, strong: Any, moves: Ints, first: int, last: int, cars: Ints,
           race: Ints, debris: Ints, index: int, die: int, after_gear: int,
           board: tuple[Ints, ...], rules: tuple[Ints, ...]) -> tuple[int, float]:
    """``_least`` (without ``finite``): the row of the least worth among ``moves[first:last]``
    (the first on a tie) and its worth; -1 when one leads where par has not solved."""
    best, position = np.inf, first
    for m in range(first, last):
        value = worth(par, strong, moves[m], cars, race, debris, index, die, after_gear, board,
                      rules)
        if np.isnan(value):
            return -1, NOT_SOLVED
        if value < best:
            best, position = value, m
    return position, best


# Choices --------------------------------------------------------------------------------------


@compiled
def _alone(cars: Ints, index: int, debris: Ints, spaces: int,
           board: tuple[Ints, ...]) -> bool:
    """``ParDriver._alone``: whether no other car and no debris marker lies within reach of
    ``spaces`` of the car's moves, nor beside where they may end (``within_reach``)."""
    others = np.zeros(len(debris), np.bool_)
    anyone = False
    for other in range(len(cars)):
        if other != index and cars[other, kc.C_STATUS] <= kc.SPUN:
            others[cars[other, kc.C_SPACE]] = True
            anyone = True
    if not anyone and not debris.any():
        return True
    found = np.zeros(len(debris), np.bool_)
    edge = np.empty(len(debris), np.int64)
    after = np.empty(len(debris), np.int64)
    edge[0] = cars[index, kc.C_SPACE]
    found[edge[0]] = True
    count = 1
    for _ in range(spaces):
        reached = 0
        for k in range(count):
            for table in (board[TRACK_NEXT], board[PIT_ENTRY], board[PIT_NEXT]):
                for j in range(table.shape[1]):
                    n = table[edge[k], j]
                    if n < 0:
                        break
                    if not found[n]:
                        found[n] = True
                        after[reached] = n
                        reached += 1
        edge, after, count = after, edge, reached
    contacts = board[CONTACTS]
    for s in range(len(found)):
        if not found[s]:
            continue
        if others[s] or debris[s]:
            return False
        for j in range(contacts.shape[1]):
            n = contacts[s, j]
            if n < 0:
                break
            if others[n] or debris[n]:
                return False
    return True


@compiled
def gear(par: ParTables, strong: Any, options: Ints, cars: Ints, race: Ints, index: int,
         debris: Ints, board: tuple[Ints, ...], rules: tuple[Ints, ...],
         workspace: Workspace) -> tuple[int, Ints]:
    """The gear option row the driver takes (``ParDriver.choose_gear``), and, when the strong
    driver chose it, the moves it found of that gear (else no rows)."""
    none = np.empty((0, kp.MOVE_COLUMNS), np.int64)
    if len(options) == 1:
        return 0, none
    counts = par[P_COUNTS]
    counts[index, COUNT_DECISIONS] += 1
    faces = strong[4]
    reach = 0
    for k in range(len(options)):
        row = faces[options[k, kc.O_GEAR] - 1]
        reach = max(reach, row[row[CHANCE] - 1])
    solution = par[P_SOLUTION][index]
    if _alone(cars, index, debris, reach, board):
        taken = gear_of(par, cars[index], solution)
        for k in range(len(options)):
            if options[k, kc.O_GEAR] == taken and not options[k, kc.O_ELIMINATES]:
                return k, none
    elif par[P_NUMBERS][N_PRICED]:
        chosen = _by_worth(par, strong, options, cars, race, index, debris, board, rules,
                           workspace)
        if chosen >= 0:
            return chosen, none
    counts[index, COUNT_FALLBACKS] += 1
    kept = _kept_options(options)
    row, moves = kstrong.gear(strong, options[kept], cars, index, debris, board, rules,
                              workspace)
    return int(kept[row]), moves


@compiled
def _by_worth(par: ParTables, strong: Any, options: Ints, cars: Ints, race: Ints, index: int,
              debris: Ints, board: tuple[Ints, ...], rules: tuple[Ints, ...],
              workspace: Workspace) -> int:
    """``ParDriver._gear_worths``: the option of least expected turns over its die (the first
    on a tie); -1 where a move leads where par has not solved, or every option is infinite."""
    faces, chances = strong[4], strong[5]
    car = cars[index]
    kept = car[kc.C_GEAR:kc.C_WEAR + 6].copy()
    best, best_worth = -1, np.inf
    for k in range(len(options)):
        option = options[k]
        if option[kc.O_ELIMINATES]:
            continue
        car[kc.C_GEAR] = option[kc.O_GEAR]
        for w in range(6):
            car[kc.C_WEAR + w] -= option[kc.O_COST + w]
        row = faces[option[kc.O_GEAR] - 1]
        moves = ask.moves_for(cars, index, debris, row[:row[CHANCE]].copy(), board, rules,
                              workspace)
        starts = ask.roll_starts(moves)
        total = 0.0
        for f in range(row[CHANCE]):
            face = row[f]
            at, value = _least(par, strong, moves, starts[face], starts[face + 1], cars, race,
                               debris, index, face, -1, board, rules)
            if at < 0:
                copy_into(car[kc.C_GEAR:kc.C_WEAR + 6], kept)
                return -1
            total += chances[option[kc.O_GEAR] - 1, f] * value
        copy_into(car[kc.C_GEAR:kc.C_WEAR + 6], kept)
        if total < best_worth:
            best, best_worth = k, total
    return best


@compiled
def _kept_options(options: Ints) -> Ints:
    """``_kept``: the rows of the options that do not put the car out, if any; else all."""
    kept = np.flatnonzero(options[:, kc.O_ELIMINATES] == 0)
    return kept if len(kept) else np.arange(len(options))


@compiled
def _kept_moves(moves: Ints) -> Ints:
    """``_kept``: the rows of the moves that do not put the car out, if any; else all."""
    kept = np.flatnonzero(moves[:, kp.M_ELIMINATED] == kp.NOT_ELIMINATED)
    return kept if len(kept) else np.arange(len(moves))


@compiled
def move(par: ParTables, strong: Any, moves: Ints, roll: int, cars: Ints, race: Ints,
         index: int, debris: Ints, board: tuple[Ints, ...], rules: tuple[Ints, ...]) -> int:
    """The move row the driver plays (``ParDriver.choose_move``): the first of the least
    worth, or the strong driver's among the moves that do not put the car out."""
    par[P_ROLLS][index] = roll
    counts = par[P_COUNTS]
    counts[index, COUNT_DECISIONS] += 1
    car = cars[index]
    # A quick stop's exit and a super start move without a gear die; a super start leaves the
    # car in first gear.
    starting = car[kc.C_GEAR] == 0
    die = -1 if car[kc.C_PIT_EXIT] or starting else roll
    if par[P_NUMBERS][N_PRICED]:
        at, value = _least(par, strong, moves, 0, len(moves), cars, race, debris, index, die,
                           1 if starting else -1, board, rules)
        if at >= 0 and value < np.inf:
            return at
    counts[index, COUNT_FALLBACKS] += 1
    kept = _kept_moves(moves)
    return int(kept[kstrong.move(strong, moves[kept], roll, cars, index, debris, board,
                                 rules)])


@compiled
def slipstream(par: ParTables, strong: Any, move: Ints, extras: Ints, cars: Ints, race: Ints,
               index: int, debris: Ints, board: tuple[Ints, ...],
               rules: tuple[Ints, ...]) -> int:
    """The slipstream row the driver takes, -1 when it declines (``ParDriver.
    choose_slipstream``): the first extra of least worth when it is worth less than the
    move."""
    counts = par[P_COUNTS]
    counts[index, COUNT_DECISIONS] += 1
    if par[P_NUMBERS][N_PRICED]:
        both = np.empty((len(extras) + 1, extras.shape[1]), np.int64)
        copy_into(both[0], move)
        for k in range(len(extras)):
            copy_into(both[k + 1], extras[k])
        at, value = _least(par, strong, both, 0, len(both), cars, race, debris, index,
                           par[P_ROLLS][index], -1, board, rules)
        if at >= 0 and value < np.inf:
            return at - 1
    counts[index, COUNT_FALLBACKS] += 1
    safe = np.flatnonzero(extras[:, kp.M_ELIMINATED] == kp.NOT_ELIMINATED)
    if len(safe) == 0:
        return -1
    chosen = kstrong.slipstream(strong, move, extras[safe], cars, index, debris, board, rules)
    return -1 if chosen < 0 else int(safe[chosen])
