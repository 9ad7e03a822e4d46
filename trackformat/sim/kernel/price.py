"""Routes priced into moves, in the readable engine's order, as compiled code.

The same reading as :func:`trackformat.sim.move.legal.collect_moves` and its ``_price``: a
route that covers the roll is a full move; a shorter one brakes (brakes WP per space not
covered) unless cars block every way, when the deepest routes pay the blocking table; a route in
the pit lane is a move only at the box, waiting behind a car, or covering its roll on the way
out. Each distinct move keeps the first route that gives it, and the moves are sorted as the
engine sorts them (those that do not eliminate first, the longest first, the cheapest first,
then by destination and route: space numbers sort as their ids do).

A move is a row of :data:`MOVE_COLUMNS` ints (the ``M_*`` columns).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from trackformat.sim.kernel.jit import compiled
from trackformat.sim.kernel.walk import (
    MAX_DEPTH,
    MAX_EXITS,
    PLAIN,
    R_AT_BOX,
    R_DEBRIS,
    R_DEPTH,
    R_END,
    R_ENTRIES,
    R_EXITS,
    R_IN_PIT,
    R_NEXITS,
    R_PATH,
    W_BASE,
    W_ENTRIES_FROM,
    W_LIMITED_UNTIL,
    W_OWN_LANE,
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

X_MIN_DEPTH, X_CARRIED, X_BRAKES, X_TYRES, X_SLIP = range(5)
EXTRA_COLUMNS = 5
"""What pricing slipstream extras adds: the depth the extras start after, the corners entered
in earlier extras, the brakes and tyres WP of a corner entry, the extras' count."""

NOT_ELIMINATED, BY_MISSED_STOPS, BY_OVERSHOOT, BY_SPIN, BY_BLOCKED = 0, 1, 2, 3, 4
"""Why a move eliminates the car (the M_ELIMINATED column)."""


@compiled
def _price(route: Ints, roll: int, braking: int, left_over: int, brakes_left: int,
           tyres_left: int, spun: bool, tyres_per_space: int, eliminated_missing: int,
           respin_max: int, block_from: int, block_brakes: Ints, block_tyres: Ints,
           entries: int, entry_brakes: int, entry_tyres: int, slipstream: int) -> Ints:
    """The move of a route (see :func:`trackformat.sim.move.legal._price`); an empty row for a
    braking move the car has not the brakes WP for. ``left_over`` -1: not blocked."""
    depth = route[R_DEPTH]
    move = np.full(MOVE_COLUMNS, -1, np.int64)
    beyond, most_missing = 0, -1
    for e in range(route[R_NEXITS]):
        spaces = depth - route[R_EXITS + 3 * e + 1] + 1
        missing = route[R_EXITS + 3 * e + 2]
        move[M_EXITS + 3 * e] = route[R_EXITS + 3 * e]
        move[M_EXITS + 3 * e + 1] = spaces
        move[M_EXITS + 3 * e + 2] = missing
        beyond += spaces
        most_missing = max(most_missing, missing)
    over_tyres = beyond * tyres_per_space
    eliminated = NOT_ELIMINATED
    spin = False
    if most_missing >= eliminated_missing:
        eliminated = BY_MISSED_STOPS
    elif over_tyres > 0:
        if spun:
            if beyond <= respin_max:
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
        if left_over >= block_from:
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
            return np.empty(0, np.int64)
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
    move[M_ROUTE:M_ENTRIES] = route[R_PATH:]
    move[M_ENTRIES] = entries
    move[M_SLIPSTREAM] = slipstream
    return move


@compiled
def _identity(m: Ints) -> tuple[int, ...]:
    """What tells two moves apart (the engine lists each once): every column before the
    distance (roll, destination, costs, blocking, spin, elimination, debris, box, overshoots)."""
    return (m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8], m[9], m[10], m[11], m[12],
            m[13], m[14], m[15], m[16], m[17], m[18], m[19], m[20], m[21], m[22], m[23], m[24],
            m[25], m[26], m[27], m[28], m[29], m[30], m[31], m[32], m[33])


@compiled
def _before(a: Ints, b: Ints) -> bool:
    """Whether move ``a`` comes before ``b`` in the engine's order: the moves that do not
    eliminate the car first, then the longest, the cheapest, by destination, by route."""
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
    for i in range(min(a[M_DISTANCE], b[M_DISTANCE])):
        if a[M_ROUTE + i] != b[M_ROUTE + i]:
            return bool(a[M_ROUTE + i] < b[M_ROUTE + i])
    return bool(a[M_DISTANCE] < b[M_DISTANCE])


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
    routes = walk_routes(track_next, pit_next, pit_entry, lane, lane_index, lane_length, corner,
                         corner_stops, in_pit, is_box, origin, occupied, debris, passable,
                         passable_count, rolls[-1], may_pit, car_box, max_changes,
                         np.array(PLAIN, np.int64), np.zeros((1, 1), np.int64))
    leaving_pit = origin[R_IN_PIT] == 1
    found = [origin]  # typed by its first row, then emptied
    found.clear()
    for roll in rolls:
        _collect(routes, roll, leaving_pit, pit_next, is_box, occupied, car_box, brakes_left,
                 tyres_left, spun, brakes_per_space, tyres_per_space, eliminated_missing,
                 respin_max, block_from, block_brakes, block_tyres, found,
                 np.zeros(EXTRA_COLUMNS, np.int64))
    rows = np.empty((len(found), MOVE_COLUMNS), np.int64)
    for i in range(len(found)):
        rows[i] = found[i]
    return rows


@compiled
def _collect(routes: list[Ints], roll: int, leaving_pit: bool, pit_next: Ints, is_box: Ints,
             occupied: Ints, car_box: int, brakes_left: int, tyres_left: int, spun: bool,
             brakes_per_space: int, tyres_per_space: int, eliminated_missing: int,
             respin_max: int, block_from: int, block_brakes: Ints, block_tyres: Ints,
             found: list[Ints], extra: Ints) -> None:
    """Sort the routes of at most ``roll`` spaces into moves (full, braking, blocked, pit),
    as :func:`~trackformat.sim.move.legal.collect_moves` does, and add them to ``found`` in
    the engine's order, each distinct move once with the first route that gives it.

    ``extra`` (``X_*``) serves slipstream extras: routes shorter than ``X_MIN_DEPTH`` are not
    moves, corners entered in earlier extras are carried, and each entry costs its price."""
    min_depth, carried = extra[X_MIN_DEPTH], extra[X_CARRIED]
    entry_brakes, entry_tyres, slipstream = extra[X_BRAKES], extra[X_TYRES], extra[X_SLIP]
    kept = [routes[0]]  # typed by a first row, then emptied
    kept.clear()
    distinct = {_identity(routes[0])}  # typed by a first key, then emptied
    distinct.clear()
    deepest = -1
    for route in routes:
        if not route[R_IN_PIT] and min_depth <= route[R_DEPTH] <= roll:
            deepest = max(deepest, route[R_DEPTH])
    blocked_at = deepest if 0 <= deepest < roll else -1
    for route in routes:
        depth = route[R_DEPTH]
        if depth > roll or depth < min_depth:
            continue
        entries = carried + route[R_ENTRIES]
        if route[R_IN_PIT]:
            waiting = False
            for v in pit_next[route[R_END]]:
                if v < 0:
                    break
                if occupied[v] and (not is_box[v] or v == car_box):
                    waiting = True
            if not (route[R_AT_BOX] or waiting or (leaving_pit and depth == roll)):
                continue
            move = _price(route, roll, 0, -1, brakes_left, tyres_left, spun, tyres_per_space,
                          eliminated_missing, respin_max, block_from, block_brakes,
                          block_tyres, entries, entry_brakes, entry_tyres,
                          slipstream)
        elif depth == roll:
            move = _price(route, roll, 0, -1, brakes_left, tyres_left, spun, tyres_per_space,
                          eliminated_missing, respin_max, block_from, block_brakes,
                          block_tyres, entries, entry_brakes, entry_tyres,
                          slipstream)
        elif depth == blocked_at:
            move = _price(route, roll, 0, roll - depth, brakes_left, tyres_left, spun,
                          tyres_per_space, eliminated_missing, respin_max, block_from,
                          block_brakes, block_tyres, entries, entry_brakes, entry_tyres,
                          slipstream)
        else:
            move = _price(route, roll, (roll - depth) * brakes_per_space, -1, brakes_left,
                          tyres_left, spun, tyres_per_space, eliminated_missing, respin_max,
                          block_from, block_brakes, block_tyres, entries, entry_brakes,
                          entry_tyres, slipstream)
        if len(move) and _identity(move) not in distinct:
            distinct.add(_identity(move))
            # Insertion in the engine's order (a roll has tens of moves at most).
            at = len(kept)
            while at > 0 and _before(move, kept[at - 1]):
                at -= 1
            kept.insert(at, move)
    found.extend(kept)


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
    distance = move[M_DISTANCE]
    roll = move[M_ROLL] + extra_spaces
    walk = np.zeros(WALK_COLUMNS, np.int64)
    walk[W_BASE] = distance
    walk[W_OWN_LANE] = lane[move[M_DEST]]
    walk[W_LIMITED_UNTIL] = move[M_ROLL] - extra_spaces * move[M_SLIPSTREAM]
    walk[W_ENTRIES_FROM] = distance + 1
    path = replayed(origin, move[M_ROUTE:M_ENTRIES], distance, track_next, lane, lane_index,
                    lane_length, corner, corner_stops, in_pit, is_box, occupied, debris,
                    passable, passable_count, roll, may_pit, car_box, max_changes, walk,
                    shapes)
    found = [move]  # typed by a first row, then emptied
    found.clear()
    if len(path):
        routes = walk_routes(track_next, pit_next, pit_entry, lane, lane_index, lane_length,
                             corner, corner_stops, in_pit, is_box, path, occupied, debris,
                             passable, passable_count, roll, may_pit, car_box, max_changes,
                             walk, shapes)
        extra = np.zeros(EXTRA_COLUMNS, np.int64)
        extra[X_MIN_DEPTH] = distance + 1
        extra[X_CARRIED] = move[M_ENTRIES]
        extra[X_BRAKES], extra[X_TYRES] = entry_brakes, entry_tyres
        extra[X_SLIP] = move[M_SLIPSTREAM] + 1
        _collect(routes, roll, origin[R_IN_PIT] == 1, pit_next, is_box, occupied, car_box,
                 brakes_left, tyres_left, spun, brakes_per_space, tyres_per_space,
                 eliminated_missing, respin_max, block_from, block_brakes, block_tyres, found,
                 extra)
    rows = np.empty((len(found), MOVE_COLUMNS), np.int64)
    for i in range(len(found)):
        rows[i] = found[i]
    return rows
