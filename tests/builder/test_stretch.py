"""An open stretch of lanes (the editor's lane tool): cut by a space length, staggered, joined."""

from __future__ import annotations

import math

import pytest

from trackformat.builder import BuildError
from trackformat.builder.stretch import StretchStart, build_stretch

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
