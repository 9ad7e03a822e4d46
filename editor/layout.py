"""Laying out what is printed on a board: corners, finish line, grid, pit lane. Pure, no Qt.

The tools of the same names collect clicks and call these; each returns a new track (one undo
step) or raises :class:`~editor.edits.EditError` with a message for the status bar.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from editor.edits import EditError, fresh_id, put_corner
from trackformat.graph import build_graphs
from trackformat.model import Corner, FinishLine, Link, PitLane, SpaceKind, Track


def _space_ids(track: Track, kind: SpaceKind | None = None) -> set[str]:
    return {s.id for s in track.spaces if kind is None or s.kind == kind}


def lane_range(track: Track, first: str, last: str) -> list[str]:
    """The spaces of one lane from ``first`` to ``last`` inclusive, in driving order.

    Lets a designer pick a corner's stretch of a lane by its entry and exit. Wraps round the
    finish line if ``last`` comes before ``first`` in the lane.
    """
    graphs = build_graphs(track)
    lane = graphs.lane_of(first)
    if lane is None or lane != graphs.lane_of(last):
        raise EditError(f"{first} and {last} are not in the same lane")
    order = graphs.lanes[lane]
    a, b = order.index(first), order.index(last)
    return order[a : b + 1] if a <= b else order[a:] + order[: b + 1]


def make_corner(
    track: Track, spaces: Iterable[str], stops: int = 1, name: str = "",
    reshaped: str | None = None,
) -> tuple[Track, str]:
    """A new corner of ``spaces``, or with ``reshaped`` (a corner's id) that corner with
    ``spaces`` in place of its own, its name, stops and printed numbers kept; the spaces leave
    any other corner they were in. Returns the corner's id too."""
    chosen = list(dict.fromkeys(spaces))
    if not chosen:
        raise EditError("pick the corner's spaces first")
    track_spaces = _space_ids(track, SpaceKind.TRACK)
    wrong = [s for s in chosen if s not in track_spaces]
    if wrong:
        raise EditError(f"only track spaces can be in a corner, not {', '.join(wrong[:3])}")
    old = next((c for c in track.corners if c.id == reshaped), None)
    if reshaped is not None and old is None:
        raise EditError(f"there is no corner {reshaped} to reshape")
    taken = set(chosen)
    corners = [
        c if c is old else c.model_copy(update={"spaces": [s for s in c.spaces if s not in taken]})
        for c in track.corners
    ]
    corners = [c for c in corners if c.spaces]
    if old is not None:
        corner = old.model_copy(update={"spaces": chosen})
    else:
        corner = Corner(id=fresh_id({c.id for c in track.corners}, "corner"),
                        name=name or f"Corner {len(corners) + 1}", stops=stops, spaces=chosen)
    return put_corner(track.model_copy(update={"corners": corners}), corner), corner.id


def finish_line_through(track: Track, space_id: str) -> Track:
    """Put the finish line through ``space_id``: in each lane, the space level with it.

    Walks across the lanes through the collision neighbours beside each space (the space
    sharing a side in the next lane); where a lane has none, the nearest space of that lane.
    Each lane's space is the one level with the clicked space, or on a staggered board the
    first one past the line: of the two half a space behind and half a space ahead, the one
    ahead (a staggered neighbour is equally near both ways, so nearness alone cannot choose).
    """
    graphs = build_graphs(track)
    if graphs.lane_of(space_id) is None:
        raise EditError("the finish line goes through a track space")
    clicked = graphs.spaces[space_id]
    ahead = (math.cos(math.radians(clicked.heading)),
             math.sin(math.radians(clicked.heading)))
    level = 0.25 * graphs.shapes.scale  # less than a quarter of a space behind is level

    def place(candidate: str) -> tuple[bool, float]:
        """Sort key: spaces behind the clicked one last, then the nearest first."""
        x, y = graphs.spaces[candidate].centre
        along = (x - clicked.centre[0]) * ahead[0] + (y - clicked.centre[1]) * ahead[1]
        return along < -level, math.dist((x, y), clicked.centre)

    chosen: dict[str, str] = {graphs.lane_of(space_id) or "": space_id}
    order = graphs.lane_order
    start = order.index(graphs.lane_of(space_id) or "")
    for step in (-1, 1):
        current = space_id
        index = start + step
        while 0 <= index < len(order):
            lane = order[index]
            beside = [n for n in graphs.neighbours.neighbors(current) if graphs.lane_of(n) == lane]
            candidates = beside or graphs.lanes.get(lane, [])
            if not candidates:
                raise EditError(f"lane {lane} has no spaces")
            current = min(candidates, key=place)
            chosen[lane] = current
            index += step
    return track.model_copy(
        update={"finish_line": FinishLine(spaces=[chosen[lane] for lane in order])}
    )


def set_finish_space(track: Track, space_id: str) -> Track:
    """Replace the finish-line space of ``space_id``'s lane by it (fine-tuning a staggered line)."""
    graphs = build_graphs(track)
    lane = graphs.lane_of(space_id)
    if lane is None:
        raise EditError("the finish line goes through track spaces")
    current = list(track.finish_line.spaces) if track.finish_line else []
    by_lane = {graphs.lane_of(s): s for s in current}
    by_lane[lane] = space_id
    spaces = [by_lane[name] for name in graphs.lane_order if name in by_lane]
    return track.model_copy(update={"finish_line": FinishLine(spaces=spaces)})


def toggle_grid_slot(track: Track, space_id: str) -> Track:
    """Append ``space_id`` to the grid as the next slot, or take it out if it is a slot."""
    if space_id not in _space_ids(track, SpaceKind.TRACK):
        raise EditError("grid slots are track spaces")
    grid = [s for s in track.grid if s != space_id]
    if len(grid) == len(track.grid):
        grid.append(space_id)
    return track.model_copy(update={"grid": grid})


def _pit(track: Track) -> PitLane:
    return track.pit_lane or PitLane(spaces=[])


def _link(a: str, b: str) -> Link:
    return Link(**{"from": a, "to": b})


def _with_kind(track: Track, space_id: str, kind: SpaceKind) -> Track:
    spaces = [
        s.model_copy(update={"kind": kind, "lane": None if kind != SpaceKind.TRACK else s.lane})
        if s.id == space_id
        else s
        for s in track.spaces
    ]
    return track.model_copy(update={"spaces": spaces})


def append_pit_space(track: Track, space_id: str) -> Track:
    """Add ``space_id`` at the end of the pit lane: it becomes a pit space linked from the last."""
    if space_id not in _space_ids(track):
        raise EditError(f"no space {space_id}")
    pit = _pit(track)
    if space_id in pit.spaces:
        raise EditError(f"{space_id} is already in the pit lane")
    links = list(track.links)
    if pit.spaces:
        links.append(_link(pit.spaces[-1], space_id))
    exits = [k.model_copy(update={"from_": space_id}) for k in pit.exit]
    pit = pit.model_copy(update={"spaces": [*pit.spaces, space_id], "exit": exits})
    track = _with_kind(track, space_id, SpaceKind.PIT)
    return track.model_copy(update={"links": links, "pit_lane": pit})


def toggle_pit_entry(track: Track, space_id: str) -> Track:
    """Add or remove the move from track space ``space_id`` into the first pit space."""
    pit = _pit(track)
    if not pit.spaces:
        raise EditError("lay the pit lane's spaces first")
    if space_id not in _space_ids(track, SpaceKind.TRACK):
        raise EditError("the pit lane is entered from a track space")
    entry = [k for k in pit.entry if k.from_ != space_id]
    if len(entry) == len(pit.entry):
        entry.append(_link(space_id, pit.spaces[0]))
    return track.model_copy(update={"pit_lane": pit.model_copy(update={"entry": entry})})


def toggle_pit_exit(track: Track, space_id: str) -> Track:
    """Add or remove the move from the last pit space onto track space ``space_id``."""
    pit = _pit(track)
    if not pit.spaces:
        raise EditError("lay the pit lane's spaces first")
    if space_id not in _space_ids(track, SpaceKind.TRACK):
        raise EditError("the pit lane leads back onto a track space")
    exits = [k for k in pit.exit if k.to != space_id]
    if len(exits) == len(pit.exit):
        exits.append(_link(pit.spaces[-1], space_id))
    return track.model_copy(update={"pit_lane": pit.model_copy(update={"exit": exits})})


def toggle_garage(track: Track, space_id: str) -> Track:
    """Make pit-lane space ``space_id`` a team's garage in line, or stop it being one.

    GP Online draws a team's place to stop as a space of the pit lane itself rather than a box
    beside it; a track ported to or from it lists those spaces as garages, in driving order."""
    pit = _pit(track)
    if space_id not in pit.spaces:
        raise EditError(f"{space_id} is not in the pit lane; a garage is a pit-lane space")
    if space_id in pit.garages:
        garages = [g for g in pit.garages if g != space_id]
    else:
        garages = [s for s in pit.spaces if s in pit.garages or s == space_id]
    return track.model_copy(update={"pit_lane": pit.model_copy(update={"garages": garages})})


def _strings(value: Any) -> Iterator[str]:
    """Every string in a track's JSON document, or in part of it."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def box_id(track: Track, space_id: str) -> str:
    """The id ``space_id`` keeps as a team box. A space drawn by hand (the Space tool) is named
    after the lane it was drawn beside, ``1-new-2``; a box is in no lane, so one of those, named
    nowhere else in the track yet, becomes the next ``box-N``, as boxes are named on the
    shipped boards. Any other id is the designer's, and kept."""
    space = next((s for s in track.spaces if s.id == space_id), None)
    if space is None or space.lane is None:
        return space_id
    if not re.fullmatch(rf"{re.escape(space.lane)}-new-\d+", space_id):
        return space_id
    document = track.model_dump(mode="json", by_alias=True, exclude={"spaces"})
    if space_id in _strings(document):
        return space_id
    return fresh_id({s.id for s in track.spaces}, "box")


def toggle_box(track: Track, space_id: str, beside: Sequence[str] = ()) -> Track:
    """Make ``space_id`` a team box beside the pit lane, or stop it being one.

    A new box is linked from the pit space before the first of ``beside`` (the pit spaces it
    touches; by default the nearest pit space) and back to the one after the last. A space
    drawn by hand takes a box's id (see :func:`box_id`).
    """
    pit = _pit(track)
    if not pit.spaces:
        raise EditError("lay the pit lane's spaces first")
    if space_id in pit.boxes:
        links = [k for k in track.links if space_id not in (k.from_, k.to)]
        pit = pit.model_copy(update={"boxes": [b for b in pit.boxes if b != space_id]})
        return track.model_copy(update={"links": links, "pit_lane": pit})
    if space_id in pit.spaces:
        raise EditError(f"{space_id} is a pit-lane space; a box stands beside the lane")
    centres = {s.id: s.centre for s in track.spaces}
    if space_id not in centres:
        raise EditError(f"no space {space_id}")
    named = box_id(track, space_id)
    if named != space_id:
        spaces = [s.model_copy(update={"id": named}) if s.id == space_id else s
                  for s in track.spaces]
        track = track.model_copy(update={"spaces": spaces})
        centres[named] = centres.pop(space_id)
        space_id = named
    touching = [s for s in beside if s in pit.spaces] or [
        min(pit.spaces, key=lambda s: math.dist(centres[s], centres[space_id]))
    ]
    places = sorted(pit.spaces.index(s) for s in touching)
    before = pit.spaces[max(places[0] - 1, 0)]
    after = pit.spaces[min(places[-1] + 1, len(pit.spaces) - 1)]
    links = [*track.links, _link(before, space_id), _link(space_id, after)]
    track = _with_kind(track, space_id, SpaceKind.BOX)
    boxes = [*pit.boxes, space_id]
    return track.model_copy(
        update={"links": links, "pit_lane": pit.model_copy(update={"boxes": boxes})}
    )
