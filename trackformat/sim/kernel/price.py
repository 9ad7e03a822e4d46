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

from trackformat.sim.kernel.jit import compiled
from trackformat.sim.kernel.walk import (
    MAX_DEPTH,
    MAX_EXITS,
    NEVER,
    R_AT_BOX,
    R_DEBRIS,
    R_DEPTH,
    R_END,
    R_ENTRIES,
    R_EXITS,
    R_IN_PIT,
    R_NEXITS,
    R_PATH,
    ROUTE_COLUMNS,
    W_BASE,
    W_CAR_BOX,
    W_ENTRIES_FROM,
    W_LIMITED_UNTIL,
    W_MAX_CHANGES,
    W_MAY_PIT,
    W_OWN_LANE,
    W_ROLL,
    WALK_COLUMNS,
    replayed,
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

K_ROUTE = M_ROUTE
"""While pricing, a move is kept as its columns up to the distance, then the row of its route
in the walk's table (``K_ROUTE``) and the hash of its key (``K_HASH``)."""
K_HASH = K_ROUTE + 1
KEPT_COLUMNS = K_HASH + 1

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


@compiled
def _price(route: Ints, move: Ints, roll: int, braking: int, left_over: int, terms: Ints,
           block_brakes: Ints, block_tyres: Ints) -> bool:
    """Write the move of a route into ``move`` (its columns up to the distance; see
    :func:`trackformat.sim.move.legal._price`); False for a braking move the car has not the
    brakes WP for. ``left_over`` -1: not blocked."""
    depth = route[R_DEPTH]
    brakes_left, tyres_left = terms[T_BRAKES_LEFT], terms[T_TYRES_LEFT]
    entries = terms[T_CARRIED] + route[R_ENTRIES]
    entry_brakes, entry_tyres = terms[T_ENTRY_BRAKES], terms[T_ENTRY_TYRES]
    beyond, most_missing = 0, -1
    for e in range(route[R_NEXITS]):
        spaces = depth - route[R_EXITS + 3 * e + 1] + 1
        missing = route[R_EXITS + 3 * e + 2]
        move[M_EXITS + 3 * e] = route[R_EXITS + 3 * e]
        move[M_EXITS + 3 * e + 1] = spaces
        move[M_EXITS + 3 * e + 2] = missing
        beyond += spaces
        most_missing = max(most_missing, missing)
    for c in range(M_EXITS + 3 * route[R_NEXITS], M_DISTANCE):
        move[c] = -1
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
        elif over_tyres > tyres_left:
            eliminated = BY_OVERSHOOT
        elif over_tyres == tyres_left:
            spin = True
    paid_tyres = min(over_tyres + entries * entry_tyres, tyres_left)
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
            return False
        brakes = brakes_left
    move[M_ROLL] = roll
    move[M_DEST] = route[R_END]
    move[M_BRAKES] = brakes
    move[M_TYRES] = paid_tyres
    move[M_BLOCKED] = blocked
    move[M_SPIN] = 1 if spin and eliminated == NOT_ELIMINATED else 0
    move[M_ELIMINATED] = eliminated
    move[M_DEBRIS] = route[R_DEBRIS]
    move[M_BOX] = route[R_AT_BOX]
    move[M_NEXITS] = route[R_NEXITS]
    move[M_DISTANCE] = depth
    return True


@compiled
def _before(a: Ints, b: Ints, routes: Ints) -> bool:
    """Whether move ``a`` comes before ``b`` in the engine's order: the moves that do not
    eliminate the car first, then the longest, the cheapest, by destination, by route (the
    moves' routes are rows of ``routes``)."""
    a_out, b_out = a[M_ELIMINATED] != NOT_ELIMINATED, b[M_ELIMINATED] != NOT_ELIMINATED
    if a_out != b_out:
        return bool(b_out)
    if a[M_DISTANCE] != b[M_DISTANCE]:
        return bool(a[M_DISTANCE] > b[M_DISTANCE])
    a_cost, b_cost = a[M_BRAKES] + a[M_TYRES], b[M_BRAKES] + b[M_TYRES]
    if a_cost != b_cost:
        return bool(a_cost < b_cost)
    if a[M_DEST] != b[M_DEST]:
        return bool(a[M_DEST] < b[M_DEST])
    a_route, b_route = routes[a[K_ROUTE]], routes[b[K_ROUTE]]
    for i in range(R_PATH, R_PATH + a[M_DISTANCE]):
        if a_route[i] != b_route[i]:
            return bool(a_route[i] < b_route[i])
    return False


@compiled
def _outcomes(routes: Ints, count: int, min_depth: int) -> Ints:
    """The rows of ``routes`` that are the first of their outcome (end, depth, overshoots,
    debris, box, corner entries), in the walk's order, leaving out those shorter than
    ``min_depth``: routes with the same outcome price alike, so only the first can give a
    move (a move keeps the first route that gives it)."""
    firsts = np.empty(count, np.int64)
    hashes = np.empty(count, np.int64)
    size = 16
    while size < 2 * count:
        size *= 2
    table = np.full(size, -1, np.int64)
    found = 0
    for r in range(count):
        route = routes[r]
        if route[R_DEPTH] < min_depth:
            continue
        last = R_EXITS + 3 * route[R_NEXITS]
        h = route[R_END]
        for c in (R_DEPTH, R_NEXITS, R_DEBRIS, R_AT_BOX, R_ENTRIES, R_IN_PIT):
            h = h * 1000003 + route[c]
        for c in range(R_EXITS, last):
            h = h * 1000003 + route[c]
        h = (h ^ (h >> 29)) & 0x3FFFFFFFFFFFFFFF
        at = h & (size - 1)
        seen = False
        while table[at] >= 0:
            k = table[at]
            other = routes[firsts[k]]
            if hashes[k] == h:
                seen = True
                for c in (R_END, R_DEPTH, R_NEXITS, R_DEBRIS, R_AT_BOX, R_ENTRIES, R_IN_PIT):
                    if route[c] != other[c]:
                        seen = False
                if seen:
                    for c in range(R_EXITS, last):
                        if route[c] != other[c]:
                            seen = False
                if seen:
                    break
            at = (at + 1) & (size - 1)
        if seen:
            continue
        table[at] = found
        hashes[found] = h
        firsts[found] = r
        found += 1
    return firsts[:found]


@compiled
def _moves(routes: Ints, count: int, rolls: Ints, terms: Ints, block_brakes: Ints,
           block_tyres: Ints, pit_next: Ints, is_box: Ints, occupied: Ints) -> Ints:
    """Sort the walked routes into the moves of each of ``rolls`` (full, braking, blocked,
    pit), as :func:`~trackformat.sim.move.legal.collect_moves` does: one row each, roll by
    roll, each roll's distinct moves in the engine's order with the first route that gives
    them. ``terms`` (``T_*``) are the numbers pricing reads."""
    firsts = _outcomes(routes, count, terms[T_MIN_DEPTH])
    # The depths of the routes on the track: the deepest one not past a roll is where cars
    # block every way when it is short of the roll.
    on_track = np.zeros(MAX_DEPTH + 1, np.bool_)
    for r in firsts:
        if not routes[r, R_IN_PIT]:
            on_track[routes[r, R_DEPTH]] = True
    room = len(rolls) * len(firsts)
    kept = np.empty((room, KEPT_COLUMNS), np.int64)
    order = np.empty(room, np.int64)
    size = 16
    while size < 2 * len(firsts):
        size *= 2
    table = np.empty(size, np.int64)
    mask = size - 1
    total = 0
    for roll in rolls:
        deepest = min(roll, MAX_DEPTH)
        while deepest >= 0 and not on_track[deepest]:
            deepest -= 1
        blocked_at = deepest if 0 <= deepest < roll else -1
        table[:] = -1
        first = total
        for r in firsts:
            route = routes[r]
            depth = route[R_DEPTH]
            if depth > roll:
                continue
            move = kept[total]
            if route[R_IN_PIT]:
                waiting = False
                for v in pit_next[route[R_END]]:
                    if v < 0:
                        break
                    if occupied[v] and (not is_box[v] or v == terms[T_CAR_BOX]):
                        waiting = True
                if not (route[R_AT_BOX] or waiting or (terms[T_LEAVING_PIT] and depth == roll)):
                    continue
                priced = _price(route, move, roll, 0, -1, terms, block_brakes, block_tyres)
            elif depth == roll:
                priced = _price(route, move, roll, 0, -1, terms, block_brakes, block_tyres)
            elif depth == blocked_at:
                priced = _price(route, move, roll, 0, roll - depth, terms, block_brakes,
                                block_tyres)
            else:
                priced = _price(route, move, roll, (roll - depth) * terms[T_BRAKES_PER_SPACE],
                                -1, terms, block_brakes, block_tyres)
            if not priced:
                continue
            # Each distinct move once: its key is every column before the distance.
            h = 0
            for c in range(M_DISTANCE):
                h = h * 1000003 + move[c]
            h = (h ^ (h >> 29)) & 0x3FFFFFFFFFFFFFFF
            at = h & mask
            seen = False
            while table[at] >= 0:
                other = kept[table[at]]
                if other[K_HASH] == h:
                    seen = True
                    for c in range(M_DISTANCE):
                        if move[c] != other[c]:
                            seen = False
                            break
                    if seen:
                        break
                at = (at + 1) & mask
            if seen:
                continue
            table[at] = total
            move[K_ROUTE] = r
            move[K_HASH] = h
            # Insertion in the engine's order.
            place = total
            while place > first and _before(move, kept[order[place - 1]], routes):
                order[place] = order[place - 1]
                place -= 1
            order[place] = total
            total += 1
    rows = np.empty((total, MOVE_COLUMNS), np.int64)
    for i in range(total):
        move, row = kept[order[i]], rows[i]
        route = routes[move[K_ROUTE]]
        row[:M_ROUTE] = move[:M_ROUTE]
        row[M_ROUTE:M_ENTRIES] = route[R_PATH:ROUTE_COLUMNS]
        row[M_ENTRIES] = terms[T_CARRIED] + route[R_ENTRIES]
        row[M_SLIPSTREAM] = terms[T_SLIPSTREAM]
    return rows


@compiled
def _terms(brakes_left: int, tyres_left: int, spun: bool, brakes_per_space: int,
           tyres_per_space: int, eliminated_missing: int, respin_max: int, block_from: int,
           leaving_pit: bool, car_box: int) -> Ints:
    """The ``T_*`` numbers of an ordinary move (no slipstream extras)."""
    terms = np.zeros(TERMS, np.int64)
    terms[T_BRAKES_LEFT], terms[T_TYRES_LEFT], terms[T_SPUN] = brakes_left, tyres_left, spun
    terms[T_BRAKES_PER_SPACE], terms[T_TYRES_PER_SPACE] = brakes_per_space, tyres_per_space
    terms[T_ELIMINATED_MISSING], terms[T_RESPIN_MAX] = eliminated_missing, respin_max
    terms[T_BLOCK_FROM], terms[T_LEAVING_PIT], terms[T_CAR_BOX] = block_from, leaving_pit, car_box
    return terms


@compiled
def legal_move_rows(track_next: Ints, pit_next: Ints, pit_entry: Ints, lane: Ints,
                    lane_index: Ints, lane_length: Ints, corner: Ints, corner_stops: Ints,
                    in_pit: Ints, is_box: Ints, origin: Ints, occupied: Ints, debris: Ints,
                    passable: Ints, passable_count: Ints, rolls: Ints, may_pit: bool,
                    car_box: int, max_changes: int, brakes_left: int, tyres_left: int,
                    spun: bool, brakes_per_space: int, tyres_per_space: int,
                    eliminated_missing: int, respin_max: int, block_from: int,
                    block_brakes: Ints, block_tyres: Ints) -> Ints:
    """Every distinct legal move of a car for each of ``rolls`` (sorted, distinct), one row
    each (``M_*`` columns, the roll in ``M_ROLL``), roll by roll in the engine's order.

    ``origin`` is the route of no space (the car where it stands, its corner and stops);
    ``occupied`` and ``debris`` flag the spaces of the other cars and the debris markers;
    ``passable`` lists, per lane, the positions of the cars and debris in it. The routes are
    walked once, for the largest roll: a smaller roll's routes are the shorter ones among
    them (as in :func:`~trackformat.sim.move.legal.legal_moves_by_roll`)."""
    board = (track_next, pit_next, pit_entry, lane, lane_index, lane_length, corner,
             corner_stops, in_pit, is_box)
    setting = (occupied, debris, passable, passable_count)
    walk = np.empty(WALK_COLUMNS, np.int64)
    walk[W_BASE], walk[W_OWN_LANE] = -1, -1
    walk[W_LIMITED_UNTIL], walk[W_ENTRIES_FROM] = NEVER, NEVER
    walk[W_ROLL], walk[W_MAY_PIT], walk[W_CAR_BOX] = rolls[-1], may_pit, car_box
    walk[W_MAX_CHANGES] = max_changes
    routes, count = walk_routes(board, setting, origin, walk, np.zeros((1, 1), np.int64))
    terms = _terms(brakes_left, tyres_left, spun, brakes_per_space, tyres_per_space,
                   eliminated_missing, respin_max, block_from, origin[R_IN_PIT] == 1, car_box)
    return _moves(routes, count, rolls, terms, block_brakes, block_tyres, pit_next, is_box,
                  occupied)


@compiled
def slipstream_rows(track_next: Ints, pit_next: Ints, pit_entry: Ints, lane: Ints,
                    lane_index: Ints, lane_length: Ints, corner: Ints, corner_stops: Ints,
                    in_pit: Ints, is_box: Ints, origin: Ints, occupied: Ints, debris: Ints,
                    passable: Ints, passable_count: Ints, move: Ints, extra_spaces: int,
                    shapes: Ints, entry_brakes: int, entry_tyres: int, may_pit: bool,
                    car_box: int, max_changes: int, brakes_left: int, tyres_left: int,
                    spun: bool, brakes_per_space: int, tyres_per_space: int,
                    eliminated_missing: int, respin_max: int, block_from: int,
                    block_brakes: Ints, block_tyres: Ints) -> Ints:
    """The moves that add slipstream extras to ``move`` (a move row whose slipstream
    conditions hold), in the engine's order, as
    :func:`~trackformat.sim.move.slipstream.slipstream_moves` gives them; no rows when the
    extras cannot be taken."""
    board = (track_next, pit_next, pit_entry, lane, lane_index, lane_length, corner,
             corner_stops, in_pit, is_box)
    setting = (occupied, debris, passable, passable_count)
    distance = move[M_DISTANCE]
    roll = move[M_ROLL] + extra_spaces
    walk = np.empty(WALK_COLUMNS, np.int64)
    walk[W_BASE] = distance
    walk[W_OWN_LANE] = lane[move[M_DEST]]
    walk[W_LIMITED_UNTIL] = move[M_ROLL] - extra_spaces * move[M_SLIPSTREAM]
    walk[W_ENTRIES_FROM] = distance + 1
    walk[W_ROLL], walk[W_MAY_PIT], walk[W_CAR_BOX] = roll, may_pit, car_box
    walk[W_MAX_CHANGES] = max_changes
    path = replayed(board, setting, origin, move[M_ROUTE:M_ENTRIES], distance, walk, shapes)
    if len(path) == 0:
        return np.empty((0, MOVE_COLUMNS), np.int64)
    routes, count = walk_routes(board, setting, path, walk, shapes)
    terms = _terms(brakes_left, tyres_left, spun, brakes_per_space, tyres_per_space,
                   eliminated_missing, respin_max, block_from, origin[R_IN_PIT] == 1, car_box)
    terms[T_MIN_DEPTH] = distance + 1
    terms[T_CARRIED] = move[M_ENTRIES]
    terms[T_ENTRY_BRAKES], terms[T_ENTRY_TYRES] = entry_brakes, entry_tyres
    terms[T_SLIPSTREAM] = move[M_SLIPSTREAM] + 1
    return _moves(routes, count, np.array([roll], np.int64), terms, block_brakes, block_tyres,
                  pit_next, is_box, occupied)
