"""The routes of one car for a roll, as compiled code on numbered arrays.

The same reading of the rules as the plain route walk (:mod:`trackformat.sim.move.routes`) and
its pricing (:func:`trackformat.sim.move.legal.collect_moves`), step for step: routes follow the
links, never through or onto a car; on a straight every space is reached by a shortest way from
where the straight stretch began, lane changes are limited and never weave back into a lane
unless a car or debris was passed there; a car leaving a corner without its stops keeps its
lane; the pit lane is single file and a car only enters its own box. Routes are walked depth
first in the engine's order, and a route whose future is that of one already walked is not
followed again (the same key as the plain walk's).

A route is a row of ints (the ``R_*`` columns); :mod:`trackformat.sim.kernel.price` turns
routes into moves. The walk keeps its routes in one table (a row per route, grown by doubling)
and finds the routes already walked with a hash table of row numbers, so that a step writes one
row and allocates nothing.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from trackformat.sim.kernel.jit import compiled

Ints = npt.NDArray[np.int64]

BoardTables = tuple[Ints, Ints, Ints, Ints, Ints, Ints, Ints, Ints, Ints, Ints]
"""What a walk reads of the board, in this order: ``track_next``, ``pit_next``, ``pit_entry``,
``lane``, ``lane_index``, ``lane_length``, ``corner``, ``corner_stops``, ``in_pit``, ``is_box``
(see :class:`~trackformat.sim.kernel.arrays.BoardArrays`)."""
Setting = tuple[Ints, Ints, Ints, Ints]
"""What a walk reads of the race, in this order: ``occupied`` and ``debris`` (a flag per space:
the other cars, the debris markers), ``passable`` (per lane, the positions of the cars and
debris in it, padded with -1) and ``passable_count`` (how many per lane)."""

MAX_LEFT = 4
"""Lanes a route may have left and remember (one entry per lane)."""
MAX_EXITS = 8
"""Corners a route may leave without their stops."""

R_END, R_DEPTH, R_CHANGES, R_NLEFT, R_LEFT = 0, 1, 2, 3, 4
R_LOCK = R_LEFT + 2 * MAX_LEFT
R_CORNER, R_STOPS, R_NEXITS, R_ANCHOR, R_ANCHOR_DEPTH = (R_LOCK + 1, R_LOCK + 2, R_LOCK + 3,
                                                         R_LOCK + 4, R_LOCK + 5)
R_IN_PIT, R_AT_BOX, R_DEBRIS, R_ENTRIES = R_LOCK + 6, R_LOCK + 7, R_LOCK + 8, R_LOCK + 9
R_EXITS = R_LOCK + 10
R_PATH = R_EXITS + 3 * MAX_EXITS
"""The spaces entered, in order (-1 beyond the route's depth); not part of the route's key."""
MAX_DEPTH = 48
"""Spaces a route may cover (a sixth-gear roll is at most 30)."""
ROUTE_COLUMNS = R_PATH + MAX_DEPTH

I_MARKS = ROUTE_COLUMNS
"""Columns the walk adds to a route: the lanes left, sorted by lane, each with the first car or
debris after where it was left (what the route's key keeps of them, -1 padded)..."""
I_HASH = I_MARKS + 2 * MAX_LEFT
"""... the hash of the route's key ..."""
I_PARENT = I_HASH + 1
"""... and, for a route waiting on the walk's stack, the row of the route it extends (its path
is copied from there once the route is kept)."""
WALK_ROW = I_PARENT + 1
"""Columns of a row of the walk's route table."""

(W_BASE, W_OWN_LANE, W_LIMITED_UNTIL, W_ENTRIES_FROM, W_ROLL, W_MAY_PIT, W_CAR_BOX,
 W_MAX_CHANGES) = range(8)
WALK_COLUMNS = 8
"""The numbers of a walk: spaces beyond ``W_BASE`` follow the slipstream patterns, from the lane
``W_OWN_LANE``; lane changes are limited only up to ``W_LIMITED_UNTIL``; corners entered from
``W_ENTRIES_FROM`` on are counted (for an ordinary move: -1, -1, :data:`NEVER`, :data:`NEVER`);
then the spaces to walk, whether the car may turn into the pit lane, its box (-1: none) and the
lane changes allowed on a straight."""
NEVER = 1 << 30

FIRST_ROUTES = 256
"""Rows of a walk's route table to begin with (it doubles when full)."""


@compiled
def _distances(anchor: int, roll: int, track_next: Ints, corner: Ints, occupied: Ints,
               dist: Ints, queue: Ints) -> None:
    """Fewest steps from ``anchor`` to each free straight space ahead, into ``dist`` (-1: not
    reached); ``queue`` is room for the search."""
    dist[:] = -1
    dist[anchor] = 0
    queue[0] = anchor
    head, tail = 0, 1
    while head < tail:
        u = queue[head]
        head += 1
        if dist[u] >= roll:
            continue
        for v in track_next[u]:
            if v < 0:
                break
            if dist[v] < 0 and occupied[v] == 0 and corner[v] < 0:
                dist[v] = dist[u] + 1
                queue[tail] = v
                tail += 1


@compiled
def _step(route: Ints, nxt: Ints, v: int, board: BoardTables, setting: Setting, walk: Ints,
          shapes: Ints, dist: Ints) -> bool:
    """Write ``route`` extended by one space to ``v`` into ``nxt`` (its columns before the
    path); False when the rules forbid that step. ``dist`` holds the distances from the
    route's anchor when lane changes are still limited at the next depth."""
    lane, lane_index, lane_length, corner, corner_stops, in_pit, is_box = board[3:]
    occupied, debris, passable, passable_count = setting
    if occupied[v]:
        return False
    u = route[R_END]
    depth = route[R_DEPTH] + 1
    base = walk[W_BASE]
    if base >= 0 and depth > base:
        # A slipstream extra: out of the pit lane, in one of the patterns' lanes.
        if in_pit[v]:
            return False
        fits = False
        for shape in range(len(shapes)):
            fits = True
            for d in range(base + 1, depth + 1):
                space = v if d == depth else route[R_PATH + d - 1]
                if lane[space] - walk[W_OWN_LANE] != shapes[shape, d - base - 1]:
                    fits = False
                    break
            if fits:
                break
        if not fits:
            return False
    if depth > MAX_DEPTH:
        raise ValueError("a route longer than the kernel keeps")
    nxt[:R_PATH] = route[:R_PATH]
    nxt[R_END] = v
    nxt[R_DEPTH] = depth
    if in_pit[v]:
        if not route[R_IN_PIT] and not walk[W_MAY_PIT]:
            return False
        if is_box[v] and v != walk[W_CAR_BOX]:
            return False
        nxt[R_IN_PIT] = 1
        nxt[R_ANCHOR] = -1
        nxt[R_ANCHOR_DEPTH] = 0
        nxt[R_AT_BOX] = 1 if v == walk[W_CAR_BOX] else 0
        nxt[R_CORNER] = -1
        nxt[R_STOPS] = 0
        return True
    corner_u, corner_v = corner[u], corner[v]
    if route[R_IN_PIT]:
        nxt[R_DEBRIS] += debris[v]
        nxt[R_IN_PIT] = 0
        nxt[R_CORNER] = corner_v
        nxt[R_STOPS] = 0
        nxt[R_ANCHOR] = -1 if corner_v >= 0 else v
        nxt[R_ANCHOR_DEPTH] = 0 if corner_v >= 0 else depth
        return True
    lane_u, lane_v = lane[u], lane[v]
    if route[R_LOCK] >= 0 and lane_v != route[R_LOCK]:
        return False
    limited = depth <= walk[W_LIMITED_UNTIL]
    if corner_v >= 0:
        nxt[R_ANCHOR] = -1
        nxt[R_ANCHOR_DEPTH] = 0
    elif route[R_ANCHOR] < 0:
        nxt[R_ANCHOR] = v
        nxt[R_ANCHOR_DEPTH] = depth
    elif limited and dist[v] != depth - route[R_ANCHOR_DEPTH]:
        return False  # a longer way to a straight space than its shortest
    if lane_u != lane_v and corner_u < 0 and limited:
        # Only straights limit lane changes and forbid weaving; corners follow the arrows.
        departed = -1
        kept = 0
        for i in range(route[R_NLEFT]):
            left_lane, left_at = route[R_LEFT + 2 * i], route[R_LEFT + 2 * i + 1]
            if left_lane == lane_v:
                departed = left_at
            if left_lane != lane_u:
                nxt[R_LEFT + 2 * kept] = left_lane
                nxt[R_LEFT + 2 * kept + 1] = left_at
                kept += 1
        nxt[R_CHANGES] = route[R_CHANGES] + 1
        if nxt[R_CHANGES] > walk[W_MAX_CHANGES]:
            return False
        if kept >= MAX_LEFT:
            raise ValueError("a route left more lanes than the kernel keeps")
        nxt[R_LEFT + 2 * kept] = lane_u
        nxt[R_LEFT + 2 * kept + 1] = lane_index[u]
        nxt[R_NLEFT] = kept + 1
        if departed >= 0:
            # Back into a lane it left: only past a car or debris standing in that lane.
            length = lane_length[lane_v] if lane_length[lane_v] > 0 else 1
            span = (lane_index[v] - departed) % length
            passed = False
            for k in range(passable_count[lane_v]):
                offset = (passable[lane_v, k] - departed) % length
                if 0 < offset < span:
                    passed = True
                    break
            if not passed:
                return False
    if corner_u >= 0 and corner_v != corner_u:
        made = route[R_STOPS] if route[R_CORNER] == corner_u else 0
        needed = corner_stops[corner_u]
        if made < needed:
            if lane_v != lane_u:
                return False  # an overshooting car keeps the lane it leaves the corner in
            e = route[R_NEXITS]
            if e >= MAX_EXITS:
                raise ValueError("a route left more corners short than the kernel keeps")
            nxt[R_EXITS + 3 * e] = corner_u
            nxt[R_EXITS + 3 * e + 1] = depth
            nxt[R_EXITS + 3 * e + 2] = needed - made
            nxt[R_NEXITS] = e + 1
            nxt[R_LOCK] = lane_u
    if corner_v != corner_u:
        nxt[R_CORNER] = corner_v
        nxt[R_STOPS] = 0
        if corner_v >= 0 and depth >= walk[W_ENTRIES_FROM]:
            nxt[R_ENTRIES] += 1
    nxt[R_DEBRIS] += debris[v]
    nxt[R_IN_PIT] = 0
    nxt[R_AT_BOX] = 0
    return True


@compiled
def _key_hash(row: Ints, setting: Setting, lane_length: Ints) -> int:
    """Write the marks of the lanes ``row`` left (``I_MARKS``) and return the hash of its key:
    what a route's future depends on, so that routes with equal keys have the same futures.
    The key is the route's columns before the path, the lanes left replaced by the marks."""
    passable, passable_count = setting[2], setting[3]
    for i in range(2 * MAX_LEFT):
        row[I_MARKS + i] = -1
    for i in range(row[R_NLEFT]):
        left_lane, left_at = row[R_LEFT + 2 * i], row[R_LEFT + 2 * i + 1]
        # The first car or debris ahead of where the lane was left (-1: none).
        length = lane_length[left_lane] if lane_length[left_lane] > 0 else 1
        mark, best = -1, -1
        for k in range(passable_count[left_lane]):
            p = passable[left_lane, k]
            gap = (p - left_at - 1) % length
            if best < 0 or gap < best:
                mark, best = p, gap
        # Sorted by lane (a route's lanes left are distinct).
        at = i
        while at > 0 and row[I_MARKS + 2 * (at - 1)] > left_lane:
            row[I_MARKS + 2 * at] = row[I_MARKS + 2 * (at - 1)]
            row[I_MARKS + 2 * at + 1] = row[I_MARKS + 2 * (at - 1) + 1]
            at -= 1
        row[I_MARKS + 2 * at] = left_lane
        row[I_MARKS + 2 * at + 1] = mark
    h = 0
    for c in range(R_LEFT):
        h = h * 1000003 + row[c]
    for c in range(R_LOCK, R_PATH):
        h = h * 1000003 + row[c]
    for c in range(I_MARKS, I_HASH):
        h = h * 1000003 + row[c]
    h ^= h >> 29
    return h & 0x3FFFFFFFFFFFFFFF


@compiled
def _same_key(a: Ints, b: Ints) -> bool:
    """Whether two routes (their marks written) have the same key."""
    for c in range(R_LEFT):
        if a[c] != b[c]:
            return False
    for c in range(R_LOCK, R_PATH):
        if a[c] != b[c]:
            return False
    for c in range(I_MARKS, I_HASH):
        if a[c] != b[c]:
            return False
    return True


@compiled
def walk_routes(board: BoardTables, setting: Setting, origin: Ints, walk: Ints,
                shapes: Ints) -> tuple[Ints, int]:
    """Every legal route from ``origin`` of at most ``walk[W_ROLL]`` spaces, in the order the
    plain walk yields them (:meth:`~trackformat.sim.move.routes.RouteWalk.prefixes`): the
    table of routes (``R_*`` columns first, path included) and how many rows are routes.
    ``origin`` may be a route already walked (a move that slipstream extras continue)."""
    track_next, pit_next, pit_entry = board[0], board[1], board[2]
    lane_length, corner = board[5], board[6]
    occupied = setting[0]
    roll = walk[W_ROLL]
    spaces = len(corner)
    routes = np.empty((FIRST_ROUTES, WALK_ROW), np.int64)
    table = np.full(4 * FIRST_ROUTES, -1, np.int64)
    count = 0
    # The routes waiting to be walked, last in first out; a route's children are pushed last
    # first, so that the first child is walked first.
    fan = max(track_next.shape[1] + pit_entry.shape[1], pit_next.shape[1])
    stack = np.empty(((min(roll, MAX_DEPTH) + 2) * fan + 1, WALK_ROW), np.int64)
    stack[0, :ROUTE_COLUMNS] = origin[:ROUTE_COLUMNS]
    stack[0, I_PARENT] = -1
    top = 1
    # Shortest distances from each anchor met, computed once per anchor.
    slot_of = np.full(spaces, -1, np.int64)
    dist = np.empty((4, spaces), np.int64)
    queue = np.empty(spaces, np.int64)
    anchors = 0
    while top > 0:
        top -= 1
        current = stack[top]
        h = _key_hash(current, setting, lane_length)
        mask = len(table) - 1
        at = h & mask
        seen = False
        while table[at] >= 0:
            other = routes[table[at]]
            if other[I_HASH] == h and _same_key(current, other):
                seen = True
                break
            at = (at + 1) & mask
        if seen:
            continue
        if count == len(routes):
            grown = np.empty((2 * len(routes), WALK_ROW), np.int64)
            grown[:count] = routes
            routes = grown
            table = np.full(4 * len(routes), -1, np.int64)
            mask = len(table) - 1
            for r in range(count):
                slot = routes[r, I_HASH] & mask
                while table[slot] >= 0:
                    slot = (slot + 1) & mask
                table[slot] = r
            at = h & mask
            while table[at] >= 0:
                at = (at + 1) & mask
        table[at] = count
        route = routes[count]
        route[:R_PATH] = current[:R_PATH]
        route[I_MARKS:] = current[I_MARKS:]
        route[I_HASH] = h
        parent = current[I_PARENT]
        depth = route[R_DEPTH]
        if parent < 0:
            route[R_PATH:ROUTE_COLUMNS] = current[R_PATH:ROUTE_COLUMNS]
        else:
            route[R_PATH:ROUTE_COLUMNS] = routes[parent, R_PATH:ROUTE_COLUMNS]
            route[R_PATH + depth - 1] = route[R_END]
        me = count
        count += 1
        if depth >= roll or route[R_AT_BOX]:
            continue
        u = route[R_END]
        slot = 0
        anchor = route[R_ANCHOR]
        if not route[R_IN_PIT] and anchor >= 0 and depth + 1 <= walk[W_LIMITED_UNTIL]:
            slot = slot_of[anchor]
            if slot < 0:
                if anchors == len(dist):
                    more = np.empty((2 * len(dist), spaces), np.int64)
                    more[:anchors] = dist
                    dist = more
                slot = anchors
                anchors += 1
                slot_of[anchor] = slot
                _distances(anchor, roll, track_next, corner, occupied, dist[slot], queue)
        if top + fan > len(stack):
            deeper = np.empty((2 * len(stack) + fan, WALK_ROW), np.int64)
            deeper[:top] = stack[:top]
            stack = deeper
        # In the pit lane a car follows the pit lane's moves; on the track, the track's, then
        # the pit entries when its window is open. Pushed last first.
        if walk[W_MAY_PIT] and not route[R_IN_PIT]:
            for k in range(pit_entry.shape[1] - 1, -1, -1):
                v = pit_entry[u, k]
                if v >= 0 and _step(route, stack[top], v, board, setting, walk, shapes,
                                    dist[slot]):
                    stack[top, I_PARENT] = me
                    top += 1
        onward = pit_next if route[R_IN_PIT] else track_next
        for k in range(onward.shape[1] - 1, -1, -1):
            v = onward[u, k]
            if v >= 0 and _step(route, stack[top], v, board, setting, walk, shapes, dist[slot]):
                stack[top, I_PARENT] = me
                top += 1
    return routes, count


@compiled
def replayed(board: BoardTables, setting: Setting, origin: Ints, spaces: Ints, distance: int,
             walk: Ints, shapes: Ints) -> Ints:
    """The route of a move (its first ``distance`` spaces in ``spaces``) walked again from
    ``origin`` under ``walk`` (``R_*`` columns, path included); an empty row when that walk
    does not allow it."""
    track_next, corner, occupied = board[0], board[6], setting[0]
    path = np.empty(ROUTE_COLUMNS, np.int64)
    path[:] = origin[:ROUTE_COLUMNS]
    nxt = np.empty(ROUTE_COLUMNS, np.int64)
    dist = np.empty(len(corner), np.int64)
    queue = np.empty(len(corner), np.int64)
    measured = -1
    for i in range(distance):
        anchor = path[R_ANCHOR]
        if (not path[R_IN_PIT] and anchor >= 0 and path[R_DEPTH] + 1 <= walk[W_LIMITED_UNTIL]
                and anchor != measured):
            _distances(anchor, walk[W_ROLL], track_next, corner, occupied, dist, queue)
            measured = anchor
        if not _step(path, nxt, spaces[i], board, setting, walk, shapes, dist):
            return np.empty(0, np.int64)
        nxt[R_PATH:] = path[R_PATH:]
        nxt[R_PATH + nxt[R_DEPTH] - 1] = spaces[i]
        path, nxt = nxt, path
    return path
