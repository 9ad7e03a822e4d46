"""Measurements of a track that the validator checks and the command line reports.

Kept apart from the rules so that ``info``, the editor's inspector and the validator compute a
corner's long and short paths, or the shortest lap, in exactly one way.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass

import numpy as np

from trackformat.graph import GraphName, TrackGraphs
from trackformat.model.track import Corner


@dataclass(frozen=True)
class CornerMeasure:
    """The paths through one corner, measured on the links.

    A path enters the corner on a space with a link from outside, and ends on a space with a link
    leaving it; its length is the number of corner spaces on it, as the printed numbers count.
    """

    corner: Corner
    long: int | None
    short: int | None
    long_route: tuple[str, ...]
    short_route: tuple[str, ...]
    entries: tuple[str, ...]
    exits: tuple[str, ...]


def measure_corner(graphs: TrackGraphs, corner: Corner) -> CornerMeasure:
    """Longest and shortest paths through ``corner`` (None when no path goes through)."""
    # Keyed by identity: corners are not hashable, and the graphs keep this one alive.
    return graphs.remember(("measure_corner", id(corner)), lambda: _measure_corner(graphs, corner))


def _measure_corner(graphs: TrackGraphs, corner: Corner) -> CornerMeasure:
    # Plain dicts rather than networkx subgraph views: a corner has a few dozen spaces and this
    # runs for every corner on every validation, where views cost more than the search.
    ahead, behind = graphs.successors("circuit"), graphs.predecessors("circuit")
    inside = {s for s in corner.spaces if s in ahead}
    succ = {n: sorted(m for m in ahead[n] if m in inside) for n in inside}
    entries = sorted(s for s in inside if any(p not in inside for p in behind[s]))
    exits = sorted(s for s in inside if any(n not in inside for n in ahead[s]))
    exit_set = set(exits)

    short_route: tuple[str, ...] = ()
    parent: dict[str, str | None] = {e: None for e in entries}
    frontier = list(entries)
    while frontier and not short_route:
        reached = sorted(n for n in frontier if n in exit_set)
        if reached:
            end: str | None = reached[0]
            route: list[str] = []
            while end is not None:
                route.append(end)
                end = parent[end]
            short_route = tuple(reversed(route))
            break
        following = []
        for node in frontier:
            for nxt in succ[node]:
                if nxt not in parent:
                    parent[nxt] = node
                    following.append(nxt)
        frontier = following

    long_route: tuple[str, ...] = ()
    order = _topological(inside, succ)
    if entries and exits and order is not None:
        best: dict[str, tuple[int, str | None]] = {e: (1, None) for e in entries}
        for node in order:
            if node not in best:
                continue
            length = best[node][0] + 1
            for nxt in succ[node]:
                if length > best.get(nxt, (0, None))[0]:
                    best[nxt] = (length, node)
        reached_long = [e for e in exits if e in best]
        if reached_long:
            last: str | None = max(reached_long, key=lambda e: (best[e][0], e))
            path: list[str] = []
            while last is not None:
                path.append(last)
                last = best[last][1]
            long_route = tuple(reversed(path))

    return CornerMeasure(
        corner=corner,
        long=len(long_route) or None,
        short=len(short_route) or None,
        long_route=long_route,
        short_route=short_route,
        entries=tuple(entries),
        exits=tuple(exits),
    )


def _topological(nodes: set[str], succ: dict[str, list[str]]) -> list[str] | None:
    """Kahn's order of a small graph, or None if it has a cycle."""
    indegree = dict.fromkeys(nodes, 0)
    for node in nodes:
        for nxt in succ[node]:
            indegree[nxt] += 1
    ready = sorted(n for n, d in indegree.items() if d == 0)
    order = []
    while ready:
        node = ready.pop()
        order.append(node)
        for nxt in succ[node]:
            indegree[nxt] -= 1
            if indegree[nxt] == 0:
                ready.append(nxt)
    return order if len(order) == len(nodes) else None


def corners_in_lap_order(graphs: TrackGraphs) -> list[Corner]:
    """The corners sorted by where they start along the lap (unplaced corners last).

    Only spaces that a link enters or leaves place their corner: a space with no link at all (a
    blocked space of a GP Online board, inside a corner's limits) has no place in the lap, and
    counted at the line's rank it put its corner first."""
    far = max(graphs.progress.values(), default=0) + 1
    ahead, behind = graphs.successors("circuit"), graphs.predecessors("circuit")

    def start(corner: Corner) -> tuple[int, str]:
        ranks = [graphs.progress[s] for s in corner.spaces
                 if s in graphs.progress and (ahead.get(s) or behind.get(s))]
        return (min(ranks) if ranks else far, corner.id)

    return sorted(graphs.track.corners, key=start)


@dataclass(frozen=True)
class Lap:
    """The shortest lap: the fewest moves from the finish line round to it again."""

    moves: int
    route: tuple[str, ...]


def shortest_lap(graphs: TrackGraphs) -> Lap | None:
    """The shortest lap of the track: on ``lap`` (the circuit without the finish-crossing links),
    the fewest moves from the finish line to a space with a link onto it, plus that link.

    Returns None when no lap exists (no finish line, or the line cannot be reached again).
    """
    return graphs.remember("shortest_lap", lambda: _shortest_lap(graphs))


def _shortest_lap(graphs: TrackGraphs) -> Lap | None:
    # Sorted sources and the graph's own successor order: the first route found to each space
    # is kept, so the route of equal-length laps is the same from run to run.
    sources = sorted(graphs.finish)
    moves, parent = breadth_first(graphs.successors("lap"), sources)
    if not moves:
        return None
    best: tuple[int, str, str] | None = None
    for u, v in graphs.crossing_links:
        if u in moves and (best is None or (moves[u] + 1, u, v) < best):
            best = (moves[u] + 1, u, v)
    if best is None:
        return None
    length, u, v = best
    return Lap(moves=length, route=(*route_to(parent, u), v))


def route_avoiding(
    successors: Mapping[str, Iterable[str]],
    sources: Iterable[str],
    targets: Collection[str],
    blocked: Collection[str] = (),
) -> list[str] | None:
    """A shortest route from any of ``sources`` to any of ``targets`` that enters no space of
    ``blocked``, or None. Breadth first on plain successor lists (see
    :meth:`~trackformat.graph.TrackGraphs.successors`): the validator asks this once per corner,
    where copying the graph without the corner would cost more than the search."""
    blocked_set = set(blocked)
    target_set = set(targets)
    parent: dict[str, str | None] = {}
    frontier = []
    for source in sorted(sources):
        if source in successors and source not in blocked_set and source not in parent:
            parent[source] = None
            frontier.append(source)
    while frontier:
        for node in frontier:
            if node in target_set:
                return route_to(parent, node)
        following = []
        for node in frontier:
            for nxt in successors[node]:
                if nxt not in parent and nxt not in blocked_set:
                    parent[nxt] = node
                    following.append(nxt)
        frontier = following
    return None


def route_to(parent: Mapping[str, str | None], node: str) -> list[str]:
    """The route of a breadth-first search from its source to ``node``."""
    route = []
    current: str | None = node
    while current is not None:
        route.append(current)
        current = parent[current]
    return route[::-1]


def breadth_first(successors: Mapping[str, Iterable[str]], sources: Iterable[str]
                  ) -> tuple[dict[str, int], dict[str, str | None]]:
    """Fewest moves from any of ``sources`` to every space they reach (themselves at 0), and
    the space each one was first reached from (None for a source)."""
    moves: dict[str, int] = {}
    parent: dict[str, str | None] = {}
    frontier = []
    for source in sources:
        if source in successors and source not in moves:
            moves[source] = 0
            parent[source] = None
            frontier.append(source)
    while frontier:
        following = []
        for node in frontier:
            step = moves[node] + 1
            for nxt in successors[node]:
                if nxt not in moves:
                    moves[nxt] = step
                    parent[nxt] = node
                    following.append(nxt)
        frontier = following
    return moves, parent


def reachable(step: Mapping[str, Iterable[str]], sources: Iterable[str]) -> set[str]:
    """Every space reachable from any of ``sources`` (them included) along ``step``: pass a
    graph's successors to go forwards, its predecessors to find every space from which one of
    the sources is reached. One search for all sources together, where a search per source (as
    ``nx.descendants`` would be used) repeats the work."""
    seen = {s for s in sources if s in step}
    frontier = list(seen)
    while frontier:
        following = []
        for node in frontier:
            for nxt in step[node]:
                if nxt not in seen:
                    seen.add(nxt)
                    following.append(nxt)
        frontier = following
    return seen


def strongly_connected(graphs: TrackGraphs, name: GraphName) -> bool:
    """Whether every space of the graph ``name`` reaches every other: one search forwards and
    one backwards from any space, where listing the strongly connected parts costs several
    times more. Sound tracks are, so the rules that list the parts ask this first."""

    def compute() -> bool:
        ahead = graphs.successors(name)
        if not ahead:
            return True
        anchor = next(iter(ahead))
        return (len(reachable(ahead, [anchor])) == len(ahead)
                and len(reachable(graphs.predecessors(name), [anchor])) == len(ahead))

    return graphs.remember(("strongly_connected", name), compute)


def link_angles(graphs: TrackGraphs) -> dict[tuple[str, str], float]:
    """How far each link of the ``moves`` graph turns from the heading of the space it leaves,
    in degrees (0 to 180; 0 for two spaces drawn on the same centre), as
    :func:`~trackformat.geometry.angle_between` measures it. Worked out once per validation,
    for every link at once: the lap and geometry rules both ask."""
    return graphs.remember("link_angles", lambda: _link_angles(graphs))


def _link_angles(graphs: TrackGraphs) -> dict[tuple[str, str], float]:
    successors = graphs.successors("moves")
    links = [(u, v) for u, ahead in successors.items() for v in ahead]
    if not links:
        return {}
    number = {space_id: n for n, space_id in enumerate(successors)}
    spaces = [graphs.spaces[space_id] for space_id in successors]
    centres = np.array([s.centre for s in spaces], dtype=float)
    headings = np.array([s.heading for s in spaces], dtype=float)
    source = np.array([number[u] for u, _ in links])
    target = np.array([number[v] for _, v in links])
    dx = centres[target, 0] - centres[source, 0]
    dy = centres[target, 1] - centres[source, 1]
    turn = np.abs(np.mod(np.degrees(np.arctan2(dy, dx)) - headings[source] + 180.0, 360.0) - 180.0)
    turn[(dx == 0) & (dy == 0)] = 0.0
    return dict(zip(links, turn.tolist(), strict=True))
