"""A stretch of road: the lanes of an open piece of track, from a centre line clicked by hand.

The editor's lane tool calls this: a designer clicks along the middle of a stretch of printed road,
chooses the lanes, their spacing and how many spaces each lane has, and gets the spaces (outlines
that tile the road, with centres and headings) and the moves between them by the straight rule,
from the same road, cutting and linking code as whole circuits.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from trackformat.builder.cutting import lane_offsets
from trackformat.builder.errors import BuildError
from trackformat.builder.lanes import Strip, even_cuts, shape_strips
from trackformat.builder.links import straight_rule
from trackformat.builder.road import Point, Road, limit_curvature, smooth_line
from trackformat.builder.track import MIN_STEP, TOUCH
from trackformat.model.track import Link, Space, SpaceKind


@dataclass(frozen=True)
class Stretch:
    """What the lane tool adds: spaces lane by lane (from the driver's left) and their links."""

    lanes: tuple[tuple[Space, ...], ...]
    links: tuple[Link, ...]

    @property
    def spaces(self) -> list[Space]:
        return [space for lane in self.lanes for space in lane]


def build_stretch(
    centre_line: Sequence[Point],
    lane_ids: Sequence[str],
    spacing: float,
    spaces_per_lane: Sequence[int],
    *,
    names: Sequence[Sequence[str]] | None = None,
    single_arrow: Collection[str] = (),
    smoothing: int = 8,
) -> Stretch:
    """Lanes along an open centre line (board pixels, in the driving direction).

    ``spaces_per_lane[k]`` spaces are cut evenly along lane ``k``'s own line (so the inside of a
    bend gets shorter spaces when it has fewer). Space ids default to ``<lane>-s<number>``;
    ``names`` gives them explicitly, lane by lane. Raises :class:`BuildError` saying what is wrong.
    """
    if not 1 <= len(lane_ids) <= 4:
        raise BuildError(f"a stretch has 1 to 4 lanes, not {len(lane_ids)}")
    if len(spaces_per_lane) != len(lane_ids):
        raise BuildError("give a number of spaces for every lane")
    if any(count < 1 for count in spaces_per_lane):
        raise BuildError("every lane needs at least one space")
    if spacing <= 0:
        raise BuildError(f"lane spacing must be positive, got {spacing:g}")
    points = [(float(x), float(y)) for x, y in centre_line]
    if len(points) < 2:
        raise BuildError("click at least two points along the middle of the road")
    dense = (
        smooth_line(points, closed=False, samples=smoothing)
        if smoothing > 1 and len(points) > 2
        else points
    )
    dense = limit_curvature(
        dense, closed=False, min_radius=len(lane_ids) * spacing / 2 + spacing / 20
    )
    road = Road(dense, closed=False)
    strips = [
        Strip(lane, offset, spacing, tuple(even_cuts(road, offset, 0.0, road.length, count)))
        for lane, offset, count in zip(
            lane_ids, lane_offsets(len(lane_ids), spacing), spaces_per_lane, strict=True
        )
    ]
    shapes = shape_strips(road, strips)
    rows = [shapes[lane] for lane in lane_ids]
    ids = (
        [list(row) for row in names]
        if names is not None
        else [[f"{lane}-s{index + 1}" for index in range(len(shapes[lane]))] for lane in lane_ids]
    )
    if [len(r) for r in ids] != [len(r) for r in rows]:
        raise BuildError("give one name per space of every lane")
    pairs = straight_rule(
        rows,
        ids,
        loop=None,
        min_step=spacing * MIN_STEP,
        touch=spacing * TOUCH,
        single_arrow=single_arrow,
    )
    lanes = tuple(
        tuple(
            Space(
                id=space_id,
                kind=SpaceKind.TRACK,
                lane=lane,
                polygon=list(shape.polygon),
                centre=shape.centre,
                heading=shape.heading,
            )
            for shape, space_id in zip(row, row_ids, strict=True)
        )
        for lane, row, row_ids in zip(lane_ids, rows, ids, strict=True)
    )
    return Stretch(lanes, tuple(Link(**{"from": a, "to": b}) for a, b in pairs))
