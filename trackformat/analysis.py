"""Measurements of a track that the validator checks and the command line reports.

Kept apart from the rules so that ``info``, the editor's inspector and the validator compute a
corner's long and short paths, or the shortest lap, in exactly one way.
"""

from __future__ import annotations

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
    circuit = graphs.circuit
    inside = {s for s in corner.spaces if s in circuit}
    entries = sorted(s for s in inside if any(p not in inside for p in circuit.predecessors(s)))
    exits = sorted(s for s in inside if any(n not in inside for n in circuit.successors(s)))
    exit_set = set(exits)
    sub = circuit.subgraph(inside)

    short_route: tuple[str, ...] = ()
    if entries and exits:
        lengths, paths = nx.multi_source_dijkstra(sub, entries)
        reached = [e for e in exits if e in lengths]
        if reached:
            best = min(reached, key=lambda e: (lengths[e], e))
            short_route = tuple(paths[best])

    long_route: tuple[str, ...] = ()
    if entries and exits and nx.is_directed_acyclic_graph(sub):
        best_len: dict[str, int] = {}
        came_from: dict[str, str | None] = {}
        for node in nx.topological_sort(sub):
            options = [(best_len[p] + 1, p) for p in sub.predecessors(node) if p in best_len]
            if options:
                length, parent = max(options)
                best_len[node], came_from[node] = length, parent
            if node in entries and best_len.get(node, 0) < 1:
                best_len[node], came_from[node] = 1, None
        reached = [e for e in exit_set if e in best_len]
        if reached:
            end: str | None = max(reached, key=lambda e: (best_len[e], e))
            route: list[str] = []
            while end is not None:
                route.append(end)
                end = came_from[end]
            long_route = tuple(reversed(route))

    return CornerMeasure(
        corner=corner,
        long=len(long_route) or None,
        short=len(short_route) or None,
        long_route=long_route,
        short_route=short_route,
        entries=tuple(entries),
        exits=tuple(exits),
    )


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
    lap = graphs.lap if graph is None else graph
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
