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

from trackformat.sim.kernel.jit import compiled, numba

inlined = numba.njit(cache=True, inline='always')

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
 W_MAX_CHANGES, W_REPLAY, W_REPLAY_FROM) = range(10)
WALK_COLUMNS = 10
"""The numbers of a walk: spaces beyond ``W_BASE`` follow the slipstream patterns, from the lane
``W_OWN_LANE``; lane changes are limited only up to ``W_LIMITED_UNTIL``; corners entered from
``W_ENTRIES_FROM`` on are counted (for an ordinary move: -1, -1, :data:`NEVER`, :data:`NEVER`);
then the spaces to walk, whether the car may turn into the pit lane, its box (-1: none), the
lane changes allowed on a straight; and the first ``W_REPLAY`` spaces of every route are those
of a move already walked, read from column ``W_REPLAY_FROM`` of the walk's ``replay`` row (0: a
walk from the origin)."""
NEVER = 1 << 30

FIRST_ROUTES = 256
"""Rows of a walk's route table to begin with (it doubles when full)."""


@inlined
def _distances(anchor: int, roll: int, track_next: Ints, corner: Ints, occupied: Ints,
               dist: Ints, queue: Ints) -> None:
    """Fewest steps from ``anchor`` to each free straight space ahead, into ``dist`` (-1: not
    reached); ``queue`` is room for the search."""
    for space in range(len(dist)):
        dist[space] = -1
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


@inlined
def _step(routes: Ints, r: int, out: Ints, o: int, v: int, board: BoardTables,
          setting: Setting, walk: Ints, shapes: Ints, dist: Ints) -> bool:
    """Write route ``routes[r]`` extended by one space to ``v`` into ``out[o]`` (its columns
    before the path); False, ``out[o]`` untouched, when the rules forbid that step. ``dist``
    holds the distances from the route's anchor when lane changes are still limited at the
    next depth."""
    lane, lane_index, lane_length, corner, corner_stops, in_pit, is_box = board[3:]
    occupied, debris, passable, passable_count = setting
    if occupied[v]:
        return False
    u = routes[r, R_END]
    depth = routes[r, R_DEPTH] + 1
    base = walk[W_BASE]
    if base >= 0 and depth > base:
        # A slipstream extra: out of the pit lane, in one of the patterns' lanes.
        if in_pit[v]:
            return False
        fits = False
        for shape in range(len(shapes)):
            fits = True
            for d in range(base + 1, depth + 1):
                space = v if d == depth else routes[r, R_PATH + d - 1]
                if lane[space] - walk[W_OWN_LANE] != shapes[shape, d - base - 1]:
                    fits = False
                    break
            if fits:
                break
        if not fits:
            return False
    if depth > MAX_DEPTH:
        raise ValueError("a route longer than the kernel keeps")
    was_in_pit = routes[r, R_IN_PIT]
    if in_pit[v]:
        if not was_in_pit and not walk[W_MAY_PIT]:
            return False
        if is_box[v] and v != walk[W_CAR_BOX]:
            return False
        for c in range(R_PATH):
            out[o, c] = routes[r, c]
        out[o, R_END] = v
        out[o, R_DEPTH] = depth
        out[o, R_IN_PIT] = 1
        out[o, R_ANCHOR] = -1
        out[o, R_ANCHOR_DEPTH] = 0
        out[o, R_AT_BOX] = 1 if v == walk[W_CAR_BOX] else 0
        out[o, R_CORNER] = -1
        out[o, R_STOPS] = 0
        return True
    corner_u, corner_v = corner[u], corner[v]
    if was_in_pit:
        for c in range(R_PATH):
            out[o, c] = routes[r, c]
        out[o, R_END] = v
        out[o, R_DEPTH] = depth
        out[o, R_DEBRIS] += debris[v]
        out[o, R_IN_PIT] = 0
        out[o, R_CORNER] = corner_v
        out[o, R_STOPS] = 0
        out[o, R_ANCHOR] = -1 if corner_v >= 0 else v
        out[o, R_ANCHOR_DEPTH] = 0 if corner_v >= 0 else depth
        return True
    # On the track: first every reason to refuse the step, then the new route.
    lane_u, lane_v = lane[u], lane[v]
    lock = routes[r, R_LOCK]
    if lock >= 0 and lane_v != lock:
        return False
    limited = depth <= walk[W_LIMITED_UNTIL]
    anchor = routes[r, R_ANCHOR]
    if (corner_v < 0 and anchor >= 0 and limited
            and dist[v] != depth - routes[r, R_ANCHOR_DEPTH]):
        return False  # a longer way to a straight space than its shortest
    changing = lane_u != lane_v and corner_u < 0 and limited
    if changing:
        # Only straights limit lane changes and forbid weaving; corners follow the arrows.
        if routes[r, R_CHANGES] + 1 > walk[W_MAX_CHANGES]:
            return False
        departed, kept = -1, 0
        for i in range(routes[r, R_NLEFT]):
            left_lane = routes[r, R_LEFT + 2 * i]
            if left_lane == lane_v:
                departed = routes[r, R_LEFT + 2 * i + 1]
            if left_lane != lane_u:
                kept += 1
        if kept >= MAX_LEFT:
            raise ValueError("a route left more lanes than the kernel keeps")
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
    short = 0
    if corner_u >= 0 and corner_v != corner_u:
        made = routes[r, R_STOPS] if routes[r, R_CORNER] == corner_u else 0
        short = corner_stops[corner_u] - made
        if short > 0:
            if lane_v != lane_u:
                return False  # an overshooting car keeps the lane it leaves the corner in
            if routes[r, R_NEXITS] >= MAX_EXITS:
                raise ValueError("a route left more corners short than the kernel keeps")
    for c in range(R_PATH):
        out[o, c] = routes[r, c]
    out[o, R_END] = v
    out[o, R_DEPTH] = depth
    if corner_v >= 0:
        out[o, R_ANCHOR] = -1
        out[o, R_ANCHOR_DEPTH] = 0
    elif anchor < 0:
        out[o, R_ANCHOR] = v
        out[o, R_ANCHOR_DEPTH] = depth
    if changing:
        kept = 0
        for i in range(routes[r, R_NLEFT]):
            left_lane = routes[r, R_LEFT + 2 * i]
            if left_lane != lane_u:
                out[o, R_LEFT + 2 * kept] = left_lane
                out[o, R_LEFT + 2 * kept + 1] = routes[r, R_LEFT + 2 * i + 1]
                kept += 1
        out[o, R_CHANGES] += 1
        out[o, R_LEFT + 2 * kept] = lane_u
        out[o, R_LEFT + 2 * kept + 1] = lane_index[u]
        out[o, R_NLEFT] = kept + 1
    if short > 0:
        e = routes[r, R_NEXITS]
        out[o, R_EXITS + 3 * e] = corner_u
        out[o, R_EXITS + 3 * e + 1] = depth
        out[o, R_EXITS + 3 * e + 2] = short
        out[o, R_NEXITS] = e + 1
        out[o, R_LOCK] = lane_u
    if corner_v != corner_u:
        out[o, R_CORNER] = corner_v
        out[o, R_STOPS] = 0
        if corner_v >= 0 and depth >= walk[W_ENTRIES_FROM]:
            out[o, R_ENTRIES] += 1
    out[o, R_DEBRIS] += debris[v]
    out[o, R_IN_PIT] = 0
    out[o, R_AT_BOX] = 0
    return True


@inlined
def _key_hash(rows: Ints, r: int, setting: Setting, lane_length: Ints) -> int:
    """Write the marks of the lanes route ``rows[r]`` left (``I_MARKS``) and return the hash
    of its key: what a route's future depends on, so that routes with equal keys have the same
    futures. The key is the route's columns before the path, the lanes left replaced by the
    marks."""
    passable, passable_count = setting[2], setting[3]
    for i in range(2 * MAX_LEFT):
        rows[r, I_MARKS + i] = -1
    for i in range(rows[r, R_NLEFT]):
        left_lane, left_at = rows[r, R_LEFT + 2 * i], rows[r, R_LEFT + 2 * i + 1]
        # The first car or debris ahead of where the lane was left (-1: none).
        length = lane_length[left_lane] if lane_length[left_lane] > 0 else 1
        mark, best = -1, -1
        for k in range(passable_count[left_lane]):
            p = passable[left_lane, k]
            gap = (p - left_at - 1) % length
            if best < 0 or gap < best:
                mark, best = p, gap
        # Sorted by lane (a route's lanes left are distinct).
        at = I_MARKS + 2 * i
        while at > I_MARKS and rows[r, at - 2] > left_lane:
            rows[r, at] = rows[r, at - 2]
            rows[r, at + 1] = rows[r, at - 1]
            at -= 2
        rows[r, at] = left_lane
        rows[r, at + 1] = mark
    # The overshoot columns past the route's last are the origin's in every route of a walk.
    h = 0
    for c in range(R_LEFT):
        h = h * 1000003 + rows[r, c]
    for c in range(R_LOCK, R_EXITS + 3 * rows[r, R_NEXITS]):
        h = h * 1000003 + rows[r, c]
    for c in range(I_MARKS, I_HASH):
        h = h * 1000003 + rows[r, c]
    h ^= h >> 29
    return h & 0x3FFFFFFFFFFFFFFF


@inlined
def _same_key(a: Ints, i: int, b: Ints, j: int) -> bool:
    """Whether routes ``a[i]`` and ``b[j]`` of the same walk (their marks written) have the
    same key (overshoot columns past a route's last are the origin's)."""
    for c in range(R_LEFT):
        if a[i, c] != b[j, c]:
            return False
    for c in range(R_LOCK, R_EXITS + 3 * a[i, R_NEXITS]):
        if a[i, c] != b[j, c]:
            return False
    for c in range(I_MARKS, I_HASH):
        if a[i, c] != b[j, c]:
            return False
    return True


@compiled
def walk_routes(board: BoardTables, setting: Setting, origin: Ints, walk: Ints, shapes: Ints,
                replay: Ints) -> tuple[Ints, int]:
    """Every legal route from ``origin`` of at most ``walk[W_ROLL]`` spaces, in the order the
    plain walk yields them (:meth:`~trackformat.sim.move.routes.RouteWalk.prefixes`): the
    table of routes (``R_*`` columns first, path included) and how many rows are routes.

    With ``walk[W_REPLAY]`` spaces to replay, the walk first follows the route of a move
    already walked (from ``replay[walk[W_REPLAY_FROM]]`` on), one route per space, and spreads
    out from its end only: the routes a slipstream's extras continue."""
    track_next, pit_next, pit_entry = board[0], board[1], board[2]
    lane_length, corner = board[5], board[6]
    occupied = setting[0]
    roll = walk[W_ROLL]
    spaces = len(corner)
    routes = np.empty((FIRST_ROUTES, WALK_ROW), np.int64)
    table = np.empty(4 * FIRST_ROUTES, np.int64)
    for at in range(len(table)):
        table[at] = -1
    count = 0
    # The routes waiting to be walked, last in first out; a route's children are pushed last
    # first, so that the first child is walked first.
    fan = max(track_next.shape[1] + pit_entry.shape[1], pit_next.shape[1])
    stack = np.empty(((min(roll, MAX_DEPTH) + 2) * fan + 1, WALK_ROW), np.int64)
    for c in range(ROUTE_COLUMNS):
        stack[0, c] = origin[c]
    stack[0, I_PARENT] = -1
    top = 1
    # Shortest distances from each anchor met, computed once per anchor.
    slot_of = np.empty(spaces, np.int64)
    for space in range(spaces):
        slot_of[space] = -1
    dist = np.empty((4, spaces), np.int64)
    queue = np.empty(spaces, np.int64)
    anchors = 0
    onward_spaces = np.empty(fan, np.int64)
    while top > 0:
        top -= 1
        h = _key_hash(stack, top, setting, lane_length)
        mask = len(table) - 1
        at = h & mask
        seen = False
        while table[at] >= 0:
            other = table[at]
            if routes[other, I_HASH] == h and _same_key(stack, top, routes, other):
                seen = True
                break
            at = (at + 1) & mask
        if seen:
            continue
        if count == len(routes):
            grown = np.empty((2 * len(routes), WALK_ROW), np.int64)
            for r in range(count):
                for c in range(WALK_ROW):
                    grown[r, c] = routes[r, c]
            routes = grown
            table = np.empty(4 * len(routes), np.int64)
            for at in range(len(table)):
                table[at] = -1
            mask = len(table) - 1
            for r in range(count):
                slot = routes[r, I_HASH] & mask
                while table[slot] >= 0:
                    slot = (slot + 1) & mask
                table[slot] = r
            at = h & mask
            while table[at] >= 0:
                at = (at + 1) & mask
        me = count
        count += 1
        table[at] = me
        for c in range(R_PATH):
            routes[me, c] = stack[top, c]
        for c in range(I_MARKS, WALK_ROW):
            routes[me, c] = stack[top, c]
        routes[me, I_HASH] = h
        parent = stack[top, I_PARENT]
        depth = routes[me, R_DEPTH]
        u = routes[me, R_END]
        if parent < 0:
            for c in range(R_PATH, ROUTE_COLUMNS):
                routes[me, c] = stack[top, c]
        else:
            for c in range(R_PATH, ROUTE_COLUMNS):
                routes[me, c] = routes[parent, c]
            routes[me, R_PATH + depth - 1] = u
        if depth >= roll or routes[me, R_AT_BOX]:
            continue
        in_pit = routes[me, R_IN_PIT]
        slot = 0
        anchor = routes[me, R_ANCHOR]
        if not in_pit and anchor >= 0 and depth + 1 <= walk[W_LIMITED_UNTIL]:
            slot = slot_of[anchor]
            if slot < 0:
                if anchors == len(dist):
                    more = np.empty((2 * len(dist), spaces), np.int64)
                    for a in range(anchors):
                        for space in range(spaces):
                            more[a, space] = dist[a, space]
                    dist = more
                slot = anchors
                anchors += 1
                slot_of[anchor] = slot
                _distances(anchor, roll, track_next, corner, occupied, dist[slot], queue)
        if top + fan > len(stack):
            deeper = np.empty((2 * len(stack) + fan, WALK_ROW), np.int64)
            for r in range(top):
                for c in range(WALK_ROW):
                    deeper[r, c] = stack[r, c]
            stack = deeper
        # In the pit lane a car follows the pit lane's moves; on the track, the track's, then
        # the pit entries when its window is open. Pushed last first.
        ways = 0
        if depth < walk[W_REPLAY]:
            onward_spaces[0] = replay[walk[W_REPLAY_FROM] + depth]
            ways = 1
        else:
            if walk[W_MAY_PIT] and not in_pit:
                for k in range(pit_entry.shape[1] - 1, -1, -1):
                    if pit_entry[u, k] >= 0:
                        onward_spaces[ways] = pit_entry[u, k]
                        ways += 1
            onward = pit_next if in_pit else track_next
            for k in range(onward.shape[1] - 1, -1, -1):
                if onward[u, k] >= 0:
                    onward_spaces[ways] = onward[u, k]
                    ways += 1
        for k in range(ways):
            if _step(routes, me, stack, top, onward_spaces[k], board, setting, walk, shapes,
                     dist[slot]):
                stack[top, I_PARENT] = me
                top += 1
    return routes, count
