"""Rules: the lap. Every link goes forward, one lane at most, and every lap crosses the line once.

The ``lap`` graph (the circuit without the links that cross the finish line) is what these rules
lean on: on a sound track it has no cycle, since every move takes a car further round the lap
until it crosses the line again. A cycle in it is either a link that goes backwards (LAP001) or a
loop of track that gets round without crossing the line (LAP003); both rules share one analysis
so that each cycle is blamed on one of them, not both.
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
from trackformat.lint.rules.corners import lane_is_partial
from trackformat.lint.rules.references import id_list, in_file_order, link_name, link_pointers
from trackformat.model.track import SpaceKind, Track

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


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


@rule(
    "LAP004",
    "finish-line",
    TOPIC,
    Severity.ERROR,
    example='"finish_line": {"spaces": ["2-0", "1-0", "3-0"]} (lanes out of order).',
)
def finish_line(track: Track, graphs: TrackGraphs) -> Iterator[Finding]:
    """The finish line is missing, or is not one track space per lane in lane order.

    The finish line is given by the first space past it in each lane, listed in the order of
    /lanes (the driver's left to right). Laps, the order of the lanes and the shortest lap are
    all counted from it, so it must name exactly one track space in each lane.

    A partial lane, whose links do not run all round the lap (a stretch where the track is one
    lane wider, on real boards), may not reach the line: with no space on it, it gets a note and
    is left out of the line's order.
    """
    line = track.finish_line
    if line is None:
        yield Finding(
            "the track has no finish line; in the editor, use the Finish line tool on the first "
            "space past the line (in a file, /finish_line lists it for each lane, left to right)"
        )
        return
    lanes_of: dict[str, list[str]] = {lane.id: [] for lane in track.lanes}
    for position, space_id in enumerate(line.spaces):
        space = graphs.spaces.get(space_id)
        if space is None:
            continue  # an unknown id is REF004's
        if space.kind != SpaceKind.TRACK:
            yield Finding(
                f"the finish line lists {space_id}, which is a {space.kind.value} space, not a "
                f"track space",
                elements=(space_id,),
                pointer=f"/finish_line/spaces/{position}",
                point=graphs.centre(space_id),
            )
        elif space.lane in lanes_of:
            lanes_of[space.lane].append(space_id)
    well_placed = True
    for lane_id, ids in lanes_of.items():
        if len(ids) == 1:
            continue
        if not ids and lane_is_partial(graphs, lane_id):
            yield Finding(
                f"the partial lane {lane_id} has no space on the finish line; if it reaches the "
                "line, add its first space past it",
                pointer="/finish_line/spaces",
                severity=Severity.INFO,
            )
            continue
        well_placed = False
        if not ids:
            yield Finding(
                f"the finish line has no space in lane {lane_id}; it needs one space in every "
                f"lane",
                pointer="/finish_line/spaces",
            )
        else:
            yield Finding(
                f"the finish line has {len(ids)} spaces in lane {lane_id} ({id_list(ids)}); it "
                f"needs exactly one in each lane",
                elements=tuple(ids),
                pointer="/finish_line/spaces",
                point=graphs.centre(ids[0]),
            )
    crossing = [lane for lane in track.lanes if lanes_of[lane.id]]
    if not well_placed or len(line.spaces) != len(crossing):
        return
    for position, (space_id, lane) in enumerate(zip(line.spaces, crossing, strict=True)):
        actual = graphs.lane_of(space_id)
        if actual is not None and actual != lane.id:
            nth = _ordinal(position + 1)
            yield Finding(
                f"the {nth} space of the finish line is {space_id}, in lane {actual}, but the "
                f"{nth} lane of /lanes is {lane.id}; list the line's spaces in lane order, "
                f"left to right",
                elements=(space_id,),
                pointer=f"/finish_line/spaces/{position}",
                point=graphs.centre(space_id),
            )


@rule(
    "LAP005",
    "line-crossing",
    TOPIC,
    Severity.ERROR,
    example="a link from 1-20 to the finish-line space 1-0, half a lap before the line.",
)
def line_crossing(track: Track, graphs: TrackGraphs) -> Iterator[Finding]:
    """The finish line is crossed from somewhere other than right behind it.

    Every lap crosses the finish line, once: the links onto the line's spaces must come from the
    spaces just behind it, whose every move crosses the line (or, where the lanes are staggered
    across the line, moves onto the space just behind it in the next lane). A link onto the line
    from a space that can also drive on elsewhere lets a car cut the lap short; a line space
    that no link enters can never be crossed in its lane.
    """
    finish = set(graphs.finish)
    if not finish:
        return
    pointers = link_pointers(graphs)
    # A lane the line does not cut is LAP004's; a move into it is not a way round the line.
    covered = {graphs.lane_of(s) for s in finish}
    behind_line = {u for u, _ in graphs.crossing_links}
    entered: set[str] = set()
    ahead = graphs.successors("circuit")
    for u, v in graphs.crossing_links:
        entered.add(v)
        elsewhere = sorted(
            w for w in ahead[u]
            if w not in finish and graphs.lane_of(w) in covered
            and (w not in behind_line or graphs.lane_of(w) == graphs.lane_of(u))
        )
        if elsewhere:
            yield Finding(
                f"link {link_name((u, v))} crosses the finish line from {u}, which also leads "
                f"on to {id_list(elsewhere)} without crossing it; the line is crossed only from "
                f"the spaces right behind it",
                elements=(u, v),
                pointer=pointers.get((u, v)),
                point=graphs.centre(u),
            )
    for position, space_id in enumerate(track.finish_line.spaces if track.finish_line else []):
        if space_id in finish and space_id not in entered:
            lane = graphs.lane_of(space_id)
            yield Finding(
                f"no link enters the finish-line space {space_id} from behind the line, so the "
                f"line can never be crossed in lane {lane}; link the last space of the lane "
                f"to it",
                elements=(space_id,),
                pointer=f"/finish_line/spaces/{position}",
                point=graphs.centre(space_id),
            )
