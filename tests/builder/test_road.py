"""The road under a built track: smoothing the centre line, and measuring along it."""

from __future__ import annotations

import math

import pytest

from trackformat.builder import BuildError, Road, limit_curvature, smooth_line
from trackformat.builder.road import turning_radius


def circle(radius: float, count: int) -> list[tuple[float, float]]:
    """Points on a circle, clockwise on screen (y down), starting at the top."""
    return [
        (500 + radius * math.cos(-math.pi / 2 + 2 * math.pi * k / count),
         500 + radius * math.sin(-math.pi / 2 + 2 * math.pi * k / count))
        for k in range(count)
    ]


def test_the_smooth_line_passes_through_every_point() -> None:
    points = circle(200, 12)
    line = smooth_line(points, closed=True, samples=6)
    assert len(line) == 12 * 6
    for j, point in enumerate(points):
        assert line[j * 6] == pytest.approx(point)


def test_the_smooth_line_through_a_circle_stays_on_it() -> None:
    # Blended arcs follow the circle through the points: no overshoot, no flat spots.
    line = smooth_line(circle(200, 10), closed=True, samples=8)
    for x, y in line:
        assert math.hypot(x - 500, y - 500) == pytest.approx(200, abs=0.01)


def test_a_centre_line_needs_three_points() -> None:
    with pytest.raises(BuildError, match="at least 3 points"):
        smooth_line([(0, 0), (1, 1)], closed=True)


def test_tight_bends_are_rounded_to_the_minimum_radius() -> None:
    square = [(0.0, 0.0), (400.0, 0.0), (400.0, 400.0), (0.0, 400.0)]
    dense = [
        (a[0] + (b[0] - a[0]) * k / 20, a[1] + (b[1] - a[1]) * k / 20)
        for a, b in zip(square, square[1:] + square[:1], strict=True)
        for k in range(20)
    ]
    rounded = limit_curvature(dense, closed=True, min_radius=60)
    count = len(rounded)
    radii = [turning_radius(rounded[i - 1], rounded[i], rounded[(i + 1) % count])
             for i in range(count)]
    assert min(radii) >= 60
    # The straight middles of the sides are left where they were.
    assert rounded[10] == dense[10]


def test_gentle_lines_are_left_alone() -> None:
    points = smooth_line(circle(300, 16), closed=True, samples=4)
    assert limit_curvature(points, closed=True, min_radius=100) == points


def test_the_frame_follows_the_driving_direction() -> None:
    road = Road([(0, 0), (100, 0), (200, 0)], closed=False)
    frame = road.frame(50)
    assert frame.point == pytest.approx((50, 0))
    assert frame.heading == pytest.approx(0)
    # y points down, so the driver's right on a road heading +x is +y.
    assert frame.right == pytest.approx((0, 1))
    assert road.offset_point(50, 10) == pytest.approx((50, 10))


def test_lanes_inside_a_bend_are_shorter() -> None:
    road = Road(smooth_line(circle(200, 24), closed=True, samples=8), closed=True)
    # Clockwise on screen, the right-hand side is the inside of the circle.
    assert road.lane_length(40) == pytest.approx(2 * math.pi * 160, rel=2e-3)
    assert road.lane_length(-40) == pytest.approx(2 * math.pi * 240, rel=2e-3)
    # Squeezing weighs the inside even shorter, the outside even longer.
    assert road.lane_length(40, squeeze=2) < road.lane_length(40)
    assert road.lane_length(-40, squeeze=2) > road.lane_length(-40)


def test_positions_and_lane_distances_round_trip() -> None:
    road = Road(smooth_line(circle(200, 24), closed=True, samples=8), closed=True)
    for position in (0.0, 123.4, road.length - 1, road.length + 50):
        distance = road.lane_distance(30, position)
        assert road.position_at_lane_distance(30, distance) == pytest.approx(position, abs=1e-6)
