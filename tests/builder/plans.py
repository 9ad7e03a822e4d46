"""Small track plans for the builder's tests: a stadium-shaped circuit, sound by construction."""

from __future__ import annotations

import dataclasses
import math
from typing import Any

from trackformat.builder import CornerPlan, LanePlan, PitPlan, Stagger, TrackPlan

CENTRE = (700.0, 450.0)
STRAIGHT = 600.0
RADIUS = 250.0
SPACING = 40.0
STEP = 50.0
FINISH = 6.0
"""Station of the finish line: the middle of the top straight (its points are 50 px apart)."""


def stadium_line(step: float = STEP) -> list[tuple[float, float]]:
    """A stadium (two straights, two half circles) driven clockwise on screen, every ``step``."""
    cx, cy = CENTRE
    half = STRAIGHT / 2
    points: list[tuple[float, float]] = []
    count = round(STRAIGHT / step)
    for k in range(count):  # top straight, left to right
        points.append((cx - half + k * STRAIGHT / count, cy - RADIUS))
    arc = round(math.pi * RADIUS / step)
    for k in range(arc):  # right half circle, top to bottom
        angle = -math.pi / 2 + k * math.pi / arc
        points.append((cx + half + RADIUS * math.cos(angle), cy + RADIUS * math.sin(angle)))
    for k in range(count):  # bottom straight, right to left
        points.append((cx + half - k * STRAIGHT / count, cy + RADIUS))
    for k in range(arc):  # left half circle, bottom to top
        angle = math.pi / 2 + k * math.pi / arc
        points.append((cx - half + RADIUS * math.cos(angle), cy + RADIUS * math.sin(angle)))
    return points


def stadium_plan(**changes: Any) -> TrackPlan:
    """A 3-lane stadium, lane 1 outside with 48/44/40 spaces: two corners, grid and pit lane.

    Spaces are about 63 px long in every lane; index 0 is in the middle of the top straight.
    Lanes 1 and 3 are staggered half a space behind lane 2 on the straights, as on a printed
    board (the finish line too); round the bends their spaces are spread evenly.
    """
    plan = TrackPlan(
        name="Stadium",
        board_width=1400,
        board_height=900,
        centre_line=stadium_line(),
        lane_spacing=SPACING,
        lanes=[
            LanePlan("1", 48, follow="2", stagger=[
                Stagger(0, 6, 0, -0.5), Stagger(19, 30, 17, -0.5), Stagger(43, 48, 39, -0.5)]),
            LanePlan("2", 44, {0: FINISH}),
            LanePlan("3", 40, follow="2", stagger=[
                Stagger(0, 6, 0, -0.5), Stagger(15, 26, 17, -0.5), Stagger(35, 40, 39, -0.5)]),
        ],
        corners=[
            CornerPlan("east", "East", 2, {"1": (6, 18), "2": (6, 16), "3": (6, 14)}),
            CornerPlan("west", "West", 1, {"1": (30, 42), "2": (28, 38), "3": (26, 33)}),
        ],
        single_arrow=[("1", 5), ("3", 5)],
        grid=[("1", 47), ("3", 38), ("1", 45), ("3", 36)],
        pit=PitPlan(spaces=7, beside="3", start=36.0, end=3.0, entry=[("3", 35)],
                    exit=[("3", 3)], boxes=[(2, 3)]),
    )
    return dataclasses.replace(plan, **changes)
