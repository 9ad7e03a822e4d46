"""Curve distance attributes that GP Online's builder can turn into lanes.

GP Online does not count a curve's nodes: each curve node carries a distance attribute, its
place in the corner, and the builder adds it to the distance reached before the curves (all the
curves it meets before the next straight: a *region*, one corner or several back to back).
From those distances it then rebuilds the lanes, taking nodes nearest the line first, each into
the lane whose last node moves to it and stands furthest behind; and it refuses a curve node
whose two moves on lead to the same distance ("unable to deduce lanes"). Real boards therefore
give every node of a corner its own half step, in the order a car passes them, the lanes
interleaved.

This module does the same for a designed region. It orders the region's nodes by how far along
it each stands (its nearest point on the line of the lane round the outside of the bend, the
lane with the most spaces in it), keeping every move forward and every lane change coming from
ahead of the target's own predecessor in its lane (or, where the lanes cross over, its lane's
next node before the target) (:func:`plan_regions`). Then it runs the game's builder on the
file and, as the builder reaches the region, places each node from the distances the game
reached before it: a step beyond its predecessor in its lane, half a step beyond a lane change
into it, apart from a node moved onto from the same node, and where the outermost lanes meet
the corner unlevel, at the distance the game wants there (:func:`fitted_positions`). A region
whose corners all came from a GP Online file, each with exactly the spaces it had, keeps the
file's attributes.
"""

from __future__ import annotations

import contextlib
import heapq
import itertools
import math
from collections.abc import Collection, Mapping
from dataclasses import dataclass

from trackformat.graph import TrackGraphs
from trackformat.interop.gponline.gamebuild import distance_to_int, distances
from trackformat.interop.gponline.gamelanes import start_lanes
from trackformat.interop.gponline.gameload import GameNode, GameRefusal, GameTrack, load_game_track

Point = tuple[float, float]
REACH = 2
"""Spaces of the outside lane taken before and after a region for the line it is measured on."""


def _run(lane: list[str], inside: Collection[str]) -> list[str]:
    """The lane's spaces in the corner as one run in driving order, ``REACH`` more at each end
    (a corner across the finish line wraps round the lap)."""
    marks = [k for k, space in enumerate(lane) if space in inside]
    n = len(lane)
    # Start after the widest gap, so that a run across the end of the lap stays whole.
    gaps = [((marks[(k + 1) % len(marks)] - marks[k]) % n, k) for k in range(len(marks))]
    start = marks[(max(gaps)[1] + 1) % len(marks)] if len(marks) > 1 else marks[0]
    length = (marks[max(gaps)[1]] - start) % n + 1 if len(marks) > 1 else 1
    return [lane[(start + k) % n] for k in range(-REACH, length + REACH)]


def _along(point: Point, line: list[Point]) -> float:
    """How far along ``line`` the point nearest ``point`` lies."""
    best, where, walked = math.inf, 0.0, 0.0
    for a, b in itertools.pairwise(line):
        dx, dy = b[0] - a[0], b[1] - a[1]
        length = math.hypot(dx, dy)
        share = 0.0 if length == 0 else max(0.0, min(1.0, (
            (point[0] - a[0]) * dx + (point[1] - a[1]) * dy) / length**2))
        gap = math.dist(point, (a[0] + share * dx, a[1] + share * dy))
        if gap < best - 1e-9:
            best, where = gap, walked + share * length
        walked += length
    return where


def _reaches(after: Mapping[str, set[str]], start: str, goal: str) -> bool:
    """Whether ``goal`` must come after ``start`` already (a path of precedences)."""
    seen, stack = {start}, [start]
    while stack:
        for nxt in after[stack.pop()]:
            if nxt == goal:
                return True
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return False


def _precedences(graphs: TrackGraphs, region: Collection[str],
                 key: Mapping[str, tuple[float, int, str]]) -> dict[str, set[str]]:
    """What must come before what in the region: every move forward, and for each lane change
    what the game's lane rebuilding needs (see the module docstring). A predecessor outside the
    region is a straight before it, which comes first anyway."""
    inside = set(region)
    ahead = graphs.successors("moves")
    lane_of = {s: lane for lane in graphs.lane_order for s in graphs.lanes[lane]}
    before: dict[str, str] = {}
    following: dict[str, str] = {}
    for lane in graphs.lane_order:
        run = graphs.lanes[lane]
        for k, space in enumerate(run):
            nxt = run[(k + 1) % len(run)]
            if nxt in ahead.get(space, []):
                before[nxt], following[space] = space, nxt
    after: dict[str, set[str]] = {s: set() for s in inside}
    changes = []
    for a in inside:
        for b in ahead.get(a, []):
            if b in inside and b != a:
                after[a].add(b)
                if lane_of.get(a) != lane_of.get(b):
                    changes.append((a, b))
    for a, b in sorted(changes, key=lambda change: key[change[0]]):
        if before.get(b) not in inside:
            continue
        for first, then in ((before[b], a), (following.get(a), b)):
            if first in inside and first != then and not _reaches(after, then, first):
                after[first].add(then)
                break
    return after


@dataclass
class RegionPlan:
    """A designed region: its spaces in the order they are placed, what each must lie beyond
    (a space, and by how much: a step along a lane, half a step across), and the spaces that
    share a predecessor with it (which must lie at another distance)."""

    order: list[str]
    beyond: dict[str, list[tuple[str, float]]]
    siblings: dict[str, set[str]]
    entries: dict[str, tuple[str, str]]
    """Each lane's last straight before the region and first curve in it, by lane id."""


def _plan(graphs: TrackGraphs, region: Collection[str]) -> RegionPlan:
    """The region's placing order and constraints (see the module docstring)."""
    curve = sorted(region)
    lanes = [lane for lane in graphs.lane_order if set(graphs.lanes.get(lane, [])) & set(curve)]
    line: list[Point] = []
    if lanes:  # (a corner of spaces on no lane is placed by id alone)
        # The lane with the most spaces in the region runs round the outside of the bend: the
        # nodes of the other lanes, inside it, have a nearest point on its line that moves on
        # with them.
        outside = max(lanes, key=lambda lane: len(set(graphs.lanes[lane]) & set(curve)))
        line = [graphs.spaces[s].centre for s in _run(graphs.lanes[outside], curve)]
    lane_of = {s: k for k, lane in enumerate(graphs.lane_order) for s in graphs.lanes[lane]}
    key = {s: (_along(graphs.spaces[s].centre, line), lane_of.get(s, 0), s) for s in curve}
    after = _precedences(graphs, curve, key)
    waiting = {s: 0 for s in curve}
    for s in curve:
        for t in after[s]:
            waiting[t] += 1
    ready = [key[s] for s, count in waiting.items() if count == 0]
    heapq.heapify(ready)
    order: list[str] = []
    while ready:
        space = heapq.heappop(ready)[2]
        order.append(space)
        for t in after[space]:
            waiting[t] -= 1
            if waiting[t] == 0:
                heapq.heappush(ready, key[t])
    # Moves round in a circle inside the region leave some unordered: by place, and the
    # builder's check then says which move does not lead forward.
    placed = set(order)
    order += sorted((s for s in curve if s not in placed), key=lambda s: key[s])
    beyond: dict[str, list[tuple[str, float]]] = {s: [] for s in curve}
    siblings: dict[str, set[str]] = {s: set() for s in curve}
    ahead, behind = graphs.successors("moves"), graphs.predecessors("moves")
    for s in curve:
        for p in behind.get(s, []):
            if p in lane_of:
                beyond[s].append((p, 1.0 if lane_of[p] == lane_of.get(s) else 0.5))
                siblings[s] |= {c for c in ahead.get(p, []) if c in region and c != s}
        beyond[s] += [(p, 0.5) for p in curve if s in after[p] and s not in ahead.get(p, [])]
    entries: dict[str, tuple[str, str]] = {}
    for lane in lanes:
        run = graphs.lanes[lane]
        for k, space in enumerate(run):
            if space in region and run[k - 1] not in region and run[k - 1] in behind.get(space, []):
                entries[lane] = (run[k - 1], space)
                break
    return RegionPlan(order, beyond, siblings, entries)


def first_positions(plans: list[RegionPlan]) -> dict[str, float]:
    """Attributes to start from: each region's k-th space at ``(k + 1) / 2``, beyond every
    straight before it; :func:`fitted_positions` then fits them to the game's distances."""
    return {s: (rank + 1) / 2 for plan in plans for rank, s in enumerate(plan.order)}


def _outer_lanes(track: GameTrack, lane_of: Mapping[int, str]) -> list[str]:
    """The two lanes the game compares where lanes meet a curve (its first and last lane, as
    it orders them from the finish nodes), as lane ids; none if it cannot order them."""
    line = sorted((n for n in track.nodes if n.finish), key=lambda n: distance_to_int(n.distance))
    try:
        lanes = start_lanes(line)
    except GameRefusal:
        return []
    return [lane_of.get(lanes[0][0].id, ""), lane_of.get(lanes[-1][0].id, "")]


def _pins(track: GameTrack, plan: RegionPlan, outer: list[str],
          node_of: Mapping[str, int]) -> dict[str, float]:
    """Where the outermost lanes do not meet the region level, the game wants the first curve
    of the lane behind at the distance of the other's last straight (half a step on with 2
    lanes, half a step short with 4): that curve's distance, by space."""
    if len(outer) != 2 or not all(lane in plan.entries for lane in outer):
        return {}
    (straight_a, curve_a), (straight_b, curve_b) = (plan.entries[lane] for lane in outer)
    at_a = track.by_id[node_of[straight_a]].distance
    at_b = track.by_id[node_of[straight_b]].distance
    if at_a == at_b or min(at_a, at_b) < 0.0:
        return {}
    shift = (sum(n.finish for n in track.nodes) - 3) * 0.5
    return {curve_b: at_a - shift} if at_a > at_b else {curve_a: at_b - shift}


def fitted_positions(text: str, plans: list[RegionPlan], node_of: Mapping[str, int],
                     lane_of: Mapping[int, str]) -> dict[int, float]:
    """Attributes for the designed regions of the ``.dat`` text ``text``, by node: the game's
    builder is run on it, and as it meets each region, every space of it is placed a step
    (half a step across lanes) beyond what it must follow, from the distances the game reached
    before it, and given that distance less the one the game adds attributes to. So the lanes
    meet a corner and leave it at the distances the game expects of a staggered board.
    ``lane_of`` gives the lane id of each finish node."""
    plan_of = {s: k for k, plan in enumerate(plans) for s in plan.order}
    space_of = {node: space for space, node in node_of.items()}
    found: dict[int, float] = {}
    done: set[int] = set()

    def place(track: GameTrack, curves: list[GameNode], base: float) -> None:
        outer = _outer_lanes(track, lane_of)
        for curve in curves:
            k = plan_of.get(space_of.get(curve.id, ""))
            if k is None or k in done:
                continue
            done.add(k)
            plan = plans[k]
            pins = _pins(track, plan, outer, node_of)
            reached: dict[str, float] = {}
            for space in plan.order:
                at, floor = -math.inf, -math.inf
                for p, gap in plan.beyond[space]:
                    node = track.by_id.get(node_of.get(p, -1))
                    if p in reached:
                        at, floor = max(at, reached[p] + gap), max(floor, reached[p])
                    elif p not in plan_of and node is not None and node.distance >= 0.0:
                        at, floor = max(at, node.distance + gap), max(floor, node.distance)
                at = base if at == -math.inf else at
                if space in pins and pins[space] > floor:
                    at = pins[space]
                while any(reached.get(other) == at for other in plan.siblings[space]):
                    at += 0.5
                reached[space] = at
                if space in node_of:
                    found[node_of[space]] = track.attributes[node_of[space]] = at - base

    # Where the game refuses the track, the read-back says so, with the attributes found here.
    with contextlib.suppress(GameRefusal):
        distances(load_game_track(text), place)
    return found


def curve_regions(graphs: TrackGraphs, curve: Collection[str]) -> list[set[str]]:
    """The curve spaces in groups the builder places together: joined by moves."""
    inside = set(curve)
    parent = {s: s for s in inside}

    def root(s: str) -> str:
        while parent[s] != s:
            parent[s] = parent[parent[s]]
            s = parent[s]
        return s

    for a in inside:
        for b in graphs.successors("moves").get(a, []):
            if b in inside:
                parent[root(a)] = root(b)
    groups: dict[str, set[str]] = {}
    for s in sorted(inside):
        groups.setdefault(root(s), set()).add(s)
    return list(groups.values())


def plan_regions(graphs: TrackGraphs, curves: Mapping[str, Collection[str]],
                 kept: Mapping[str, Mapping[str, float]]
                 ) -> tuple[dict[str, float], list[RegionPlan]]:
    """The attributes kept from a GP Online file, by space, and the plans of the regions to
    design; ``curves`` gives each corner's curve spaces. A region keeps the file's attributes
    when all its corners still have exactly the spaces they had."""
    corner_of = {s: corner for corner, spaces in curves.items() for s in spaces}
    positions: dict[str, float] = {}
    plans: list[RegionPlan] = []
    for region in curve_regions(graphs, corner_of):
        corners = {corner_of[s] for s in region}
        if all(set(kept.get(c, {})) == set(curves[c]) for c in corners):
            for c in corners:
                positions.update(kept[c])
        else:
            plans.append(_plan(graphs, region))
    return positions, plans
