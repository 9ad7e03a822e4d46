"""Adding a stretch of lanes to a track (the lane tool's edit), without Qt.

The stretch comes from the builder (:func:`trackformat.builder.stretch.build_stretch`); here it is
given ids that continue each lane, lanes the track does not have yet are added, and a stretch
started at the open end of earlier lanes is joined to them, so a circuit can be laid stretch by
stretch round the board.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from editor.edits import EditError
from trackformat.builder.errors import BuildError
from trackformat.builder.stretch import Stretch, build_stretch
from trackformat.model import Lane, Link, SpaceKind, Track

JOIN_REACH = 1.6
"""A new lane joins an earlier one whose open end is within this many lane widths."""


@dataclass(frozen=True)
class LaneSettings:
    """What the designer chooses in the lane tool's options."""

    lanes: int = 3
    spacing: float = 40.0
    spaces: tuple[int, ...] = (10,)
    """Spaces per lane, from the left; one number applies to every lane."""

    def per_lane(self) -> list[int]:
        if len(self.spaces) == 1:
            return [self.spaces[0]] * self.lanes
        if len(self.spaces) != self.lanes:
            raise EditError(f"give one number of spaces, or one for each of the {self.lanes} lanes")
        return list(self.spaces)


def parse_counts(text: str) -> tuple[int, ...]:
    """ "12" or "14, 13, 12" as spaces per lane."""
    try:
        counts = tuple(int(part) for part in re.split(r"[,\s]+", text.strip()) if part)
    except ValueError:
        raise EditError(
            f"spaces per lane are whole numbers, like 12 or 14,13,12 (not {text!r})"
        ) from None
    if not counts or any(c < 1 or c > 500 for c in counts):
        raise EditError("spaces per lane are between 1 and 500")
    return counts


def lane_ids_for(track: Track, count: int) -> list[str]:
    """The ids of the first ``count`` lanes, inventing "1", "2", ... where the track has fewer."""
    ids = [lane.id for lane in track.lanes][:count]
    number = 1
    while len(ids) < count:
        if str(number) not in ids and str(number) not in {lane.id for lane in track.lanes}:
            ids.append(str(number))
        number += 1
    return ids


def _next_numbers(track: Track, lane_ids: Sequence[str], counts: Sequence[int]) -> list[list[str]]:
    taken = {s.id for s in track.spaces}
    names = []
    for lane, count in zip(lane_ids, counts, strict=True):
        used = [
            int(m.group(1))
            for s in track.spaces
            if (m := re.fullmatch(rf"{re.escape(lane)}-(\d+)", s.id))
        ]
        number = max(used, default=-1) + 1
        row: list[str] = []
        while len(row) < count:
            candidate = f"{lane}-{number:03d}"
            if candidate not in taken:
                row.append(candidate)
            number += 1
        names.append(row)
    return names


def preview(
    track: Track, centre_line: Sequence[tuple[float, float]], settings: LaneSettings
) -> Stretch:
    """The stretch as it would be added (raises :class:`EditError` when it cannot be built)."""
    lane_ids = lane_ids_for(track, settings.lanes)
    counts = settings.per_lane()
    try:
        return build_stretch(
            centre_line,
            lane_ids,
            settings.spacing,
            counts,
            names=_next_numbers(track, lane_ids, counts),
        )
    except BuildError as err:
        raise EditError(str(err)) from None


def add_stretch(
    track: Track, centre_line: Sequence[tuple[float, float]], settings: LaneSettings
) -> Track:
    """The track with the stretch added, new lanes created, and joined to open lane ends."""
    stretch = preview(track, centre_line, settings)
    lane_ids = lane_ids_for(track, settings.lanes)
    lanes = list(track.lanes) + [
        Lane(id=i) for i in lane_ids if i not in {lane.id for lane in track.lanes}
    ]
    joins = _joins(track, stretch, lane_ids, settings.spacing)
    return track.model_copy(
        update={
            "lanes": lanes,
            "spaces": [*track.spaces, *stretch.spaces],
            "links": [*track.links, *stretch.links, *joins],
        }
    )


def _joins(track: Track, stretch: Stretch, lane_ids: Sequence[str], spacing: float) -> list[Link]:
    """Links from the open ends of the track's lanes onto the first spaces of the stretch."""
    lane_of = {s.id: s.lane for s in track.spaces}
    has_next = {
        k.from_
        for k in track.links
        if lane_of.get(k.from_) is not None and lane_of.get(k.from_) == lane_of.get(k.to)
    }
    centres = {s.id: s.centre for s in track.spaces}
    links = []
    for position, lane in enumerate(lane_ids):
        first = stretch.lanes[position][0]
        ends = [
            s
            for s in track.spaces
            if s.kind == SpaceKind.TRACK and s.lane == lane and s.id not in has_next
        ]
        near = [s for s in ends if math.dist(centres[s.id], first.centre) <= JOIN_REACH * spacing]
        if not near:
            continue
        end = min(near, key=lambda s: math.dist(s.centre, first.centre))
        for other in (position - 1, position, position + 1):
            if 0 <= other < len(lane_ids):
                links.append(Link(**{"from": end.id, "to": stretch.lanes[other][0].id}))
    return links
