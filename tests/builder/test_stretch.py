"""An open stretch of lanes (the editor's lane tool): cut by a space length, staggered, joined,
closing the lap on the start of the lanes, and refusing to fold on a bend too tight."""

from __future__ import annotations

import math

import pytest

from trackformat.builder import BuildError, Road
from trackformat.builder.joins import back_cut, front_cut, join_links, lanes_entered
from trackformat.builder.stretch import StretchEnd, StretchStart, build_stretch
from trackformat.model import Space

STRAIGHT = [(100.0, 300.0), (900.0, 300.0)]


def test_a_space_length_cuts_each_lane_into_spaces_of_about_that_length() -> None:
    stretch = build_stretch(STRAIGHT, ["1", "2"], 40.0, None, space_length=100.0)
    assert stretch.counts == [8, 8]
    assert stretch.space_lengths == pytest.approx((100.0, 100.0))


def test_a_staggered_lane_starts_and_ends_its_stagger_further_on() -> None:
    stretch = build_stretch(STRAIGHT, ["1", "2"], 40.0, [8, 8], stagger=[0.0, 0.25])
    first, second = stretch.lanes
    assert first[0].centre[0] == pytest.approx(150.0)
    assert second[0].centre[0] == pytest.approx(175.0)
    assert max(x for x, _ in second[-1].polygon) == pytest.approx(925.0)


def test_a_joined_stretch_starts_on_the_earlier_lanes_end_cut() -> None:
    # The earlier lanes end square across x = 500, heading right; lane 2 a quarter space on.
    start = StretchStart((500.0, 300.0), (1.0, 0.0), {0: 0.0, 1: 25.0})
    stretch = build_stretch([(480.0, 310.0), (600.0, 380.0), (650.0, 500.0)], ["1", "2"], 40.0,
                            [4, 4], start=start)
    first, second = stretch.lanes
    assert sorted(first[0].polygon)[:2] == [(500.0, 260.0), (500.0, 300.0)]
    assert sorted(second[0].polygon)[:2] == [(525.0, 300.0), (525.0, 340.0)]
    assert math.dist(first[0].centre, (500.0, 280.0)) < 40.0


@pytest.mark.parametrize("stagger", [[0.0, 0.0], [0.0, 0.5]])
def test_a_closing_stretch_ends_each_lane_on_its_start_cut(stagger: list[float]) -> None:
    # The lanes start square across x = 900, heading right, the second lane 30 px on (staggered
    # by half of their 60 px spaces); the stretch comes at them round a bend from below.
    end = StretchEnd((900.0, 300.0), (1.0, 0.0), {0: 0.0, 1: 30.0})
    line = [(500.0, 600.0), (650.0, 400.0), (800.0, 310.0), (902.0, 299.0)]
    stretch = build_stretch(line, ["1", "2"], 40.0, [7, 7], stagger=stagger, end=end)
    first, second = stretch.lanes
    # Each lane's last space ends exactly on its lane's start cut: a whole number of spaces is
    # fitted in, however long the road the clicks gave.
    assert sorted(first[-1].polygon)[-2:] == [(900.0, 260.0), (900.0, 300.0)]
    assert sorted(second[-1].polygon)[-2:] == [(930.0, 300.0), (930.0, 340.0)]
    assert stretch.counts == [7, 7] and not stretch.folds()
    # Across the join, the moves of the straight rule: straight on, and the lane ahead (the
    # second, staggered) across onto the first lane's first space.
    ahead = {
        0: _space("1-000", [(900, 260), (960, 260), (960, 300), (900, 300)]),
        1: _space("2-000", [(930, 300), (990, 300), (990, 340), (930, 340)]),
    }
    assert front_cut(first[-1]) == ((900.0, 260.0), (900.0, 300.0))
    assert back_cut(ahead[0]) == ((900.0, 260.0), (900.0, 300.0))
    entered = lanes_entered(stretch.spaces, stretch.links)
    moves = {(k.from_, k.to) for k in join_links(
        {0: first[-1], 1: second[-1]}, ahead, entered, 40.0)}
    assert {(first[-1].id, "1-000"), (second[-1].id, "2-000")} <= moves
    assert (second[-1].id, "1-000") in moves
    assert (first[-1].id, "2-000") not in moves


def _space(space_id: str, polygon: list[tuple[float, float]]) -> Space:
    xs, ys = [x for x, _ in polygon], [y for _, y in polygon]
    return Space(id=space_id, lane=space_id[0], polygon=[(float(x), float(y)) for x, y in polygon],
                 centre=(sum(xs) / 4, sum(ys) / 4), heading=0.0)


def test_the_inside_edge_of_a_bend_tighter_than_the_road_runs_backwards() -> None:
    # A quarter turn of radius 50 px: a line 60 px inside it runs backwards, one 40 px does not.
    arc = [(500 + 50 * math.sin(a / 20 * math.pi / 2), 250 + 50 * math.cos(a / 20 * math.pi / 2))
           for a in range(21)]
    road = Road(arc, closed=False)
    assert not road.folds(-40.0) and not road.folds(40.0) and not road.folds(60.0)
    assert road.folds(-60.0)


def test_a_stretch_round_a_bend_too_tight_for_its_lanes_says_which_spaces_fold() -> None:
    sharp = [(100.0, 300.0), (500.0, 300.0), (505.0, 305.0), (505.0, 700.0)]
    stretch = build_stretch(sharp, ["1", "2", "3"], 40.0, [10, 10, 10])
    folds = stretch.folds()
    assert folds and {s.lane for s in folds} <= {"2", "3"}
    assert not build_stretch(STRAIGHT, ["1", "2", "3"], 40.0, [10, 10, 10]).folds()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"space_length": 0.0}, "a space length must be positive"),
        ({"stagger": [0.5]}, "give a stagger for every one of the 2 lanes"),
        ({"stagger": [0.0, 1.0]}, "from 0 to under 1"),
    ],
)
def test_bad_stretches_say_what_is_wrong(change: dict[str, object], message: str) -> None:
    with pytest.raises(BuildError, match=message):
        build_stretch(STRAIGHT, ["1", "2"], 40.0, [8, 8], **change)  # type: ignore[arg-type]
