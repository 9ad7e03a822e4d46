"""What a real board needs from the builder: staggered lanes, lane changes written space by space,
and a pit lane that swings away from the track past its boxes. Small tracks, no corpus."""

from __future__ import annotations

import dataclasses
import math

import pytest
from shapely.geometry import Polygon

from tests.builder.plans import SPACING, stadium_plan
from trackformat.builder import (
    BuildError,
    LaneChanges,
    LanePlan,
    PitPlan,
    Stagger,
    TrackPlan,
    build_track,
)
from trackformat.lint import validate
from trackformat.model import Space, Track


def staggered_plan(**changes: object) -> TrackPlan:
    """The stadium with lane 1 half a space ahead of lane 2 on the top straight (boundaries 0 to
    6) and half a space behind it on the bottom straight (lane 1's 19 to 29 beside lane 2's 17
    to 27)."""
    plan = stadium_plan()
    lane1 = LanePlan("1", 48, follow="2", stagger=[Stagger(0, 6, 0, 0.5),
                                                   Stagger(19, 29, 17, -0.5)])
    return dataclasses.replace(plan, lanes=[lane1, *plan.lanes[1:]], **changes)


def along(a: Space, b: Space) -> float:
    """How far ``b``'s centre lies ahead of ``a``'s, along ``a``'s heading."""
    heading = math.radians(a.heading)
    dx, dy = b.centre[0] - a.centre[0], b.centre[1] - a.centre[1]
    return dx * math.cos(heading) + dy * math.sin(heading)


def moves_from(track: Track, space_id: str) -> set[str]:
    return {link.to for link in track.links if link.from_ == space_id}


@pytest.fixture(scope="module")
def staggered() -> Track:
    return build_track(staggered_plan())


def test_a_staggered_lane_lies_half_a_space_ahead(staggered: Track) -> None:
    spaces = {s.id: s for s in staggered.spaces}
    length = along(spaces["2-02"], spaces["2-03"])
    for index in range(4):  # the top straight
        beside = along(spaces[f"2-{index:02d}"], spaces[f"1-{index:02d}"])
        assert beside == pytest.approx(length / 2, rel=0.05)
    # On the bottom straight it is half a space behind, so lane 1's 22 is beside lane 2's 19-20.
    assert along(spaces["2-20"], spaces["1-22"]) == pytest.approx(-length / 2, rel=0.05)
    assert validate(staggered).errors == 0


def test_diagonals_of_staggered_lanes_land_half_a_space_ahead(staggered: Track) -> None:
    spaces = {s.id: s for s in staggered.spaces}
    length = along(spaces["2-02"], spaces["2-03"])
    for here, there in (("2-02", "1-02"), ("1-02", "2-03"), ("2-20", "1-23"), ("1-23", "2-21")):
        assert there in moves_from(staggered, here)
        assert along(spaces[here], spaces[there]) == pytest.approx(length / 2, rel=0.1)
    # Level lanes (lane 3 beside lane 2) still land a whole space ahead.
    assert moves_from(staggered, "2-02") == {"2-03", "1-02", "3-03"}


def test_a_stagger_must_be_a_share_of_a_space_beside_a_followed_lane() -> None:
    with pytest.raises(BuildError, match=r"lane 1: stagger 1 \(boundaries 0..6\): offset 1.5"):
        build_track(stadium_plan(lanes=[
            LanePlan("1", 48, follow="2", stagger=[Stagger(0, 6, 0, 1.5)]),
            *stadium_plan().lanes[1:]]))
    with pytest.raises(BuildError, match="lane 1: a stagger is a shift beside another lane"):
        build_track(stadium_plan(lanes=[
            LanePlan("1", 48, {0: 6.0}, stagger=[Stagger(0, 6, 0, 0.5)]),
            *stadium_plan().lanes[1:]]))


WRITTEN = [
    LaneChanges("1", "2", 0, 3, -1),
    LaneChanges("2", "1", 40, 43, 5),
    LaneChanges("2", "3", 10, 11, 0),
]


def test_written_lane_changes_are_exactly_the_links_across_lanes() -> None:
    track = build_track(stadium_plan(lane_changes=WRITTEN, single_arrow=[]))
    lanes = {s.id: s.lane for s in track.spaces}
    across = {(link.from_, link.to) for link in track.links
              if lanes[link.from_] and lanes[link.to] and lanes[link.from_] != lanes[link.to]}
    assert across == {
        ("1-00", "2-43"), ("1-01", "2-00"), ("1-02", "2-01"), ("1-03", "2-02"),
        ("2-40", "1-45"), ("2-41", "1-46"), ("2-42", "1-47"), ("2-43", "1-00"),
        ("2-10", "3-10"), ("2-11", "3-11"),
    }
    # Straight on in every lane, round the lap.
    assert moves_from(track, "3-39") == {"3-00"}
    assert moves_from(track, "1-02") == {"1-03", "2-01"}


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ([LaneChanges("1", "3", 0, 2, 0)], r"lane changes 1 \(1 -> 3, spaces 0..2\): a lane "
                                           "change goes into an adjacent lane"),
        ([LaneChanges("1", "2", 40, 50, 0)], "lane 1 has spaces 0..47"),
        ([LaneChanges("2", "4", 0, 1, 0)], "no lane '4'"),
        ([LaneChanges("2", "3", 0, 4, 0), LaneChanges("2", "3", 4, 6, 1)],
         "space 2-04 already has a lane change into lane 3"),
        ([LaneChanges("1", "2", 4, 6, 0)], "1-05 carries a single straight arrow"),
    ],
)
def test_wrong_lane_changes_say_which_run(changes: list[LaneChanges], message: str) -> None:
    with pytest.raises(BuildError, match=message):
        build_track(stadium_plan(lane_changes=changes))


def swinging_pit(**changes: object) -> PitPlan:
    """A pit lane along the bottom straight that leaves lane 3 touching it, runs three lanes
    out past its box standing between it and the track, and comes back."""
    pit = PitPlan(spaces=7, beside="3", start=16.0, end=23.0, entry=[("3", 15)],
                  exit=[("3", 23)], boxes=[(2, 3)], box_side="inside", box_width=1.5,
                  profile=(1.0, 2.0, 3.0, 3.0, 3.0, 3.0, 2.0, 1.0), enter_boxes_alongside=True)
    return dataclasses.replace(pit, **changes)


def test_a_pit_lane_swings_out_past_boxes_on_its_inside() -> None:
    track = build_track(stadium_plan(pit=swinging_pit()))
    spaces = {s.id: s for s in track.spaces}
    lane3 = Polygon(spaces["3-16"].polygon)
    assert lane3.distance(Polygon(spaces["pit-0"].polygon)) < 0.05 * SPACING
    # pit-3 lies three lane widths from lane 3, the box between them touching the pit lane.
    middle = Polygon(spaces["pit-3"].polygon)
    box = Polygon(spaces["box-1"].polygon)
    nearest = min(Polygon(s.polygon).distance(middle) for s in track.spaces if s.lane == "3")
    assert nearest == pytest.approx(2.0 * SPACING, abs=0.1 * SPACING)
    assert box.distance(middle) < 0.01 * SPACING
    assert min(Polygon(s.polygon).distance(box) for s in track.spaces if s.lane == "3") > 0
    assert {("pit-2", "box-1"), ("pit-3", "box-1"), ("box-1", "pit-4")} <= {
        (link.from_, link.to) for link in track.links}
    # Sound outlines, no overlap, every link between touching spaces (the pit rules want the pit
    # lane across the line, which this one is not).
    shapes = [d for d in validate(track).diagnostics if d.code.startswith("GEOM")]
    assert shapes == []


def test_a_pit_profile_gives_every_boundary_a_distance() -> None:
    with pytest.raises(BuildError, match="give a distance for each of its 8 boundaries, not 3"):
        build_track(stadium_plan(pit=swinging_pit(profile=(1.0, 2.0, 1.0))))
    with pytest.raises(BuildError, match="at least a lane width"):
        build_track(stadium_plan(pit=swinging_pit(profile=(0.5, *[2.0] * 6, 1.0))))
    with pytest.raises(BuildError, match="boxes stand inside or outside"):
        build_track(stadium_plan(pit=swinging_pit(box_side="above")))
