"""What the cautious driver calls a safe move, in compiled code (see
:meth:`~trackformat.sim.drivers.bots.CautiousDriver.safe`): of a move row, of a face's moves read
straight from a walk, and, before any walk, of every place a face's routes may end.

The driver weighs a gear face by face and gives it up at the first face that leaves no safe
move. Most gears it weighs it gives up, most often the highest, whose routes are the longest to
walk: :func:`no_safe_end` rules a face out from where its routes may end
(:func:`~trackformat.sim.kernel.reach.reach`), so that the walk need only go as deep as the
highest gear still in question. It only ever rules out a face that has no safe move, so the
driver's choices are the same, move for move.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from trackformat.sim.kernel import cars as kc
from trackformat.sim.kernel import price as kp
from trackformat.sim.kernel import route_rows as kw
from trackformat.sim.kernel.game import (
    CORNER,
    CORNER_STOPS,
    F_BLOCK_BRAKES,
    F_BLOCK_TYRES,
    FLAGS,
    G_BLOCK_FROM,
    G_BRAKES_PER_SPACE,
    G_TYRES_PER_SPACE,
    GAME,
    IN_PIT,
)
from trackformat.sim.kernel.jit import borrow, compiled, inlined
from trackformat.sim.kernel.reach import SHORT, STANDINGS
from trackformat.sim.kernel.rolls import blocked_depth, outcome_price

Ints = npt.NDArray[np.int64]

Tables = tuple[Ints, Ints, Ints]
"""What the driver reads (:func:`~trackformat.sim.kernel.cautious.tables`): the room to slow down
by space (column 0: the corner's stops still to make, 1: made; :data:`NO_ROOM`: no corner
near), the dice, and the driver's numbers (``K_*``)."""

K_OVERSHOOT_TYRES, K_RESERVE_BRAKES = range(2)
NO_ROOM = -1

D_COUNT = 63
"""In a row of the dice table, the number of distinct faces (and, in the multiplicity rows,
the number of faces)."""


@inlined
def safe(tables: Tables, car: Ints, move: Ints, board: tuple[Ints, ...]) -> bool:
    """Whether ``move`` keeps the car (its row as the move is chosen) in the race within the
    driver's margins (see :meth:`~trackformat.sim.drivers.bots.CautiousDriver.safe`)."""
    return safe_end(tables, car, move[kp.M_ELIMINATED], move[kp.M_SPIN], move[kp.M_TYRES],
                    move[kp.M_BRAKES], move[kp.M_DEST], move[kp.M_NEXITS], move, kp.M_ROUTE,
                    move[kp.M_DISTANCE], board)


@inlined
def safe_end(tables: Tables, car: Ints, eliminated: int, spin: int, tyres: int, brakes: int,
             destination: int, exits: int, path: Ints, path_at: int, distance: int,
             board: tuple[Ints, ...]) -> bool:
    """:func:`safe` for a move told by its parts: how it ends, what it costs, where it ends,
    the corners it leaves short, and its ``distance`` spaces entered, in ``path`` from
    ``path_at`` on (a move row's route, or a walk's route row: the driver asks both).
    Written into its callers: asked of nearly every move, a call handing down the board's
    arrays cost more than the answer."""
    room_of, dice, numbers = tables
    if eliminated != kp.NOT_ELIMINATED or spin:
        return False
    if tyres > min(numbers[K_OVERSHOOT_TYRES], car[kc.C_TYRES] - 1):
        return False
    reserve = numbers[K_RESERVE_BRAKES]
    if brakes and brakes > car[kc.C_BRAKES] - reserve:
        return False
    if board[IN_PIT][destination]:
        return True
    corner = board[CORNER]
    here = corner[destination]
    if here < 0:
        stops = 0
    else:
        stayed = car[kc.C_CORNER] == here
        for i in range(distance):
            if corner[path[path_at + i]] != here:
                stayed = False
        # An overshooting move's stop never counts for this driver, whatever the rules say.
        stops = car[kc.C_STOPS] + 1 if stayed else (0 if exits > 0 else 1)
    done = 1 if here >= 0 and stops >= board[CORNER_STOPS][here] else 0
    room = room_of[destination, done]
    if room == NO_ROOM:
        return True
    budget = max(0, car[kc.C_BRAKES] - brakes - reserve)
    slower = max(1, car[kc.C_GEAR] - 1)
    return bool(dice[len(dice) - 1, slower] <= room + budget)


@compiled
def face_safe(tables: Tables, car: Ints, walked: kp.Walked, terms: Ints, face: int,
               rules: tuple[Ints, ...], board: tuple[Ints, ...]) -> bool:
    """Whether a move of ``face`` is :func:`safe` for ``car``, read from the walk's outcomes as
    pricing reads them (:func:`~trackformat.sim.kernel.rolls.outcome_price`). A move is the
    first outcome that gives it, and whether it is safe may hang on its route (a stop made in
    a corner): an outcome found safe counts only if no earlier one gives the same move."""
    routes, firsts, outcomes, depths, on_track, _, _ = walked
    flags = rules[FLAGS]
    # Handed to the helpers below on every pass: borrowed, so that none is counted in and out.
    routes, firsts, depths, terms, car, block_brakes, block_tyres = borrow(
        (routes, firsts, depths, terms, car, flags[F_BLOCK_BRAKES], flags[F_BLOCK_TYRES]))
    blocked_at = blocked_depth(on_track, face)
    # The routes' rows end to end: a row taken out of the table for each outcome would be an
    # array counted in and out every time.
    paths = routes.reshape(-1)
    for f in range(outcomes):
        depth = depths[f]
        if depth > face:
            continue
        is_move, brakes, tyres, blocked, spins, eliminated = outcome_price(
            firsts, f, depth, face, blocked_at, terms, block_brakes, block_tyres)
        if not is_move:
            continue
        r = firsts[f, kp.F_ROUTE]
        if not safe_end(tables, car, eliminated, spins, tyres, brakes, routes[r, kw.R_END],
                        routes[r, kw.R_NEXITS], paths, r * routes.shape[1] + kw.R_PATH, depth,
                        board):
            continue
        first = True
        for e in range(f):
            if depths[e] > face or firsts[e, kp.F_CLASS] != firsts[f, kp.F_CLASS]:
                continue
            earlier = outcome_price(firsts, e, depths[e], face, blocked_at, terms,
                                    block_brakes, block_tyres)
            if (earlier[0] and earlier[1] == brakes and earlier[2] == tyres
                    and earlier[3] == blocked and earlier[4] == spins
                    and earlier[5] == eliminated):
                first = False  # the same move, already found unsafe
                break
        if first:
            return True
    return False


@compiled
def no_safe_end(tables: Tables, car: Ints, face: int, ends: Ints, counts: Ints,
                board: tuple[Ints, ...], rules: tuple[Ints, ...]) -> bool:
    """Whether ``face`` surely leaves ``car`` (its row in the gear weighed) no safe move, told
    from where its routes may end (``ends`` and ``counts``, from
    :func:`~trackformat.sim.kernel.reach.reach` for at least ``face`` spaces) rather than from
    its routes. False when it cannot tell.

    Every end ``d`` spaces away could be a move that stops ``face - d`` short: braking, or
    blocked by cars. It could be a safe one unless each of these holds: the stop short costs
    more brakes than the driver spends; the end is not in the pit lane; the route left a
    corner short of its stops (an overshoot costs tyres WP, which the driver never pays unless
    it allows some); or from the end, whatever stops the move may have made there, the next
    gear down could not slow the car before the corner ahead, even with every brakes WP the
    driver may spend."""
    room_of, dice, numbers = tables
    game, flags = rules[GAME], rules[FLAGS]
    corner, corner_stops, in_pit = board[CORNER], board[CORNER_STOPS], board[IN_PIT]
    spare = car[kc.C_BRAKES] - numbers[K_RESERVE_BRAKES]
    budget = max(0, spare)
    need = dice[len(dice) - 1, max(1, car[kc.C_GEAR] - 1)]
    short_unsafe = numbers[K_OVERSHOOT_TYRES] == 0 and game[G_TYRES_PER_SPACE] > 0
    block_brakes = flags[F_BLOCK_BRAKES]
    if face >= len(counts):
        return False
    for d in range(face + 1):
        if counts[d] < 0:
            return False
        left = face - d
        stops_here = left == 0
        if not stops_here:
            braking = left * game[G_BRAKES_PER_SPACE]
            stops_here = braking == 0 or braking <= spare
            if not stops_here and left < game[G_BLOCK_FROM]:
                stops_here = block_brakes[left] == 0 or block_brakes[left] <= spare
        for e in range(counts[d]):
            space, standing = ends[d, e] // STANDINGS, ends[d, e] % STANDINGS
            if in_pit[space]:
                return False  # a move in the pit lane may stop short for free, and is safe
            if not stops_here or (standing == SHORT and short_unsafe):
                continue
            here = corner[space]
            if here < 0:
                if _room_enough(room_of[space, 0], budget, need):
                    return False
                continue
            # The stops made there: one, none after an overshoot, or one more than the car
            # had if it never left the corner it is counting.
            stops = 0 if standing == SHORT else 1
            if _room_enough(room_of[space, 1 if stops >= corner_stops[here] else 0], budget,
                            need):
                return False
            if car[kc.C_CORNER] == here:
                stops = car[kc.C_STOPS] + 1
                if _room_enough(room_of[space, 1 if stops >= corner_stops[here] else 0],
                                budget, need):
                    return False
    return True


@inlined
def _room_enough(room: int, budget: int, need: int) -> bool:
    """Whether an end with ``room`` to slow down (:data:`NO_ROOM`: no corner near) and at most
    ``budget`` brakes WP to spend could leave room for ``need`` spaces."""
    return room == NO_ROOM or need <= room + budget
