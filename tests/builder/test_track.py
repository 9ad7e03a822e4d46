"""Whole tracks from plans: sound by construction, deterministic, and bad plans explained."""

from __future__ import annotations

import dataclasses

import pytest

from tests.builder.plans import stadium_plan
from trackformat.analysis import measure_corner
from trackformat.builder import BuildError, CornerPlan, LanePlan, PitPlan, build_track
from trackformat.graph import build_graphs
from trackformat.io import dumps_track, loads_track
from trackformat.lint import Severity, validate
from trackformat.model import SpaceKind


def test_a_sound_plan_gives_a_track_the_validator_accepts() -> None:
    track = build_track(stadium_plan())
    report = validate(track)
    assert report.errors == 0, report.to_text()
    warned = {d.code for d in report.diagnostics if d.severity is Severity.WARNING}
    # A four-slot grid is short of a full field; the lanes are staggered like a printed board.
    assert warned <= {"GRID004"}


def test_the_track_has_what_the_plan_says() -> None:
    track = build_track(stadium_plan())
    counts = {lane.id: sum(1 for s in track.spaces if s.lane == lane.id) for lane in track.lanes}
    assert counts == {"1": 48, "2": 44, "3": 40}
    assert [s.id for s in track.spaces[:2]] == ["1-00", "1-01"]
    assert track.finish_line is not None and track.finish_line.spaces == ["1-00", "2-00", "3-00"]
    assert track.grid == ["1-47", "3-38", "1-45", "3-36"]
    east = track.corners[0]
    assert east.id == "east" and east.stops == 2
    assert east.spaces[:2] == ["1-06", "1-07"] and len(east.spaces) == 13 + 11 + 9
    pit = track.pit_lane
    assert pit is not None
    assert pit.spaces == [f"pit-{i}" for i in range(7)]
    assert [(link.from_, link.to) for link in pit.entry] == [("3-35", "pit-0")]
    assert [(link.from_, link.to) for link in pit.exit] == [("pit-6", "3-03")]
    assert pit.boxes == ["box-1"]
    kinds = {s.id: s.kind for s in track.spaces}
    assert kinds["pit-3"] == SpaceKind.PIT and kinds["box-1"] == SpaceKind.BOX
    pairs = {(link.from_, link.to) for link in track.links}
    assert {("pit-2", "box-1"), ("box-1", "pit-4"), ("pit-2", "pit-3")} <= pairs


def test_corner_paths_follow_the_lane_counts_on_a_plain_bend() -> None:
    track = build_track(stadium_plan())
    graphs = build_graphs(track)
    measured = {c.id: measure_corner(graphs, c) for c in track.corners}
    # The shortest is the inside lane's count less a space gained on the way in; the longest
    # the outside lane's count, plus one in the east bend, where lane 1 enters half a space
    # behind lane 2 and may still change onto lane 2's first corner space.
    assert (measured["east"].long, measured["east"].short) == (14, 9)
    assert (measured["west"].long, measured["west"].short) == (13, 8)


def test_building_is_deterministic_and_round_trips() -> None:
    text = dumps_track(build_track(stadium_plan()))
    assert dumps_track(build_track(stadium_plan())) == text
    assert dumps_track(loads_track(text)) == text


def test_two_lane_and_four_lane_roads() -> None:
    for counts in ((46, 42), (50, 47, 44, 41)):
        lanes = [LanePlan(str(k + 1), n, {0: 6.0}) for k, n in enumerate(counts)]
        grid = [("1", counts[0] - 1), (str(len(counts)), counts[-1] - 2)]
        plan = stadium_plan(lanes=lanes, corners=[], single_arrow=[], grid=grid, pit=None)
        track = build_track(plan)
        assert validate(track).errors == 0
        assert len(track.spaces) == sum(counts)


def test_lanes_cut_beside_a_reference_run_in_step_on_straights() -> None:
    plan = stadium_plan()
    lanes = [
        LanePlan("1", 48, follow="2", beside={6: 6, 19: 17, 30: 28, 43: 39}),
        plan.lanes[1],
        LanePlan("3", 40, follow="2", beside={6: 6, 15: 17, 26: 28, 34: 39}),
    ]
    track = build_track(dataclasses.replace(plan, lanes=lanes))
    spaces = {s.id: s for s in track.spaces}
    # In step on the top straight: the spaces beside each other have the same cut lines.
    for index in range(1, 5):
        assert spaces[f"1-{index:02d}"].polygon[-1] == spaces[f"2-{index:02d}"].polygon[0]
    assert validate(track).errors == 0


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"corners": [CornerPlan("c", "C", 1, {"9": (1, 2)})]}, "corner c: no lane '9'"),
        ({"corners": [CornerPlan("c", "C", 1, {"1": (5, 60)})]},
         "corner c: lane 1 has spaces 0..47, not 48"),
        ({"grid": [("3", 40)]}, "grid slot 1: lane 3 has spaces 0..39, not 40"),
        ({"single_arrow": [("4", 1)]}, "single arrow: no lane '4'"),
        ({"lanes": [LanePlan("1", 48, {0: 6.0}), LanePlan("1", 44, {0: 6.0})]},
         "lane ids must be distinct"),
        ({"lanes": [LanePlan("1", 48, {3: 6.0})]}, "lane 1: boundary 0"),
        ({"lanes": [LanePlan("1", 48, follow="7")]}, "lane 1: follows unknown lane '7'"),
        ({"pit": PitPlan(spaces=7, beside="2", start=36, end=3, entry=[("3", 35)],
                         exit=[("3", 3)])}, "pit lane: must run beside the first or last lane"),
        ({"pit": PitPlan(spaces=7, beside="3", start=36, end=3, entry=[("3", 35)],
                         exit=[("3", 3)], boxes=[(5, 6)])}, "box-1: must stand beside"),
        ({"lane_spacing": 0.0}, "lane spacing must be positive"),
    ],
)
def test_bad_plans_say_what_is_wrong(change: dict[str, object], message: str) -> None:
    with pytest.raises(BuildError, match=message):
        build_track(stadium_plan(**change))
