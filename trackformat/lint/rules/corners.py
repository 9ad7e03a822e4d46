"""Rules: corners as laid out. Each corner is whole in every lane, demands 1 to 3 stops, holds
only track spaces and shares none with another corner (its paths: :mod:`corner_paths`).

Unknown space ids in a corner are left to the reference rules; every rule here looks only at the
ids that name an existing space.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from trackformat.analysis import corners_in_lap_order
from trackformat.graph import TrackGraphs
from trackformat.lint.diagnostic import Severity
from trackformat.lint.registry import Finding, rule
from trackformat.lint.rules.references import id_list
from trackformat.model.track import Corner, SpaceKind, Track

MIN_STOPS = 1
MAX_STOPS = 3


def placed_corners(track: Track, graphs: TrackGraphs) -> Iterator[tuple[int, Corner]]:
    """The corners in lap order, each with its position in the file, so that the diagnostics of
    a track read round the lap like the board does.

    Positions are found by identity (duplicated ids still point at the right entry of the file),
    among the corners of the track the graphs were built from. The order is worked out once per
    validation: eight rules go through the corners, and a file can hold 50,000 of them.
    """
    yield from graphs.remember("placed_corners", lambda: _placed_corners(graphs))


def _placed_corners(graphs: TrackGraphs) -> list[tuple[int, Corner]]:
    positions = {id(corner): position for position, corner in enumerate(graphs.track.corners)}
    return [(positions[id(corner)], corner) for corner in corners_in_lap_order(graphs)]


def track_spaces_of(graphs: TrackGraphs, corner: Corner) -> list[str]:
    """The corner's ids that name track spaces, each once, in the corner's order (worked out
    once per corner and validation: five rules ask)."""
    known: dict[int, tuple[Corner, list[str]]] = graphs.remember("track_spaces_of", dict)
    # Keyed by identity, the corner kept beside its spaces so that its id is never reused.
    entry = known.get(id(corner))
    if entry is None:
        entry = known[id(corner)] = (corner, _track_spaces(graphs, corner))
    return list(entry[1])


def _track_spaces(graphs: TrackGraphs, corner: Corner) -> list[str]:
    seen: dict[str, None] = {}
    for space_id in corner.spaces:
        space = graphs.spaces.get(space_id)
        if space is not None and space.kind == SpaceKind.TRACK:
            seen.setdefault(space_id)
    return list(seen)


def middle_of(graphs: TrackGraphs, space_ids: Sequence[str]) -> tuple[float, float] | None:
    """A board point to show a corner at: the mean of its spaces' centres."""
    centres = [c for c in (graphs.centre(s) for s in space_ids) if c is not None]
    if not centres:
        return None
    return (
        round(sum(c[0] for c in centres) / len(centres), 3),
        round(sum(c[1] for c in centres) / len(centres), 3),
    )


def corner_name(corner: Corner) -> str:
    return f"corner {corner.id!r}" + (f" ({corner.name})" if corner.name else "")


def route_text(route: Sequence[str]) -> str:
    return " → ".join(route)


@rule(
    "CORNER001",
    "stops-range",
    "corners",
    Severity.ERROR,
    example='"stops": 0 on a corner (the yellow box must show 1, 2 or 3).',
)
def stops_range(track: Track, graphs: TrackGraphs) -> Iterator[Finding]:
    """A corner demands 1 to 3 stops.

    The figure in a corner's yellow box is the number of times a car must stop inside the corner
    before leaving it. The rules know one to three stops; any other number is a typing mistake in
    the track file. Copy the figure printed in the yellow box into ``stops``.
    """
    for position, corner in placed_corners(track, graphs):
        if MIN_STOPS <= corner.stops <= MAX_STOPS:
            continue
        yield Finding(
            f"{corner_name(corner)} demands {corner.stops} stops, but a corner demands "
            f"{MIN_STOPS} to {MAX_STOPS}: set stops to the figure printed in its yellow box",
            elements=(corner.id,),
            pointer=f"/corners/{position}/stops",
            point=middle_of(graphs, track_spaces_of(graphs, corner)),
            group="corners with stops out of range",
        )


def _lane_is_loop(graphs: TrackGraphs, order: list[str]) -> bool:
    """Whether the lane closes on itself (its last space links to its first), so that a corner
    over the finish line is still one run of spaces."""
    return len(order) > 1 and order[0] in graphs.successors("circuit").get(order[-1], ())


def _missing_in_run(indices: list[int], length: int, loop: bool) -> list[int]:
    """Lane positions missing from the shortest run of the lane that covers ``indices``.

    On a looping lane the run may wrap past the lane's end: it is everything except the largest
    gap between two listed spaces.
    """
    ordered = sorted(set(indices))
    if len(ordered) < 2:
        return []
    if not loop:
        present = set(ordered)
        return [i for i in range(ordered[0], ordered[-1] + 1) if i not in present]
    gaps = [(ordered[k + 1] - ordered[k], k + 1) for k in range(len(ordered) - 1)]
    gaps.append((ordered[0] + length - ordered[-1], 0))
    widest = max(gaps, key=lambda gap: gap[0])
    start = ordered[widest[1]]
    present = set(ordered)
    run = [(start + step) % length for step in range(length - widest[0] + 1)]
    return [i for i in run if i not in present]


@rule(
    "CORNER002",
    "corner-lane-gap",
    "corners",
    Severity.ERROR,
    example="A corner listing 1-8, 1-9 and 1-11 but not 1-10.",
)
def corner_lane_gap(track: Track, graphs: TrackGraphs) -> Iterator[Finding]:
    """In each lane, a corner's spaces follow one another without a gap.

    A corner runs from its entry limit to its exit limit, so in every lane it is one unbroken run
    of spaces. A space left out in the middle would let a car skip a stop there. The message
    names the lane and the spaces missing from the run: add them to the corner, or remove the
    stray spaces beyond them.
    """
    loops = {lane: _lane_is_loop(graphs, order) for lane, order in graphs.lanes.items()}
    for position, corner in placed_corners(track, graphs):
        by_lane: dict[str, list[int]] = {}
        for space_id in track_spaces_of(graphs, corner):
            lane = graphs.lane_of(space_id)
            if lane in graphs.lanes and space_id in graphs.lane_index:
                by_lane.setdefault(lane, []).append(graphs.lane_index[space_id])
        for lane in graphs.lane_order:
            if len(by_lane.get(lane, ())) < 2:
                continue  # no space, or one: no gap
            order = graphs.lanes[lane]
            missing = [
                order[i] for i in _missing_in_run(by_lane[lane], len(order), loops[lane])
            ]
            if not missing:
                continue
            yield Finding(
                f"in lane {lane}, {corner_name(corner)} skips {id_list(missing)}: "
                "a corner is one unbroken run of spaces in each lane; add the missing spaces "
                "to the corner, or remove the spaces beyond them",
                elements=(corner.id, *missing),
                pointer=f"/corners/{position}/spaces",
                point=graphs.centre(missing[0]),
                group="corners with a gap in a lane",
            )


@rule(
    "CORNER003",
    "lane-misses-corner",
    "corners",
    Severity.ERROR,
    example="A corner on a 3-lane track listing spaces of lanes 1 and 2 only.",
)
def lane_misses_corner(track: Track, graphs: TrackGraphs) -> Iterator[Finding]:
    """Every lane passes through every corner.

    A corner's limits cross the whole width of the circuit, so each lane has at least one space
    inside it; otherwise a car could take the corner in that lane without stopping. Add the
    lane's spaces between the corner's limits to the corner. (A corner with no track space at all
    is reported by ``no-way-through``.)

    A partial lane, one whose links do not run all round the lap (it starts and ends beside
    another lane, as on real boards where the track widens for a stretch), need not reach every
    corner: only the corners it runs beside. It runs beside a corner when one of its spaces that
    cars drive on is linked to a space of the corner, or touches one side by side; for such a
    corner this is a warning, naming the two spaces. A corner far from the stretch the partial
    lane widens is not reported (Indianapolis's fourth lane, along its main straight, used to
    draw a warning for each of its seven other corners).
    """
    partial = {lane for lane in graphs.lane_order if lane_is_partial(graphs, lane)}
    for position, corner in placed_corners(track, graphs):
        inside = track_spaces_of(graphs, corner)
        if not inside:
            continue
        lanes_in = {graphs.lane_of(s) for s in inside}
        missed = [
            lane for lane in graphs.lane_order if graphs.lanes.get(lane) and lane not in lanes_in
        ]
        if not missed:
            continue
        full = [lane for lane in missed if lane not in partial]
        if full:
            plural = "s" if len(full) > 1 else ""
            yield Finding(
                f"{corner_name(corner)} has no space in lane{plural} {', '.join(full)}: every "
                "lane passes through every corner; add the lane's spaces between the corner's "
                "limits",
                elements=(corner.id,),
                pointer=f"/corners/{position}/spaces",
                point=middle_of(graphs, inside),
                group="corners missing a lane",
            )
        beside = [(lane, pair) for lane in missed if lane in partial
                  for pair in [_beside(graphs, lane, set(inside))] if pair is not None]
        if beside:
            plural = "s" if len(beside) > 1 else ""
            names = ", ".join(lane for lane, _ in beside)
            where = "; ".join(f"its space {a} is next to the corner's {b}"
                              for _, (a, b) in beside)
            yield Finding(
                f"{corner_name(corner)} has no space in the partial lane{plural} {names}, "
                f"which runs beside it ({where}): add the lane's spaces between the corner's "
                "limits",
                elements=(corner.id, *(a for _, (a, _b) in beside)),
                pointer=f"/corners/{position}/spaces",
                point=middle_of(graphs, inside),
                severity=Severity.WARNING,
                group="corners missing a partial lane beside them",
            )


def _beside(graphs: TrackGraphs, lane: str, inside: set[str]) -> tuple[str, str] | None:
    """A space of ``lane`` that cars drive on (one with a link) and a space of ``inside`` that
    it is linked to or touches side by side, or None: the lane does not run beside them."""
    ahead, behind = graphs.successors("circuit"), graphs.predecessors("circuit")
    raced = [s for s in graphs.lanes.get(lane, []) if ahead.get(s) or behind.get(s)]
    for space in raced:
        linked = [s for s in (*ahead[space], *behind[space]) if s in inside]
        if linked:
            return space, sorted(linked)[0]
    neighbours = graphs.neighbours
    for space in raced:
        touching = sorted(s for s in neighbours.adj.get(space, {}) if s in inside)
        if touching:
            return space, touching[0]
    return None


def lane_is_partial(graphs: TrackGraphs, lane: str) -> bool:
    """Whether a lane's spaces are not linked one to the next all round the lap: a partial lane,
    which starts and ends beside another lane (used by lane-misses-corner and finish-line)."""
    order = graphs.lanes.get(lane) or []
    ahead = graphs.successors("circuit")
    return len(order) > 1 and any(
        b not in ahead.get(a, ()) for a, b in zip(order, order[1:] + order[:1], strict=True)
    )


@rule(
    "CORNER004",
    "corners-overlap",
    "corners",
    Severity.ERROR,
    example="Space 2-11 listed in corners 'north' and 'north-exit'; or twice in 'north'.",
)
def corners_overlap(track: Track, graphs: TrackGraphs) -> Iterator[Finding]:
    """A space belongs to one corner at most, and is listed once.

    Stops are counted per corner, so a space in two corners would count towards both: join the
    two corners into one, or move their limits apart. A space listed twice in the same corner is
    only a warning (it changes nothing in play), but remove the second mention.
    """
    owner: dict[str, int] = {}
    shared: dict[tuple[int, int], list[tuple[str, int]]] = {}
    for position, corner in enumerate(track.corners):
        listed: set[str] = set()
        twice: set[str] = set()
        for index, space_id in enumerate(corner.spaces):
            if space_id in listed:
                if space_id in twice:
                    continue  # said once per corner, at the second mention
                twice.add(space_id)
                yield Finding(
                    f"{corner_name(corner)} lists space {space_id} twice: "
                    "remove the second mention",
                    elements=(corner.id, space_id),
                    pointer=f"/corners/{position}/spaces/{index}",
                    point=graphs.centre(space_id),
                    severity=Severity.WARNING,
                    group="spaces listed twice in a corner",
                )
                continue
            if space_id not in graphs.spaces:
                continue
            listed.add(space_id)
            first_position = owner.setdefault(space_id, position)
            if first_position != position:
                shared.setdefault((first_position, position), []).append((space_id, index))
    for (first_position, position), spaces in shared.items():
        first, corner = track.corners[first_position], track.corners[position]
        ids = [space_id for space_id, _ in spaces]
        yield Finding(
            f"space{'s' if len(ids) > 1 else ''} {id_list(ids)} "
            f"{'are' if len(ids) > 1 else 'is'} in both {corner_name(first)} "
            f"and {corner_name(corner)}: "
            "a space belongs to one corner; join the corners or move their limits apart",
            elements=(first.id, corner.id, *ids),
            pointer=f"/corners/{position}/spaces/{spaces[0][1]}",
            point=graphs.centre(ids[0]),
            group="pairs of corners sharing spaces",
        )


@rule(
    "CORNER009",
    "corner-space-kind",
    "corners",
    Severity.ERROR,
    example='A corner listing "pit-2".',
)
def corner_space_kind(track: Track, graphs: TrackGraphs) -> Iterator[Finding]:
    """A corner lists track spaces only.

    Corners are part of the racing circuit; the pit lane and the boxes are never inside a corner
    (stops are not counted there). Remove the pit or box space from the corner.
    """
    for position, corner in placed_corners(track, graphs):
        for index, space_id in enumerate(corner.spaces):
            space = graphs.spaces.get(space_id)
            if space is None or space.kind == SpaceKind.TRACK:
                continue
            yield Finding(
                f"{corner_name(corner)} lists {space_id}, a {space.kind.value} space: corners hold "
                "track spaces only; remove it from the corner",
                elements=(corner.id, space_id),
                pointer=f"/corners/{position}/spaces/{index}",
                point=graphs.centre(space_id),
                group="corner entries that are not track spaces",
            )


@rule(
    "CORNER010",
    "no-corners",
    "corners",
    Severity.WARNING,
    example="A closed lap of three lanes with no corner marked on it.",
)
def no_corners(track: Track, graphs: TrackGraphs) -> Iterator[Finding]:
    """A lap has corners.

    Every printed circuit has corners, and their stops are what a race is about: with none, the
    cars race round flat out in their top gear and test drives say nothing of the track. A lap
    without a corner is a circuit whose corners are still to be marked: mark each with the
    Corner tool (its spaces, its stops, its printed long and short numbers).
    """
    if track.corners or not track.finish_line:
        return
    if not any(space.kind == SpaceKind.TRACK for space in graphs.spaces.values()):
        return
    yield Finding(
        "the lap has no corner: a race on it is flat out in top gear; mark each corner of the "
        "circuit (its spaces and the stops it demands) with the Corner tool",
        pointer="/corners",
    )
