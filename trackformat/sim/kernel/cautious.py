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
from trackformat.sim.kernel.ask import (
    Found,
    found_moves,
    found_walk,
    moves_for,
    roll_starts,
    walk_for,
)
from trackformat.sim.kernel.game import CONTACTS, F_BLOCK_BRAKES, F_BLOCK_TYRES, FLAGS
from trackformat.sim.kernel.jit import borrow, compiled, copy_into, inlined
from trackformat.sim.kernel.reach import reach
from trackformat.sim.kernel.rolls import blocked_depth, outcome_price
from trackformat.sim.kernel.safety import (
    D_COUNT,
    K_OVERSHOOT_TYRES,
    K_RESERVE_BRAKES,
    NO_ROOM,
    Tables,
    face_safe,
    no_safe_end,
    safe,
)
from trackformat.sim.kernel.workspace import Workspace

Ints = npt.NDArray[np.int64]


def tables(board: Board, arrays: BoardArrays, rules: Ruleset, laps: int) -> Tables:
    """What the driver reads, built once per batch (for a line-up with cautious drivers)."""
    gears = len(rules.dice.gears)
    dice = np.zeros((2 * gears + 1, 64), np.int64)
    numbers = np.zeros(2, np.int64)
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
    return room, dice, numbers


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
         board: tuple[Ints, ...], rules: tuple[Ints, ...], workspace: Workspace,
         nothing: Found) -> tuple[int, Found]:
    """The highest gear whose every face leaves a safe move; failing that, the gear likeliest to
    leave a move that neither eliminates nor spins the car (the cheaper, then the lower, on a
    tie). With it, what the driver found of that gear's moves as the car has them once its
    shift is paid, for the race to read its roll's moves from.

    A car's moves do not depend on its gear, only on its WP: the routes of every face of every
    gear that costs nothing to take are walked once, and a face is weighed straight from the
    walk's outcomes: whether one is a safe move needs neither the roll's moves sorted nor
    their rows written, and the race prices the one face it rolls from the same walk. A gear is
    given up at its first face (the highest first, the likeliest unsafe) that leaves no safe
    move. The gears that surely leave none, told from where the car's routes may end, are
    given up before the walk, which then goes only as deep as the highest gear still in
    question: the driver mostly keeps its gear or shifts down, so this is most of the walk it
    used to make for the gear above. The chances of the fallback are worked out (from a walk
    of every free gear) only when no gear is safe. The rare costly downshift gets a walk of
    its own."""
    dice = tables[1]
    gears = (len(dice) - 1) // 2
    car = cars[index].copy()
    free = np.zeros(len(options), np.bool_)
    deepest = 1
    for k in range(len(options)):
        if not options[k, kc.O_ELIMINATES] and not _costly(options[k]):
            free[k] = True
            g = options[k, kc.O_GEAR]
            deepest = max(deepest, dice[g - 1, dice[g - 1, D_COUNT] - 1])
    # Given up before the walk: from the highest free gear down, each that surely leaves a
    # face without a safe move, until one that may not; the walk serves it and those below.
    ends, counts = reach(car, deepest, board)
    walked_for = np.zeros(len(options), np.bool_)
    for k in range(len(options) - 1, -1, -1):
        if free[k] and not _surely_unsafe(tables, _shifted(car, options[k]), ends, counts,
                                          board, rules):
            walked_for[:k + 1] = free[:k + 1]
            break
    # Whether the workspace holds a walk, and whether that walk serves every free gear.
    shared, complete = bool(walked_for.any()), True
    for k in range(len(options)):
        if free[k] and not walked_for[k]:
            complete = False
    walked, terms = _walk(dice, options, walked_for, cars, index, debris, board, rules,
                          workspace)
    chances = np.full(len(options), -1.0)
    for k in range(len(options) - 1, -1, -1):  # options come lowest gear first
        option = options[k]
        if option[kc.O_ELIMINATES] or (free[k] and not walked_for[k]):
            continue
        g = option[kc.O_GEAR]
        count = dice[g - 1, D_COUNT]
        shifted = _shifted(car, option)
        if free[k]:
            every_face_safe = True
            for f in range(count - 1, -1, -1):
                if not face_safe(tables, shifted, walked, terms, dice[g - 1, f], rules, board):
                    every_face_safe = False
                    break
            if every_face_safe:
                return k, found_walk(walked, terms, nothing)
            continue
        # A costly downshift walks again in the workspace.
        shared = False
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
            return k, found_moves(moves, nothing)
        chances[k] = survivable / dice[gears + g - 1, D_COUNT]
    # No gear is safe on every face: the first of the best by (chance, cheaper, lower), the
    # eliminating options rated 0 (or all of them, should every option eliminate). The free
    # gears' chances need a walk of all of them, made again if the workspace no longer holds
    # one.
    if not (shared and complete):
        walked, terms = _walk(dice, options, free, cars, index, debris, board, rules,
                              workspace)
    _free_chances(tables, options, free, walked, terms, rules, chances)
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
    if not free[best]:
        return best, nothing
    return best, found_walk(walked, terms, nothing)


@compiled
def _surely_unsafe(tables: Tables, car: Ints, ends: Ints, counts: Ints,
                   board: tuple[Ints, ...], rules: tuple[Ints, ...]) -> bool:
    """Whether the highest face of ``car``'s gear (its row in that gear) surely leaves no safe
    move (:func:`~trackformat.sim.kernel.safety.no_safe_end`). The highest face only: it is
    the one a gear fails on, and asking the others too ruled out next to no more gears
    (measured on Monaco: walks 11.65 spaces deep on average instead of 11.71) for many times
    the work."""
    dice = tables[1]
    g = car[kc.C_GEAR]
    return no_safe_end(tables, car, dice[g - 1, dice[g - 1, D_COUNT] - 1], ends, counts, board,
                       rules)


@compiled
def _walk(dice: Ints, options: Ints, gears: npt.NDArray[np.bool_], cars: Ints, index: int,
          debris: Ints, board: tuple[Ints, ...], rules: tuple[Ints, ...],
          workspace: Workspace) -> tuple[kp.Walked, Ints]:
    """The car's routes walked for every face of the options flagged in ``gears``, sorted into
    outcomes, and the pricing terms (see :func:`~trackformat.sim.kernel.ask.walk_for`)."""
    wanted = np.zeros(64, np.bool_)
    for k in range(len(options)):
        if gears[k]:
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
    return walked, terms


@compiled
def _free_chances(tables: Tables, options: Ints, free: npt.NDArray[np.bool_],
                  walked: kp.Walked, terms: Ints, rules: tuple[Ints, ...],
                  chances: npt.NDArray[np.float64]) -> None:
    """Each free gear's chance (into ``chances``) that its roll leaves a move that neither
    eliminates nor spins the car, from the shared walk. Neither depends on the move's route,
    so any outcome that gives such a move will do."""
    dice = tables[1]
    gears = (len(dice) - 1) // 2
    _, firsts, outcomes, depths, on_track, _, _ = walked
    flags = rules[FLAGS]
    # Handed to pricing's helper on every pass: borrowed, so that none is counted in and out.
    firsts, terms, block_brakes, block_tyres = borrow(
        (firsts, terms, flags[F_BLOCK_BRAKES], flags[F_BLOCK_TYRES]))
    for k in range(len(options)):
        if not free[k]:
            continue
        g = options[k, kc.O_GEAR]
        survivable = 0
        for f in range(dice[g - 1, D_COUNT]):
            face = dice[g - 1, f]
            blocked_at = blocked_depth(on_track, face)
            for o in range(outcomes):
                if depths[o] > face:
                    continue
                is_move, _, _, _, spins, eliminated = outcome_price(
                    firsts, o, depths[o], face, blocked_at, terms, block_brakes, block_tyres)
                if is_move and eliminated == kp.NOT_ELIMINATED and not spins:
                    survivable += dice[gears + g - 1, f]
                    break
        chances[k] = survivable / dice[gears + g - 1, D_COUNT]


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
    # Each move's row is taken, and handed to safe(), on every pass: borrowed, it is not
    # counted in and out.
    moves, car = borrow((moves, cars[index]))
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
        key[3] = row[kp.M_BOX] != 0 and car[kc.C_TYRES] * 2 <= car[kc.C_START_TYRES]
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
