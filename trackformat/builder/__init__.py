"""Building tracks along a centre line: lanes, spaces, links, corners, grid and pit lane.

A designer describes a circuit as a :class:`TrackPlan` (the centre line, the lanes and their
counts, the corners, arrows, grid and pit lane) and :func:`build_track` makes the track file's
model from it, with spaces that tile the road (lanes staggered where the plan says) and the moves
of the straight rule or of the lane changes the plan writes space by space.
"""

from trackformat.builder.cutting import lane_offsets
from trackformat.builder.errors import BuildError
from trackformat.builder.lanes import SpaceShape, Strip, anchored_cuts, even_cuts, fit_anchors
from trackformat.builder.links import (
    apply_overrides,
    diagonal_target,
    straight_on,
    straight_rule,
    written_lane_changes,
)
from trackformat.builder.plan import (
    CornerPlan,
    LaneChanges,
    LanePlan,
    PitPlan,
    RoadShift,
    SpaceRef,
    Stagger,
    TrackPlan,
)
from trackformat.builder.road import Road, limit_curvature, smooth_line
from trackformat.builder.track import build_track, make_road

__all__ = [
    "BuildError",
    "CornerPlan",
    "LaneChanges",
    "LanePlan",
    "PitPlan",
    "Road",
    "RoadShift",
    "SpaceRef",
    "SpaceShape",
    "Stagger",
    "Strip",
    "TrackPlan",
    "anchored_cuts",
    "apply_overrides",
    "build_track",
    "diagonal_target",
    "even_cuts",
    "fit_anchors",
    "lane_offsets",
    "limit_curvature",
    "make_road",
    "smooth_line",
    "straight_on",
    "straight_rule",
    "written_lane_changes",
]
