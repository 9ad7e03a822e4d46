"""A pit lane that swings away from the track: its own road, beside the track at a varying distance.

On many boards the pit lane leaves the track, runs a wall's width (and the team boxes' width)
away from it, and comes back at the exit. A strip at one offset cannot draw that, so the pit lane
gets a road of its own: the track's road, offset by the plan's ``profile`` (the distance from the
lane beside it at each of the pit lane's boundaries, eased in between so the lane never kinks).
Its spaces are cut on that road beside equal lengths of the track's centre line, between the
ends they would have beside the track, or beside the boundaries the plan gives.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Sequence

from trackformat.builder.errors import BuildError
from trackformat.builder.lanes import SpaceShape, Strip, shape_strips
from trackformat.builder.plan import PitPlan
from trackformat.builder.road import Point, Road


def profiled_pit_shapes(
    road: Road,
    plan: PitPlan,
    pit: Strip,
    boxes: Sequence[Strip],
    beside: Strip,
    right: bool,
    lane_width: float,
) -> dict[str, list[SpaceShape]]:
    """Shapes of the pit lane and its boxes on a road offset from ``road`` by ``plan.profile``.

    ``pit`` and ``boxes`` are the strips as they would lie beside the track (the pit strip's
    ends are kept); ``beside`` is the lane the pit lane runs beside. Boxes stand on
    the side ``plan.box_side`` names, ``plan.box_width`` lane widths wide.
    """
    profile = list(plan.profile)
    # Equal lengths of the track's centre line: the pit lane's own line swings in and out, and
    # the board spaces its pit lane by the track beside it.
    start, end = pit.cuts[0], pit.cuts[-1]
    count = len(pit.cuts) - 1
    cuts = (list(pit.cuts) if plan.boundaries
            else [start + (end - start) * k / count for k in range(count + 1)])
    if len(profile) != len(cuts):
        raise BuildError(
            f"pit lane profile: give a distance for each of its {len(cuts)} boundaries, "
            f"not {len(profile)}"
        )
    if any(distance < 1.0 for distance in profile):
        raise BuildError("pit lane profile: the pit lane lies at least a lane width (1.0) from "
                         "the lane beside it")
    side = 1.0 if right else -1.0

    def offset(position: float) -> float:
        k = min(max(bisect.bisect_right(cuts, position) - 1, 0), len(cuts) - 2)
        share = (position - cuts[k]) / (cuts[k + 1] - cuts[k])
        eased = (1.0 - math.cos(math.pi * min(max(share, 0.0), 1.0))) / 2
        distance = profile[k] + eased * (profile[k + 1] - profile[k])
        return beside.offset + side * distance * lane_width

    laps = [p + lap * road.length for lap in (0, 1) for p in road.positions[:-1]]
    # Road vertices closer than a twentieth of a lane to a cut would give the edges a kink.
    near = lane_width / 20
    samples = sorted({*cuts, *(p for p in laps if start < p < end
                               and min(abs(p - c) for c in cuts) > near)})
    points: list[Point] = [road.offset_point(p, offset(p)) for p in samples]
    pit_road = Road(points, closed=False)
    at = {p: pit_road.positions[k] for k, p in enumerate(samples)}
    pit_strip = Strip(pit.name, 0.0, lane_width, tuple(at[c] for c in cuts), taper=pit.taper,
                      outer=pit.outer)
    inside = plan.box_side == "inside"
    box_width = plan.box_width * lane_width
    box_offset = (lane_width + box_width) / 2 * (-side if inside else side)
    box_strips = [Strip(box.name, box_offset, box_width, (at[cuts[a]], at[cuts[b + 1]]))
                  for box, (a, b) in zip(boxes, plan.boxes, strict=True)]
    return shape_strips(pit_road, [pit_strip, *box_strips])
