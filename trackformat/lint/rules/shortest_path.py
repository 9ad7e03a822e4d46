"""Rules: shortest paths. A lap exists, no route skips a corner, and the pit lane is no shortcut.

These measure routes in moves (one link, one move) with :func:`trackformat.analysis.shortest_lap`
so that the validator, ``info`` and the editor agree on the length of the shortest lap.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

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


MAX_SEARCHED = 1_000_000
"""Spaces the searches of corner-bypass may visit in one validation, and those of pit-shortcut
again, each search counted as visiting the whole circuit. A real board needs a few thousand (ten
corners on 600 spaces, one search each), the largest file of a sound track some 500,000 (25
corners on 19,000 spaces); a file of 50,000 corners on a ring of 4,500 spaces would need 200
million (90 s), so the check stops and says so."""

MAX_PIT_ENDS = 20
"""Track spaces of pit entries, and of pit exits, whose ways through the pit lane pit-shortcut
compares with the track (every entry with every exit). Real boards have one to three of each."""


def searches_allowed(graphs: TrackGraphs) -> int:
    """How many searches of the circuit :data:`MAX_SEARCHED` allows on this track."""
    return max(1, MAX_SEARCHED // max(1, len(graphs.successors("circuit"))))


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
    corners = [(index, corner, inside) for index, corner in enumerate(track.corners)
               if (inside := _corner_spaces(graphs, corner))]
    allowed = searches_allowed(graphs)
    for index, corner, inside in corners[:allowed]:
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
            group="corners a lap avoids",
        )
    if len(corners) > allowed:
        yield Finding(
            f"the check for laps that avoid a corner stopped after {allowed:,} of the track's "
            f"{len(corners):,} corners, before {_corner_name(corners[allowed][1])}: each corner "
            f"takes a search of the {len(graphs.successors('circuit')):,} spaces of the "
            "circuit, and checking them all would take too long; a board has a dozen corners "
            "at most, so delete the extra ones (most often a corner pasted many times), then "
            "validate again",
            pointer=f"/corners/{corners[allowed][0]}",
        )


PIT_SHORTFALL = 2
"""Moves a pit lane may save on the track between its entry and exit: with a place to stop, it
is no shortcut up to this many; with none, a warning up to this many and an error beyond."""


@dataclass(frozen=True)
class _PitRoute:
    """The shortest way through the pit lane from a pit entry's track space to a pit exit's,
    stopping at a place to stop when the lane has one on the way."""

    route: list[str]
    stop: str | None
    """The place to stop it passes (a box or garage), or None: a lane a car can drive through."""


def _pit_routes(track: Track, source: str, pits: dict[str, list[str]]) -> dict[str, _PitRoute]:
    """For each space the pit lane leads to from ``source``, the shortest way there through the
    pit lane: through a place to stop when one lies on a way there (a car that turns in must end
    its move at its place), else the shortest way of all."""
    moves, parent = breadth_first(pits, [source])
    pit_lane = track.pit_lane
    # Each place once, however often the file lists it.
    places = [] if pit_lane is None else [
        s for s in dict.fromkeys([*pit_lane.garages, *pit_lane.boxes])
        if s in moves and s != source]
    routes: dict[str, _PitRoute] = {}
    for stop in places:
        onwards, after = breadth_first(pits, [stop])
        for target, more in onwards.items():
            known = routes.get(target)
            if known is None or known.stop is None or len(known.route) > moves[stop] + more + 1:
                route = route_to(parent, stop) + route_to(after, target)[1:]
                routes[target] = _PitRoute(route, stop)
    for target in moves:
        routes.setdefault(target, _PitRoute(route_to(parent, target), None))
    return routes


@rule(
    "PATH003",
    "pit-shortcut",
    TOPIC,
    Severity.ERROR,
    example=(
        "a pit lane of 3 spaces whose entry and exit are 8 moves apart on the track, or one a "
        "move short of the track with no box beside it and no garage in it."
    ),
)
def pit_shortcut(track: Track, graphs: TrackGraphs) -> Iterator[Finding]:
    """The pit lane is a shortcut: a car gains ground by taking it, or skips a corner's stops.

    A car turns into the pit lane only to stop there, at its team's box beside the lane or its
    garage in it, and the stop ends its move: what is left of its roll is lost, and it can never
    drive through the lane and back onto the track in one move. So a lane with a place to stop
    is judged with the stop counted. If, through a place to stop, the lane saves n moves on the
    track between its entry and exit, a car that stops comes out ahead of one that drove on only
    when its roll ends within n spaces past its place, and then by n spaces at most; any bigger
    roll loses more at the stop than the lane saves. Real boards draw the lane straight beside a
    track that bends, one or two moves shorter (all twelve real GP Online tracks): with a place
    to stop, that makes a stop a little cheaper, not a way round the track, and is not reported.
    A lane that saves more than two moves even through a place to stop is an error: a stop timed
    to its place then gains a car more than any real board allows.

    A lane with no place to stop (no box, no garage) could be driven through like the track, so
    every move it saves is a shortcut: a warning up to two moves, an error beyond.

    The lane must not leave out a corner that every track route between its ends goes through.
    The stop ends a move in the lane, as a one-stop corner demands, so with a place to stop only
    a corner of two or three stops is reported (a warning: the car saves the stops beyond the
    first); with no place to stop, any corner is (a warning).
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
    # Each entry's search of the track and each corner's search below is counted, so that a
    # pit lane with hundreds of entries and exits, or a track of thousands of corners, stops.
    searches, allowed, stopped = 0, searches_allowed(graphs), False
    for u in sources[:MAX_PIT_ENDS]:
        if u not in pits:
            continue
        if searches >= allowed:
            stopped = True
            break
        through = _pit_routes(track, u, pits)
        track_moves, _ = breadth_first(circuit, [u])
        searches += 1
        for v in targets[:MAX_PIT_ENDS]:
            if v == u or v not in through or v not in track_moves:
                continue
            yield from _shortcut(graphs, u, v, through[v], track_moves[v])
            route = through[v].route
            for corner, inside in corners:
                if not inside or inside & set(route):
                    continue
                if through[v].stop is not None and corner.stops <= 1:
                    continue
                if searches >= allowed:
                    stopped = True
                    break
                searches += 1
                if route_avoiding(circuit, [u], {v}, inside) is not None:
                    continue
                yield Finding(
                    f"the pit lane from {u} to {v} bypasses {_corner_name(corner)}: every track "
                    f"route between them goes through the corner"
                    f"{_stops_saved(corner, through[v].stop)}; move the pit entry or exit so "
                    f"that the corner is driven either way",
                    elements=(corner.id, *route),
                    pointer="/pit_lane",
                    point=graphs.centre(route[1] if len(route) > 2 else u),
                    severity=Severity.WARNING,
                    group="corners the pit lane bypasses",
                )
    if stopped or len(sources) > MAX_PIT_ENDS or len(targets) > MAX_PIT_ENDS:
        yield Finding(
            f"the pit-shortcut check stopped before the end: comparing every way through the "
            f"pit lane (entered from {_count(sources, 'track space')}, left onto "
            f"{_count(targets, 'track space')}) with the track and with each of the track's "
            f"{len(corners):,} corners would take too long; a board has one to three entries "
            "and exits and a dozen corners, so delete the extra ones, then validate again",
            pointer="/pit_lane",
        )


def _shortcut(graphs: TrackGraphs, u: str, v: str, way: _PitRoute, on_track: int
              ) -> Iterator[Finding]:
    """The finding for a pit lane shorter than the track between ``u`` and ``v``, if it is a
    shortcut (see :func:`pit_shortcut`)."""
    moves = len(way.route) - 1
    saved = on_track - moves
    if saved <= 0 or (way.stop is not None and saved <= PIT_SHORTFALL):
        return
    if way.stop is None:
        why = ("and it has no place to stop (no box beside it, no garage in it), so a car can "
               "drive through it; the pit lane must never be a shortcut, so move its entry or "
               "exit, add pit spaces, or mark the teams' boxes or garages")
    else:
        why = (f"stopping at {way.stop}: a car whose move ends there gains up to {saved} moves "
               "on one that drove on; the pit lane must never be a shortcut, so move its entry "
               "or exit, or add pit spaces")
    yield Finding(
        f"through the pit lane, {u} to {v} takes {moves} moves but {on_track} on the track, "
        f"{why}",
        elements=tuple(way.route),
        pointer="/pit_lane",
        point=graphs.centre(way.route[1] if len(way.route) > 2 else u),
        severity=Severity.WARNING if way.stop is None and saved <= PIT_SHORTFALL else None,
        group="ways through the pit lane that are shortcuts",
    )


def _count(items: list[str], noun: str) -> str:
    return f"{len(items):,} {noun}{'' if len(items) == 1 else 's'}"


def _stops_saved(corner: Corner, stop: str | None) -> str:
    """What bypassing ``corner`` saves a car that takes the pit lane."""
    if stop is None:
        return ", and the lane has no place to stop, so a car skips the corner's stops"
    saved = corner.stops - 1
    return (f", and its {corner.stops} stops are more than the one a car makes at its place in "
            f"the lane ({saved} stop{'s' if saved > 1 else ''} saved)")


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
