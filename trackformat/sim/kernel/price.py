"""Routes priced into moves, in the readable engine's order, as compiled code.

The same reading as :func:`trackformat.sim.move.legal.collect_moves` and its ``_price``: a
route that covers the roll is a full move; a shorter one brakes (brakes WP per space not
covered) unless cars block every way, when the deepest routes pay the blocking table; a route in
the pit lane is a move only at the box, waiting behind a car, or covering its roll on the way
out. Each distinct move keeps the first route that gives it, and the moves are sorted as the
engine sorts them (those that do not eliminate first, the longest first, the cheapest first,
then by destination and route: space numbers sort as their ids do).

A move is a row of :data:`MOVE_COLUMNS` ints (the ``M_*`` columns).

Many routes give the same move; pricing works on one route per outcome (the first, in the walk's
order, of the routes with the same end, depth, overshoots, debris, box and corner entries: they
price alike for every roll). This module holds the move's layout and sorts a walk's routes into
outcomes (:func:`outcomes_of`), once per walk; :mod:`~trackformat.sim.kernel.rolls` prices
them into each roll's moves.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from trackformat.sim.kernel.jit import compiled, inlined
from trackformat.sim.kernel.route_rows import (
    MAX_DEPTH,
    MAX_EXITS,
    R_AT_BOX,
    R_DEBRIS,
    R_DEPTH,
    R_END,
    R_ENTRIES,
    R_EXITS,
    R_IN_PIT,
    R_NEXITS,
    BoardTables,
    Setting,
    WalkSpace,
)
from trackformat.sim.kernel.walk import walk_routes

Ints = npt.NDArray[np.int64]

(M_ROLL, M_DEST, M_BRAKES, M_TYRES, M_BLOCKED, M_SPIN, M_ELIMINATED, M_DEBRIS, M_BOX,
 M_NEXITS) = range(10)
M_EXITS = 10
M_DISTANCE = M_EXITS + 3 * MAX_EXITS
"""The first column after a move's key: its distance, then its route."""
M_ROUTE = M_DISTANCE + 1
M_ENTRIES = M_ROUTE + MAX_DEPTH
"""Corners entered during slipstream extras (their cost is in the brakes and tyres)."""
M_SLIPSTREAM = M_ENTRIES + 1
"""How many slipstream extras the move includes."""
MOVE_COLUMNS = M_SLIPSTREAM + 1

(F_ROUTE, F_CLASS, F_OVER_TYRES, F_ELIMINATED, F_SPIN, F_ENTRIES, F_PIT, F_HASH,
 F_CLASS_HASH) = range(9)
FIRST_COLUMNS = 9
"""What pricing knows of a route before the roll is known: its row in the walk's table, its
class (routes alike: same destination, debris, box and overshoots), the tyres WP, elimination
and spin of its overshoots, the corners it enters (carried ones included), and, in the pit
lane, whether it ends at the box or behind a car (-1 on the track); then the hashes of its
outcome and of its class."""

(T_BRAKES_LEFT, T_TYRES_LEFT, T_SPUN, T_BRAKES_PER_SPACE, T_TYRES_PER_SPACE,
 T_ELIMINATED_MISSING, T_RESPIN_MAX, T_BLOCK_FROM, T_MIN_DEPTH, T_CARRIED, T_ENTRY_BRAKES,
 T_ENTRY_TYRES, T_SLIPSTREAM, T_LEAVING_PIT, T_CAR_BOX) = range(15)
TERMS = 15
"""The numbers pricing reads: the car's brakes and tyres WP, whether it is spun; the rules'
brakes WP per space, tyres WP per space beyond a corner, missing stops that eliminate, spaces a
spun car may overshoot, spaces left over that eliminate a blocked car; then what slipstream
extras add (the depth the extras start after, the corners entered in earlier extras, the brakes
and tyres WP of a corner entry, the extras' count); whether the car leaves the pit lane, and
its box."""

NOT_ELIMINATED, BY_MISSED_STOPS, BY_OVERSHOOT, BY_SPIN, BY_BLOCKED = 0, 1, 2, 3, 4
"""Why a move eliminates the car (the M_ELIMINATED column)."""


Walked = tuple[Ints, Ints, int, Ints, npt.NDArray[np.bool_], Ints, Ints]
"""A walk made ready to price (:func:`outcomes_of`): the walk's routes, the first route of each
outcome (``F_*`` columns) and how many there are, their depths, which depths have a route on
the track, and the hash table pricing works in with its stamps. Valid until the workspace walks
again."""


@compiled
def outcomes_of(board: BoardTables, setting: Setting, origin: Ints, walk: Ints, shapes: Ints,
             terms: Ints, walk_space: WalkSpace, workspace: tuple[Ints, Ints, Ints, Ints],
             ) -> Walked:
    """The routes of ``walk`` walked and sorted into outcomes, ready for
    :func:`~trackformat.sim.kernel.rolls.price_rolls` to price for any rolls up to the walk's:
    what does not depend on the roll is worked out once, so that a caller may price the rolls
    it needs one by one."""
    routes, count = walk_routes(board, setting, origin, walk, shapes, walk_space)
    pit_next, is_box, occupied = board[1], board[9], setting[0]
    firsts, _, stamp, depths = workspace
    table = walk_space[1]
    # One row (F_* columns) for each route that is the first of its outcome (end, depth,
    # overshoots, debris, box, corner entries), in the walk's order, leaving out those shorter
    # than T_MIN_DEPTH: routes with the same outcome price alike, so only the first can give a
    # move (a move keeps the first route that gives it).
    if len(firsts) < count:
        firsts = np.empty((count, FIRST_COLUMNS), np.int64)
    kinds = 0
    size = 16
    while size < 2 * count:
        size *= 2
    mask = size - 1
    # Two hash tables of rows of firsts: by outcome, then (from ``size`` on) by class.
    if len(table) < 2 * size:
        table = np.empty(2 * size, np.int64)
    for at in range(2 * size):
        table[at] = -1
    outcomes = 0
    for r in range(count):
        depth = routes[r, R_DEPTH]
        if depth < terms[T_MIN_DEPTH]:
            continue
        last = R_EXITS + 3 * routes[r, R_NEXITS]
        h = routes[r, R_END]
        for c in (R_DEPTH, R_NEXITS, R_DEBRIS, R_AT_BOX, R_ENTRIES, R_IN_PIT):
            h = h * 1000003 + routes[r, c]
        for c in range(R_EXITS, last):
            h = h * 1000003 + routes[r, c]
        h = (h ^ (h >> 29)) & 0x3FFFFFFFFFFFFFFF
        at = h & mask
        seen = False
        while table[at] >= 0:
            k = table[at]
            if firsts[k, F_HASH] == h:
                other = firsts[k, F_ROUTE]
                seen = True
                for c in (R_END, R_DEPTH, R_NEXITS, R_DEBRIS, R_AT_BOX, R_ENTRIES, R_IN_PIT):
                    if routes[r, c] != routes[other, c]:
                        seen = False
                for c in range(R_EXITS, last):
                    if routes[r, c] != routes[other, c]:
                        seen = False
                if seen:
                    break
            at = (at + 1) & mask
        if seen:
            continue
        table[at] = outcomes
        firsts[outcomes, F_HASH] = h
        firsts[outcomes, F_ROUTE] = r
        # The class: destination, debris, box and overshoots as the move shows them.
        h = routes[r, R_END]
        for c in (R_DEBRIS, R_AT_BOX, R_NEXITS):
            h = h * 1000003 + routes[r, c]
        beyond, most_missing = 0, -1
        for c in range(R_EXITS, last, 3):
            spaces = depth - routes[r, c + 1] + 1
            h = ((h * 1000003 + routes[r, c]) * 1000003 + spaces) * 1000003 + routes[r, c + 2]
            beyond += spaces
            most_missing = max(most_missing, routes[r, c + 2])
        h = (h ^ (h >> 29)) & 0x3FFFFFFFFFFFFFFF
        at = h & mask
        kind = -1
        while table[size + at] >= 0:
            k = table[size + at]
            if firsts[k, F_CLASS_HASH] == h:
                other = firsts[k, F_ROUTE]
                kind = firsts[k, F_CLASS]
                for c in (R_END, R_DEBRIS, R_AT_BOX, R_NEXITS):
                    if routes[r, c] != routes[other, c]:
                        kind = -1
                other_depth = routes[other, R_DEPTH]
                for c in range(R_EXITS, last, 3):
                    if (routes[r, c] != routes[other, c]
                            or routes[r, c + 2] != routes[other, c + 2]
                            or depth - routes[r, c + 1] != other_depth - routes[other, c + 1]):
                        kind = -1
                if kind >= 0:
                    break
            at = (at + 1) & mask
        if kind < 0:
            kind = kinds
            kinds += 1
            table[size + at] = outcomes
        firsts[outcomes, F_CLASS_HASH] = h
        firsts[outcomes, F_CLASS] = kind
        # The overshoots' price does not depend on the roll.
        over_tyres = beyond * terms[T_TYRES_PER_SPACE]
        eliminated = NOT_ELIMINATED
        spin = False
        if most_missing >= terms[T_ELIMINATED_MISSING]:
            eliminated = BY_MISSED_STOPS
        elif over_tyres > 0:
            if terms[T_SPUN]:
                if beyond <= terms[T_RESPIN_MAX]:
                    spin = True
                else:
                    eliminated = BY_SPIN
            elif over_tyres > terms[T_TYRES_LEFT]:
                eliminated = BY_OVERSHOOT
            elif over_tyres == terms[T_TYRES_LEFT]:
                spin = True
        firsts[outcomes, F_OVER_TYRES] = over_tyres
        firsts[outcomes, F_ELIMINATED] = eliminated
        firsts[outcomes, F_SPIN] = spin
        firsts[outcomes, F_ENTRIES] = terms[T_CARRIED] + routes[r, R_ENTRIES]
        firsts[outcomes, F_PIT] = -1
        if routes[r, R_IN_PIT]:
            waiting = False
            for k in range(pit_next.shape[1]):
                v = pit_next[routes[r, R_END], k]
                if v < 0:
                    break
                if occupied[v] and (not is_box[v] or v == terms[T_CAR_BOX]):
                    waiting = True
            firsts[outcomes, F_PIT] = 1 if routes[r, R_AT_BOX] or waiting else 0
        outcomes += 1
    # The depths of the routes on the track: the deepest one not past a roll is where cars
    # block every way when it is short of the roll.
    on_track = np.zeros(MAX_DEPTH + 1, np.bool_)
    for f in range(outcomes):
        if firsts[f, F_PIT] < 0:
            on_track[routes[firsts[f, F_ROUTE], R_DEPTH]] = True
    if len(depths) < outcomes:
        depths = np.empty(outcomes, np.int64)
    for f in range(outcomes):
        depths[f] = routes[firsts[f, F_ROUTE], R_DEPTH]
    # Pricing's table of moves: a slot is in use for the roll ``stamp`` holds, so that no roll
    # has to empty it (each roll is priced once per walk).
    size = table_slots(outcomes)
    if len(stamp) < size:
        stamp = np.empty(size, np.int64)
    for at in range(size):
        stamp[at] = -1
    return routes, firsts, outcomes, depths, on_track, table, stamp


@inlined
def table_slots(outcomes: int) -> int:
    """The slots of pricing's table of moves for a walk of ``outcomes`` outcomes."""
    size = 16
    while size < 2 * outcomes:
        size *= 2
    return size
