"""Rules: the pit lane. It leaves the circuit before the finish line and rejoins it after, its
spaces are pit spaces, its team boxes stand beside it, and its garages in line are spaces of it.

Ids that name no space are left to the reference rules; here they are skipped.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator

import numpy as np
import shapely

from trackformat.geometry import SpaceShapes
from trackformat.graph import TrackGraphs
from trackformat.lint.diagnostic import Severity
from trackformat.lint.registry import Finding, rule
from trackformat.lint.rules.grid import half_lap
from trackformat.model.track import Link, Space, SpaceKind, Track

BOX_TOUCH = 0.05
"""A box touches the pit lane when it is at most this share of a space's size away from it."""


def _pit_ids(track: Track, graphs: TrackGraphs) -> list[str]:
    """The pit lane's listed spaces that exist and are pit spaces, each once (a list of one
    space half a million times made as many outlines to measure each box against)."""
    if track.pit_lane is None:
        return []
    return [
        s
        for s in dict.fromkeys(track.pit_lane.spaces)
        if s in graphs.spaces and graphs.spaces[s].kind == SpaceKind.PIT
    ]


@rule(
    "PIT001",
    "box-beside-pit",
    "grid-pit",
    Severity.ERROR,
    example='A box "box-3" drawn across the circuit from the pit lane, or listed twice.',
)
def box_beside_pit(track: Track, graphs: TrackGraphs) -> Iterator[Finding]:
    """Each box is a box space beside the pit lane, listed once, and every box space is listed.

    A team's box is where its car stops to change tyres, right beside the pit lane: the spaces
    in ``pit_lane.boxes`` are of kind ``box`` and touch a pit-lane space, and each is listed
    once (two teams cannot share a box). A box space that is not listed in ``pit_lane.boxes``
    is a warning: add it to the list, or change its kind.
    """
    boxes = list(track.pit_lane.boxes) if track.pit_lane else []
    pit = _pit_ids(track, graphs)
    pit_shapes = SpaceShapes.of([graphs.spaces[s] for s in pit]) if pit else None
    tolerance = BOX_TOUCH * graphs.shapes.scale
    repeated = yield from _second_mentions(
        boxes, "box", "boxes", graphs, "remove the second mention or list the next box"
    )
    for position, box_id in enumerate(boxes):
        space = graphs.spaces.get(box_id)
        if space is None or position in repeated:
            continue
        pointer = f"/pit_lane/boxes/{position}"
        if space.kind != SpaceKind.BOX:
            yield Finding(
                f"box {position + 1} is {box_id}, a {space.kind.value} space: set its kind to "
                "box, or list the right space as the box",
                elements=(box_id,),
                pointer=pointer,
                point=graphs.centre(box_id),
                group="boxes that are not box spaces",
            )
            continue
        if pit_shapes is None:
            continue
        outline = shapely.make_valid(shapely.polygons(np.array(space.polygon, dtype=float)))
        gaps = shapely.distance(outline, pit_shapes.polygons)
        if np.isnan(gaps).all() or float(np.nanmin(gaps)) <= tolerance:
            continue  # outlines with no area are reported by invalid-polygon
        nearest = pit_shapes.ids[int(np.nanargmin(gaps))]
        yield Finding(
            f"box {box_id} does not touch the pit lane (the nearest pit space, {nearest}, is "
            f"{float(np.nanmin(gaps)):.0f} px away): draw the box beside the pit lane",
            elements=(box_id,),
            pointer=pointer,
            point=graphs.centre(box_id),
        )
    listed = set(boxes)
    for space in graphs.spaces.values():
        if space.kind == SpaceKind.BOX and space.id not in listed:
            where = "pit_lane.boxes" if track.pit_lane else "a pit lane (the track has none)"
            yield Finding(
                f"box space {space.id} is not listed in {where}: list it, or change its kind",
                elements=(space.id,),
                pointer=graphs.space_pointer(space.id),
                point=graphs.centre(space.id),
                severity=Severity.WARNING,
            )


def _second_mentions(
    stands: list[str], what: str, key: str, graphs: TrackGraphs, hint: str
) -> Generator[Finding, None, set[int]]:
    """A finding for each space listed again in ``pit_lane.<key>`` (boxes or garages, each a
    ``what``), since each team has a place of its own; returns the positions of those second
    mentions, which the rule's other checks skip."""
    first: dict[str, int] = {}
    repeated = set()
    for position, stand in enumerate(stands):
        if stand not in graphs.spaces:
            continue
        if stand not in first:
            first[stand] = position
            continue
        repeated.add(position)
        yield Finding(
            f"{what} {position + 1} is {stand}, already {what} {first[stand] + 1}: each team "
            f"has a {what} of its own; {hint}",
            elements=(stand,),
            pointer=f"/pit_lane/{key}/{position}",
            point=graphs.centre(stand),
            group=f"{key} naming a space again",
        )
    return repeated


def _pit_links(track: Track, which: str) -> Iterator[tuple[str, Link]]:
    if track.pit_lane is None:
        return
    links = track.pit_lane.entry if which == "entry" else track.pit_lane.exit
    for position, link in enumerate(links):
        yield f"/pit_lane/{which}/{position}", link


def _kind(space: Space) -> str:
    return f"a {space.kind.value} space"


@rule(
    "PIT002",
    "pit-entry-before-line",
    "grid-pit",
    Severity.ERROR,
    example="A pit entry link from 3-5, just past the finish line.",
)
def pit_entry_before_line(track: Track, graphs: TrackGraphs) -> Iterator[Finding]:
    """The pit lane is entered from the circuit, before the finish line.

    A pit entry link leaves a track space in the second half of the lap (behind the finish line)
    and lands on a pit-lane space. An entry from past the line, or onto anything but the pit
    lane, means the link's ends are swapped or wrong, or it belongs in ``pit_lane.exit``.
    """
    half = half_lap(graphs)
    for pointer, link in _pit_links(track, "entry"):
        source, target = graphs.spaces.get(link.from_), graphs.spaces.get(link.to)
        if source is None or target is None:
            continue
        problems = []
        if source.kind != SpaceKind.TRACK:
            problems.append(f"leaves {source.id}, {_kind(source)}, not a track space")
        elif graphs.finish and graphs.progress.get(source.id, half) < half:
            problems.append(
                f"leaves {source.id}, only {graphs.progress[source.id]} moves past the line "
                "(the pit lane is entered in the second half of the lap)"
            )
        if target.kind != SpaceKind.PIT:
            problems.append(f"lands on {target.id}, {_kind(target)}, not a pit-lane space")
        if not problems:
            continue
        yield Finding(
            f"the pit entry from {source.id} to {target.id} {' and '.join(problems)}: an entry "
            "leads from the circuit behind the line into the pit lane",
            elements=(source.id, target.id),
            pointer=pointer,
            point=graphs.centre(source.id),
            group="pit entries in the wrong place",
        )


@rule(
    "PIT003",
    "pit-exit-after-line",
    "grid-pit",
    Severity.ERROR,
    example="A pit exit link onto 3-35, just before the finish line.",
)
def pit_exit_after_line(track: Track, graphs: TrackGraphs) -> Iterator[Finding]:
    """The pit lane rejoins the circuit after the finish line.

    A pit exit link leaves a pit-lane space and lands on a track space in the first half of the
    lap (past the finish line). An exit onto the circuit before the line would let a car skip
    the line, or means the link's ends are swapped or it belongs in ``pit_lane.entry``.
    """
    half = half_lap(graphs)
    for pointer, link in _pit_links(track, "exit"):
        source, target = graphs.spaces.get(link.from_), graphs.spaces.get(link.to)
        if source is None or target is None:
            continue
        problems = []
        if source.kind != SpaceKind.PIT:
            problems.append(f"leaves {source.id}, {_kind(source)}, not a pit-lane space")
        if target.kind != SpaceKind.TRACK:
            problems.append(f"lands on {target.id}, {_kind(target)}, not a track space")
        elif graphs.finish and graphs.progress.get(target.id, 0) >= half:
            problems.append(
                f"lands on {target.id}, behind the finish line (the pit lane rejoins the "
                "circuit in the first half of the lap)"
            )
        if not problems:
            continue
        yield Finding(
            f"the pit exit from {source.id} to {target.id} {' and '.join(problems)}: an exit "
            "leads from the pit lane onto the circuit past the line",
            elements=(source.id, target.id),
            pointer=pointer,
            point=graphs.centre(target.id),
            group="pit exits in the wrong place",
        )


@rule(
    "PIT004",
    "pit-space-kind",
    "grid-pit",
    Severity.ERROR,
    example='A track space "3-36" listed in pit_lane.spaces.',
)
def pit_space_kind(track: Track, graphs: TrackGraphs) -> Iterator[Finding]:
    """The pit lane's spaces are exactly the spaces of kind ``pit``.

    Every space listed in ``pit_lane.spaces`` is of kind ``pit``, and every ``pit`` space is
    listed there: the simulator drives the pit lane in that list's order, and a pit space left
    out of it is unreachable. Change the space's kind, or the list.
    """
    listed = list(track.pit_lane.spaces) if track.pit_lane else []
    for position, space_id in enumerate(listed):
        space = graphs.spaces.get(space_id)
        if space is None or space.kind == SpaceKind.PIT:
            continue
        yield Finding(
            f"pit-lane space {position + 1} is {space_id}, {_kind(space)}: set its kind to pit, "
            "or remove it from pit_lane.spaces",
            elements=(space_id,),
            pointer=f"/pit_lane/spaces/{position}",
            point=graphs.centre(space_id),
            group="pit-lane entries that are not pit spaces",
        )
    known = set(listed)
    for space in graphs.spaces.values():
        if space.kind == SpaceKind.PIT and space.id not in known:
            where = "pit_lane.spaces" if track.pit_lane else "a pit lane (the track has none)"
            yield Finding(
                f"pit space {space.id} is not listed in {where}: add it in driving order, or "
                "change its kind",
                elements=(space.id,),
                pointer=graphs.space_pointer(space.id),
                point=graphs.centre(space.id),
            )


@rule(
    "PIT005",
    "garage-in-pit-lane",
    "grid-pit",
    Severity.ERROR,
    example='A track space "3-40" listed in pit_lane.garages, or a garage listed twice.',
)
def garage_in_pit_lane(track: Track, graphs: TrackGraphs) -> Iterator[Finding]:
    """Each garage is a space of the pit lane, listed once.

    A garage stands in line in the pit lane, as GP Online draws a team's place to stop: the
    spaces in ``pit_lane.garages`` are spaces listed in ``pit_lane.spaces``, each once (two
    teams cannot share a garage). A space beside the lane is a box instead
    (``pit_lane.boxes``). Remove the garage from the list, or add the space to the pit lane.
    """
    if track.pit_lane is None:
        return
    in_lane = set(track.pit_lane.spaces)
    garages = track.pit_lane.garages
    repeated = yield from _second_mentions(
        garages, "garage", "garages", graphs, "remove the second mention"
    )
    for position, garage in enumerate(garages):
        if garage not in graphs.spaces or position in repeated:
            continue  # an unknown id: unknown-reference says so
        pointer = f"/pit_lane/garages/{position}"
        if garage not in in_lane:
            kind = graphs.spaces[garage].kind
            hint = (
                "list it in pit_lane.boxes instead, since a box stands beside the lane"
                if kind == SpaceKind.BOX
                else "add it to pit_lane.spaces, or remove it from pit_lane.garages"
            )
            yield Finding(
                f"garage {position + 1} is {garage}, {_kind(graphs.spaces[garage])} not in the "
                f"pit lane: {hint}",
                elements=(garage,),
                pointer=pointer,
                point=graphs.centre(garage),
                group="garages outside the pit lane",
            )
