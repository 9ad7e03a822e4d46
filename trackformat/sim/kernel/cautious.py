"""The cautious driver in compiled code: the same choices as
:class:`~trackformat.sim.drivers.bots.CautiousDriver`, answer for answer.

It takes the highest gear in which every face of the die leaves a safe move, and among its moves
the safe ones, then the cheapest, then the one with the fewest cars around, then the longest
(see the readable driver for what "safe" means). What it reads from the board, the room left to
slow down before the corner a car must stop in next, is the readable driver's own
:meth:`~trackformat.sim.drivers.bots.CautiousDriver.room`, tabled once per batch for every space.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from trackformat.rules import Ruleset
from trackformat.sim.core.board import Board
from trackformat.sim.drivers.bots import CautiousDriver
from trackformat.sim.kernel import cars as kc
from trackformat.sim.kernel import price as kp
from trackformat.sim.kernel.arrays import BoardArrays
from trackformat.sim.kernel.ask import moves_for, priced, roll_starts, walk_for
from trackformat.sim.kernel.game import CONTACTS, CORNER, CORNER_STOPS, IN_PIT
from trackformat.sim.kernel.jit import compiled, copy_into, inlined
from trackformat.sim.kernel.workspace import Workspace

Ints = npt.NDArray[np.int64]
Tables = tuple[Ints, Ints, Ints]
"""The room to slow down by space (column 0: the corner's stops still to make, 1: made;
-1: no corner near), the dice (:func:`tables`), and the driver's numbers (``K_*``)."""

K_OVERSHOOT_TYRES, K_RESERVE_BRAKES, K_START_TYRES = range(3)
NO_ROOM = -1

D_COUNT = 63
"""In a row of the dice table, the number of distinct faces (and, in the multiplicity rows,
the number of faces)."""


def tables(board: Board, arrays: BoardArrays, rules: Ruleset, laps: int) -> Tables:
    """What the driver reads, built once per batch (for a line-up with cautious drivers)."""
    gears = len(rules.dice.gears)
    dice = np.zeros((2 * gears + 1, 64), np.int64)
    numbers = np.zeros(3, np.int64)
    driver = CautiousDriver()
    room = np.full((len(arrays.names), 2), NO_ROOM, np.int64)
    for number, space in enumerate(arrays.names):
        corner = board.corner_of.get(space)
        for done in (0, 1):
            found = driver.room(board, space, corner, bool(done))
            room[number, done] = NO_ROOM if found is None else found
    for gear in range(1, gears + 1):
        faces = rules.faces(gear)
        distinct = sorted(set(faces))
        dice[gear - 1, : len(distinct)] = distinct
        dice[gear - 1, D_COUNT] = len(distinct)
        dice[gears + gear - 1, : len(distinct)] = [faces.count(f) for f in distinct]
        dice[gears + gear - 1, D_COUNT] = len(faces)
        dice[2 * gears, gear] = max(faces)
    numbers[K_OVERSHOOT_TYRES] = driver.overshoot_tyres
    numbers[K_RESERVE_BRAKES] = driver.reserve_brakes
    numbers[K_START_TYRES] = rules.starting_wear(laps).tyres
    return room, dice, numbers


@inlined
def safe(tables: Tables, car: Ints, move: Ints, board: tuple[Ints, ...]) -> bool:
    """Whether ``move`` keeps the car (its row as the move is chosen) in the race within the
    driver's margins (see :meth:`~trackformat.sim.drivers.bots.CautiousDriver.safe`).
    Written into its callers: asked of nearly every move, a call handing down the board's
    arrays cost more than the answer."""
    room_of, dice, numbers = tables
    if move[kp.M_ELIMINATED] != kp.NOT_ELIMINATED or move[kp.M_SPIN]:
        return False
    if move[kp.M_TYRES] > min(numbers[K_OVERSHOOT_TYRES], car[kc.C_TYRES] - 1):
        return False
    reserve = numbers[K_RESERVE_BRAKES]
    if move[kp.M_BRAKES] and move[kp.M_BRAKES] > car[kc.C_BRAKES] - reserve:
        return False
    destination = move[kp.M_DEST]
    if board[IN_PIT][destination]:
        return True
    corner = board[CORNER]
    here = corner[destination]
    if here < 0:
        stops = 0
    else:
        stayed = car[kc.C_CORNER] == here
        for i in range(move[kp.M_DISTANCE]):
            if corner[move[kp.M_ROUTE + i]] != here:
                stayed = False
        # An overshooting move's stop never counts for this driver, whatever the rules say.
        stops = car[kc.C_STOPS] + 1 if stayed else (0 if move[kp.M_NEXITS] > 0 else 1)
    done = 1 if here >= 0 and stops >= board[CORNER_STOPS][here] else 0
    room = room_of[destination, done]
    if room == NO_ROOM:
        return True
    budget = max(0, car[kc.C_BRAKES] - move[kp.M_BRAKES] - reserve)
    slower = max(1, car[kc.C_GEAR] - 1)
    return bool(dice[len(dice) - 1, slower] <= room + budget)


@compiled
def _costly(option: Ints) -> bool:
    """Whether taking ``option`` costs any WP."""
    for k in range(6):  # noqa: SIM110 (numba compiles loops, not generators)
        if option[kc.O_COST + k] != 0:
            return True
    return False


@compiled
def _shifted(car: Ints, option: Ints) -> Ints:
    """The car row as it would be in ``option``'s gear, its cost paid."""
    shifted = car.copy()
    shifted[kc.C_GEAR] = option[kc.O_GEAR]
    for k in range(6):
        shifted[kc.C_WEAR + k] -= option[kc.O_COST + k]
    return shifted


@compiled
def gear(tables: Tables, options: Ints, cars: Ints, index: int, debris: Ints,
         board: tuple[Ints, ...], rules: tuple[Ints, ...],
         workspace: Workspace) -> tuple[int, Ints]:
    """The highest gear whose every face leaves a safe move; failing that, the gear likeliest to
    leave a move that neither eliminates nor spins the car (the cheaper, then the lower, on a
    tie). With it, the moves of every face of that gear as the car has them once its shift is
    paid, each face's rows together (no rows when the driver did not find them), for the race
    to read its roll's moves from.

    A car's moves do not depend on its gear, only on its WP: the routes of every face of every
    gear that costs nothing to take are walked once, and each face is priced into moves the
    first time a gear needs it. A gear is given up at its first face (the highest first, the
    likeliest unsafe) that leaves no safe move, so most choices never price the faces of the
    gears below the one chosen; the chances of the fallback are worked out only when no gear
    is safe. The rare costly downshift gets a walk of its own."""
    dice = tables[1]
    gears = (len(dice) - 1) // 2
    car = cars[index].copy()
    free = np.zeros(len(options), np.bool_)
    wanted = np.zeros(64, np.bool_)
    for k in range(len(options)):
        if not options[k, kc.O_ELIMINATES] and not _costly(options[k]):
            free[k] = True
            g = options[k, kc.O_GEAR]
            for f in range(dice[g - 1, D_COUNT]):
                wanted[dice[g - 1, f]] = True
    rolls = np.zeros(64, np.int64)
    asked = 0
    for roll in range(64):
        if wanted[roll]:
            rolls[asked] = roll
            asked += 1
    walked, _, terms = walk_for(cars, index, debris, rolls[:max(asked, 1)], board, rules,
                                np.empty(0, np.int64), workspace)
    # The faces priced so far: ``book[roll]`` is where the roll's rows are in ``known``
    # (-1: not priced yet).
    book = np.full((64, 2), -1, np.int64)
    known = np.empty((4 * kp.MOVE_COLUMNS, kp.MOVE_COLUMNS), np.int64)
    used = 0
    chances = np.full(len(options), -1.0)
    for k in range(len(options) - 1, -1, -1):  # options come lowest gear first
        option = options[k]
        if option[kc.O_ELIMINATES]:
            continue
        g = option[kc.O_GEAR]
        count = dice[g - 1, D_COUNT]
        shifted = _shifted(car, option)
        if free[k]:
            every_face_safe = True
            for f in range(count - 1, -1, -1):
                face = dice[g - 1, f]
                if book[face, 0] < 0:
                    known, used = _price(walked, terms, face, book, known, used, rules,
                                         workspace)
                if not _any_safe(tables, shifted, known, book[face, 0], book[face, 1], board):
                    every_face_safe = False
                    break
            if every_face_safe:
                return k, known[:used]
            continue
        # A costly downshift walks again in the workspace: first every face the free gears
        # may still need is priced from the shared walk.
        for j in range(len(options)):
            if free[j]:
                gj = options[j, kc.O_GEAR]
                for f in range(dice[gj - 1, D_COUNT]):
                    face = dice[gj - 1, f]
                    if book[face, 0] < 0:
                        known, used = _price(walked, terms, face, book, known, used, rules,
                                             workspace)
        copy_into(cars[index], shifted)
        moves = moves_for(cars, index, debris, dice[g - 1, :count].copy(), board, rules,
                          workspace)
        copy_into(cars[index], car)
        starts = roll_starts(moves)
        every_face_safe = True
        survivable = 0
        for f in range(count - 1, -1, -1):
            face = dice[g - 1, f]
            if not _any_safe(tables, shifted, moves, starts[face], starts[face + 1], board):
                every_face_safe = False
            if _any_survives(moves, starts[face], starts[face + 1]):
                survivable += dice[gears + g - 1, f]
        if every_face_safe:
            return k, moves
        chances[k] = survivable / dice[gears + g - 1, D_COUNT]
    # No gear is safe on every face: the first of the best by (chance, cheaper, lower), the
    # eliminating options rated 0 (or all of them, should every option eliminate). The free
    # gears' chances need all their faces.
    for k in range(len(options)):
        if free[k]:
            g = options[k, kc.O_GEAR]
            survivable = 0
            for f in range(dice[g - 1, D_COUNT]):
                face = dice[g - 1, f]
                if book[face, 0] < 0:
                    known, used = _price(walked, terms, face, book, known, used, rules,
                                         workspace)
                if _any_survives(known, book[face, 0], book[face, 1]):
                    survivable += dice[gears + g - 1, f]
            chances[k] = survivable / dice[gears + g - 1, D_COUNT]
    any_kept = False
    for k in range(len(options)):
        if not options[k, kc.O_ELIMINATES]:
            any_kept = True
    best = -1
    for k in range(len(options)):
        if any_kept and options[k, kc.O_ELIMINATES]:
            continue
        if best < 0 or _gear_key_greater(options[k], chances[k], options[best], chances[best]):
            best = k
    if options[best, kc.O_ELIMINATES] or _costly(options[best]):
        return best, np.empty((0, kp.MOVE_COLUMNS), np.int64)
    return best, known[:used]


@compiled
def _price(walked: kp.Walked, terms: Ints, face: int, book: Ints, known: Ints, used: int,
           rules: tuple[Ints, ...], workspace: Workspace) -> tuple[Ints, int]:
    """The moves of ``face`` priced from the shared walk and written in ``known`` after its
    ``used`` rows (or in a bigger table), their place kept in ``book``."""
    roll = np.empty(1, np.int64)
    roll[0] = face
    known, end = priced(walked, roll, terms, rules, workspace, known, used)
    book[face, 0], book[face, 1] = used, end
    return known, end


@compiled
def _any_safe(tables: Tables, car: Ints, moves: Ints, first: int, end: int,
              board: tuple[Ints, ...]) -> bool:
    """Whether one of rows ``first`` to ``end - 1`` of ``moves`` is :func:`safe` for ``car``."""
    for m in range(first, end):  # noqa: SIM110 (numba compiles loops, not generators)
        if safe(tables, car, moves[m], board):
            return True
    return False


@inlined
def _any_survives(moves: Ints, first: int, end: int) -> bool:
    """Whether one of rows ``first`` to ``end - 1`` of ``moves`` neither eliminates nor spins
    the car."""
    for m in range(first, end):
        if moves[m, kp.M_ELIMINATED] == kp.NOT_ELIMINATED and not moves[m, kp.M_SPIN]:
            return True
    return False


@compiled
def _gear_key_greater(a: Ints, a_chance: float, b: Ints, b_chance: float) -> bool:
    """Whether option ``a`` rates strictly above ``b``: (chance, -cost, -gear), compared in
    that order; an eliminating option's chance counts as 0."""
    ca = 0.0 if a_chance < 0 else a_chance
    cb = 0.0 if b_chance < 0 else b_chance
    if ca != cb:
        return ca > cb
    cost_a = 0
    cost_b = 0
    for k in range(6):
        cost_a += a[kc.O_COST + k]
        cost_b += b[kc.O_COST + k]
    if cost_a != cost_b:
        return cost_a < cost_b
    return bool(a[kc.O_GEAR] < b[kc.O_GEAR])


@compiled
def move(tables: Tables, moves: Ints, roll: int, cars: Ints, index: int, debris: Ints,
         board: tuple[Ints, ...], rules: tuple[Ints, ...]) -> int:
    """The first of the best moves by (survives, does not spin, safe, a wanted pit stop,
    cheapest in WP, fewest cars around, longest)."""
    numbers = tables[2]
    car = cars[index]
    contacts = board[CONTACTS]
    best = -1
    best_key = np.zeros(7, np.int64)
    key = np.zeros(7, np.int64)
    for m in range(len(moves)):
        row = moves[m]
        around = 0
        for s in contacts[row[kp.M_DEST]]:
            if s < 0:
                break
            for other in range(len(cars)):
                if (other != index and cars[other, kc.C_STATUS] <= kc.SPUN
                        and cars[other, kc.C_SPACE] == s):
                    around += 1
                    break
        key[0] = row[kp.M_ELIMINATED] == kp.NOT_ELIMINATED
        key[1] = row[kp.M_SPIN] == 0
        key[2] = safe(tables, car, row, board)
        key[3] = row[kp.M_BOX] != 0 and car[kc.C_TYRES] * 2 <= numbers[K_START_TYRES]
        key[4] = -(3 * row[kp.M_TYRES] + 2 * row[kp.M_BRAKES] + row[kp.M_DEBRIS])
        key[5] = -around
        key[6] = row[kp.M_DISTANCE]
        if best < 0 or kc.key_above(key, best_key):
            best = m
            copy_into(best_key, key)
    return best


@compiled
def slipstream(tables: Tables, move: Ints, extras: Ints, cars: Ints, index: int,
               debris: Ints, board: tuple[Ints, ...], rules: tuple[Ints, ...]) -> int:
    """The longest of the extras that are safe and cost nothing (the first of them); -1 when
    there is none."""
    best = -1
    for m in range(len(extras)):
        row = extras[m]
        if row[kp.M_BRAKES] != 0 or row[kp.M_TYRES] != 0:
            continue
        if not safe(tables, cars[index], row, board):
            continue
        if best < 0 or row[kp.M_DISTANCE] > extras[best, kp.M_DISTANCE]:
            best = m
    return best
