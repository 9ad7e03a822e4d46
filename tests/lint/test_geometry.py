"""The geometry rules: each one fires on exactly the misdrawn space of an otherwise sound ring."""

from __future__ import annotations

from typing import Any

import pytest
from shapely.geometry import Point, Polygon

from tests.factories import edit, ring, space
from trackformat.lint import RULES, Diagnostic, Severity, validate
from trackformat.model import Track

CODES = [f"GEOM00{n}" for n in range(1, 7)]
RING = ring()
POSITION = {s.id: n for n, s in enumerate(RING.spaces)}


def diagnostics(track: Track, code: str) -> list[Diagnostic]:
    return list(validate(track, codes=[code]).diagnostics)


def test_the_ring_has_no_geometry_problem() -> None:
    assert validate(RING, codes=CODES).diagnostics == ()


@pytest.mark.parametrize("code", CODES)
def test_every_geometry_rule_is_documented(code: str) -> None:
    found = RULES[code]
    assert found.topic == "geometry"
    assert found.summary and found.explanation and found.example


def test_a_crossed_outline_names_the_crossing_point() -> None:
    def cross(document: dict[str, Any]) -> None:
        outline = space(document, "1-5")["polygon"]
        outline[1], outline[2] = outline[2], outline[1]

    track = edit(RING, cross)
    [found] = diagnostics(track, "GEOM001")
    assert found.location.elements == ("1-5",)
    assert found.location.pointer == f"/spaces/{POSITION['1-5']}/polygon"
    assert "self-intersection" in found.message
    assert found.location.point is not None
    drawn = Polygon(next(s.polygon for s in RING.spaces if s.id == "1-5"))
    assert drawn.buffer(1.0).contains(Point(found.location.point))


def test_an_outline_with_no_area_is_invalid() -> None:
    track = edit(RING, lambda d: space(d, "2-7").update(polygon=[[10, 10], [20, 20], [30, 30]]))
    [found] = diagnostics(track, "GEOM001")
    assert found.location.elements == ("2-7",)
    assert "encloses 0 square pixels" in found.message
    # The centre is far from a shape with no inside: that is this rule's report, not a second.
    assert diagnostics(track, "GEOM006") == []


def test_a_space_drawn_over_another_is_an_overlap() -> None:
    outline = next(s.polygon for s in RING.spaces if s.id == "1-5")
    track = edit(RING, lambda d: space(d, "1-6").update(polygon=[list(p) for p in outline]))
    [found] = diagnostics(track, "GEOM002")
    assert found.location.elements == ("1-5", "1-6")
    assert found.location.pointer == f"/spaces/{POSITION['1-6']}"
    assert "100%" in found.message
    assert found.location.point is not None
    assert Polygon(outline).contains(Point(found.location.point))


def test_a_box_drawn_over_a_pit_space_is_an_overlap() -> None:
    outline = next(s.polygon for s in RING.spaces if s.id == "pit-2")
    track = edit(RING, lambda d: space(d, "box-1").update(polygon=[list(p) for p in outline]))
    [found] = diagnostics(track, "GEOM002")
    assert found.location.elements == ("pit-2", "box-1")


def test_outlines_that_meet_roughly_do_not_overlap() -> None:
    def nudge(document: dict[str, Any]) -> None:
        # Push one corner of 1-6 half a pixel into 1-5: a sliver, as drawn by hand.
        outline = space(document, "1-6")["polygon"]
        outline[0] = [outline[0][0] + 0.5, outline[0][1] - 0.5]

    assert diagnostics(edit(RING, nudge), "GEOM002") == []


def test_a_link_between_distant_spaces_says_the_gap() -> None:
    track = edit(RING, lambda d: d["links"].append({"from": "1-5", "to": "1-9"}))
    [found] = diagnostics(track, "GEOM003")
    assert found.severity == Severity.WARNING
    assert found.location.elements == ("1-5", "1-9")
    assert found.location.pointer == f"/links/{len(RING.links)}"
    assert "px apart" in found.message


def test_links_to_the_next_lane_touch_at_a_corner() -> None:
    # The ring's lane changes join spaces that meet at one point only: that is touching.
    assert any(link.from_ == "1-5" and link.to == "2-6" for link in RING.links)
    assert diagnostics(RING, "GEOM003") == []


def test_a_pit_exit_landing_far_away_is_reported_on_the_pit_lane() -> None:
    track = edit(RING, lambda d: d["pit_lane"]["exit"][0].update(to="3-20"))
    [found] = diagnostics(track, "GEOM003")
    assert found.location.elements == ("pit-6", "3-20")
    assert found.location.pointer == "/pit_lane/exit/0"


def test_spaces_beyond_the_board_are_reported() -> None:
    track = edit(RING, lambda d: d["board"].update(width=1000))
    found = diagnostics(track, "GEOM004")
    by_space = {d.location.elements[0]: d for d in found}
    assert "1-0" in by_space and "1-20" not in by_space
    assert by_space["1-0"].location.pointer == "/spaces/0/polygon"
    assert "right edge" in by_space["1-0"].message


def test_a_space_reaching_the_board_edge_is_on_the_board() -> None:
    # The outermost lane reaches x = 1100 exactly.
    track = edit(RING, lambda d: d["board"].update(width=1100))
    assert diagnostics(track, "GEOM004") == []


def test_a_heading_against_the_links_is_reported_with_the_successors() -> None:
    def turn(document: dict[str, Any]) -> None:
        space(document, "1-5")["heading"] += 180.0

    [found] = diagnostics(edit(RING, turn), "GEOM005")
    assert found.location.elements == ("1-5", "1-6", "2-6")
    assert found.location.pointer == f"/spaces/{POSITION['1-5']}/heading"


def test_a_heading_a_little_off_is_accepted() -> None:
    def turn(document: dict[str, Any]) -> None:
        space(document, "1-5")["heading"] += 60.0

    assert diagnostics(edit(RING, turn), "GEOM005") == []


def test_a_box_may_stand_at_any_angle() -> None:
    def turn(document: dict[str, Any]) -> None:
        space(document, "box-1")["heading"] += 180.0

    assert diagnostics(edit(RING, turn), "GEOM005") == []


def test_a_car_may_pull_into_its_box_from_beside_it() -> None:
    # box-1 stands beside pit-2: a link from there into the box points sideways, not ahead.
    track = edit(RING, lambda d: d["links"].append({"from": "pit-2", "to": "box-1"}))
    assert diagnostics(track, "GEOM005") == []


def test_a_car_may_turn_sideways_into_the_pit_lane() -> None:
    # The ring's pit lane starts beside 3-36, entered from 3-35: an entry from 3-36 is sideways.
    track = edit(RING, lambda d: d["pit_lane"]["entry"].append({"from": "3-36", "to": "pit-0"}))
    assert diagnostics(track, "GEOM005") == []


def test_a_centre_outside_the_outline_is_reported() -> None:
    track = edit(RING, lambda d: space(d, "3-12").update(centre=[0.0, 0.0]))
    [found] = diagnostics(track, "GEOM006")
    assert found.location.elements == ("3-12",)
    assert found.location.pointer == f"/spaces/{POSITION['3-12']}/centre"
    assert found.location.point == (0.0, 0.0)


def _pasted(document: dict[str, Any], source: str, copies: int, shift: float = 0.0) -> None:
    """``copies`` more spaces with the outline of ``source``, each ``shift`` px further right."""
    original = space(document, source)
    for n in range(1, copies + 1):
        copy = dict(original, id=f"copy-{n}")
        copy["polygon"] = [[x + n * shift, y] for x, y in original["polygon"]]
        document["spaces"].append(copy)


def test_a_space_pasted_many_times_is_one_report_with_a_count() -> None:
    track = edit(RING, lambda d: _pasted(d, "2-7", 300))
    [found] = diagnostics(track, "GEOM002")
    assert found.message.startswith("301 spaces overlap one another (2-7, copy-1, copy-2,")
    assert "45,150 overlapping pairs" in found.message  # 301 x 300 / 2
    assert found.location.elements == ("2-7", *(f"copy-{n}" for n in range(1, 301)))
    # The first copy, listed after every space of the ring.
    assert found.location.pointer == f"/spaces/{len(RING.spaces)}"


def test_spaces_overlapping_in_a_chain_are_one_report() -> None:
    track = edit(RING, lambda d: _pasted(d, "2-7", 3, shift=0.3))
    [found] = diagnostics(track, "GEOM002")
    assert found.location.elements == ("2-7", "copy-1", "copy-2", "copy-3")
    assert "4 spaces overlap one another" in found.message


def test_after_fifty_overlaps_the_rest_are_counted() -> None:
    def pile_everywhere(document: dict[str, Any]) -> None:
        for n, original in enumerate(list(document["spaces"])[:60]):
            document["spaces"].append(dict(original, id=f"twin-{n}"))

    found = diagnostics(edit(RING, pile_everywhere), "GEOM002")
    assert len(found) == 51
    assert sum("overlap by" in d.message for d in found) == 50
    assert any(d.message.startswith("... and 10 more groups of overlapping spaces (20 spaces)")
               for d in found)


def test_a_pile_too_big_to_check_says_the_check_stopped(monkeypatch: pytest.MonkeyPatch) -> None:
    from trackformat.lint.rules import overlaps

    monkeypatch.setattr(overlaps, "MAX_CANDIDATES", 1000)
    # Shifted copies are not identical: every pair has to be looked at.
    track = edit(RING, lambda d: _pasted(d, "2-7", 100, shift=0.01))
    found = diagnostics(track, "GEOM002")
    stopped = [d for d in found if "overlap check stopped after 1,000 pairs" in d.message]
    assert len(stopped) == 1 and stopped[0].severity == Severity.ERROR
    [pile] = [d for d in found if "spaces overlap one another" in d.message]
    assert "at least" in pile.message


def test_a_gap_just_over_the_limit_reads_as_more_than_the_limit() -> None:
    # A traced draft's outlines stand apart by about the printed line's width: 4.94 px against
    # a limit of 4.91 read "5 px apart (more than 5 px)".
    from shapely import affinity

    from trackformat.graph import build_graphs

    limit = 0.15 * build_graphs(RING).shapes.scale
    near = Polygon(next(s.polygon for s in RING.spaces if s.id == "1-5"))
    outline = Polygon(next(s.polygon for s in RING.spaces if s.id == "1-6"))
    low, high = 0.5, 1.0  # shrink 1-6 about its middle until it stands just over the limit off
    for _ in range(60):
        middle = (low + high) / 2
        gap = near.distance(affinity.scale(outline, middle, middle))
        low, high = (low, middle) if gap < limit + 0.02 else (middle, high)
    shrunk = affinity.scale(outline, low, low)

    def shrink(document: dict[str, Any]) -> None:
        space(document, "1-6")["polygon"] = [list(p) for p in shrunk.exterior.coords[:-1]]

    [found] = [d for d in diagnostics(edit(RING, shrink), "GEOM003")
               if d.location.elements == ("1-5", "1-6")]
    apart, limit_text = found.message.split(" px apart (more than ")
    assert float(apart.rsplit(" ", 1)[1]) > float(limit_text.split(" px")[0])
