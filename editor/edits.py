"""Edits of a track as pure functions: ``Track -> Track``, no Qt.

Every change the editor makes goes through one of these. A track is an immutable value and an
edit copies only what it changes (the untouched spaces are the same objects in both versions), so
the undo stack can keep whole versions cheaply, and the scene can redraw only the spaces whose
object changed. Keeping them free of Qt lets the tests check each edit without a window.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Sequence
from typing import Any

from shapely.geometry import LineString, Polygon
from shapely.ops import split

from trackformat.model import Corner, FinishLine, Link, PitLane, Space, SpaceKind, Track


class EditError(ValueError):
    """An edit that cannot be made as asked (the message says why, for the status bar)."""


def fresh_id(taken: Collection[str], prefix: str) -> str:
    """The first ``prefix-N`` not in ``taken``."""
    number = 1
    while f"{prefix}-{number}" in taken:
        number += 1
    return f"{prefix}-{number}"


def _round(value: float) -> float:
    return round(value, 2)


def _moved(space: Space, dx: float, dy: float) -> Space:
    return space.model_copy(
        update={
            "polygon": [(_round(x + dx), _round(y + dy)) for x, y in space.polygon],
            "centre": (_round(space.centre[0] + dx), _round(space.centre[1] + dy)),
        }
    )


def _map_spaces(track: Track, ids: Collection[str], change: Callable[[Space], Space]) -> Track:
    wanted = set(ids)
    spaces = [change(s) if s.id in wanted else s for s in track.spaces]
    return track.model_copy(update={"spaces": spaces})


def move_spaces(track: Track, ids: Collection[str], dx: float, dy: float) -> Track:
    """Translate the spaces ``ids`` by (dx, dy) board pixels."""
    if dx == 0 and dy == 0:
        return track
    return _map_spaces(track, ids, lambda s: _moved(s, dx, dy))


def set_polygon(track: Track, space_id: str, polygon: Sequence[tuple[float, float]]) -> Track:
    """Give a space a new outline; its centre follows to the outline's centroid."""
    if len(polygon) < 3:
        raise EditError("a space needs at least three corners")
    shape = Polygon(polygon)
    centre = shape.centroid if shape.is_valid and shape.area > 0 else shape.envelope.centroid
    return _map_spaces(
        track,
        {space_id},
        lambda s: s.model_copy(
            update={
                "polygon": [(_round(x), _round(y)) for x, y in polygon],
                "centre": (_round(centre.x), _round(centre.y)),
            }
        ),
    )


def update_spaces(track: Track, ids: Collection[str], **fields: Any) -> Track:
    """Set the same fields on every space in ``ids`` (the inspector's multi-edit).

    Each changed space is validated as a loaded one would be, so a wrong value (a heading of
    1000 degrees) is refused with pydantic's message instead of entering the track.
    """
    return _map_spaces(
        track, ids, lambda s: Space.model_validate({**s.model_dump(by_alias=True), **fields})
    )


def add_spaces(track: Track, spaces: Iterable[Space], links: Iterable[Link] = ()) -> Track:
    """Add new spaces and links; an id already in the track is refused."""
    new = list(spaces)
    taken = {s.id for s in track.spaces}
    clash = [s.id for s in new if s.id in taken]
    if clash:
        raise EditError(f"space ids already used: {', '.join(clash[:5])}")
    return add_links(track.model_copy(update={"spaces": [*track.spaces, *new]}), links)


def _without(ids: Iterable[str], gone: set[str]) -> list[str]:
    return [i for i in ids if i not in gone]


def delete_elements(track: Track, ids: Collection[str]) -> Track:
    """Delete spaces and corners by id, and every reference to a deleted space.

    Links to or from a deleted space go with it; corners, the finish line, the grid, the pit
    lane and the GP Online settings forget it. Deleting a corner deletes only the corner, never
    its spaces.
    """
    gone = set(ids)
    kept_links = [link for link in track.links if link.from_ not in gone and link.to not in gone]
    corners = [
        c.model_copy(update={"spaces": _without(c.spaces, gone)})
        for c in track.corners
        if c.id not in gone
    ]
    finish = (
        FinishLine(spaces=_without(track.finish_line.spaces, gone)) if track.finish_line else None
    )
    pit = track.pit_lane
    if pit is not None:
        pit = pit.model_copy(
            update={
                "spaces": _without(pit.spaces, gone),
                "boxes": _without(pit.boxes, gone),
                "garages": _without(pit.garages, gone),
                "entry": [k for k in pit.entry if k.from_ not in gone and k.to not in gone],
                "exit": [k for k in pit.exit if k.from_ not in gone and k.to not in gone],
            }
        )
    settings = track.gponline
    if settings is not None:
        # GP Online's numbers of a changed corner are not written any more (see the exporter);
        # those of deleted spaces and corners go, so that the file keeps no stale ones.
        settings = settings.model_copy(
            update={
                "curve_positions": {
                    corner: {s: v for s, v in kept.items() if s not in gone}
                    for corner, kept in settings.curve_positions.items()
                    if corner not in gone
                },
                "grid_headings": {
                    s: v for s, v in settings.grid_headings.items() if s not in gone
                },
            }
        )
    return track.model_copy(
        update={
            "spaces": [s for s in track.spaces if s.id not in gone],
            "links": kept_links,
            "corners": corners,
            "finish_line": finish,
            "grid": _without(track.grid, gone),
            "pit_lane": pit,
            "gponline": settings,
        }
    )


Pair = tuple[str, str]
"""A move as (from, to)."""


def link_listings(track: Track) -> Counter[Pair]:
    """How many times each move is listed: in /links, and as a pit entry or exit.

    A move exists or not, so more than one listing is a slip (the validator's REF005): a
    second copy adds nothing, and deleting one later leaves the move in place."""
    listed = Counter((k.from_, k.to) for k in track.links)
    if track.pit_lane is not None:
        listed.update((k.from_, k.to) for k in [*track.pit_lane.entry, *track.pit_lane.exit])
    return listed


def has_link(track: Track, source: str, target: str) -> bool:
    """Whether the move ``source -> target`` is listed, in /links or as a pit entry or exit."""
    return link_listings(track)[(source, target)] > 0


def add_links(track: Track, links: Iterable[Link]) -> Track:
    """``track`` with ``links`` appended to /links, leaving out every move it already lists (in
    /links or as a pit entry or exit) and every repeat among ``links`` themselves."""
    listed = set(link_listings(track))
    new = []
    for link in links:
        pair = (link.from_, link.to)
        if pair not in listed:
            listed.add(pair)
            new.append(link)
    if not new:
        return track
    return track.model_copy(update={"links": [*track.links, *new]})


def _drop_copies(links: Sequence[Link], extra: Counter[Pair]) -> list[Link]:
    """``links`` without ``extra[pair]`` copies of each pair, the last ones listed first (the
    copies an edit appended), counting down ``extra`` as it goes."""
    kept: list[Link] = []
    for link in reversed(links):
        pair = (link.from_, link.to)
        if extra[pair] > 0:
            extra[pair] -= 1
        else:
            kept.append(link)
    kept.reverse()
    return kept


def without_new_copies(before: Track, after: Track) -> Track:
    """``after`` without the second listings of a move that the change from ``before`` added.

    The guard of every edit that adds links (the Pit lane tool's clicks over spaces already
    linked, a pit entry drawn first with the Arrow tool): a move is listed once. A copy in
    /links goes before one in the pit entry or exit, where REF005 wants a pit move listed. A
    track that already listed a move twice (a file written before this guard) keeps its copies:
    the Arrow tool takes them out one at a time."""
    if after.links is before.links and after.pit_lane is before.pit_lane:
        return after
    allowed = link_listings(before)
    extra = Counter(
        {
            pair: count - max(allowed[pair], 1)
            for pair, count in link_listings(after).items()
            if count > max(allowed[pair], 1)
        }
    )
    if not extra:
        return after
    update: dict[str, Any] = {"links": _drop_copies(after.links, extra)}
    pit = after.pit_lane
    if pit is not None and +extra:
        update["pit_lane"] = pit.model_copy(
            update={"entry": _drop_copies(pit.entry, extra), "exit": _drop_copies(pit.exit, extra)}
        )
    return after.model_copy(update=update)


def toggle_link(track: Track, source: str, target: str) -> Track:
    """Add the move ``source -> target``, or take one listing of it out if the track has it
    (the Arrow tool).

    One listing, so that a move listed twice (REF005) is cleaned by one click and stays on the
    board, listed once; a click more removes it. A pit entry or exit is listed in the pit lane,
    and taken out of it."""
    if source == target:
        raise EditError("a link joins two different spaces")
    ids = {s.id for s in track.spaces}
    if source not in ids or target not in ids:
        raise EditError("both ends of a link must be spaces of the track")
    if not has_link(track, source, target):
        return track.model_copy(
            update={"links": [*track.links, Link(**{"from": source, "to": target})]}
        )
    one = Counter({(source, target): 1})
    links = _drop_copies(track.links, one)
    if len(links) < len(track.links) or track.pit_lane is None:
        return track.model_copy(update={"links": links})
    pit = track.pit_lane.model_copy(
        update={
            "entry": _drop_copies(track.pit_lane.entry, one),
            "exit": _drop_copies(track.pit_lane.exit, one),
        }
    )
    return track.model_copy(update={"pit_lane": pit})


def put_corner(track: Track, corner: Corner) -> Track:
    """Add a corner, or replace the corner with the same id."""
    corners = list(track.corners)
    for index, existing in enumerate(corners):
        if existing.id == corner.id:
            corners[index] = corner
            break
    else:
        corners.append(corner)
    return track.model_copy(update={"corners": corners})


def update_corners(track: Track, ids: Collection[str], **fields: Any) -> Track:
    """Set the same fields on every corner in ``ids`` (validated as a corner would be)."""
    wanted = set(ids)
    corners = []
    for corner in track.corners:
        if corner.id in wanted:
            corner = Corner.model_validate({**corner.model_dump(by_alias=True), **fields})
        corners.append(corner)
    return track.model_copy(update={"corners": corners})


def set_finish_line(track: Track, spaces: Sequence[str]) -> Track:
    """The finish line: one space per lane, the first past the line, in lane order."""
    return track.model_copy(update={"finish_line": FinishLine(spaces=list(spaces))})


def set_grid(track: Track, slots: Sequence[str]) -> Track:
    """The start grid, pole first."""
    return track.model_copy(update={"grid": list(slots)})


def set_pit_lane(track: Track, pit_lane: PitLane | None) -> Track:
    return track.model_copy(update={"pit_lane": pit_lane})


def remove_from_lane(track: Track, space_id: str) -> Track:
    """Delete a space and join the spaces around it, so the lane stays one chain of moves.

    Every space that moved onto the deleted one now moves to each space the deleted one led to
    (straight ahead stays straight ahead, a diagonal stays a diagonal of one lane).
    """
    before = [k.from_ for k in track.links if k.to == space_id]
    after = [k.to for k in track.links if k.from_ == space_id]
    lanes = {s.id: s.lane for s in track.spaces}
    order = {lane.id: n for n, lane in enumerate(track.lanes)}
    result = delete_elements(track, {space_id})
    extra = []
    for source in before:
        for target in after:
            gap = abs(order.get(lanes.get(source) or "", 0) - order.get(lanes.get(target) or "", 0))
            if source != target and gap <= 1:
                extra.append(Link(**{"from": source, "to": target}))
    return add_links(result, extra)


def split_space(track: Track, space_id: str) -> tuple[Track, str]:
    """Insert a space in a lane by cutting a space in two across its heading.

    The front half becomes a new space that takes over the old one's moves forward; the back half
    keeps the id and the moves in, and moves straight ahead onto the new one. Returns the new
    track and the new space's id.
    """
    space = next((s for s in track.spaces if s.id == space_id), None)
    if space is None:
        raise EditError(f"no space {space_id}")
    shape = Polygon(space.polygon)
    if not shape.is_valid:
        raise EditError(f"space {space_id} has an invalid outline; fix it first")
    angle = math.radians(space.heading)
    ax, ay = math.cos(angle), math.sin(angle)
    reach = math.sqrt(shape.area) * 10 + 10
    cx, cy = shape.centroid.x, shape.centroid.y
    cut = LineString([(cx - ay * reach, cy + ax * reach), (cx + ay * reach, cy - ax * reach)])
    parts = list(split(shape, cut).geoms)
    if len(parts) != 2:
        raise EditError(f"space {space_id} cannot be cut in two across its heading")

    def ahead(p: Polygon) -> float:
        return float((p.centroid.x - cx) * ax + (p.centroid.y - cy) * ay)

    back, front = sorted(parts, key=ahead)
    new_id = fresh_id({s.id for s in track.spaces}, space_id)

    def outline(p: Polygon) -> list[tuple[float, float]]:
        return [(_round(x), _round(y)) for x, y in list(p.exterior.coords)[:-1]]

    new_space = space.model_copy(
        update={
            "id": new_id,
            "polygon": outline(front),
            "centre": (_round(front.centroid.x), _round(front.centroid.y)),
        }
    )
    old_space = space.model_copy(
        update={
            "polygon": outline(back),
            "centre": (_round(back.centroid.x), _round(back.centroid.y)),
        }
    )
    links = [
        Link(**{"from": new_id, "to": k.to}) if k.from_ == space_id else k for k in track.links
    ]
    links.append(Link(**{"from": space_id, "to": new_id}))
    spaces: list[Space] = []
    for s in track.spaces:
        if s.id == space_id:
            spaces += [old_space, new_space]
        else:
            spaces.append(s)
    corners = [
        c.model_copy(update={"spaces": [*c.spaces, new_id]}) if space_id in c.spaces else c
        for c in track.corners
    ]
    return track.model_copy(update={"spaces": spaces, "links": links, "corners": corners}), new_id


def space_kind_ids(track: Track, kind: SpaceKind) -> list[str]:
    return [s.id for s in track.spaces if s.kind == kind]
