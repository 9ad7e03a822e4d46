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
routes into moves.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from trackformat.sim.kernel.jit import compiled

Ints = npt.NDArray[np.int64]

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

W_BASE, W_OWN_LANE, W_LIMITED_UNTIL, W_ENTRIES_FROM = range(4)
WALK_COLUMNS = 4
"""How a walk differs for slipstream extras: spaces beyond ``W_BASE`` follow the patterns,
from the lane ``W_OWN_LANE``; lane changes are limited only up to ``W_LIMITED_UNTIL``; corners
entered from ``W_ENTRIES_FROM`` on are counted. :data:`PLAIN` for an ordinary move."""
NEVER = 1 << 30
PLAIN = (-1, -1, NEVER, NEVER)


@compiled
def _distances(anchor: int, roll: int, track_next: Ints, corner: Ints, occupied: Ints) -> Ints:
    """Fewest steps from ``anchor`` to each free straight space ahead (-1: not reached)."""
    dist = np.full(len(corner), -1, np.int64)
    dist[anchor] = 0
    queue = np.empty(len(corner), np.int64)
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
    return dist


@compiled
def _passed(lane: int, left_at: int, back_at: int, passable: Ints, passable_count: Ints,
            lane_length: Ints) -> bool:
    """Whether a car or debris stands in ``lane`` strictly between two of its positions."""
    length = lane_length[lane] if lane_length[lane] > 0 else 1
    span = (back_at - left_at) % length
    for k in range(passable_count[lane]):
        offset = (passable[lane, k] - left_at) % length
        if 0 < offset < span:
            return True
    return False


@compiled
def _next_passable(lane: int, after: int, passable: Ints, passable_count: Ints,
                   lane_length: Ints) -> int:
    """Lane position of the first car or debris ahead of ``after`` in ``lane`` (-1: none)."""
    length = lane_length[lane] if lane_length[lane] > 0 else 1
    found, best = -1, -1
    for k in range(passable_count[lane]):
        p = passable[lane, k]
        gap = (p - after - 1) % length
        if best < 0 or gap < best:
            found, best = p, gap
    return found


@compiled
def _key(route: Ints, passable: Ints, passable_count: Ints,
         lane_length: Ints) -> tuple[int, ...]:
    """What a route's future depends on: routes with equal keys have the same futures."""
    k = route.copy()
    # The lanes left, sorted by lane, each with the next car or debris after where it was left.
    n = route[R_NLEFT]
    lanes = np.full(MAX_LEFT, -1, np.int64)
    marks = np.full(MAX_LEFT, -1, np.int64)
    for i in range(n):
        lanes[i] = route[R_LEFT + 2 * i]
        marks[i] = _next_passable(route[R_LEFT + 2 * i], route[R_LEFT + 2 * i + 1], passable,
                                  passable_count, lane_length)
    order = np.argsort(lanes[:n])
    for i in range(MAX_LEFT):
        if i < n:
            k[R_LEFT + 2 * i] = lanes[order[i]]
            k[R_LEFT + 2 * i + 1] = marks[order[i]]
        else:
            k[R_LEFT + 2 * i] = -1
            k[R_LEFT + 2 * i + 1] = -1
    return (k[0], k[1], k[2], k[3], k[4], k[5], k[6], k[7], k[8], k[9], k[10], k[11], k[12],
            k[13], k[14], k[15], k[16], k[17], k[18], k[19], k[20], k[21], k[22], k[23], k[24],
            k[25], k[26], k[27], k[28], k[29], k[30], k[31], k[32], k[33], k[34], k[35], k[36],
            k[37], k[38], k[39], k[40], k[41], k[42], k[43], k[44], k[45])


@compiled
def _step(route: Ints, v: int, track_next: Ints, lane: Ints, lane_index: Ints,
          lane_length: Ints, corner: Ints, corner_stops: Ints, in_pit: Ints, is_box: Ints,
          occupied: Ints, debris: Ints, passable: Ints, passable_count: Ints, roll: int,
          may_pit: bool, car_box: int, max_changes: int, dist_cache: dict[int, Ints],
          walk: Ints, shapes: Ints) -> Ints:
    """``route`` extended by one space to ``v``; an empty row when the rules forbid it."""
    none = np.empty(0, np.int64)
    if occupied[v]:
        return none
    u = route[R_END]
    depth = route[R_DEPTH] + 1
    base = walk[W_BASE]
    if base >= 0 and depth > base:
        # A slipstream extra: out of the pit lane, in one of the patterns' lanes.
        if in_pit[v]:
            return none
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
            return none
    if depth > MAX_DEPTH:
        raise ValueError("a route longer than the kernel keeps")
    nxt = route.copy()
    nxt[R_END] = v
    nxt[R_DEPTH] = depth
    nxt[R_PATH + depth - 1] = v
    if in_pit[v]:
        if not route[R_IN_PIT] and not may_pit:
            return none
        if is_box[v] and v != car_box:
            return none
        nxt[R_IN_PIT] = 1
        nxt[R_ANCHOR] = -1
        nxt[R_ANCHOR_DEPTH] = 0
        nxt[R_AT_BOX] = 1 if v == car_box else 0
        nxt[R_CORNER] = -1
        nxt[R_STOPS] = 0
        return nxt
    corner_u, corner_v = corner[u], corner[v]
    if route[R_IN_PIT]:
        nxt[R_DEBRIS] += debris[v]
        nxt[R_IN_PIT] = 0
        nxt[R_CORNER] = corner_v
        nxt[R_STOPS] = 0
        nxt[R_ANCHOR] = -1 if corner_v >= 0 else v
        nxt[R_ANCHOR_DEPTH] = 0 if corner_v >= 0 else depth
        return nxt
    lane_u, lane_v = lane[u], lane[v]
    if route[R_LOCK] >= 0 and lane_v != route[R_LOCK]:
        return none
    if corner_v >= 0:
        nxt[R_ANCHOR] = -1
        nxt[R_ANCHOR_DEPTH] = 0
    elif route[R_ANCHOR] < 0:
        nxt[R_ANCHOR] = v
        nxt[R_ANCHOR_DEPTH] = depth
    elif depth <= walk[W_LIMITED_UNTIL]:
        anchor = route[R_ANCHOR]
        if anchor not in dist_cache:
            dist_cache[anchor] = _distances(anchor, roll, track_next, corner, occupied)
        if dist_cache[anchor][v] != depth - route[R_ANCHOR_DEPTH]:
            return none  # a longer way to a straight space than its shortest
    if lane_u != lane_v and corner_u < 0 and depth <= walk[W_LIMITED_UNTIL]:
        # Only straights limit lane changes and forbid weaving; corners follow the arrows.
        departed = -1
        n = route[R_NLEFT]
        kept = 0
        for i in range(n):
            left_lane, left_at = route[R_LEFT + 2 * i], route[R_LEFT + 2 * i + 1]
            if left_lane == lane_v:
                departed = left_at
            if left_lane != lane_u:
                nxt[R_LEFT + 2 * kept] = left_lane
                nxt[R_LEFT + 2 * kept + 1] = left_at
                kept += 1
        nxt[R_CHANGES] = route[R_CHANGES] + 1
        if nxt[R_CHANGES] > max_changes:
            return none
        if kept >= MAX_LEFT:
            raise ValueError("a route left more lanes than the kernel keeps")
        nxt[R_LEFT + 2 * kept] = lane_u
        nxt[R_LEFT + 2 * kept + 1] = lane_index[u]
        nxt[R_NLEFT] = kept + 1
        if departed >= 0 and not _passed(lane_v, departed, lane_index[v], passable,
                                         passable_count, lane_length):
            return none
    if corner_u >= 0 and corner_v != corner_u:
        made = route[R_STOPS] if route[R_CORNER] == corner_u else 0
        needed = corner_stops[corner_u]
        if made < needed:
            if lane_v != lane_u:
                return none  # an overshooting car keeps the lane it leaves the corner in
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
    return nxt


@compiled
def walk_routes(track_next: Ints, pit_next: Ints, pit_entry: Ints, lane: Ints,
                lane_index: Ints, lane_length: Ints, corner: Ints, corner_stops: Ints,
                in_pit: Ints, is_box: Ints, origin: Ints, occupied: Ints, debris: Ints,
                passable: Ints, passable_count: Ints, roll: int, may_pit: bool, car_box: int,
                max_changes: int, walk: Ints, shapes: Ints) -> list[Ints]:
    """Every legal route from ``origin`` of at most ``roll`` spaces, in the order the plain
    walk yields them (:meth:`~trackformat.sim.move.routes.RouteWalk.prefixes`); ``origin``
    may be a route already walked (a move that slipstream extras continue, see ``walk``).

    ``origin`` is the route of no space (the car where it stands, its corner and stops);
    ``occupied`` and ``debris`` flag the spaces of the other cars and the debris markers;
    ``passable`` lists, per lane, the positions of the cars and debris in it."""
    dist_cache = {-1: np.empty(0, np.int64)}
    seen = {_key(origin, passable, passable_count, lane_length)}
    seen.clear()
    routes = [origin]
    routes.clear()
    stack = [origin]
    while len(stack) > 0:
        current = stack.pop()
        key = _key(current, passable, passable_count, lane_length)
        if key in seen:
            continue
        seen.add(key)
        routes.append(current)
        if current[R_DEPTH] >= roll or current[R_AT_BOX]:
            continue
        u = current[R_END]
        children = []
        # In the pit lane a car follows the pit lane's moves; on the track, the track's.
        onward = pit_next if current[R_IN_PIT] else track_next
        for v in onward[u]:
            if v < 0:
                break
            nxt = _step(current, v, track_next, lane, lane_index, lane_length, corner,
                        corner_stops, in_pit, is_box, occupied, debris, passable,
                        passable_count, roll, may_pit, car_box, max_changes, dist_cache,
                        walk, shapes)
            if len(nxt):
                children.append(nxt)
        if may_pit and not current[R_IN_PIT]:
            for v in pit_entry[u]:
                if v < 0:
                    break
                nxt = _step(current, v, track_next, lane, lane_index, lane_length, corner,
                            corner_stops, in_pit, is_box, occupied, debris, passable,
                            passable_count, roll, may_pit, car_box, max_changes, dist_cache,
                            walk, shapes)
                if len(nxt):
                    children.append(nxt)
        for i in range(len(children) - 1, -1, -1):
            stack.append(children[i])

    return routes


@compiled
def replayed(origin: Ints, route: Ints, distance: int, track_next: Ints, lane: Ints,
             lane_index: Ints, lane_length: Ints, corner: Ints, corner_stops: Ints,
             in_pit: Ints, is_box: Ints, occupied: Ints, debris: Ints, passable: Ints,
             passable_count: Ints, roll: int, may_pit: bool, car_box: int, max_changes: int,
             walk: Ints, shapes: Ints) -> Ints:
    """The route of a move (its first ``distance`` spaces in ``route``) walked again from
    ``origin`` under ``walk``; an empty row when that walk does not allow it."""
    dist_cache = {-1: np.empty(0, np.int64)}
    path = origin
    for i in range(distance):
        path = _step(path, route[i], track_next, lane, lane_index, lane_length, corner,
                     corner_stops, in_pit, is_box, occupied, debris, passable, passable_count,
                     roll, may_pit, car_box, max_changes, dist_cache, walk, shapes)
        if len(path) == 0:
            break
    return path
