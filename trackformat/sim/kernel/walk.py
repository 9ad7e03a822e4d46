"""The legal moves of one car for one roll, as compiled code on numbered arrays.

The same reading of the rules as the plain route walk (:mod:`trackformat.sim.move.routes`) and
its pricing (:func:`trackformat.sim.move.legal.collect_moves`), step for step: routes follow the
links, never through or onto a car; on a straight every space is reached by a shortest way from
where the straight stretch began, lane changes are limited and never weave back into a lane
unless a car or debris was passed there; a car leaving a corner without its stops keeps its
lane; the pit lane is single file and a car only enters its own box. Routes are walked depth
first in the engine's order, and a route whose future is that of one already walked is not
followed again (the same key as the plain walk's).

A route is a row of ints (the ``R_*`` columns); a move is a row of :data:`MOVE_COLUMNS` ints
(the ``M_*`` columns), one per distinct move of the reference's list.
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
R_IN_PIT, R_AT_BOX, R_DEBRIS, R_EXITS = R_LOCK + 6, R_LOCK + 7, R_LOCK + 8, R_LOCK + 9
ROUTE_COLUMNS = R_EXITS + 3 * MAX_EXITS

(M_ROLL, M_DEST, M_BRAKES, M_TYRES, M_BLOCKED, M_SPIN, M_ELIMINATED, M_DEBRIS, M_BOX,
 M_NEXITS) = range(10)
M_EXITS = 10
MOVE_COLUMNS = M_EXITS + 3 * MAX_EXITS

NOT_ELIMINATED, BY_MISSED_STOPS, BY_OVERSHOOT, BY_SPIN, BY_BLOCKED = 0, 1, 2, 3, 4
"""Why a move eliminates the car (the M_ELIMINATED column)."""


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
            k[37], k[38], k[39], k[40], k[41], k[42], k[43], k[44])


@compiled
def _step(route: Ints, v: int, track_next: Ints, lane: Ints, lane_index: Ints,
          lane_length: Ints, corner: Ints, corner_stops: Ints, in_pit: Ints, is_box: Ints,
          occupied: Ints, debris: Ints, passable: Ints, passable_count: Ints, roll: int,
          may_pit: bool, car_box: int, max_changes: int, dist_cache: dict[int, Ints]) -> Ints:
    """``route`` extended by one space to ``v``; an empty row when the rules forbid it."""
    none = np.empty(0, np.int64)
    if occupied[v]:
        return none
    u = route[R_END]
    depth = route[R_DEPTH] + 1
    nxt = route.copy()
    nxt[R_END] = v
    nxt[R_DEPTH] = depth
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
    else:
        anchor = route[R_ANCHOR]
        if anchor not in dist_cache:
            dist_cache[anchor] = _distances(anchor, roll, track_next, corner, occupied)
        if dist_cache[anchor][v] != depth - route[R_ANCHOR_DEPTH]:
            return none  # a longer way to a straight space than its shortest
    if lane_u != lane_v and corner_u < 0:
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
    nxt[R_DEBRIS] += debris[v]
    nxt[R_IN_PIT] = 0
    nxt[R_AT_BOX] = 0
    return nxt


@compiled
def _price(route: Ints, roll: int, braking: int, left_over: int, brakes_left: int,
           tyres_left: int, spun: bool, tyres_per_space: int, eliminated_missing: int,
           respin_max: int, block_from: int, block_brakes: Ints, block_tyres: Ints) -> Ints:
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
    paid_tyres = min(over_tyres, tyres_left)
    brakes = braking
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
            if cost_brakes > brakes_left or cost_tyres > tyres_left - paid_tyres:
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
    return move


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
    each (``M_*`` columns, the roll in ``M_ROLL``).

    ``origin`` is the route of no space (the car where it stands, its corner and stops);
    ``occupied`` and ``debris`` flag the spaces of the other cars and the debris markers;
    ``passable`` lists, per lane, the positions of the cars and debris in it. The routes are
    walked once, for the largest roll: a smaller roll's routes are the shorter ones among
    them (as in :func:`~trackformat.sim.move.legal.legal_moves_by_roll`)."""
    roll = rolls[-1]
    dist_cache = {-1: np.empty(0, np.int64)}
    leaving_pit = origin[R_IN_PIT] == 1
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
        if current[R_IN_PIT]:
            for v in pit_next[u]:
                if v < 0:
                    break
                nxt = _step(current, v, track_next, lane, lane_index, lane_length, corner,
                            corner_stops, in_pit, is_box, occupied, debris, passable,
                            passable_count, roll, may_pit, car_box, max_changes, dist_cache)
                if len(nxt):
                    children.append(nxt)
        else:
            for v in track_next[u]:
                if v < 0:
                    break
                nxt = _step(current, v, track_next, lane, lane_index, lane_length, corner,
                            corner_stops, in_pit, is_box, occupied, debris, passable,
                            passable_count, roll, may_pit, car_box, max_changes, dist_cache)
                if len(nxt):
                    children.append(nxt)
            if may_pit:
                for v in pit_entry[u]:
                    if v < 0:
                        break
                    nxt = _step(current, v, track_next, lane, lane_index, lane_length,
                                corner, corner_stops, in_pit, is_box, occupied, debris,
                                passable, passable_count, roll, may_pit, car_box,
                                max_changes, dist_cache)
                    if len(nxt):
                        children.append(nxt)
        for i in range(len(children) - 1, -1, -1):
            stack.append(children[i])

    found = [origin]  # typed by its first row, then emptied
    found.clear()
    for roll in rolls:
        _collect(routes, roll, leaving_pit, pit_next, is_box, occupied, car_box, brakes_left,
                 tyres_left, spun, brakes_per_space, tyres_per_space, eliminated_missing,
                 respin_max, block_from, block_brakes, block_tyres, found)
    rows = np.empty((len(found), MOVE_COLUMNS), np.int64)
    for i in range(len(found)):
        rows[i] = found[i]
    return rows


@compiled
def _collect(routes: list[Ints], roll: int, leaving_pit: bool, pit_next: Ints, is_box: Ints,
             occupied: Ints, car_box: int, brakes_left: int, tyres_left: int, spun: bool,
             brakes_per_space: int, tyres_per_space: int, eliminated_missing: int,
             respin_max: int, block_from: int, block_brakes: Ints, block_tyres: Ints,
             found: list[Ints]) -> None:
    """Sort the routes of at most ``roll`` spaces into moves (full, braking, blocked, pit),
    as :func:`~trackformat.sim.move.legal.collect_moves` does, and add them to ``found``."""
    deepest = -1
    for route in routes:
        if not route[R_IN_PIT] and route[R_DEPTH] <= roll:
            deepest = max(deepest, route[R_DEPTH])
    blocked_at = deepest if 0 <= deepest < roll else -1
    for route in routes:
        depth = route[R_DEPTH]
        if depth > roll:
            continue
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
                          block_tyres)
        elif depth == roll:
            move = _price(route, roll, 0, -1, brakes_left, tyres_left, spun, tyres_per_space,
                          eliminated_missing, respin_max, block_from, block_brakes,
                          block_tyres)
        elif depth == blocked_at:
            move = _price(route, roll, 0, roll - depth, brakes_left, tyres_left, spun,
                          tyres_per_space, eliminated_missing, respin_max, block_from,
                          block_brakes, block_tyres)
        else:
            move = _price(route, roll, (roll - depth) * brakes_per_space, -1, brakes_left,
                          tyres_left, spun, tyres_per_space, eliminated_missing, respin_max,
                          block_from, block_brakes, block_tyres)
        if len(move):
            found.append(move)
