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

A move's worth (``MoveWorth``) and par's values of a car are
:mod:`~trackformat.sim.kernel.par_worth`'s.

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
from trackformat.sim.kernel import strong as kstrong
from trackformat.sim.kernel.game import CONTACTS, PIT_ENTRY, PIT_NEXT, TRACK_NEXT
from trackformat.sim.kernel.jit import compiled, copy_into
from trackformat.sim.kernel.par_worth import (
    COUNT_DECISIONS,
    COUNT_FALLBACKS,
    N_PRICED,
    P_COUNTS,
    P_NUMBERS,
    P_ROLLS,
    P_SOLUTION,
    ParTables,
    gear_of,
    least,
)
from trackformat.sim.kernel.strong_tables import CHANCE
from trackformat.sim.kernel.workspace import Workspace

Ints = npt.NDArray[np.int64]


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
    kept = _kept(options[:, kc.O_ELIMINATES] == 0)
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
            at, value = least(par, strong, moves, starts[face], starts[face + 1], cars, race,
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
def _kept(keep: npt.NDArray[np.bool_]) -> Ints:
    """``_kept``: the rows ``keep`` keeps (the options or moves that do not put the car out),
    if any; else all."""
    kept = np.flatnonzero(keep)
    return kept if len(kept) else np.arange(len(keep))


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
        at, value = least(par, strong, moves, 0, len(moves), cars, race, debris, index, die,
                           1 if starting else -1, board, rules)
        if at >= 0 and value < np.inf:
            return at
    counts[index, COUNT_FALLBACKS] += 1
    kept = _kept(moves[:, kp.M_ELIMINATED] == kp.NOT_ELIMINATED)
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
        at, value = least(par, strong, both, 0, len(both), cars, race, debris, index,
                           par[P_ROLLS][index], -1, board, rules)
        if at >= 0 and value < np.inf:
            return at - 1
    counts[index, COUNT_FALLBACKS] += 1
    safe = np.flatnonzero(extras[:, kp.M_ELIMINATED] == kp.NOT_ELIMINATED)
    if len(safe) == 0:
        return -1
    chosen = kstrong.slipstream(strong, move, extras[safe], cars, index, debris, board, rules)
    return -1 if chosen < 0 else int(safe[chosen])
