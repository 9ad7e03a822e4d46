"""Lanes of a GP Online track, found from its moves and the nodes' places, whatever the id order.

A ``.dat`` file lists moves, not lanes: from each node a car may go straight on or change lane
diagonally, and the ids run across the lanes row by row on most boards. A lane is the chain of
"straight on" moves through a node, so the lanes together give every node exactly one straight
successor and one straight predecessor: they are a *cycle cover* of the move graph. Of all the
covers the moves allow, the lanes are the one whose moves best follow the track's direction, which
is found as a minimum-cost assignment of each node to its straight successor:

- the cost of a move is how far it turns from the track's direction at both its ends (the
  direction at a node runs from the middle of its predecessors to the middle of its successors,
  which on a staggered board lies along the lane even in tight corners);
- each node first takes its cheapest move; where two nodes took the same successor, the cheapest
  rearrangement is found by shortest augmenting paths (a sparse Hungarian method), so only the few
  contested places cost a search and a board of thousands of nodes is done in a moment;
- a node whose only way to a free successor costs more than a lane change ends its lane there: the
  lane is *partial*, it starts and ends beside another lane.

Each lane is then read from its finish node, and the lanes are put in order from the driver's left
by their side of the driving direction at the finish line. A straight-on chain that reaches no
finish node is a partial lane away from the line, put among the others by its side of the driving
direction; a node alone joins the lane of its nearest node.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

Position = tuple[float, float]

END_OF_LANE_COST = math.pi
"""Above this cost (radians turned, summed at both ends) a move is not taken as straight on:
the node ends its lane instead. A lane change turns about a third of this."""


@dataclass
class FoundLanes:
    """Lanes from the driver's left to right, each in driving order from its finish node."""

    lanes: list[list[int]]
    finish: list[int | None]
    """The finish node of each lane (``lanes[k][0]``), in the same order; None for a partial
    lane that does not reach the finish line."""
    partial: list[int] = field(default_factory=list)
    """Indices of the lanes that do not close on themselves."""
    warnings: list[str] = field(default_factory=list)


def _angle(a: Position, b: Position) -> float:
    """Unsigned angle between two directions, in radians."""
    turn = math.atan2(b[1], b[0]) - math.atan2(a[1], a[0])
    return abs((turn + math.pi) % (2 * math.pi) - math.pi)


def _mean(points: Sequence[Position]) -> Position:
    return (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))


def directions(
    position: Mapping[int, Position],
    successors: Mapping[int, Sequence[int]],
    predecessors: Mapping[int, Sequence[int]],
) -> dict[int, Position]:
    """The track's direction at each node: from the middle of its predecessors to the middle of
    its successors (or from/to the node itself when it has none)."""
    result: dict[int, Position] = {}
    for node, here in position.items():
        ahead = _mean([position[s] for s in successors[node]]) if successors[node] else here
        behind = _mean([position[p] for p in predecessors[node]]) if predecessors[node] else here
        result[node] = (ahead[0] - behind[0], ahead[1] - behind[1])
    return result


def straight_moves(
    nodes: Sequence[int],
    successors: Mapping[int, Sequence[int]],
    cost: Callable[[int, int], float],
    end_cost: float = END_OF_LANE_COST,
) -> dict[int, int]:
    """Each node's straight-on successor: the minimum-cost assignment of nodes to successors in
    which no node is taken twice (see the module docstring). Nodes left without one end a lane."""
    options = {a: [(b, cost(a, b)) for b in successors[a]] for a in nodes}
    price_left: dict[int, float] = {}
    price_right: dict[int, float] = {}
    next_of: dict[int, int] = {}
    taken_by: dict[int, int] = {}
    waiting: list[int] = []
    for a in nodes:
        if not options[a]:
            continue
        b, c = min(options[a], key=lambda option: option[1])
        price_left[a] = c
        if b in taken_by:
            waiting.append(a)
        else:
            taken_by[b], next_of[a] = a, b
    for start in waiting:
        path = _augmenting_path(start, options, next_of, taken_by, price_left, price_right)
        if path is None:
            continue
        added = sum(cost(a, b) for a, b in path)
        removed = sum(cost(a, next_of[a]) for a, _ in path if a in next_of)
        if added - removed > end_cost:
            continue
        for a, b in path:
            next_of[a], taken_by[b] = b, a
    return next_of


def _augmenting_path(
    start: int,
    options: Mapping[int, list[tuple[int, float]]],
    next_of: dict[int, int],
    taken_by: dict[int, int],
    price_left: dict[int, float],
    price_right: dict[int, float],
) -> list[tuple[int, int]] | None:
    """The cheapest way to give ``start`` a successor, moving others along: Dijkstra on reduced
    costs (non-negative thanks to the prices), prices updated so the next search stays exact.
    Returns the moves to take, or None if no free successor can be reached."""
    distance: dict[int, float] = {}
    came_from: dict[int, int] = {}
    heap: list[tuple[float, int]] = []

    def relax(a: int, base: float) -> None:
        for b, c in options[a]:
            reduced = base + c - price_left[a] - price_right.get(b, 0.0)
            if reduced < distance.get(b, math.inf) - 1e-12:
                distance[b], came_from[b] = reduced, a
                heapq.heappush(heap, (reduced, b))

    relax(start, 0.0)
    settled: set[int] = set()
    end = None
    while heap:
        d, b = heapq.heappop(heap)
        if b in settled:
            continue
        settled.add(b)
        if b not in taken_by:
            end = b
            break
        relax(taken_by[b], d)
    if end is None:
        return None
    reach = distance[end]
    for b in settled:
        if distance[b] < reach:
            price_right[b] = price_right.get(b, 0.0) - (reach - distance[b])
            price_left[taken_by[b]] += reach - distance[b]
    price_left[start] += reach
    path = []
    b = end
    while True:
        a = came_from[b]
        path.append((a, b))
        if a == start:
            return path
        b = next_of[a]


def _lateral(origin: Position, direction: Position, point: Position) -> float:
    """Signed offset of ``point`` to the driver's right of ``origin`` along ``direction`` (board
    y points down)."""
    dx, dy = point[0] - origin[0], point[1] - origin[1]
    norm = math.hypot(*direction) or 1.0
    return (dx * -direction[1] + dy * direction[0]) / norm


def find_lanes(
    position: Mapping[int, Position],
    successors: Mapping[int, Sequence[int]],
    predecessors: Mapping[int, Sequence[int]],
    finish: Sequence[int],
) -> FoundLanes:
    """The lanes through ``finish`` (see the module docstring). ``successors`` and
    ``predecessors`` hold the moves between the nodes of ``position`` only."""
    heading = directions(position, successors, predecessors)

    def cost(a: int, b: int) -> float:
        move = (position[b][0] - position[a][0], position[b][1] - position[a][1])
        return _angle(heading[a], move) + _angle(heading[b], move)

    next_of = straight_moves(list(position), successors, cost)
    before = {b: a for a, b in next_of.items()}
    warnings: list[str] = []
    lanes: list[list[int]] = []
    starts: list[int] = []
    partial: list[int] = []
    placed: dict[int, int] = {}
    for start in finish:
        if start in placed:
            warnings.append(
                f"finish node {start} lies straight on from finish node {lanes[placed[start]][0]}"
                "; both are taken as one lane"
            )
            continue
        lane = [start]
        members = {start}
        node = start
        while node in next_of and next_of[node] != start and next_of[node] not in placed:
            node = next_of[node]
            if node in members:
                break
            lane.append(node)
            members.add(node)
        closed = next_of.get(node) == start
        if not closed:
            # A partial lane: the part before the finish line ends the lap.
            head = []
            node = start
            while node in before and before[node] not in members and before[node] not in placed:
                node = before[node]
                head.append(node)
                members.add(node)
            lane += reversed(head)
            partial.append(len(lanes))
        for member in lane:
            placed[member] = len(lanes)
        lanes.append(lane)
        starts.append(start)

    order = _left_to_right(position, heading, starts)
    alone = {n for n in position if not successors[n] and not predecessors[n]}
    ordered = FoundLanes(
        lanes=[lanes[k] for k in order],
        finish=[starts[k] for k in order],
        partial=sorted(order.index(k) for k in partial),
        warnings=warnings,
    )
    for chain in _other_chains(position, next_of, before, set(placed) | alone):
        _insert_beside(position, heading, ordered, chain)
    _place_the_rest(position, ordered, alone)
    return ordered


def _other_chains(
    position: Mapping[int, Position],
    next_of: Mapping[int, int],
    before: Mapping[int, int],
    placed: set[int],
) -> list[list[int]]:
    """Straight-on chains of two nodes or more that no finish node's lane holds: partial lanes
    that do not reach the finish line (a stretch of track one lane wider)."""
    chains = []
    for node in position:
        if node in placed:
            continue
        start, seen = node, {node}
        while start in before and before[start] not in placed and before[start] not in seen:
            start = before[start]
            seen.add(start)
        chain, current = [start], start
        placed.add(start)
        while current in next_of and next_of[current] not in placed:
            current = next_of[current]
            chain.append(current)
            placed.add(current)
        if len(chain) > 1:
            chains.append(chain)
        else:
            placed.discard(start)  # a single node joins the nearest lane (_place_the_rest)
    return chains


def _insert_beside(
    position: Mapping[int, Position],
    heading: Mapping[int, Position],
    found: FoundLanes,
    chain: list[int],
) -> None:
    """Add ``chain`` as a partial lane with no finish node, among the lanes at its side of the
    driving direction: after every lane whose nearest node lies to the left of its middle."""
    middle = position[chain[len(chain) // 2]]
    direction = heading[chain[len(chain) // 2]]

    def nearest(lane: list[int]) -> Position:
        return min((position[n] for n in lane), key=lambda point: math.dist(point, middle))

    place = sum(1 for lane in found.lanes if _lateral(middle, direction, nearest(lane)) < 0)
    found.lanes.insert(place, chain)
    found.finish.insert(place, None)
    found.partial = [k + (k >= place) for k in found.partial] + [place]
    found.partial.sort()
    found.warnings.append(
        f"nodes {chain[0]} to {chain[-1]} ({len(chain)} nodes) run straight on without reaching "
        f"the finish line: they are lane {place + 1}, a partial lane with no finish node"
    )


def _left_to_right(
    position: Mapping[int, Position], heading: Mapping[int, Position], starts: list[int]
) -> list[int]:
    """Indices of ``starts`` from the driver's left to right at the finish line."""
    if not starts:
        return []
    mean = _mean([heading[s] for s in starts])
    origin = position[starts[0]]
    return sorted(range(len(starts)), key=lambda k: _lateral(origin, mean, position[starts[k]]))


def _place_the_rest(
    position: Mapping[int, Position], found: FoundLanes, alone: set[int]
) -> None:
    """Nodes on no finish node's lane join the lane of the nearest placed node, right after it,
    with a warning: a straight-on chain that never reaches the finish line has no lane of its own
    in a track. Nodes with no moves at all (``alone``) are left out of every lane."""
    if not found.lanes:
        return
    lane_of = {node: k for k, lane in enumerate(found.lanes) for node in lane}
    rest = [node for node in position if node not in lane_of and node not in alone]
    if not rest:
        return
    grid = Buckets(position, [n for n in position if n in lane_of])
    for node in rest:
        nearest = grid.nearest(position[node])
        lane = found.lanes[lane_of[nearest]]
        lane.insert(lane.index(nearest) + 1, node)
        lane_of[node] = lane_of[nearest]
        grid.add(node, position[node])
        found.warnings.append(
            f"node {node} is on no finish node's straight-on chain; put in lane "
            f"{lane_of[node] + 1} after its nearest node {nearest}"
        )


class Buckets:
    """Points in square cells, for nearest-point questions without comparing every pair."""

    def __init__(self, position: Mapping[int, Position], nodes: Sequence[int]) -> None:
        xs = [position[n][0] for n in position] or [0.0]
        ys = [position[n][1] for n in position] or [0.0]
        span = max(max(xs) - min(xs), max(ys) - min(ys), 1.0)
        self.size = span / max(1.0, math.sqrt(len(position)))
        self.cells: dict[tuple[int, int], list[tuple[int, Position]]] = {}
        for node in nodes:
            self.add(node, position[node])

    def _cell(self, point: Position) -> tuple[int, int]:
        return (int(point[0] // self.size), int(point[1] // self.size))

    def add(self, node: int, point: Position) -> None:
        self.cells.setdefault(self._cell(point), []).append((node, point))

    def near(self, point: Position, radius: float) -> list[tuple[int, Position]]:
        """Points within ``radius`` cells' reach of ``point`` (a superset of those closer)."""
        cx, cy = self._cell(point)
        reach = max(1, math.ceil(radius / self.size))
        found: list[tuple[int, Position]] = []
        for x in range(cx - reach, cx + reach + 1):
            for y in range(cy - reach, cy + reach + 1):
                found += self.cells.get((x, y), [])
        return found

    def nearest(self, point: Position) -> int:
        radius = self.size
        while True:
            found = self.near(point, radius)
            if found or radius > 1e9:
                break
            radius *= 2
        best = min(found, key=lambda item: math.dist(item[1], point))
        # A nearer point may sit in a cell further out than the first hit's ring.
        found = self.near(point, math.dist(best[1], point))
        return min(found, key=lambda item: math.dist(item[1], point))[0]
