"""Rules: shortest paths. A lap exists, no route skips a corner, and the pit lane is no shortcut.

These measure routes in moves (one link, one move) with :func:`trackformat.analysis.shortest_lap`
so that the validator, ``info`` and the editor agree on the length of the shortest lap.
"""

from __future__ import annotations

from collections.abc import Iterator

from trackformat.analysis import breadth_first, route_avoiding, route_to, shortest_lap
from trackformat.graph import LinkKind, TrackGraphs
from trackformat.lint.diagnostic import Severity
from trackformat.lint.registry import Finding, rule
from trackformat.lint.rules.references import id_list
from trackformat.model.track import Corner, Track

TOPIC = "shortest-path"

SHORT_LAP_MOVES = 60
"""A shortest lap under this many moves is suspicious: real boards take 120 to 200."""

_PIT_KINDS = {LinkKind.PIT.value, LinkKind.PIT_ENTRY.value, LinkKind.PIT_EXIT.value}


def _corner_name(corner: Corner) -> str:
    return f"corner {corner.name} ({corner.id})" if corner.name else f"corner {corner.id}"


def _corner_spaces(graphs: TrackGraphs, corner: Corner) -> set[str]:
    return {s for s in corner.spaces if s in graphs.successors("circuit")}


@rule(
    "PATH001",
    "no-lap",
    TOPIC,
    Severity.ERROR,
    example="the links onto the finish line are all missing, so no lap can be completed.",
)
def no_lap(track: Track, graphs: TrackGraphs) -> Iterator[Finding]:
    """No lap can be completed: no route leads from the finish line round to it again.

    Starting on the finish line, following the links forward, a car must be able to come back
    and cross the line. When it cannot, no race on the track can end. The other reachability
    and lap rules usually say where the way is broken.
    """
    if not graphs.finish or shortest_lap(graphs) is not None:
        return
    yield Finding(
        "no lap can be completed: no route of links leads from the finish line round to it "
        "again; see the reachability and lap diagnostics for where the way is broken",
        elements=tuple(graphs.finish),
        pointer="/finish_line",
        point=graphs.centre(graphs.finish[0]),
    )


@rule(
    "PATH002",
    "corner-bypass",
    TOPIC,
    Severity.ERROR,
    example="a lane-change link that jumps from before a corner's limits to after them.",
)
def corner_bypass(track: Track, graphs: TrackGraphs) -> Iterator[Finding]:
    """A lap can be completed without passing through a corner.

    Every corner lies on every lap: that is what makes a car stop in it. The validator takes
    the corner's spaces out of the circuit and looks for a lap all the same; if there is one,
    it is reported as the witness route. Usually a link leads round the corner's limits, or the
    corner's spaces do not cover every lane.
    """
    if shortest_lap(graphs) is None:
        return
    for index, corner in enumerate(track.corners):
        inside = _corner_spaces(graphs, corner)
        if not inside:
            continue
        # A lap that ends on a corner space on the line does pass through the corner.
        ends = {u: v for u, v in graphs.crossing_links if v not in inside}
        route = route_avoiding(graphs.successors("lap"), graphs.finish, ends, inside)
        if route is None:
            continue
        route.append(ends[route[-1]])
        yield Finding(
            f"a lap of {len(route) - 1} moves avoids {_corner_name(corner)}: "
            f"{id_list(route, 8)}; every lap must pass through every corner, so check "
            f"the links around it and that its spaces cover every lane",
            elements=(corner.id, *route),
            pointer=f"/corners/{index}",
            point=graphs.centre(sorted(inside)[0]),
        )


PIT_SHORTFALL = 2
"""Moves a pit lane may save on the track between its entry and exit before it is an error."""


@rule(
    "PATH003",
    "pit-shortcut",
    TOPIC,
    Severity.ERROR,
    example="a pit lane of 3 spaces whose entry and exit are 8 moves apart on the track.",
)
def pit_shortcut(track: Track, graphs: TrackGraphs) -> Iterator[Finding]:
    """The pit lane is shorter than the track it runs beside, or bypasses a corner.

    Going through the pits must never gain ground: from a pit entry's track space to a pit
    exit's track space, the route through the pit lane may take no fewer moves than the track,
    and must not leave out a corner that every track route between them goes through.

    Real boards are not that strict: their pit lanes run straight beside a track that bends, and
    are often one or two moves shorter (every one of twelve real GP Online tracks), and some leave
    the first corner out. A car takes the pit lane to stop at its pit, which costs it most of a
    move (the rules' quick or slow stop), so the track can still be raced: a pit lane up to two
    moves short, and a bypassed corner, are warnings; a bigger shortcut is an error.
    """
    pit_lane = track.pit_lane
    if pit_lane is None:
        return
    pits: dict[str, list[str]] = {}
    for (u, v), kind in graphs.link_kinds.items():
        if kind in _PIT_KINDS:
            pits.setdefault(u, []).append(v)
            pits.setdefault(v, [])
    circuit = graphs.successors("circuit")
    sources = sorted({link.from_ for link in pit_lane.entry if link.from_ in circuit})
    targets = sorted({link.to for link in pit_lane.exit if link.to in circuit})
    corners = [(c, _corner_spaces(graphs, c)) for c in track.corners]
    for u in sources:
        if u not in pits:
            continue
        _, pit_parent = breadth_first(pits, [u])
        track_moves, _ = breadth_first(circuit, [u])
        for v in targets:
            if v == u or v not in pit_parent or v not in track_moves:
                continue
            route = route_to(pit_parent, v)
            point = graphs.centre(route[1] if len(route) > 2 else u)
            moves = len(route) - 1
            if moves < track_moves[v]:
                small = track_moves[v] - moves <= PIT_SHORTFALL
                yield Finding(
                    f"through the pit lane, {u} to {v} takes {moves} moves but {track_moves[v]} "
                    f"on the track; the pit lane must never be a shortcut, so move its entry "
                    f"or exit, or add pit spaces",
                    elements=tuple(route),
                    pointer="/pit_lane",
                    point=point,
                    severity=Severity.WARNING if small else None,
                )
            for corner, inside in corners:
                if not inside or inside & set(route):
                    continue
                if route_avoiding(circuit, [u], {v}, inside) is not None:
                    continue
                yield Finding(
                    f"the pit lane from {u} to {v} bypasses {_corner_name(corner)}: every track "
                    f"route between them goes through the corner; move the pit entry or exit "
                    f"so that the corner is driven either way",
                    elements=(corner.id, *route),
                    pointer="/pit_lane",
                    point=point,
                    severity=Severity.WARNING,
                )


@rule(
    "PATH004",
    "shortest-lap",
    TOPIC,
    Severity.INFO,
    example=(
        "a note on every track; a warning on a 40-space ring whose link from 1-20 onto the "
        "finish line makes a lap of 21 moves."
    ),
)
def shortest_lap_length(track: Track, graphs: TrackGraphs) -> Iterator[Finding]:
    """The length of the shortest lap, in moves, and its route.

    A note, so that designers see the figure and can compare it with the printed board: real
    boards take 120 to 200 moves. It becomes a warning when the lap is under 60 moves and shorter
    than any single lane driven alone, which on a full-size board means a link cuts the lap short.
    """
    lap = shortest_lap(graphs)
    if lap is None:
        return
    shortest_lane = min((len(order) for order in graphs.lanes.values() if order), default=0)
    ends = f"from {lap.route[0]} round to {lap.route[-1]}"
    if lap.moves < SHORT_LAP_MOVES and lap.moves < shortest_lane:
        yield Finding(
            f"the shortest lap takes only {lap.moves} moves ({ends}), fewer than any lane "
            f"driven alone ({shortest_lane} spaces); real boards take 120 to 200, so look for "
            f"a link that cuts the lap short",
            elements=lap.route,
            pointer="/finish_line",
            point=graphs.centre(lap.route[0]),
            severity=Severity.WARNING,
        )
        return
    yield Finding(
        f"the shortest lap takes {lap.moves} moves, {ends}",
        elements=lap.route,
        pointer="/finish_line",
        point=graphs.centre(lap.route[0]),
    )
