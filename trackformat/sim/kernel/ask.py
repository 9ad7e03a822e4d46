"""What a car may do in a race, asked in compiled code: its legal moves for one roll or for every
face of a die, the slipstream extras after a move, and the moves of a super start.

The drivers and the race loop both ask here, with the race as the kernel keeps it (the car
table, the debris flags) and the board and rules tuples of :mod:`~trackformat.sim.kernel.game`;
the answers are move rows (:mod:`~trackformat.sim.kernel.price`) in the readable engine's order.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from trackformat.sim.kernel import cars as kc
from trackformat.sim.kernel import price as kp
from trackformat.sim.kernel import race_rules as krr
from trackformat.sim.kernel import resolve as kr
from trackformat.sim.kernel import route_rows as kw
from trackformat.sim.kernel import terms as kt
from trackformat.sim.kernel.game import (
    AHEAD,
    F_BLOCK_BRAKES,
    F_BLOCK_TYRES,
    F_WINDOW,
    FLAGS,
    G_BLOCK_FROM,
    G_BRAKES_PER_SPACE,
    G_ELIMINATED_MISSING,
    G_HAS_PIT_ENTRY,
    G_MAX_CHANGES,
    G_MAX_STOPS,
    G_RESPIN_MAX,
    G_SLIP_AT_LEAST,
    G_SLIP_BRAKES,
    G_SLIP_EXTRA,
    G_SLIP_MIN_GEAR,
    G_SLIP_TYRES,
    G_SLIPSTREAM,
    G_TYRES_PER_SPACE,
    GAME,
    IN_PIT,
    NUMBERS,
    SHAPES,
)
from trackformat.sim.kernel.jit import compiled, inlined
from trackformat.sim.kernel.rolls import price_rolls
from trackformat.sim.kernel.workspace import Workspace

Ints = npt.NDArray[np.int64]


@inlined
def moves_for(cars: Ints, index: int, debris: Ints, rolls: Ints, board: tuple[Ints, ...],
              rules: tuple[Ints, ...], workspace: Workspace) -> Ints:
    """The legal moves of car ``index`` for each of ``rolls`` (sorted, distinct), roll by roll
    in the engine's order (the roll in each row's ``M_ROLL``)."""
    return moves_after(cars, index, debris, rolls, board, rules, np.empty(0, np.int64), workspace)


@compiled
def moves_after(cars: Ints, index: int, debris: Ints, rolls: Ints, board: tuple[Ints, ...],
                rules: tuple[Ints, ...], after: Ints, workspace: Workspace) -> Ints:
    """:func:`moves_for` (``after`` empty); or, given a move ``after``, the slipstream extras
    that may follow it (``rolls`` unused); worked out in ``workspace`` (see
    :mod:`~trackformat.sim.kernel.workspace`)."""
    walked, asked, terms = walk_for(cars, index, debris, rolls, board, rules, after, workspace)
    rows, _ = priced(walked, asked, terms, rules, workspace,
                     np.empty((0, kp.MOVE_COLUMNS), np.int64), 0)
    return rows


@inlined
def priced(walked: kp.Walked, rolls: Ints, terms: Ints, rules: tuple[Ints, ...],
           workspace: Workspace, out: Ints, used: int) -> tuple[Ints, int]:
    """The moves of each of ``rolls`` (sorted, distinct, none past the walk's, none priced
    before) from a walk of :func:`walk_for`, while the workspace has not walked again: written
    in ``out`` from row ``used`` on, or in a bigger table when it is full (see
    :func:`~trackformat.sim.kernel.rolls.price_rolls`)."""
    flags = rules[FLAGS]
    return price_rolls(walked, rolls, terms, flags[F_BLOCK_BRAKES], flags[F_BLOCK_TYRES],
                          workspace[1][1], out, used)


@inlined
def walk_for(cars: Ints, index: int, debris: Ints, rolls: Ints, board: tuple[Ints, ...],
             rules: tuple[Ints, ...], after: Ints,
             workspace: Workspace) -> tuple[kp.Walked, Ints, Ints]:
    """The routes of car ``index`` walked for the largest of ``rolls`` (or, given a move
    ``after``, for the slipstream extras that may follow it) and sorted into outcomes, ready to
    be :func:`priced` for any of the rolls; with the rolls (the extras' one, after a move) and
    the pricing terms. (No array here is a module global: numba types a global array as
    read-only, which would compile a second copy of everything it is passed to.)"""
    (track_next, pit_next, pit_entry, lane, lane_index, lane_length, corner, corner_stops,
     in_pit, is_box) = board[:10]
    numbers, game, flags = rules[NUMBERS], rules[GAME], rules[FLAGS]
    car = cars[index]
    walk_space, price_space, (occupied, spots, passable, origin) = workspace
    if (len(occupied) != len(lane) or len(spots) < len(lane_length)
            or passable.shape[1] < len(cars) + len(debris) + 1):
        occupied = np.empty(len(lane), np.int64)
        spots = np.empty(max(len(lane_length), 1), np.int64)
        passable = np.empty((max(len(lane_length), 1), len(cars) + len(debris) + 1), np.int64)
        origin = np.empty(kw.ROUTE_COLUMNS, np.int64)
    occupied[:] = 0
    spots[:] = 0
    for other in range(len(cars)):
        if other != index and cars[other, kc.C_STATUS] <= kc.SPUN:
            s = cars[other, kc.C_SPACE]
            occupied[s] = 1
            if lane[s] >= 0:
                passable[lane[s], spots[lane[s]]] = lane_index[s]
                spots[lane[s]] += 1
    for s in range(len(debris)):
        if debris[s] and lane[s] >= 0:
            passable[lane[s], spots[lane[s]]] = lane_index[s]
            spots[lane[s]] += 1
    start = car[kc.C_SPACE]
    origin[:kw.R_PATH] = 0
    origin[kw.R_PATH:] = -1
    origin[kw.R_END] = start
    origin[kw.R_LOCK] = -1
    here = corner[start]
    origin[kw.R_CORNER] = here
    origin[kw.R_STOPS] = car[kc.C_STOPS] if here >= 0 and car[kc.C_CORNER] == here else 0
    origin[kw.R_IN_PIT] = in_pit[start]
    origin[kw.R_ANCHOR] = -1 if in_pit[start] or here >= 0 else start
    may_pit = False
    if (car[kc.C_BOX] >= 0 and game[G_HAS_PIT_ENTRY] and not in_pit[start]
            and game[G_MAX_STOPS] >= 0 and car[kc.C_PIT_STOPS] < game[G_MAX_STOPS]):
        done = car[kc.C_LAP] if numbers[krr.P_PIT_EXIT_CROSSES] else car[kc.C_LAP] - 1
        may_pit = 0 <= done < 64 and flags[F_WINDOW, done] == 1
    spun = car[kc.C_STATUS] == kc.SPUN
    shapes = np.zeros((1, 1), np.int64)
    if len(after):
        walk, terms, rolls = kt.slipstream_walk(
            origin, lane, after, game[G_SLIP_EXTRA], game[G_SLIP_BRAKES], game[G_SLIP_TYRES],
            may_pit, car[kc.C_BOX], game[G_MAX_CHANGES], car[kc.C_BRAKES], car[kc.C_TYRES],
            spun, game[G_BRAKES_PER_SPACE], game[G_TYRES_PER_SPACE],
            game[G_ELIMINATED_MISSING], game[G_RESPIN_MAX], game[G_BLOCK_FROM])
        shapes = rules[SHAPES]
    else:
        walk, terms = kt.ordinary_walk(
            origin, rolls, may_pit, car[kc.C_BOX], game[G_MAX_CHANGES], car[kc.C_BRAKES],
            car[kc.C_TYRES], spun, game[G_BRAKES_PER_SPACE], game[G_TYRES_PER_SPACE],
            game[G_ELIMINATED_MISSING], game[G_RESPIN_MAX], game[G_BLOCK_FROM])
    walked = kp.outcomes_of(
        (track_next, pit_next, pit_entry, lane, lane_index, lane_length, corner, corner_stops,
         in_pit, is_box), (occupied, debris, passable, spots), origin, walk, shapes, terms,
        walk_space, price_space)
    return walked, rolls, terms


@inlined
def roll_moves(cars: Ints, index: int, debris: Ints, roll: int, board: tuple[Ints, ...],
               rules: tuple[Ints, ...], workspace: Workspace) -> Ints:
    """The legal moves of car ``index`` for one roll."""
    rolls = np.empty(1, np.int64)
    rolls[0] = roll
    return moves_after(cars, index, debris, rolls, board, rules, np.empty(0, np.int64), workspace)


@compiled
def roll_starts(moves: Ints) -> Ints:
    """Where each roll's rows begin among ``moves`` (several rolls' moves, roll by roll, as
    :func:`moves_for` gives them): roll ``r``'s rows are ``starts[r]`` to ``starts[r + 1]``."""
    starts = np.empty(65, np.int64)
    at = 0
    for roll in range(65):
        while at < len(moves) and moves[at, kp.M_ROLL] < roll:
            at += 1
        starts[roll] = at
    return starts


@inlined
def rows_of_roll(moves: Ints, roll: int) -> Ints:
    """The rows of ``roll`` among ``moves`` (several rolls' moves, each roll's together, the
    rolls in any order): that roll's moves, as :func:`roll_moves` would find them, for a roll's
    moves do not depend on the other rolls asked with it."""
    first = 0
    while first < len(moves) and moves[first, kp.M_ROLL] != roll:
        first += 1
    end = first
    while end < len(moves) and moves[end, kp.M_ROLL] == roll:
        end += 1
    return moves[first:end].copy()


Found = tuple[Ints, kp.Walked, Ints]
"""What a driver found of the moves of the gear it chose, for the race to read its roll's moves
from rather than walk them again: the moves of every face of the gear (rows, as
:func:`moves_for` gives them), or a walk of the car ready to price any face (:func:`walk_for`'s
walk and terms), or neither (no rows, no terms: the race walks the roll)."""


@inlined
def found_moves(moves: Ints, nothing: Found) -> Found:
    """A driver's find: the moves of every face of its gear (``nothing``: the race's empty find
    of :func:`found_nothing`, whose arrays fill the parts not found, so that no find
    allocates)."""
    return moves, nothing[1], nothing[2]


@inlined
def found_walk(walked: kp.Walked, terms: Ints, nothing: Found) -> Found:
    """A driver's find: a walk of the car for every face of its gear, not yet priced."""
    return nothing[0], walked, terms


@inlined
def found_nothing() -> Found:
    """The find of a driver that looked at no moves (or at moves the car no longer has): made
    once per race, and handed to the drivers to fill in."""
    return np.empty((0, kp.MOVE_COLUMNS), np.int64), _no_walk(), np.empty(0, np.int64)


@inlined
def _no_walk() -> kp.Walked:
    return (np.empty((0, kw.WALK_ROW), np.int64), np.empty((0, kp.FIRST_COLUMNS), np.int64), 0,
            np.empty(0, np.int64), np.zeros(0, np.bool_), np.empty(0, np.int64),
            np.empty(0, np.int64))


@inlined
def moves_of_roll(found: Found, cars: Ints, index: int, debris: Ints, roll: int,
                  board: tuple[Ints, ...], rules: tuple[Ints, ...],
                  workspace: Workspace) -> Ints:
    """The legal moves of car ``index`` for ``roll``, read from what its driver found while it
    chose the gear (priced from its walk, which the workspace still holds), else walked."""
    moves, walked, terms = found
    if len(moves):
        return rows_of_roll(moves, roll)
    if len(terms):
        rolls = np.empty(1, np.int64)
        rolls[0] = roll
        rows, _ = priced(walked, rolls, terms, rules, workspace,
                         np.empty((0, kp.MOVE_COLUMNS), np.int64), 0)
        return rows
    return roll_moves(cars, index, debris, roll, board, rules, workspace)


@inlined
def slipstream_moves(cars: Ints, index: int, debris: Ints, move: Ints,
                     board: tuple[Ints, ...], rules: tuple[Ints, ...],
                     workspace: Workspace) -> Ints:
    """The moves that add slipstream extras to ``move`` (none when it ends in no slipstream)."""
    game = rules[GAME]
    if not game[G_SLIPSTREAM] or not has_leader(cars, index, move, board[IN_PIT], board[AHEAD],
                                                game):
        return np.empty((0, kp.MOVE_COLUMNS), np.int64)
    return moves_after(cars, index, debris, np.empty(0, np.int64), board, rules, move, workspace)


@compiled
def super_start(moves: Ints, cars: Ints, index: int, spaces: int, ahead: Ints) -> Ints:
    """The moves of a super start (see :func:`~trackformat.sim.move.legal.super_start_moves`)."""
    space = cars[index, kc.C_SPACE]
    clear = True
    for _ in range(spaces):
        nxt = ahead[space]
        if nxt < 0 or kr._car_on(cars, nxt, index) >= 0:
            clear = False
            break
        space = nxt
    if clear:
        for i in range(len(moves)):
            if moves[i, kp.M_DEST] == space and moves[i, kp.M_DISTANCE] == spaces:
                return moves[i:i + 1].copy()
    full = np.zeros(len(moves), np.bool_)
    blocked = np.zeros(len(moves), np.bool_)
    for i in range(len(moves)):
        full[i] = (moves[i, kp.M_DISTANCE] == spaces and moves[i, kp.M_BLOCKED] == 0
                   and moves[i, kp.M_BRAKES] == 0)
        blocked[i] = moves[i, kp.M_BLOCKED] > 0
    if full.any():
        return moves[full]
    if blocked.any():
        return moves[blocked]
    return moves


@compiled
def has_leader(cars: Ints, index: int, move: Ints, in_pit: Ints, ahead: Ints,
               game: Ints) -> bool:
    """Whether ``move`` ends in a slipstream (see
    :func:`~trackformat.sim.move.slipstream.slipstream_leader`)."""
    if (move[kp.M_ELIMINATED] != kp.NOT_ELIMINATED or move[kp.M_BOX] or move[kp.M_SPIN]
            or move[kp.M_BLOCKED] or move[kp.M_DISTANCE] != move[kp.M_ROLL]
            or in_pit[move[kp.M_DEST]]):
        return False
    front = ahead[move[kp.M_DEST]]
    leader = kr._car_on(cars, front, index) if front >= 0 else -1
    if leader < 0 or cars[leader, kc.C_STATUS] != kc.RACING:
        return False
    gear, lead = cars[index, kc.C_GEAR], cars[leader, kc.C_GEAR]
    if min(gear, lead) < game[G_SLIP_MIN_GEAR]:
        return False
    return not (game[G_SLIP_AT_LEAST] and gear < lead)
