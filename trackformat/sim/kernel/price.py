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
price alike for every roll), keeps each roll's distinct moves in a table found by a hash of
their key, and sorts them by insertion as they come (a roll has tens of moves).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from trackformat.sim.kernel.jit import compiled, copy_into, inlined
from trackformat.sim.kernel.walk import (
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
    R_PATH,
    BoardTables,
    Setting,
    WalkSpace,
    walk_routes,
)

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

(K_ROLL, K_FIRST, K_CLASS, K_BRAKES, K_TYRES, K_BLOCKED, K_SPIN, K_ELIMINATED, K_DISTANCE,
 K_DEST, K_HASH, K_ORDER) = range(12)
KEPT_COLUMNS = 12
"""A move while pricing: its roll, its route (a row of the walk's table), what it shares
with the moves of routes alike (``K_CLASS``: the same destination, debris, box and overshoots),
what it costs and how it ends (the ``M_*`` columns of the same names), its distance and
destination (for the order), and the hash of its key; ``K_ORDER`` of row n is the row of the
n-th move in the engine's order."""

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


@inlined
def moves_of(board: BoardTables, setting: Setting, origin: Ints, walk: Ints, shapes: Ints,
           rolls: Ints, terms: Ints, block_brakes: Ints, block_tyres: Ints,
           walk_space: WalkSpace, workspace: tuple[Ints, Ints, Ints, Ints]) -> Ints:
    """Walk the routes (:func:`~trackformat.sim.kernel.walk.walk_routes`) and sort them into
    the moves of each of ``rolls`` (full, braking, blocked, pit), as
    :func:`~trackformat.sim.move.legal.collect_moves` does: one row each, roll by roll, each
    roll's distinct moves in the engine's order with the first route that gives them.
    ``terms`` (``T_*``) are the numbers pricing reads; the walk works in ``walk_space``, pricing
    in ``workspace`` and the walk's hash table (see :mod:`~trackformat.sim.kernel.workspace`)."""
    walked = outcomes_of(board, setting, origin, walk, shapes, terms, walk_space, workspace)
    rows, _ = price_rolls(walked, rolls, terms, block_brakes, block_tyres, workspace[1],
                          np.empty((0, MOVE_COLUMNS), np.int64), 0)
    return rows


@compiled
def outcomes_of(board: BoardTables, setting: Setting, origin: Ints, walk: Ints, shapes: Ints,
             terms: Ints, walk_space: WalkSpace, workspace: tuple[Ints, Ints, Ints, Ints],
             ) -> Walked:
    """The routes of ``walk`` walked and sorted into outcomes, ready for
    :func:`price_rolls` to price for any rolls up to the walk's: what does not depend on the
    roll is worked out once, so that a caller may price the rolls it needs one by one."""
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
    size = _slots(outcomes)
    if len(stamp) < size:
        stamp = np.empty(size, np.int64)
    for at in range(size):
        stamp[at] = -1
    return routes, firsts, outcomes, depths, on_track, table, stamp


@inlined
def _slots(outcomes: int) -> int:
    """The slots of pricing's table of moves for a walk of ``outcomes`` outcomes."""
    size = 16
    while size < 2 * outcomes:
        size *= 2
    return size


@compiled
def price_rolls(walked: Walked, rolls: Ints, terms: Ints, block_brakes: Ints,
                block_tyres: Ints, kept: Ints, out: Ints, used: int) -> tuple[Ints, int]:
    """The moves of each of ``rolls`` (sorted, distinct, none past the walk's and none priced
    before from the same walk) from a walk's :func:`outcomes_of`: one row each, roll by roll,
    each roll's distinct moves in the engine's order with the first route that gives them.
    They are written in ``out`` from row ``used`` on (a bigger table when it is full): the table
    and the rows used come back. ``kept`` is a table to work in (the workspace's)."""
    routes, firsts, outcomes, depths, on_track, table, stamp = walked
    if len(kept) < len(rolls) * outcomes:
        kept = np.empty((len(rolls) * outcomes, KEPT_COLUMNS), np.int64)
    mask = _slots(outcomes) - 1
    brakes_left, tyres_left = terms[T_BRAKES_LEFT], terms[T_TYRES_LEFT]
    entry_brakes, entry_tyres = terms[T_ENTRY_BRAKES], terms[T_ENTRY_TYRES]
    per_space = terms[T_BRAKES_PER_SPACE]
    total = 0
    for roll in rolls:
        deepest = min(roll, MAX_DEPTH)
        while deepest >= 0 and not on_track[deepest]:
            deepest -= 1
        blocked_at = deepest if 0 <= deepest < roll else -1
        start = total
        for f in range(outcomes):
            depth = depths[f]
            if depth > roll:
                continue
            # Full, braking, blocked or in the pit lane (see legal._price).
            braking, left_over = 0, -1
            if firsts[f, F_PIT] >= 0:
                if firsts[f, F_PIT] == 0 and not (terms[T_LEAVING_PIT] and depth == roll):
                    continue
            elif depth == blocked_at:
                left_over = roll - depth
            elif depth < roll:
                braking = (roll - depth) * per_space
                if braking > brakes_left:
                    continue  # nobody brakes without the WP (corner entries only add to it)
            entries = firsts[f, F_ENTRIES]
            eliminated = firsts[f, F_ELIMINATED]
            paid_tyres = min(firsts[f, F_OVER_TYRES] + entries * entry_tyres, tyres_left)
            brakes = braking + entries * entry_brakes
            blocked = 0
            if left_over >= 0:
                blocked = left_over
                if left_over >= terms[T_BLOCK_FROM]:
                    if eliminated == NOT_ELIMINATED:
                        eliminated = BY_BLOCKED
                else:
                    cost_brakes = block_brakes[left_over]
                    cost_tyres = block_tyres[left_over]
                    brakes += cost_brakes
                    if (cost_brakes + entries * entry_brakes > brakes_left
                            or cost_tyres > tyres_left - paid_tyres):
                        if eliminated == NOT_ELIMINATED:
                            eliminated = BY_BLOCKED
                    else:
                        paid_tyres += cost_tyres
            if brakes > brakes_left:
                if left_over < 0:
                    continue  # nobody brakes (or pays a corner entry) without the WP
                brakes = brakes_left
            spins = 1 if firsts[f, F_SPIN] and eliminated == NOT_ELIMINATED else 0
            kind = firsts[f, F_CLASS]
            # Each distinct move once (its class, costs, blocking, spin and elimination).
            h = (((((kind * 1000003 + brakes) * 1000003 + paid_tyres) * 1000003 + blocked)
                  * 1000003 + spins) * 1000003 + eliminated)
            h = (h ^ (h >> 29)) & 0x3FFFFFFFFFFFFFFF
            at = h & mask
            seen = False
            while stamp[at] == roll:
                k = table[at]
                if (kept[k, K_HASH] == h and kept[k, K_CLASS] == kind
                        and kept[k, K_BRAKES] == brakes and kept[k, K_TYRES] == paid_tyres
                        and kept[k, K_BLOCKED] == blocked and kept[k, K_SPIN] == spins
                        and kept[k, K_ELIMINATED] == eliminated):
                    seen = True
                    break
                at = (at + 1) & mask
            if seen:
                continue
            table[at] = total
            stamp[at] = roll
            first, dest = firsts[f, F_ROUTE], routes[firsts[f, F_ROUTE], R_END]
            kept[total, K_ROLL], kept[total, K_FIRST], kept[total, K_CLASS] = roll, first, kind
            kept[total, K_BRAKES], kept[total, K_TYRES] = brakes, paid_tyres
            kept[total, K_BLOCKED], kept[total, K_SPIN] = blocked, spins
            kept[total, K_ELIMINATED], kept[total, K_DISTANCE] = eliminated, depth
            kept[total, K_DEST], kept[total, K_HASH] = dest, h
            # Insertion in the engine's order.
            place = total
            while place > start:
                # Before the move there? The moves that do not eliminate the car first, then
                # the longest, the cheapest, by destination, by route.
                b = kept[place - 1, K_ORDER]
                earlier = False
                if (eliminated != NOT_ELIMINATED) != (kept[b, K_ELIMINATED] != NOT_ELIMINATED):
                    earlier = kept[b, K_ELIMINATED] != NOT_ELIMINATED
                elif depth != kept[b, K_DISTANCE]:
                    earlier = depth > kept[b, K_DISTANCE]
                elif brakes + paid_tyres != kept[b, K_BRAKES] + kept[b, K_TYRES]:
                    earlier = brakes + paid_tyres < kept[b, K_BRAKES] + kept[b, K_TYRES]
                elif dest != kept[b, K_DEST]:
                    earlier = dest < kept[b, K_DEST]
                else:
                    other = kept[b, K_FIRST]
                    for i in range(R_PATH, R_PATH + depth):
                        if routes[first, i] != routes[other, i]:
                            earlier = routes[first, i] < routes[other, i]
                            break
                if not earlier:
                    break
                kept[place, K_ORDER] = b
                place -= 1
            kept[place, K_ORDER] = total
            total += 1
    if used + total > len(out):
        grown = np.empty((max(used + total, 2 * len(out)), MOVE_COLUMNS), np.int64)
        for r in range(used):
            copy_into(grown[r], out[r])
        out = grown
    for i in range(total):
        k = kept[i, K_ORDER]
        r = kept[k, K_FIRST]
        row = out[used + i]
        row[M_ROLL], row[M_DEST] = kept[k, K_ROLL], kept[k, K_DEST]
        row[M_BRAKES], row[M_TYRES] = kept[k, K_BRAKES], kept[k, K_TYRES]
        row[M_BLOCKED], row[M_SPIN] = kept[k, K_BLOCKED], kept[k, K_SPIN]
        row[M_ELIMINATED] = kept[k, K_ELIMINATED]
        row[M_DEBRIS], row[M_BOX] = routes[r, R_DEBRIS], routes[r, R_AT_BOX]
        exits = routes[r, R_NEXITS]
        row[M_NEXITS] = exits
        depth = kept[k, K_DISTANCE]
        for e in range(MAX_EXITS):
            if e < exits:
                row[M_EXITS + 3 * e] = routes[r, R_EXITS + 3 * e]
                row[M_EXITS + 3 * e + 1] = depth - routes[r, R_EXITS + 3 * e + 1] + 1
                row[M_EXITS + 3 * e + 2] = routes[r, R_EXITS + 3 * e + 2]
            else:
                row[M_EXITS + 3 * e] = -1
                row[M_EXITS + 3 * e + 1] = -1
                row[M_EXITS + 3 * e + 2] = -1
        row[M_DISTANCE] = depth
        for c in range(depth):
            row[M_ROUTE + c] = routes[r, R_PATH + c]
        for c in range(depth, MAX_DEPTH):
            row[M_ROUTE + c] = -1  # the walk keeps no path past a route's depth
        row[M_ENTRIES] = terms[T_CARRIED] + routes[r, R_ENTRIES]
        row[M_SLIPSTREAM] = terms[T_SLIPSTREAM]
    return out, used + total
