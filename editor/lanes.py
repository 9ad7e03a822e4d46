"""Adding a stretch of lanes to a track (the lane tool's edit), without Qt.

The stretch comes from the builder (:func:`trackformat.builder.stretch.build_stretch`); here it is
given ids that continue each lane, lanes the track does not have yet are added, and a stretch
started at the open end of earlier lanes is joined to them: it leaves square from their end cut,
so the new spaces meet the old ones edge to edge even where the road bends at the join, and
staggered lanes carry on from where each one ended. A circuit is laid stretch by stretch round
the board.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from shapely.geometry import Polygon

from editor.edits import EditError
from trackformat.builder.cutting import lane_offsets
from trackformat.builder.errors import BuildError
from trackformat.builder.stretch import Stretch, StretchStart, build_stretch
from trackformat.builder.track import MIN_STEP, TOUCH
from trackformat.model import Lane, Link, Space, SpaceKind, Track

Point = tuple[float, float]

JOIN_REACH = 1.6
"""A stretch joins an earlier lane whose open end lies within this many lane widths of the
stretch's first point (beyond the lane's own distance from the middle of the road)."""


@dataclass(frozen=True)
class LaneSettings:
    """What the designer chooses in the lane tool's options."""

    lanes: int = 3
    spacing: float = 40.0
    spaces: tuple[int, ...] = (10,)
    """Spaces per lane, from the left; one number applies to every lane."""
    space_length: float = 0.0
    """Length of a space in px; when set (above 0), each lane gets as many spaces as fit its
    own line and ``spaces`` is not used."""
    stagger: tuple[float, ...] = ()
    """How far each lane's spaces lie ahead, as a share of a space, from the left; one number
    applies to every other lane (the second, the fourth), as boards stagger neighbours."""

    def per_lane(self) -> list[int]:
        if len(self.spaces) == 1:
            return [self.spaces[0]] * self.lanes
        if len(self.spaces) != self.lanes:
            raise EditError(f"give one number of spaces, or one for each of the {self.lanes} lanes")
        return list(self.spaces)

    def per_lane_stagger(self) -> list[float]:
        if not self.stagger:
            return [0.0] * self.lanes
        if len(self.stagger) == 1:
            return [self.stagger[0] if k % 2 else 0.0 for k in range(self.lanes)]
        if len(self.stagger) != self.lanes:
            raise EditError(f"give one stagger, or one for each of the {self.lanes} lanes")
        return list(self.stagger)


def _numbers(text: str, kind: type[int] | type[float], example: str) -> tuple[float, ...]:
    """The numbers of "12" or "14, 13, 12" (commas or spaces between), or an error showing
    ``example`` of what is wanted."""
    try:
        return tuple(kind(part) for part in re.split(r"[,\s]+", text.strip()) if part)
    except ValueError:
        raise EditError(f"{example} (not {text!r})") from None


def parse_counts(text: str) -> tuple[int, ...]:
    """ "12" or "14, 13, 12" as spaces per lane."""
    counts = tuple(int(n) for n in _numbers(text, int, "spaces per lane are whole numbers, "
                                                    "like 12 or 14,13,12"))
    if not counts or any(c < 1 or c > 500 for c in counts):
        raise EditError("spaces per lane are between 1 and 500")
    return counts


def parse_stagger(text: str) -> tuple[float, ...]:
    """ "0.5" (every other lane) or "0, 0.5, 0" (lane by lane) as shares of a space; "" none."""
    shares = _numbers(text, float, "a stagger is a share of a space, like 0.5 or 0,0.5,0")
    if any(not 0 <= share < 1 for share in shares):
        raise EditError("a lane's stagger is a share of a space, from 0 to under 1")
    return shares


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


def front_cut(space: Space) -> tuple[Point, Point]:
    """The cut ahead of a space, from its left end to its right end (as the driver sees it).

    The outline's side that lies furthest ahead among those running across the space (within
    45 degrees of square to its heading).
    """
    heading = math.radians(space.heading)
    ahead = (math.cos(heading), math.sin(heading))
    polygon = [tuple(p) for p in space.polygon]
    best: tuple[float, Point, Point] | None = None
    for a, b in zip(polygon, polygon[1:] + polygon[:1], strict=True):
        dx, dy = b[0] - a[0], b[1] - a[1]
        length = math.hypot(dx, dy)
        if length == 0 or abs(dx * ahead[0] + dy * ahead[1]) > length * math.sqrt(0.5):
            continue
        reach = ((a[0] + b[0]) / 2 - space.centre[0]) * ahead[0] + (
            (a[1] + b[1]) / 2 - space.centre[1]) * ahead[1]
        if best is None or reach > best[0]:
            best = (reach, (a[0], a[1]), (b[0], b[1]))
    if best is None:
        raise EditError(f"space {space.id} has no side across it to join")
    _, a, b = best
    # Left to right: the driver's right is (-ahead.y, ahead.x) with y pointing down.
    if (b[0] - a[0]) * -ahead[1] + (b[1] - a[1]) * ahead[0] < 0:
        a, b = b, a
    return a, b


def open_ends(track: Track) -> dict[str, Space]:
    """Track spaces with no move on in their own lane, by id: where lanes can be continued."""
    lane_of = {s.id: s.lane for s in track.spaces}
    has_next = {
        k.from_
        for k in track.links
        if lane_of.get(k.from_) is not None and lane_of.get(k.from_) == lane_of.get(k.to)
    }
    return {s.id: s for s in track.spaces
            if s.kind == SpaceKind.TRACK and s.lane is not None and s.id not in has_next}


def find_join(
    track: Track, first: Point, lane_ids: Sequence[str], spacing: float
) -> tuple[StretchStart | None, dict[int, Space]]:
    """Where a stretch starting near ``first`` continues earlier lanes, and the lane ends it
    continues (by lane position); (None, {}) when no lane of the stretch ends near there."""
    offsets = lane_offsets(len(lane_ids), spacing)
    ends = open_ends(track)
    joined: dict[int, tuple[Space, Point, Point]] = {}
    for position, lane in enumerate(lane_ids):
        candidates = []
        for space in ends.values():
            if space.lane != lane:
                continue
            left, right = front_cut(space)
            middle = ((left[0] + right[0]) / 2, (left[1] + right[1]) / 2)
            distance = math.dist(middle, first)
            if distance <= JOIN_REACH * spacing + abs(offsets[position]):
                candidates.append((distance, space.id, space, left, right))
        if candidates:
            _, _, space, left, right = min(candidates)
            joined[position] = (space, left, right)
    if not joined:
        return None, {}
    across = [(right[0] - left[0], right[1] - left[1]) for _, left, right in joined.values()]
    rx, ry = sum(a[0] for a in across), sum(a[1] for a in across)
    norm = math.hypot(rx, ry)
    right_way = (rx / norm, ry / norm)
    direction = (right_way[1], -right_way[0])
    middles = {k: ((left[0] + right[0]) / 2, (left[1] + right[1]) / 2)
               for k, (_, left, right) in joined.items()}
    along = {k: m[0] * direction[0] + m[1] * direction[1] for k, m in middles.items()}
    side = sum(m[0] * right_way[0] + m[1] * right_way[1] - offsets[k]
               for k, m in middles.items()) / len(middles)
    base = min(along.values())
    point = (side * right_way[0] + base * direction[0], side * right_way[1] + base * direction[1])
    start = StretchStart(point, direction, {k: along[k] - base for k in joined})
    return start, {k: space for k, (space, _, _) in joined.items()}


def _build(track: Track, centre_line: Sequence[Point], settings: LaneSettings
           ) -> tuple[Stretch, dict[int, Space]]:
    lane_ids = lane_ids_for(track, settings.lanes)
    if not centre_line:
        raise EditError("click at least two points along the middle of the road")
    start, joined = find_join(track, centre_line[0], lane_ids, settings.spacing)
    by_length = settings.space_length > 0
    counts = None if by_length else settings.per_lane()
    stagger = settings.per_lane_stagger()
    length = settings.space_length if by_length else None
    try:
        if counts is None:
            # Built once to learn how many spaces each lane gets, then named to continue it.
            counts = build_stretch(centre_line, lane_ids, settings.spacing, None,
                                   space_length=length, stagger=stagger, start=start).counts
        stretch = build_stretch(centre_line, lane_ids, settings.spacing, counts,
                                names=_next_numbers(track, lane_ids, counts),
                                space_length=length, stagger=stagger, start=start)
    except BuildError as err:
        raise EditError(str(err)) from None
    return stretch, joined


def preview(
    track: Track, centre_line: Sequence[Point], settings: LaneSettings
) -> Stretch:
    """The stretch as it would be added (raises :class:`EditError` when it cannot be built)."""
    return _build(track, centre_line, settings)[0]


def add_stretch(
    track: Track, centre_line: Sequence[Point], settings: LaneSettings
) -> Track:
    """The track with the stretch added, new lanes created, and joined to open lane ends."""
    stretch, joined = _build(track, centre_line, settings)
    lane_ids = lane_ids_for(track, settings.lanes)
    lanes = list(track.lanes) + [
        Lane(id=i) for i in lane_ids if i not in {lane.id for lane in track.lanes}
    ]
    joins = _joins(track, stretch, joined, settings.spacing)
    return track.model_copy(
        update={
            "lanes": lanes,
            "spaces": [*track.spaces, *stretch.spaces],
            "links": [*track.links, *stretch.links, *joins],
        }
    )


def _joins(track: Track, stretch: Stretch, joined: dict[int, Space], spacing: float
           ) -> list[Link]:
    """Moves from the earlier lanes' ends onto the stretch: straight on into the same lane, and
    diagonally into a next lane's first new space where it touches and lies ahead (the straight
    rule), unless the end already has a move into that lane."""
    into_lane: dict[str, set[str | None]] = {}
    lane_of = {s.id: s.lane for s in [*track.spaces, *stretch.spaces]}
    for link in track.links:
        into_lane.setdefault(link.from_, set()).add(lane_of.get(link.to))
    links = []
    for position, end in joined.items():
        links.append(Link(**{"from": end.id, "to": stretch.lanes[position][0].id}))
        heading = math.radians(end.heading)
        outline = Polygon(end.polygon)
        for other in (position - 1, position + 1):
            if not 0 <= other < len(stretch.lanes) or stretch.lanes[other][0].lane in (
                    into_lane.get(end.id, set())):
                continue
            first = stretch.lanes[other][0]
            forward = ((first.centre[0] - end.centre[0]) * math.cos(heading)
                       + (first.centre[1] - end.centre[1]) * math.sin(heading))
            if (forward >= MIN_STEP * spacing
                    and outline.distance(Polygon(first.polygon)) <= TOUCH * spacing):
                links.append(Link(**{"from": end.id, "to": first.id}))
    return links
