"""The routes of one car for a roll, as compiled code on numbered arrays.

The same reading of the rules as the plain route walk (:mod:`trackformat.sim.move.routes`) and
its pricing (:func:`trackformat.sim.move.legal.collect_moves`), step for step: routes follow the
links, never through or onto a car; on a straight every space is reached by a shortest way from
where the straight stretch began, lane changes are limited and never weave back into a lane
unless a car or debris was passed there; a car leaving a corner without its stops keeps its
lane; the pit lane is single file and a car only enters its own box. Routes are walked depth
first in the engine's order, and a route whose future is that of one already walked is not
followed again (the same key as the plain walk's).

A route is a row of ints (the ``R_*`` columns of :mod:`~trackformat.sim.kernel.route_rows`);
:mod:`trackformat.sim.kernel.price` turns routes into moves. The walk keeps its routes in one
table (a row per route, grown by doubling) and finds the routes already walked with a hash
table of row numbers, so that a step writes one row and allocates nothing. It is one compiled
function on purpose: each function numba compiles is compiled again inside every caller, and
arrays handed to a helper are reference-counted on every call, which cost more than the steps
themselves.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from trackformat.sim.kernel import route_rows as rr
from trackformat.sim.kernel.jit import compiled
from trackformat.sim.kernel.route_rows import BoardTables, Setting, WalkSpace

Ints = npt.NDArray[np.int64]


@compiled
def walk_routes(board: BoardTables, setting: Setting, origin: Ints, walk: Ints,
                shapes: Ints, workspace: WalkSpace) -> tuple[Ints, int]:
    """Every legal route from ``origin`` of at most ``walk[W_ROLL]`` spaces, in the order the
    plain walk yields them (:meth:`~trackformat.sim.move.routes.RouteWalk.prefixes`): the
    table of routes (``R_*`` columns first, path included) and how many rows are routes.

    With ``walk[W_REPLAY]`` spaces to replay, the walk first follows the route of a move
    already walked (listed in ``walk`` from ``W_REPLAY_PATH``), one route per space, and
    spreads out from its end only: the routes a slipstream's extras continue."""
    (track_next, pit_next, pit_entry, lane, lane_index, lane_length, corner, corner_stops,
     in_pit, is_box) = board
    occupied, debris, passable, passable_count = setting
    base, own_lane, limited_until = walk[rr.W_BASE], walk[rr.W_OWN_LANE], walk[rr.W_LIMITED_UNTIL]
    entries_from, roll, may_pit = walk[rr.W_ENTRIES_FROM], walk[rr.W_ROLL], walk[rr.W_MAY_PIT]
    car_box, max_changes, replay = walk[rr.W_CAR_BOX], walk[rr.W_MAX_CHANGES], walk[rr.W_REPLAY]
    spaces = len(corner)
    # The routes kept, up to ``capacity`` of them before the table of routes already walked
    # (``size`` slots of ``table``) doubles; the workspace's tables unless they are too small.
    routes, table, stack, dist, queue = workspace
    capacity = rr.ROUTES_PER_SPACE * (min(roll, rr.MAX_DEPTH) + 1)
    if len(routes) < capacity:
        routes = np.empty((capacity, rr.WALK_ROW), np.int64)
    size = 16
    while size < 2 * capacity:
        size *= 2
    if len(table) < size:
        table = np.empty(size, np.int64)
    for at in range(size):
        table[at] = -1
    count = 0
    # The routes waiting to be walked, last in first out; a route's children are pushed last
    # first, so that the first child is walked first.
    fan = max(track_next.shape[1] + pit_entry.shape[1], pit_next.shape[1])
    if len(stack) < (min(roll, rr.MAX_DEPTH) + 2) * fan + 1:
        stack = np.empty(((min(roll, rr.MAX_DEPTH) + 2) * fan + 1, rr.WALK_ROW), np.int64)
    for c in range(rr.ROUTE_COLUMNS):
        stack[0, c] = origin[c]
    stack[0, rr.I_PARENT] = -1
    top = 1
    # Shortest distances from each anchor met, computed once per anchor (a walk meets a few):
    # a row per anchor, the anchor in its last column.
    if dist.shape[1] != spaces + 1:
        dist = np.empty((4, spaces + 1), np.int64)
    anchors, last_anchor, last_slot = 0, -1, 0
    # Workspace for the search of the distances, then for a route's next spaces.
    if len(queue) < spaces + fan:
        queue = np.empty(spaces + fan, np.int64)
    onward = spaces
    while top > 0:
        top -= 1
        t = top
        # The route's key: its columns before the path, the lanes it left replaced by marks
        # (sorted by lane, each with the first car or debris ahead of where it was left), so
        # that routes with equal keys have the same futures.
        for i in range(2 * rr.MAX_LEFT):
            stack[t, rr.I_MARKS + i] = -1
        for i in range(stack[t, rr.R_NLEFT]):
            left_lane, left_at = stack[t, rr.R_LEFT + 2 * i], stack[t, rr.R_LEFT + 2 * i + 1]
            length = lane_length[left_lane] if lane_length[left_lane] > 0 else 1
            mark, best = -1, -1
            for k in range(passable_count[left_lane]):
                p = passable[left_lane, k]
                gap = (p - left_at - 1) % length
                if best < 0 or gap < best:
                    mark, best = p, gap
            at = rr.I_MARKS + 2 * i
            while at > rr.I_MARKS and stack[t, at - 2] > left_lane:
                stack[t, at] = stack[t, at - 2]
                stack[t, at + 1] = stack[t, at - 1]
                at -= 2
            stack[t, at] = left_lane
            stack[t, at + 1] = mark
        # Overshoot columns past a route's last are the origin's in every route of a walk.
        last_exit = rr.R_EXITS + 3 * stack[t, rr.R_NEXITS]
        h = 0
        for c in range(rr.R_LEFT):
            h = h * 1000003 + stack[t, c]
        for c in range(rr.R_LOCK, last_exit):
            h = h * 1000003 + stack[t, c]
        for c in range(rr.I_MARKS, rr.I_HASH):
            h = h * 1000003 + stack[t, c]
        h = (h ^ (h >> 29)) & 0x3FFFFFFFFFFFFFFF
        # Walked already?
        mask = size - 1
        at = h & mask
        seen = False
        while table[at] >= 0:
            other = table[at]
            if routes[other, rr.I_HASH] == h:
                seen = True
                for c in range(rr.R_LEFT):
                    if stack[t, c] != routes[other, c]:
                        seen = False
                for c in range(rr.R_LOCK, last_exit):
                    if stack[t, c] != routes[other, c]:
                        seen = False
                for c in range(rr.I_MARKS, rr.I_HASH):
                    if stack[t, c] != routes[other, c]:
                        seen = False
                if seen:
                    break
            at = (at + 1) & mask
        if seen:
            continue
        if count == capacity:
            capacity *= 2
            if len(routes) < capacity:
                grown = np.empty((capacity, rr.WALK_ROW), np.int64)
                for r in range(count):
                    for c in range(rr.WALK_ROW):
                        grown[r, c] = routes[r, c]
                routes = grown
            size *= 2
            if len(table) < size:
                table = np.empty(size, np.int64)
            for at in range(size):
                table[at] = -1
            mask = size - 1
            for r in range(count):
                at = routes[r, rr.I_HASH] & mask
                while table[at] >= 0:
                    at = (at + 1) & mask
                table[at] = r
            at = h & mask
            while table[at] >= 0:
                at = (at + 1) & mask
        # Kept: its path is its parent's and its end. Only the columns in use are copied
        # (the lanes left, the corners overshot, the spaces entered): nothing reads the others.
        me = count
        count += 1
        table[at] = me
        rr.copy_used(stack, t, routes, me)
        for c in range(rr.I_MARKS, rr.WALK_ROW):
            routes[me, c] = stack[t, c]
        routes[me, rr.I_HASH] = h
        parent = stack[t, rr.I_PARENT]
        depth = routes[me, rr.R_DEPTH]
        u = routes[me, rr.R_END]
        if parent < 0:
            for c in range(rr.R_PATH, rr.R_PATH + depth):
                routes[me, c] = stack[t, c]
        else:
            for c in range(rr.R_PATH, rr.R_PATH + depth - 1):
                routes[me, c] = routes[parent, c]
            routes[me, rr.R_PATH + depth - 1] = u
        if depth >= roll or routes[me, rr.R_AT_BOX]:
            continue
        was_in_pit = routes[me, rr.R_IN_PIT]
        anchor = routes[me, rr.R_ANCHOR]
        slot = 0
        if not was_in_pit and anchor >= 0 and depth + 1 <= limited_until:
            if anchor == last_anchor:
                slot = last_slot
            else:
                slot = -1
                for a in range(anchors):
                    if dist[a, spaces] == anchor:
                        slot = a
                        break
            if slot < 0:
                # Fewest steps from the anchor to each free straight space ahead (-1: not
                # reached), over straight spaces only.
                if anchors == len(dist):
                    more = np.empty((2 * len(dist), spaces + 1), np.int64)
                    for a in range(anchors):
                        for space in range(spaces + 1):
                            more[a, space] = dist[a, space]
                    dist = more
                slot = anchors
                anchors += 1
                dist[slot, spaces] = anchor
                for space in range(spaces):
                    dist[slot, space] = -1
                dist[slot, anchor] = 0
                queue[0] = anchor
                head, tail = 0, 1
                while head < tail:
                    x = queue[head]
                    head += 1
                    if dist[slot, x] >= roll:
                        continue
                    for k in range(track_next.shape[1]):
                        y = track_next[x, k]
                        if y < 0:
                            break
                        if dist[slot, y] < 0 and occupied[y] == 0 and corner[y] < 0:
                            dist[slot, y] = dist[slot, x] + 1
                            queue[tail] = y
                            tail += 1
            last_anchor, last_slot = anchor, slot
        if top + fan > len(stack):
            deeper = np.empty((2 * len(stack) + fan, rr.WALK_ROW), np.int64)
            for r in range(top):
                for c in range(rr.WALK_ROW):
                    deeper[r, c] = stack[r, c]
            stack = deeper
        # In the pit lane a car follows the pit lane's moves; on the track, the track's, then
        # the pit entries when its window is open; a replayed route, the move's next space.
        # Pushed last first.
        ways = 0
        if depth < replay:
            queue[onward] = walk[rr.W_REPLAY_PATH + depth]
            ways = 1
        elif was_in_pit:
            for k in range(pit_next.shape[1] - 1, -1, -1):
                if pit_next[u, k] >= 0:
                    queue[onward + ways] = pit_next[u, k]
                    ways += 1
        else:
            if may_pit:
                for k in range(pit_entry.shape[1] - 1, -1, -1):
                    if pit_entry[u, k] >= 0:
                        queue[onward + ways] = pit_entry[u, k]
                        ways += 1
            for k in range(track_next.shape[1] - 1, -1, -1):
                if track_next[u, k] >= 0:
                    queue[onward + ways] = track_next[u, k]
                    ways += 1
        nxt = depth + 1
        # Beside its box a car in the pit lane turns in: it never drives past its place to stop.
        beside_box = False
        if was_in_pit and car_box >= 0:
            for k in range(pit_next.shape[1]):
                if pit_next[u, k] == car_box:
                    beside_box = True
        for w in range(ways):
            # One step, to v: first every reason the rules refuse it, then the new route,
            # written on top of the stack.
            v = queue[onward + w]
            if occupied[v] or (beside_box and v != car_box):
                continue
            if base >= 0 and nxt > base:
                # A slipstream extra: out of the pit lane, in one of the patterns' lanes.
                if in_pit[v]:
                    continue
                fits = False
                for shape in range(len(shapes)):
                    fits = True
                    for d in range(base + 1, nxt + 1):
                        space = v if d == nxt else routes[me, rr.R_PATH + d - 1]
                        if lane[space] - own_lane != shapes[shape, d - base - 1]:
                            fits = False
                            break
                    if fits:
                        break
                if not fits:
                    continue
            if nxt > rr.MAX_DEPTH:
                raise ValueError("a route longer than the kernel keeps")
            corner_u, corner_v = corner[u], corner[v]
            lane_u, lane_v = lane[u], lane[v]
            changing = False
            short = 0
            if in_pit[v]:
                if not was_in_pit and not may_pit:
                    continue
                if is_box[v] and v != car_box:
                    continue
            elif not was_in_pit:
                # On the track.
                lock = routes[me, rr.R_LOCK]
                if lock >= 0 and lane_v != lock:
                    continue
                limited = nxt <= limited_until
                if (corner_v < 0 and anchor >= 0 and limited
                        and dist[slot, v] != nxt - routes[me, rr.R_ANCHOR_DEPTH]):
                    continue  # a longer way to a straight space than its shortest
                changing = lane_u != lane_v and corner_u < 0 and limited
                if changing:
                    # Only straights limit lane changes and forbid weaving; corners follow the
                    # arrows.
                    if routes[me, rr.R_CHANGES] + 1 > max_changes:
                        continue
                    departed, kept = -1, 0
                    for i in range(routes[me, rr.R_NLEFT]):
                        left_lane = routes[me, rr.R_LEFT + 2 * i]
                        if left_lane == lane_v:
                            departed = routes[me, rr.R_LEFT + 2 * i + 1]
                        if left_lane != lane_u:
                            kept += 1
                    if kept >= rr.MAX_LEFT:
                        raise ValueError("a route left more lanes than the kernel keeps")
                    if departed >= 0:
                        # Back into a lane it left: only past a car or debris standing there.
                        length = lane_length[lane_v] if lane_length[lane_v] > 0 else 1
                        span = (lane_index[v] - departed) % length
                        passed = False
                        for k in range(passable_count[lane_v]):
                            offset = (passable[lane_v, k] - departed) % length
                            if 0 < offset < span:
                                passed = True
                                break
                        if not passed:
                            continue
                if corner_u >= 0 and corner_v != corner_u:
                    made = routes[me, rr.R_STOPS] if routes[me, rr.R_CORNER] == corner_u else 0
                    short = corner_stops[corner_u] - made
                    if short > 0:
                        if lane_v != lane_u:
                            continue  # an overshooting car keeps its lane leaving the corner
                        if routes[me, rr.R_NEXITS] >= rr.MAX_EXITS:
                            raise ValueError(
                                "a route left more corners short than the kernel keeps")
            # The step is legal: the new route on top of the stack.
            rr.copy_used(routes, me, stack, top)
            stack[top, rr.R_END] = v
            stack[top, rr.R_DEPTH] = nxt
            stack[top, rr.I_PARENT] = me
            top += 1
            o = top - 1
            if in_pit[v]:
                stack[o, rr.R_IN_PIT] = 1
                stack[o, rr.R_ANCHOR] = -1
                stack[o, rr.R_ANCHOR_DEPTH] = 0
                stack[o, rr.R_AT_BOX] = 1 if v == car_box else 0
                stack[o, rr.R_CORNER] = -1
                stack[o, rr.R_STOPS] = 0
                continue
            if was_in_pit:
                stack[o, rr.R_DEBRIS] += debris[v]
                stack[o, rr.R_IN_PIT] = 0
                stack[o, rr.R_CORNER] = corner_v
                stack[o, rr.R_STOPS] = 0
                stack[o, rr.R_ANCHOR] = -1 if corner_v >= 0 else v
                stack[o, rr.R_ANCHOR_DEPTH] = 0 if corner_v >= 0 else nxt
                continue
            if corner_v >= 0:
                stack[o, rr.R_ANCHOR] = -1
                stack[o, rr.R_ANCHOR_DEPTH] = 0
            elif anchor < 0:
                stack[o, rr.R_ANCHOR] = v
                stack[o, rr.R_ANCHOR_DEPTH] = nxt
            if changing:
                kept = 0
                for i in range(routes[me, rr.R_NLEFT]):
                    left_lane = routes[me, rr.R_LEFT + 2 * i]
                    if left_lane != lane_u:
                        stack[o, rr.R_LEFT + 2 * kept] = left_lane
                        stack[o, rr.R_LEFT + 2 * kept + 1] = routes[me, rr.R_LEFT + 2 * i + 1]
                        kept += 1
                stack[o, rr.R_CHANGES] += 1
                stack[o, rr.R_LEFT + 2 * kept] = lane_u
                stack[o, rr.R_LEFT + 2 * kept + 1] = lane_index[u]
                stack[o, rr.R_NLEFT] = kept + 1
            if short > 0:
                e = routes[me, rr.R_NEXITS]
                stack[o, rr.R_EXITS + 3 * e] = corner_u
                stack[o, rr.R_EXITS + 3 * e + 1] = nxt
                stack[o, rr.R_EXITS + 3 * e + 2] = short
                stack[o, rr.R_NEXITS] = e + 1
                stack[o, rr.R_LOCK] = lane_u
            if corner_v != corner_u:
                stack[o, rr.R_CORNER] = corner_v
                stack[o, rr.R_STOPS] = 0
                if corner_v >= 0 and nxt >= entries_from:
                    stack[o, rr.R_ENTRIES] += 1
            stack[o, rr.R_DEBRIS] += debris[v]
            stack[o, rr.R_IN_PIT] = 0
            stack[o, rr.R_AT_BOX] = 0
    return routes, count
