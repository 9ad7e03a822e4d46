"""What lets a built track follow a printed board closely: a road shifted off its centre line
over a stretch, and a pit lane cut at the boundaries a board gives it."""

from __future__ import annotations

import math

import pytest

from tests.builder.plans import CENTRE, RADIUS, SPACING, stadium_plan
from trackformat.builder import BuildError, PitPlan, RoadShift, build_track
from trackformat.lint import validate
from trackformat.model import Track


def _centres(track: Track) -> dict[str, tuple[float, float]]:
    return {space.id: space.centre for space in track.spaces}


def _distance_from_middle(point: tuple[float, float]) -> float:
    """How far out a point of the east bend lies from the bend's middle."""
    return math.dist(point, (CENTRE[0] + 300.0, CENTRE[1]))


def test_a_road_shift_moves_the_lanes_sideways_over_its_stretch_only() -> None:
    # Stations 12 to 28 run round the east bend (12 points on the top straight, 16 round it);
    # the driver's right is the inside of this clockwise bend, so -0.5 moves the road out.
    plain = _centres(build_track(stadium_plan()))
    shifted_track = build_track(stadium_plan(shifts=[RoadShift(12.0, 28.0, -0.5)]))
    shifted = _centres(shifted_track)
    apex = "2-11"
    assert _distance_from_middle(plain[apex]) == pytest.approx(RADIUS, abs=2.0)
    assert _distance_from_middle(shifted[apex]) == pytest.approx(RADIUS + SPACING / 2, abs=2.0)
    # Away from the stretch the lanes lie where they did: the straights' spaces stay on their
    # lines (the spaces slide along them a little, the lap being longer); the track stays sound.
    for space in ("1-01", "2-01", "3-01"):
        assert shifted[space][1] == pytest.approx(plain[space][1], abs=0.01)
    for space in ("1-24", "2-22", "3-20"):
        assert shifted[space][1] == pytest.approx(plain[space][1], abs=0.01)
    assert validate(shifted_track).errors == 0


def test_a_pit_lane_is_cut_where_the_plan_puts_its_boundaries() -> None:
    # The stadium's pit lane (lane 3's spaces 36 to 2, on the top straight), its second space
    # half a space long and its third one and a quarter.
    pit = PitPlan(spaces=7, beside="3", start=36.0, end=3.0, entry=[("3", 35)], exit=[("3", 3)],
                  boxes=[(2, 3)], boundaries=(37.0, 37.5, 38.75, 39.5, 0.5, 2.0))
    track = build_track(stadium_plan(pit=pit))
    centres = _centres(track)
    lane3 = math.dist(centres["3-38"], centres["3-37"])
    assert math.dist(centres["pit-1"], centres["pit-2"]) == pytest.approx(0.875 * lane3, rel=0.02)
    assert math.dist(centres["pit-2"], centres["pit-3"]) == pytest.approx(lane3, rel=0.02)
    # Pit space 1 starts level with lane 3's cut behind space 37; its centre a quarter ahead.
    assert centres["pit-1"][0] == pytest.approx(
        (centres["3-37"][0] + centres["3-36"][0]) / 2 + 0.25 * lane3, abs=1.0)
    assert validate(track).errors == 0


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"shifts": [RoadShift(2.0, 10.0, 0.3), RoadShift(8.0, 14.0, 0.3)]},
         r"road shift 2 \(stations 8 to 14\) overlaps another"),
        ({"shifts": [RoadShift(2.0, 10.0, 3.0)]}, "road shift 1: 3 lane widths"),
        ({"pit": PitPlan(spaces=4, beside="3", start=36.0, end=1.0, entry=[("3", 35)],
                         exit=[("3", 1)], boundaries=(37.5, 38.25))},
         "pit lane boundaries: give the 3 inner boundaries of its 4 spaces, not 2"),
        ({"pit": PitPlan(spaces=4, beside="3", start=36.0, end=1.0, entry=[("3", 35)],
                         exit=[("3", 1)], boundaries=(37.5, 37.25, 39.0))},
         r"pit lane boundary 2 \(37.25\) is not ahead of the one before it"),
    ],
)
def test_bad_shifts_and_pit_boundaries_say_what_is_wrong(change: dict[str, object],
                                                         message: str) -> None:
    with pytest.raises(BuildError, match=message):
        build_track(stadium_plan(**change))
