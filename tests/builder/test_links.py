"""The moves the builder writes: the straight rule, single arrows and a designer's overrides."""

from __future__ import annotations

import pytest

from tests.builder.plans import stadium_plan
from trackformat.builder import BuildError, apply_overrides, build_track
from trackformat.model import Track


def moves_from(track: Track, space_id: str) -> set[str]:
    return {link.to for link in track.links if link.from_ == space_id}


@pytest.fixture(scope="module")
def stadium() -> Track:
    return build_track(stadium_plan())


def test_on_a_straight_staggered_lanes_link_ahead_and_half_a_space_ahead(stadium: Track) -> None:
    # Index 2 of every lane lies on the top straight, where lanes 1 and 3 are cut half a space
    # behind lane 2: a lane change lands on the space of the next lane that starts half a space
    # ahead, never level with the next space of the lane.
    assert moves_from(stadium, "1-02") == {"1-03", "2-02"}
    assert moves_from(stadium, "2-02") == {"2-03", "1-03", "3-03"}
    assert moves_from(stadium, "3-02") == {"3-03", "2-02"}


def test_the_last_space_of_a_lane_links_over_the_line(stadium: Track) -> None:
    assert "1-00" in moves_from(stadium, "1-47")
    assert "3-00" in moves_from(stadium, "3-39")


def test_a_single_arrow_allows_straight_ahead_only(stadium: Track) -> None:
    assert moves_from(stadium, "1-05") == {"1-06"}
    assert moves_from(stadium, "3-05") == {"3-06"}


def test_every_lane_change_goes_forward_to_a_touching_space(stadium: Track) -> None:
    from shapely.geometry import Polygon

    from trackformat.geometry import angle_between

    spaces = {s.id: s for s in stadium.spaces}
    for link in stadium.links:
        a, b = spaces[link.from_], spaces[link.to]
        if a.lane == b.lane or a.lane is None or b.lane is None:
            continue
        assert Polygon(a.polygon).distance(Polygon(b.polygon)) < 0.2 * 40
        turn = angle_between(a.heading, b.centre[0] - a.centre[0], b.centre[1] - a.centre[1])
        assert turn < 90


def test_overrides_add_and_remove_arrows() -> None:
    track = build_track(stadium_plan(
        links_removed=[(("1", 2), ("2", 2))],
        links_added=[(("2", 30), ("3", 30))],
    ))
    assert moves_from(track, "1-02") == {"1-03"}
    assert "3-30" in moves_from(track, "2-30")


def test_an_override_of_a_link_that_is_not_there_is_refused() -> None:
    with pytest.raises(BuildError, match="removes the link 1-08 -> 3-09, which is not there"):
        build_track(stadium_plan(links_removed=[(("1", 8), ("3", 9))]))
    with pytest.raises(BuildError, match="adds the link 1-08 -> 1-09, which is already there"):
        build_track(stadium_plan(links_added=[(("1", 8), ("1", 9))]))
    with pytest.raises(BuildError, match=r"lane 2 has spaces 0\.\.43, not 60"):
        build_track(stadium_plan(links_added=[(("1", 8), ("2", 60))]))


def test_apply_overrides_names_unknown_spaces() -> None:
    with pytest.raises(BuildError, match="unknown space 'x'"):
        apply_overrides([("a", "b")], add=[("a", "x")], known={"a", "b"})
    assert apply_overrides([("a", "b")], remove=[("a", "b")], add=[("b", "a")],
                           known={"a", "b"}) == [("b", "a")]
