"""Every legal route of one car, walked fast on numbered spaces.

This is the walk of :class:`~trackformat.sim.move.routes.RouteWalk` (its docstring gives the rules:
links only, never through a car, shortest ways on straights, at most two lane changes and no
weaving, an overshooting car keeps its lane, the pit lane single file), rewritten for the hot
path of a batch of races: spaces are ints (:class:`~trackformat.sim.core.board.Network`), a route
being built is a plain tuple, the car-free distances along straights are computed once per
board, and the facts that two routes share when they have the same futures are compared as
one tuple. The walk visits the same routes in the same order as ``RouteWalk.prefixes`` and keeps
the first route of each outcome, so the moves built from it are the same, route for route (the
equivalence tests compare the two on many random positions).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING, NamedTuple

from trackformat.sim.core.state import CarState, RaceState

if TYPE_CHECKING:
    from trackformat.sim.move.value import CornerExit, Move

FREE_REACH = 40
"""Car-free distances along straights are kept up to this many spaces from each starting
space (more than any die of the presets); a longer roll walks its own."""

Exit = tuple[str, int, int]
"""A corner left without its stops: (corner, depth of the first space beyond it, missing)."""

Left = tuple[tuple[int, int], ...]
"""Lanes left so far on straights: (lane, position in it where it was left), oldest first."""

Node = tuple[
    tuple[str, ...],  # 0 route: spaces entered, as ids
    int,  # 1 end: the space reached
    int,  # 2 depth
    int,  # 3 lane changes on straights
    Left,  # 4 lanes left
    int,  # 5 markers: (lane, first car or debris after where it was left), numbered in the walk
    int | None,  # 6 lane locked by an overshoot
    int,  # 7 corner (-1 on a straight)
    int,  # 8 stops made in it
    tuple[Exit, ...],  # 9 overshoots
    tuple[int, int] | None,  # 10 anchor: where the straight stretch began (space, depth)
    bool,  # 11 in the pit lane
    bool,  # 12 at the car's box
    tuple[str, ...],  # 13 debris passed or stopped on
]


class Reached(NamedTuple):
    """One route per outcome (end, length, overshoots, debris count, box): what moves are
    priced from. In the order of the walk, so the first route of each outcome is kept."""

    route: tuple[str, ...]
    depth: int
    exits: tuple[Exit, ...]
    debris: tuple[str, ...]
    at_box: bool
    in_pit: bool
    waiting: bool
    """In the pit lane, stuck behind a car (a free wait)."""


class Walked:
    """The routes of one walk, sorted out for pricing, and the moves already priced from them
    (by roll and by what the price depends on: the car's brakes and tyres WP, a spin, the
    rules), so a position seen again costs a lookup."""

    __slots__ = ("_plain", "by_depth", "depths", "exits", "moves", "overshooting", "paths", "pit",
                 "reach")

    def __init__(self, reach: int, paths: list[Reached]) -> None:
        self.reach = reach
        """The longest roll the walk serves."""
        self.paths = paths
        """One route per outcome, in walk order."""
        self.pit = [p for p in paths if p.in_pit]
        """Routes ending in the pit lane, in walk order."""
        self.by_depth: dict[int, list[Reached]] = {}
        """Routes ending on the track by length, each list in walk order."""
        self.overshooting: dict[int, list[Reached]] = {}
        """Routes ending on the track that leave corners short of their stops, by length, each
        list in walk order."""
        for path in paths:
            if not path.in_pit:
                self.by_depth.setdefault(path.depth, []).append(path)
                if path.exits:
                    self.overshooting.setdefault(path.depth, []).append(path)
        self.depths = sorted(self.by_depth)
        self.moves: dict[tuple[object, ...], tuple[Move, ...]] = {}
        self.exits: dict[int, tuple[tuple[CornerExit, ...], int, int]] = {}
        """By ``id`` of a route that leaves corners short: its overshoots, the spaces beyond
        them all together and the most stops missing in one (filled in by the pricing)."""
        self._plain: dict[int, list[tuple[tuple[str, ...], tuple[str, ...], bool]]] = {}

    def plain(self, depth: int) -> list[tuple[tuple[str, ...], tuple[str, ...], bool]]:
        """The routes of length ``depth`` ending on the track that leave no corner short, as
        (route, debris, at box), by destination then route: the order of the move list, in
        which their moves (priced by the roll alone) are listed; see
        :mod:`trackformat.sim.move.pricing`."""
        known = self._plain.get(depth)
        if known is None:
            plain = sorted((p for p in self.by_depth[depth] if not p.exits), key=_listed)
            known = self._plain[depth] = [(p.route, p.debris, p.at_box) for p in plain]
        return known


def _listed(path: Reached) -> tuple[str, tuple[str, ...]]:
    """Where a route comes in the move list among routes of its length: by destination, then
    route (one route of length 0 at most, so its destination, the start, need not be known)."""
    route = path.route
    return (route[-1] if route else "", route)


def free_distances(state: RaceState, anchor: int) -> dict[int, int]:
    """Fewest steps from ``anchor`` to each straight space ahead, with no car on the board (up
    to :data:`FREE_REACH`), computed once per board."""
    net = state.board.network
    key = ("free-distances", anchor)
    known = net.cache.get(key)
    if known is None:
        known = _distances(state, anchor, set(), FREE_REACH)
        net.cache[key] = known
    return known  # type: ignore[return-value]


def _distances(state: RaceState, anchor: int, occupied: AbstractSet[int],
               reach: int) -> dict[int, int]:
    net = state.board.network
    track_next, corner = net.track_next, net.corner
    dist = {anchor: 0}
    queue = deque([anchor])
    while queue:
        u = queue.popleft()
        du = dist[u]
        if du >= reach:
            continue
        for v in track_next[u]:
            if v not in dist and v not in occupied and corner[v] < 0:
                dist[v] = du + 1
                queue.append(v)
    return dist


def walk(state: RaceState, car: CarState, reach: int, occupied: AbstractSet[int],
         debris: AbstractSet[int], may_pit: bool, box: int,
         comebacks: list[tuple[int, int, int]]) -> list[Reached]:
    """The routes of ``car`` up to ``reach`` spaces long, one per outcome, in walk order.

    ``occupied`` and ``debris`` are space numbers (the car's own space not occupied), ``box`` the
    number of its box (-1 when it cannot reach it). Each time a route comes back into a lane it
    left, (lane, where it left, where it comes back) is added to ``comebacks``: whether a car or
    debris stands between is a question about spaces the routes never enter, which
    :func:`routes` must know to decide whether the walk may be reused."""
    board, rules = state.board, state.rules
    net = board.network
    number = net.number
    lane, lane_index, lane_length = net.lane, net.lane_index, net.lane_length
    corner_of, corner_names, corner_stops = net.corner, net.corner_names, net.corner_stops
    in_pit, is_box = net.in_pit, net.is_box
    pit_next = net.pit_next
    track_next_back, entry_next_back, pit_next_back = net.backwards
    max_changes = rules.movement.max_lane_changes_on_straight
    passable: dict[int, list[int]] = {}
    for s in (*occupied, *debris):
        if lane[s] >= 0:
            passable.setdefault(lane[s], []).append(lane_index[s])
    after_cache: dict[tuple[int, int], int] = {}
    distance_cache: dict[int, dict[int, int]] = {}
    free_cache: dict[int, dict[int, int]] = {}
    comeback_cache: dict[tuple[int, int, int], bool] = {}

    def marker(lane_: int, after: int) -> int:
        """Lane position of the first car or debris ahead of ``after`` (-1: none)."""
        known = after_cache.get((lane_, after))
        if known is None:
            positions = passable.get(lane_)
            known = -1
            if positions:
                length = lane_length[lane_]
                known = min(positions, key=lambda p: (p - after - 1) % length)
            after_cache[(lane_, after)] = known
        return known

    def distances(anchor: int) -> dict[int, int]:
        """Fewest steps from ``anchor`` to the straight spaces ahead, round the cars."""
        known = distance_cache.get(anchor)
        if known is None:
            if reach <= FREE_REACH:
                known = free_distances(state, anchor)
                if any(known.get(o, reach + 1) <= reach for o in occupied):
                    known = _distances(state, anchor, occupied, reach)
            else:
                known = _distances(state, anchor, occupied, reach)
            distance_cache[anchor] = known
        return known

    def shortest(anchor: int, v: int, steps: int) -> bool:
        """Whether ``steps`` is the fewest steps from ``anchor`` to ``v`` round the cars.

        The route itself goes round them in ``steps``, so the fewest is at most that; and cars
        only lengthen ways, so when the car-free fewest is ``steps`` already, so is this one:
        the distances round the cars are only needed when the route is longer than car-free."""
        if reach <= FREE_REACH:
            free = free_cache.get(anchor)
            if free is None:
                free = free_cache[anchor] = free_distances(state, anchor)
            if free.get(v) == steps:
                return True
        return distances(anchor).get(v) == steps

    def back_past(lane_: int, left_at: int, back_at: int) -> bool:
        """Whether a car or debris stands in ``lane_`` between where a route left it and where
        it comes back (the only way back into a lane left before)."""
        known = comeback_cache.get((lane_, left_at, back_at))
        if known is None:
            comebacks.append((lane_, left_at, back_at))
            length = lane_length[lane_]
            span = (back_at - left_at) % length
            known = any(0 < (p - left_at) % length < span for p in passable.get(lane_, ()))
            comeback_cache[(lane_, left_at, back_at)] = known
        return known

    start = number[car.space]
    corner0 = corner_of[start]
    stops0 = car.stops if corner0 >= 0 and car.corner == corner_names[corner0] else 0
    pit0 = in_pit[start]
    root: Node = ((), start, 0, 0, (), 0, None, corner0, stops0, (), None if pit0 or corner0 >= 0
                  else (start, 0), pit0, False, ())
    stack = [root]
    push = stack.append
    shifts: dict[tuple[Left, int, int], tuple[int, Left, int]] = {}

    changes_known: dict[tuple[Left, int, int], tuple[int, Left, Left, Left]] = (
        net.cache.setdefault("lane-changes", {}))  # type: ignore[assignment]
    marker_ids: dict[tuple[tuple[int, int], ...], int] = {(): 0}

    def lane_change(left: Left, u: int, lane_v: int) -> tuple[int, Left, int]:
        """Leaving the lane of ``u`` for ``lane_v`` on a straight: where the route had left
        ``lane_v`` before (-1: never), the lanes left after the change and their markers (as a
        number standing for them in this walk: equal markers, equal numbers)."""
        known = changes_known.get((left, u, lane_v))
        if known is None:
            # What does not depend on the cars, once per board: with nothing in the lanes left,
            # no marker anywhere (-1).
            departed = [index for lane_, index in left if lane_ == lane_v]
            left_v = (*(x for x in left if x[0] != lane[u]), (lane[u], lane_index[u]))
            ordered = tuple(sorted(left_v))
            free = tuple([(x[0], -1) for x in ordered])
            known = changes_known[(left, u, lane_v)] = (
                departed[-1] if departed else -1, left_v, ordered, free)
        if not passable:
            return known[0], known[1], marker_ids.setdefault(known[3], len(marker_ids))
        markers_v = tuple([(x[0], marker(x[0], x[1])) for x in known[2]])
        return known[0], known[1], marker_ids.setdefault(markers_v, len(marker_ids))
    seen: set[tuple[object, ...]] = set()
    outcomes: set[tuple[object, ...]] = set()
    found: list[Node] = []
    while stack:
        node = stack.pop()
        (route, u, depth, changes, left, markers, lock, corner, stops, exits, anchor, pit, at_box,
         passed_debris) = node
        # What two routes must share to have the same futures. The corner, the pit lane and
        # the box are those of the space reached (the start aside, alone at depth 0).
        count = len(seen)
        passed = len(passed_debris)
        seen.add((u, depth, changes, markers, lock, stops, exits, anchor, passed))
        if len(seen) == count:
            continue  # seen before (one hash instead of two: the walk's busiest lines)
        count = len(outcomes)
        outcomes.add((u, depth, exits, passed, at_box))
        if len(outcomes) > count:
            found.append(node)
        if depth >= reach or at_box:
            continue
        d = depth + 1
        if pit:
            nexts = pit_next_back[u]
        elif may_pit:
            nexts = entry_next_back[u]
        else:
            nexts = track_next_back[u]
        corner_u, lane_u = corner_of[u], lane[u]
        # Beside its box a car in the pit lane turns in: it never drives past its place to stop.
        beside_box = pit and box >= 0 and box in pit_next[u]
        # Children are pushed last first, so that the first successor is walked first.
        for v, name, pit_v, box_v, corner_v, lane_v, index_v in nexts:
            if v in occupied or (beside_box and v != box):
                continue
            if pit_v:
                if (not pit and not may_pit) or (box_v and v != box):
                    continue
                push(((*route, name), v, d, changes, left, markers, lock, -1, 0, exits, None,
                      True, v == box, passed_debris))
                continue
            if pit:
                debris_v = (*passed_debris, name) if v in debris else passed_debris
                push(((*route, name), v, d, changes, left, markers, lock, corner_v, 0, exits,
                      None if corner_v >= 0 else (v, d), False, False, debris_v))
                continue
            if lock is not None and lane_v != lock:
                continue
            anchor_v = anchor
            if corner_v >= 0:
                anchor_v = None
            elif anchor is None:
                anchor_v = (v, d)
            else:
                free = free_cache.get(anchor[0])
                if (free is None or free.get(v) != d - anchor[1]) and not shortest(
                        anchor[0], v, d - anchor[1]):
                    continue  # a longer way to a straight space than its shortest
            changes_v, left_v, markers_v = changes, left, markers
            if lane_u != lane_v and corner_u < 0:
                changes_v = changes + 1
                if changes_v > max_changes:
                    continue
                shift = shifts.get((left, u, lane_v))
                if shift is None:
                    shift = shifts[(left, u, lane_v)] = lane_change(left, u, lane_v)
                if shift[0] >= 0 and not back_past(lane_v, shift[0], index_v):
                    continue
                left_v, markers_v = shift[1], shift[2]
            corner_next, stops_v, exits_v, lock_v = corner, stops, exits, lock
            if corner_u >= 0 and corner_v != corner_u:
                needed = corner_stops[corner_u]
                made = stops if corner == corner_u else 0
                if made < needed:
                    if lane_v != lane_u:
                        continue  # an overshooting car keeps the lane it leaves the corner in
                    exits_v = (*exits, (corner_names[corner_u], d, needed - made))
                    lock_v = lane_u
            if corner_v != corner_u:
                corner_next, stops_v = corner_v, 0
            push(((*route, name), v, d, changes_v, left_v, markers_v, lock_v, corner_next,
                  stops_v, exits_v, anchor_v, False, False,
                  (*passed_debris, name) if v in debris else passed_debris))
    make = Reached._make  # a named tuple from a tuple, without the keyword-aware __new__
    return [make((node[0], node[2], node[9], node[13], node[12], node[11], node[11] and any(
        v in occupied for v in pit_next[node[1]] if not is_box[v] or v == box)))
        for node in found]
