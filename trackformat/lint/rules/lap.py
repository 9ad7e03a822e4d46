"""Rules: the lap. Every link goes forward, one lane at most, and every lap crosses the line once.

The ``lap`` graph (the circuit without the links that cross the finish line) is what these rules
lean on: on a sound track it has no cycle, since every move takes a car further round the lap
until it crosses the line again. A cycle in it is either a link that goes backwards (LAP001) or a
loop of track that gets round without crossing the line (LAP003); both rules share one analysis
so that each cycle is blamed on one of them, not both. The finish line's own rules (LAP004,
LAP005) are in :mod:`~trackformat.lint.rules.finish_line`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import networkx as nx

from trackformat.adjacency import Adjacency
from trackformat.analysis import link_angles
from trackformat.graph import TrackGraphs
from trackformat.lint.diagnostic import Severity
from trackformat.lint.registry import Finding, rule
from trackformat.lint.rules.references import id_list, in_file_order, link_name, link_pointers
from trackformat.model.track import Track

TOPIC = "lap"

BACKWARD_ANGLE = 100.0
"""Degrees between a space's heading and a link's direction beyond which the link goes back.

Wider than a right angle so that a sideways lane change on a tight bend is not taken for one."""


@dataclass(frozen=True)
class MissedLoop:
    """A loop of the circuit that never crosses the finish line."""

    route: list[str]
    """Its spaces in driving order, the last one linked back to the first."""
    jump: tuple[str, str] | None
    """The link of the loop that steps furthest back towards the line: where it slips past."""


@dataclass(frozen=True)
class LapFaults:
    """The backward links of a track, each with why, and the loops left once they are gone."""

    backward: dict[tuple[str, str], str]
    """Each backward link and the reason, as a phrase completing "link u -> v ..."."""
    loops: list[MissedLoop]
    """Loops of the circuit that never cross the finish line, one per tangle of track."""


def _lane_steps(graphs: TrackGraphs) -> dict[str, int]:
    """Moves along its own lane from the lane's finish-line space to each space.

    Counted by a breadth-first walk so that a link skipping a space does not disturb the order
    of the spaces after it. Lanes with no finish-line space have no start, and are left out.
    """
    steps: dict[str, int] = {}
    for lane_id, order in graphs.lanes.items():
        start = next((s for s in graphs.finish if graphs.lane_of(s) == lane_id), None)
        if start is None:
            continue
        in_lane = set(order)
        circuit = graphs.successors("circuit")
        steps[start] = 0
        frontier = [start]
        while frontier:  # breadth first, on plain adjacency: subgraph views are slow
            following = []
            for space in frontier:
                for ahead in circuit[space]:
                    if ahead in in_lane and ahead not in steps:
                        steps[ahead] = steps[space] + 1
                        following.append(ahead)
            frontier = following
    return steps


def _links(successors: Adjacency) -> Iterator[tuple[str, str]]:
    """Every link of a graph's successor lists, in the graph's order."""
    for u, ahead in successors.items():
        for v in ahead:
            yield u, v


def _short_loop(graph: nx.DiGraph, nodes: set[str], through: str) -> list[str]:
    """The shortest loop of ``graph`` within ``nodes`` that passes through ``through``."""
    sub = graph.subgraph(nodes)
    paths = nx.single_source_shortest_path(sub, through)
    ends = [p for p in sub.predecessors(through) if p in paths]
    if not ends:
        return [through]
    return list(paths[min(ends, key=lambda p: (len(paths[p]), p))])


def lap_faults(graphs: TrackGraphs) -> LapFaults:
    """Find the links that go backwards and the loops that miss the finish line (once per
    validation: LAP001 and LAP003 share the answer)."""
    return graphs.remember("lap_faults", lambda: _lap_faults(graphs))


def _lap_faults(graphs: TrackGraphs) -> LapFaults:
    """Find the links that go backwards and the loops that miss the finish line.

    A link is backward when it goes back along its lane (counted from the finish line) or points
    against the driving direction of the space it leaves. Any cycle left in the lap graph is
    then blamed on its links that lead no further from the line than they start, provided the
    step back is short; a loop that steps back the length of half a lap or more is a way round
    the circuit that misses the line, not a backward link.
    """
    finish = set(graphs.finish)
    steps = _lane_steps(graphs)
    backward: dict[tuple[str, str], str] = {}
    angles = link_angles(graphs)
    for u, v in _links(graphs.successors("circuit")):
        source, target = graphs.spaces[u], graphs.spaces[v]
        reasons = []
        if v not in finish and source.lane == target.lane and u in steps and v in steps:
            back = steps[u] - steps[v]
            # A step back of half the lane or more is a link round past the line: LAP003's.
            if back > 0 and 2 * back < len(graphs.lanes.get(source.lane or "", ())):
                reasons.append(f"goes back along lane {source.lane}")
        angle = angles[(u, v)]
        if angle > BACKWARD_ANGLE:
            reasons.append(
                f"points {angle:.0f}° away from the driving direction of {u}"
            )
        if reasons:
            backward[(u, v)] = " and ".join(reasons)
    if not finish or graphs.lap_acyclic:
        # Without cycles in the lap graph there is no loop to blame on anything more.
        return LapFaults(backward, [])

    lap = graphs.lap.copy()
    lap.remove_edges_from(backward)
    distance = nx.multi_source_dijkstra_path_length(lap, finish & set(lap))
    horizon = max(distance.values(), default=0)
    for component in nx.strongly_connected_components(lap):
        if len(component) < 2:
            continue
        for u, v in lap.subgraph(component).edges:
            if u not in distance or v not in distance:
                continue
            drop = distance[u] - distance[v]
            if drop >= 0 and 2 * drop < horizon:
                loop = _short_loop(lap, component, u)
                backward[(u, v)] = (
                    f"leads no further from the finish line than {u}: with the links around "
                    f"it, a car can go round {id_list(loop)} forever"
                )
    lap.remove_edges_from(backward)
    covered = {graphs.lane_of(s) for s in finish}
    loops = []
    for component in nx.strongly_connected_components(lap):
        if len(component) < 2:
            continue
        # Start where the loop slips past the line: a lane the line does not cut, if any.
        bare = {s for s in component if graphs.lane_of(s) not in covered}
        start = min(bare or component, key=lambda s: (distance.get(s, horizon + 1), s))
        route = _short_loop(lap, component, start)
        links = list(zip(route, route[1:] + route[:1], strict=True))

        def drop(link: tuple[str, str]) -> int:
            a, b = link
            return distance[a] - distance[b] if a in distance and b in distance else 0

        jump = max(links, key=drop)
        loops.append(MissedLoop(route, jump if drop(jump) > 0 else None))
    loops.sort(key=lambda loop: in_file_order(graphs, loop.route)[0])
    return LapFaults(backward, loops)


@rule(
    "LAP001",
    "backward-link",
    TOPIC,
    Severity.ERROR,
    example="a link from 1-5 to 1-4, one space back along lane 1.",
)
def backward_link(track: Track, graphs: TrackGraphs) -> Iterator[Finding]:
    """A link goes backwards along the lap.

    Every move takes a car forward round the circuit. A link is backward when it goes back along
    its lane (counting from the finish line), when it points more than 100° away from the
    driving direction (the heading) of the space it leaves, or when it closes a small loop that
    a car could go round forever without getting further from the line. The link from the last
    space of a lane onto the finish line is the end of the lap, not a backward link. Such a link
    is usually drawn the wrong way round: turn it, or delete it. Each link is reported once.
    """
    pointers = link_pointers(graphs)
    for pair, reason in sorted(lap_faults(graphs).backward.items()):
        yield Finding(
            f"link {link_name(pair)} {reason}; a move goes forward round the lap, so turn the "
            f"link round or delete it",
            elements=pair,
            pointer=pointers.get(pair),
            point=graphs.centre(pair[0]),
            group="links going backward",
        )


@rule(
    "LAP002",
    "lane-jump",
    TOPIC,
    Severity.ERROR,
    example="a link from 1-5 (lane 1) to 3-6 (lane 3) on a three-lane track.",
)
def lane_jump(track: Track, graphs: TrackGraphs) -> Iterator[Finding]:
    """A link changes lane by more than one.

    A move of one space goes straight ahead or into the lane next to it, never across a lane.
    A link between spaces two or more lanes apart is usually meant for the lane in between;
    point it at the right space.
    """
    pointers = link_pointers(graphs)
    for u, v in _links(graphs.successors("circuit")):
        lane_u, lane_v = graphs.spaces[u].lane, graphs.spaces[v].lane
        if lane_u == lane_v:
            continue
        a, b = graphs.lane_number(lane_u), graphs.lane_number(lane_v)
        if a is None or b is None or abs(a - b) <= 1:
            continue
        yield Finding(
            f"link {link_name((u, v))} changes lane by {abs(a - b)} (lane {lane_u} to lane "
            f"{lane_v}); a move changes lane by at most one",
            elements=(u, v),
            pointer=pointers.get((u, v)),
            point=graphs.centre(u),
            group="links jumping a lane",
        )


@rule(
    "LAP003",
    "lap-misses-line",
    TOPIC,
    Severity.ERROR,
    example="a finish line with no space in lane 3, so lane 3 goes round without crossing it.",
)
def lap_misses_line(track: Track, graphs: TrackGraphs) -> Iterator[Finding]:
    """A car can go round the circuit without crossing the finish line.

    The finish line must cut every way round the circuit, or a car could complete laps that are
    never counted. Each such loop is reported once, with its spaces. Most often the line has no
    space in one lane, or a link jumps over the line from the last space of a lane to the space
    after the line.
    """
    finish = set(graphs.finish)
    for missed in lap_faults(graphs).loops:
        loop = missed.route
        lanes = {graphs.lane_of(s) for s in loop}
        covered = {graphs.lane_of(s) for s in finish}
        bare = sorted(lane for lane in lanes if lane is not None and lane not in covered)
        if bare:
            lane_word = "lane" if len(bare) == 1 else "lanes"
            hint = f"the finish line has no space in {lane_word} {id_list(bare)}"
        elif missed.jump is not None:
            hint = f"link {link_name(missed.jump)} goes round past the line without crossing it"
        else:
            hint = "check for a link that jumps over the line"
        yield Finding(
            f"a car can go round {len(loop)} spaces ({id_list(loop)}) and back without "
            f"crossing the finish line; {hint}",
            elements=tuple(loop),
            pointer=graphs.space_pointer(loop[0]),
            point=graphs.centre(loop[0]),
        )
