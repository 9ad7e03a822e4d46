"""Measurements of a track that the validator checks and the command line reports.

Kept apart from the rules so that ``info``, the editor's inspector and the validator compute a
corner's long and short paths, or the shortest lap, in exactly one way.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass

import networkx as nx

from trackformat.graph import TrackGraphs
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
    circuit = graphs.circuit
    inside = {s for s in corner.spaces if s in circuit}
    succ = {n: sorted(m for m in circuit.successors(n) if m in inside) for n in inside}
    entries = sorted(s for s in inside if any(p not in inside for p in circuit.predecessors(s)))
    exits = sorted(s for s in inside if any(n not in inside for n in circuit.successors(s)))
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
    """The corners sorted by where they start along the lap (unplaced corners last)."""
    far = max(graphs.progress.values(), default=0) + 1

    def start(corner: Corner) -> tuple[int, str]:
        ranks = [graphs.progress[s] for s in corner.spaces if s in graphs.progress]
        return (min(ranks) if ranks else far, corner.id)

    return sorted(graphs.track.corners, key=start)


@dataclass(frozen=True)
class Lap:
    """The shortest lap: the fewest moves from the finish line round to it again."""

    moves: int
    route: tuple[str, ...]


def shortest_lap(graphs: TrackGraphs, graph: nx.DiGraph | None = None) -> Lap | None:
    """Shortest lap on ``graph`` (default: the circuit without the finish-crossing links).

    Returns None when no lap exists (no finish line, or the line cannot be reached again).
    """
    if graph is None:
        return graphs.remember("shortest_lap", lambda: _shortest_lap(graphs, graphs.lap))
    return _shortest_lap(graphs, graph)


def _shortest_lap(graphs: TrackGraphs, lap: nx.DiGraph) -> Lap | None:
    # A sorted list (not a set) keeps the route of equal-length laps the same from run to run.
    sources = sorted(s for s in graphs.finish if s in lap)
    if not sources:
        return None
    lengths, paths = nx.multi_source_dijkstra(lap, sources)
    best: tuple[int, str, str] | None = None
    for u, v in graphs.crossing_links:
        if u in lengths and (best is None or (lengths[u] + 1, u, v) < best):
            best = (lengths[u] + 1, u, v)
    if best is None:
        return None
    moves, u, v = best
    return Lap(moves=moves, route=(*paths[u], v))


def route_avoiding(
    graph: nx.DiGraph,
    sources: Iterable[str],
    targets: Collection[str],
    blocked: Collection[str] = (),
) -> list[str] | None:
    """A shortest route from any of ``sources`` to any of ``targets`` that enters no space of
    ``blocked``, or None. Breadth first on the graph's adjacency: the validator asks this once
    per corner, where copying the graph without the corner would cost more than the search."""
    blocked_set = set(blocked)
    target_set = set(targets)
    parent: dict[str, str | None] = {}
    frontier = []
    for source in sorted(sources):
        if source in graph and source not in blocked_set and source not in parent:
            parent[source] = None
            frontier.append(source)
    succ = graph.succ
    while frontier:
        for node in frontier:
            if node in target_set:
                route = []
                current: str | None = node
                while current is not None:
                    route.append(current)
                    current = parent[current]
                return route[::-1]
        following = []
        for node in frontier:
            for nxt in succ[node]:
                if nxt not in parent and nxt not in blocked_set:
                    parent[nxt] = node
                    following.append(nxt)
        frontier = following
    return None


def reachable(graph: nx.DiGraph, sources: Iterable[str], *, backwards: bool = False) -> set[str]:
    """Every space reachable from any of ``sources`` (them included), or with ``backwards``
    every space from which one of them is reached. One search for all sources together, where
    a search per source (as ``nx.descendants`` would be used) repeats the work."""
    step = graph.pred if backwards else graph.succ
    seen = {s for s in sources if s in graph}
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
