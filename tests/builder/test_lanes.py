"""Cutting lanes into spaces: spaces tile the road with no gap or overlap, in every lane."""

from __future__ import annotations

import pytest
import shapely
from shapely.geometry import Polygon

from tests.builder.plans import SPACING, stadium_line
from trackformat.builder import (
    BuildError,
    Road,
    Strip,
    anchored_cuts,
    even_cuts,
    fit_anchors,
    lane_offsets,
    smooth_line,
)
from trackformat.builder.lanes import shape_strips


def stadium_road() -> Road:
    return Road(smooth_line(stadium_line(), closed=True, samples=8), closed=True)


def cut_lanes(road: Road, counts: tuple[int, ...]) -> list[Strip]:
    offsets = lane_offsets(len(counts), SPACING)
    return [
        Strip(str(k + 1), offset, SPACING,
              anchored_cuts(road, offset, count, {0: 0.0}, full_lap=True))
        for k, (offset, count) in enumerate(zip(offsets, counts, strict=True))
    ]


def test_spaces_tile_the_road_without_gaps_or_overlaps() -> None:
    road = stadium_road()
    shapes = shape_strips(road, cut_lanes(road, (48, 44, 40)))
    polygons = [Polygon(s.polygon) for row in shapes.values() for s in row]
    assert all(p.is_valid for p in polygons)
    union = shapely.union_all(polygons)
    # No overlap: the spaces' areas add up to the area they cover together.
    assert sum(p.area for p in polygons) == pytest.approx(union.area, rel=1e-6)
    # No gap: together they make one ring, the road, with the infield as its only hole.
    assert union.geom_type == "Polygon" and len(union.interiors) == 1
    outer = Polygon([road.offset_point(p, -1.5 * SPACING) for p in road.positions[:-1]])
    inner = Polygon([road.offset_point(p, 1.5 * SPACING) for p in road.positions[:-1]])
    assert union.area == pytest.approx(outer.area - inner.area, rel=2e-3)


def test_neighbouring_spaces_share_their_edges() -> None:
    road = stadium_road()
    shapes = shape_strips(road, cut_lanes(road, (48, 44, 40)))
    lane = shapes["2"]
    for a, b in zip(lane, lane[1:] + lane[:1], strict=True):
        shared = Polygon(a.polygon).boundary.intersection(Polygon(b.polygon).boundary)
        assert shared.length == pytest.approx(SPACING, rel=1e-3)
    # Across lanes, the spaces beside each other meet along a line, never overlap.
    for a in shapes["1"]:
        for b in shapes["2"]:
            overlap = Polygon(a.polygon).intersection(Polygon(b.polygon))
            assert overlap.area < 1e-6


def test_headings_and_centres() -> None:
    road = stadium_road()
    shapes = shape_strips(road, cut_lanes(road, (48, 44, 40)))
    space = shapes["1"][4]  # in the middle of the top straight, which runs along +x
    assert Polygon(space.polygon).contains(shapely.points(space.centre))
    assert space.heading == pytest.approx(0, abs=0.01)
    assert shapes["1"][30].heading == pytest.approx(180, abs=1)  # the bottom straight
    assert all(x == round(x, 2) for s in shapes["3"] for point in s.polygon for x in point)


def test_inside_lanes_of_a_bend_get_shorter_spaces() -> None:
    road = stadium_road()
    start, end = 600.0, 600.0 + 3.14159 * 250  # the right-hand half circle
    inside = even_cuts(road, SPACING, start, end, 5)
    outside = even_cuts(road, -SPACING, start, end, 5)
    length_in = road.lane_distance(SPACING, inside[1]) - road.lane_distance(SPACING, inside[0])
    length_out = road.lane_distance(-SPACING, outside[1]) - road.lane_distance(-SPACING, outside[0])
    assert length_in < length_out


def test_fitting_keeps_limits_near_their_targets() -> None:
    road = stadium_road()
    count = 44
    per_space = road.length / count
    targets = {10: 10 * per_space + 5, 20: 20 * per_space - 5}
    fitted = fit_anchors(road, 0.0, count, {0: 0.0}, targets, pull=1.0, full_lap=True)
    assert fitted[0] == 0.0
    assert fitted[10] == pytest.approx(targets[10], abs=6)
    assert fitted[20] == pytest.approx(targets[20], abs=6)


def test_counts_that_cannot_fit_are_refused() -> None:
    road = stadium_road()
    # 20 spaces wanted between two limits a few pixels apart.
    targets = {10: 100.0, 30: 101.0}
    with pytest.raises(BuildError, match="cannot fit"):
        fit_anchors(road, 0.0, 44, {0: 0.0}, targets, pull=100.0, full_lap=True)


def test_anchors_must_run_forward() -> None:
    road = stadium_road()
    with pytest.raises(BuildError, match="boundary 0 must be anchored"):
        anchored_cuts(road, 0.0, 10, {3: 50.0}, full_lap=True)
    with pytest.raises(BuildError, match="not ahead of"):
        anchored_cuts(road, 0.0, 10, {0: 0.0, 3: 300.0, 5: 200.0}, full_lap=True)
