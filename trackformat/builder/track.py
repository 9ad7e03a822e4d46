"""Building a whole track from a :class:`~trackformat.builder.plan.TrackPlan`.

The steps, each in its own module: smooth the centre line into a road (``road``), decide where
each lane is cut across (``cutting``), outline spaces that tile the road (``lanes``), link them
by the straight rule or the lane changes written space by space, and the designer's arrows
(``links``), and lay out corners, finish line,
grid and pit lane (``features``). The same plan always gives the same track, to the last byte of
the file.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from trackformat.builder import features
from trackformat.builder.cutting import Stations, check_lane_ids, lane_strips
from trackformat.builder.errors import BuildError
from trackformat.builder.lanes import SpaceShape, Strip, shape_strips
from trackformat.builder.links import (
    LinkPair,
    apply_overrides,
    straight_on,
    straight_rule,
    written_lane_changes,
)
from trackformat.builder.pit_road import profiled_pit_shapes
from trackformat.builder.plan import RoadShift, TrackPlan
from trackformat.builder.road import Point, Road, limit_curvature, smooth_line
from trackformat.model.track import (
    Board,
    Lane,
    Link,
    Metadata,
    Space,
    SpaceKind,
    Track,
)

MIN_STEP = 0.08
"""A lane change must end on a space whose centre is at least this many lane widths ahead: with
lanes a width apart the move then turns less than 86 degrees from the heading, and with
:data:`TOUCH` larger, some space of an adjacent lane always qualifies on a straight."""

TOUCH = 0.15
"""Spaces of adjacent lanes count as touching when at most this many lane widths apart (cuts
that nearly meet): well inside what the validator accepts between linked spaces."""


def make_road(plan: TrackPlan) -> tuple[Road, Stations]:
    """The smoothed road of a plan, and the conversion from stations to road positions."""
    points = list(plan.centre_line)
    if len(points) < 3:
        raise BuildError(f"the centre line needs at least 3 points, got {len(points)}")
    samples = max(plan.smoothing, 1)
    dense = smooth_line(points, closed=True, samples=samples) if samples > 1 else points
    half_road = len(plan.lanes) * plan.lane_spacing / 2
    min_radius = plan.min_radius if plan.min_radius is not None else (
        half_road + plan.lane_spacing / 20
    )
    dense = limit_curvature(dense, closed=True, min_radius=min_radius)
    road = Road(dense, closed=True)
    station = _stations(road, len(points), samples)
    if plan.shifts:
        road = Road(shifted_line(road, station, plan.shifts, plan.lane_spacing), closed=True)
        station = _stations(road, len(points), samples)
    return road, station


def _stations(road: Road, count: int, samples: int) -> Stations:
    """Stations to road positions: knot ``j`` of the plan's line is the road's vertex
    ``j * samples``, and a station's fraction is taken by length between two knots."""
    knots = [road.positions[j * samples] for j in range(count)] + [road.length]

    def station(value: float) -> float:
        if not math.isfinite(value):
            raise BuildError(f"station {value!r} is not a number")
        whole = math.floor(value)
        j = whole % count
        fraction = value - whole
        return knots[j] + fraction * (knots[j + 1] - knots[j])

    return station


def shifted_line(
    road: Road, station: Stations, shifts: Sequence[RoadShift], lane_width: float
) -> list[Point]:
    """The road's vertices moved sideways by the plan's shifts (see :class:`RoadShift`).

    Each vertex moves along the road's normal there, by the shift's distance eased in and out
    (a sine squared bump), so a shifted stretch joins the rest of the road without a kink.
    """
    spans: list[tuple[float, float, float]] = []
    for number, shift in enumerate(shifts, start=1):
        start, end = station(shift.start), station(shift.end)
        if end <= start:
            end += road.length
        if not math.isfinite(shift.distance) or abs(shift.distance) > 2:
            raise BuildError(f"road shift {number}: {shift.distance:g} lane widths is not a "
                             "sideways shift within two lane widths")
        for other_start, other_end, _ in spans:
            if any(start + lap < other_end and other_start < end + lap
                   for lap in (-road.length, 0.0, road.length)):
                raise BuildError(f"road shift {number} (stations {shift.start:g} to "
                                 f"{shift.end:g}) overlaps another")
        spans.append((start, end, shift.distance * lane_width))
    moved: list[Point] = []
    for position in road.positions[:-1]:
        offset = 0.0
        for start, end, distance in spans:
            share = ((position - start) % road.length) / (end - start)
            if share < 1.0:
                offset += distance * math.sin(math.pi * share) ** 2
        moved.append(road.offset_point(position, offset))
    return moved


def build_track(plan: TrackPlan) -> Track:
    """The track of ``plan``; raises :class:`BuildError` naming what in the plan is wrong."""
    if not plan.lanes:
        raise BuildError("a track needs at least one lane")
    check_lane_ids(plan.lanes)
    lane_ids = [lane.id for lane in plan.lanes]
    if plan.lane_spacing <= 0:
        raise BuildError(f"lane spacing must be positive, got {plan.lane_spacing}")
    road, station = make_road(plan)
    strips = lane_strips(road, station, plan)
    names = features.SpaceNames({lane.id: lane.spaces for lane in plan.lanes})
    pit_strips: list[Strip] = []
    if plan.pit is not None:
        if plan.pit.beside not in (lane_ids[0], lane_ids[-1]):
            raise BuildError(
                f"pit lane: must run beside the first or last lane, not lane {plan.pit.beside}"
            )
        right = plan.pit.beside == lane_ids[-1]
        beside = strips[lane_ids.index(plan.pit.beside)]
        pit_strips = features.pit_strips(road, plan.pit, beside, right, plan.lane_spacing)
    if plan.pit is not None and plan.pit.profile:
        shapes = shape_strips(road, strips)
        shapes.update(profiled_pit_shapes(road, plan.pit, pit_strips[0], pit_strips[1:], beside,
                                          right, plan.lane_spacing))
    else:
        shapes = shape_strips(road, [*strips, *pit_strips])

    lane_shapes = [shapes[lane_id] for lane_id in lane_ids]
    lane_names = [[names(lane_id, i) for i in range(len(row))]
                  for lane_id, row in zip(lane_ids, lane_shapes, strict=True)]
    spaces = [
        _space(name, shape, SpaceKind.TRACK, lane_id)
        for lane_id, row, row_names in zip(lane_ids, lane_shapes, lane_names, strict=True)
        for shape, name in zip(row, row_names, strict=True)
    ]
    single = {names.ref(ref, "single arrow") for ref in plan.single_arrow}
    corners = [features.corner(c, names) for c in plan.corners]
    in_corners = {space_id for c in corners for space_id in c.spaces}
    if plan.lane_changes is None:
        links = straight_rule(lane_shapes, lane_names, loop=road.length,
                              min_step=plan.lane_spacing * MIN_STEP,
                              touch=plan.lane_spacing * TOUCH, single_arrow=single,
                              in_corners=in_corners)
    else:
        links = straight_on(lane_names, closed=True) + written_lane_changes(
            plan.lane_changes, {lane.id: lane.spaces for lane in plan.lanes}, names,
            single_arrow=single)
    known = {s.id for s in spaces}
    links = apply_overrides(
        links,
        add=[_pair(names, a, b, "added arrow") for a, b in plan.links_added],
        remove=[_pair(names, a, b, "removed arrow") for a, b in plan.links_removed],
        known=known,
    )

    pit_lane = None
    if plan.pit is not None:
        pit_lane, pit_links = features.pit_lane(plan.pit, names)
        pit_names, box_names = features.pit_ids(plan.pit)
        spaces += [_space(n, s, SpaceKind.PIT, None)
                   for n, s in zip(pit_names, shapes[features.PIT_PREFIX], strict=True)]
        spaces += [_space(n, shapes[n][0], SpaceKind.BOX, None) for n in box_names]
        links += pit_links

    return Track(
        metadata=Metadata(name=plan.name, designer=plan.designer, laps=plan.laps, notes=plan.notes),
        board=Board(image=plan.board_image, width=plan.board_width, height=plan.board_height),
        lanes=[Lane(id=lane.id, name=lane.name) for lane in plan.lanes],
        spaces=spaces,
        links=[Link(from_=a, to=b) for a, b in _in_file_order(links, spaces)],
        corners=corners,
        finish_line=features.finish_line(lane_ids, names),
        grid=features.grid(plan.grid, names),
        pit_lane=pit_lane,
    )


def _pair(names: features.SpaceNames, a: tuple[str, int], b: tuple[str, int], what: str
          ) -> LinkPair:
    return (names.ref(a, what), names.ref(b, what))


def _space(name: str, shape: SpaceShape, kind: SpaceKind, lane: str | None) -> Space:
    return Space(
        id=name,
        kind=kind,
        lane=lane,
        polygon=list(shape.polygon),
        centre=shape.centre,
        heading=shape.heading,
    )


def _in_file_order(links: Sequence[LinkPair], spaces: Sequence[Space]) -> list[LinkPair]:
    """Links sorted by where their spaces are in the file, so a diff of two builds reads well."""
    position: Mapping[str, int] = {s.id: i for i, s in enumerate(spaces)}
    return sorted(dict.fromkeys(links), key=lambda p: (position[p[0]], position[p[1]]))
