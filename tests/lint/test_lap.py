"""The lap rules: links go forward by one lane at most, and every lap crosses the line once."""

from __future__ import annotations

from typing import Any

import pytest

from tests.factories import drop_links, edit, ring
from trackformat.graph import build_graphs
from trackformat.lint import Diagnostic, Severity, all_rules, validate
from trackformat.lint.rules.lap import lap_faults
from trackformat.model import Track

CODES = ["LAP001", "LAP002", "LAP003", "LAP004", "LAP005"]
RING = ring()
LINKS = len(RING.links)


def diagnostics(track: Track, code: str) -> list[Diagnostic]:
    return list(validate(track, codes=[code]).diagnostics)


def with_links(*pairs: tuple[str, str]) -> Track:
    def add(doc: dict[str, Any]) -> None:
        doc["links"] += [{"from": a, "to": b} for a, b in pairs]

    return edit(RING, add)


def line(spaces: list[str] | None) -> Track:
    def change(doc: dict[str, Any]) -> None:
        doc["finish_line"] = None if spaces is None else {"spaces": spaces}

    return edit(RING, change)


def test_the_ring_has_no_lap_problem() -> None:
    assert validate(RING, codes=CODES).diagnostics == ()
    faults = lap_faults(build_graphs(RING))
    assert faults.backward == {} and faults.loops == []


@pytest.mark.parametrize("code", CODES)
def test_every_lap_rule_is_documented(code: str) -> None:
    found = {r.code: r for r in all_rules()}[code]
    assert found.topic == "lap"
    assert found.summary and found.explanation and found.example


def test_a_link_back_along_its_lane_is_reported_once() -> None:
    [found] = diagnostics(with_links(("1-5", "1-4")), "LAP001")
    assert found.severity == Severity.ERROR
    assert found.location.elements == ("1-5", "1-4")
    assert found.location.pointer == f"/links/{LINKS}"
    assert found.message == (
        "link 1-5 -> 1-4 goes back along lane 1 and points 176° away from the driving "
        "direction of 1-5; a move goes forward round the lap, so turn the link round or "
        "delete it"
    )
    assert diagnostics(with_links(("1-5", "1-4")), "LAP003") == []


def test_a_link_back_into_another_lane_is_caught_by_its_heading() -> None:
    [found] = diagnostics(with_links(("1-5", "2-3")), "LAP001")
    assert found.location.elements == ("1-5", "2-3")
    assert "away from the driving direction of 1-5" in found.message
    assert "along lane" not in found.message


def test_sideways_links_both_ways_close_a_loop_blamed_on_both() -> None:
    track = with_links(("1-5", "2-5"), ("2-5", "1-5"))
    found = diagnostics(track, "LAP001")
    assert sorted(d.location.elements for d in found) == [("1-5", "2-5"), ("2-5", "1-5")]
    assert "a car can go round 1-5 and 2-5 forever" in found[0].message
    assert diagnostics(track, "LAP003") == []


def test_the_link_onto_the_finish_line_is_not_backward() -> None:
    graphs = build_graphs(RING)
    assert ("1-39", "1-0") in graphs.circuit.edges
    assert ("1-39", "1-0") not in lap_faults(graphs).backward


def test_a_link_across_two_lanes_is_a_lane_jump() -> None:
    [found] = diagnostics(with_links(("1-5", "3-6")), "LAP002")
    assert found.location.elements == ("1-5", "3-6")
    assert found.location.pointer == f"/links/{LINKS}"
    assert found.message == (
        "link 1-5 -> 3-6 changes lane by 2 (lane 1 to lane 3); a move changes lane by at most one"
    )


def test_a_lane_the_finish_line_misses_goes_round_without_crossing_it() -> None:
    track = line(["1-0", "2-0"])
    [found] = diagnostics(track, "LAP003")
    assert "3-5" in found.location.elements and "1-0" not in found.location.elements
    assert found.message.startswith("a car can go round 40 spaces (3-1, 3-2")
    assert found.message.endswith("the finish line has no space in lane 3")
    assert diagnostics(track, "LAP001") == []


def test_a_link_jumping_over_the_line_is_named() -> None:
    track = with_links(("3-39", "3-1"))
    [found] = diagnostics(track, "LAP003")
    assert found.location.elements[0] == "3-1" and "3-39" in found.location.elements
    assert found.message.endswith("link 3-39 -> 3-1 goes round past the line without crossing it")
    assert diagnostics(track, "LAP001") == []


def test_a_missing_finish_line_is_reported() -> None:
    [found] = diagnostics(line(None), "LAP004")
    assert found.message.startswith("the track has no finish line")


def test_the_finish_line_needs_one_space_per_lane() -> None:
    found = diagnostics(line(["1-0", "1-1", "3-0"]), "LAP004")
    assert {d.message for d in found} == {
        "the finish line has no space in lane 2; it needs one space in every lane",
        "the finish line has 2 spaces in lane 1 (1-0 and 1-1); it needs exactly one in each lane",
    }


def test_the_finish_line_is_listed_in_lane_order() -> None:
    found = diagnostics(line(["2-0", "1-0", "3-0"]), "LAP004")
    assert [d.location.pointer for d in sorted(found, key=lambda d: d.location.pointer or "")] == [
        "/finish_line/spaces/0",
        "/finish_line/spaces/1",
    ]
    first = next(d for d in found if d.location.pointer == "/finish_line/spaces/0")
    assert first.location.elements == ("2-0",)
    assert first.message == (
        "the 1st space of the finish line is 2-0, in lane 2, but the 1st lane of /lanes is 1; "
        "list the line's spaces in lane order, left to right"
    )


def test_the_finish_line_is_made_of_track_spaces() -> None:
    found = {d.location.pointer: d for d in diagnostics(line(["1-0", "2-0", "pit-3"]), "LAP004")}
    assert found["/finish_line/spaces/2"].location.elements == ("pit-3",)
    assert found["/finish_line/spaces/2"].message == (
        "the finish line lists pit-3, which is a pit space, not a track space"
    )
    assert found["/finish_line/spaces"].message.startswith(
        "the finish line has no space in lane 3"
    )


def test_crossing_the_line_from_halfway_round_is_reported() -> None:
    [found] = diagnostics(with_links(("1-20", "1-0")), "LAP005")
    assert found.location.elements == ("1-20", "1-0")
    assert found.location.pointer == f"/links/{LINKS}"
    assert found.message == (
        "link 1-20 -> 1-0 crosses the finish line from 1-20, which also leads on to 1-21 and "
        "2-21 without crossing it; the line is crossed only from the spaces right behind it"
    )


def test_a_staggered_line_may_be_crossed_after_a_lane_change_behind_it() -> None:
    # Lane 2 starts half a space ahead of lane 1, as on the Monaco board: from the last space
    # of lane 1 a car may move over to the last space of lane 2 and cross from there.
    assert diagnostics(with_links(("1-39", "2-39")), "LAP005") == []
    assert len(diagnostics(with_links(("1-38", "2-39"), ("1-38", "1-0")), "LAP005")) == 1


def test_a_finish_line_space_no_link_enters_is_reported() -> None:
    track = edit(RING, lambda doc: drop_links(doc, {("1-39", "1-0"), ("2-39", "1-0")}))
    [found] = diagnostics(track, "LAP005")
    assert found.location.elements == ("1-0",)
    assert found.location.pointer == "/finish_line/spaces/0"
    assert "no link enters the finish-line space 1-0 from behind the line" in found.message


def test_a_partial_lane_that_does_not_reach_the_line_is_only_a_note() -> None:
    # Lane 3 runs only from 3-5 to 3-30, as a stretch one lane wider on a real board.
    def partial_lane_3(doc: dict[str, Any]) -> None:
        gone = {f"3-{k}" for k in [*range(0, 5), *range(31, 40)]}
        doc["spaces"] = [s for s in doc["spaces"] if s["id"] not in gone]
        doc["links"] = [
            link for link in doc["links"] if link["from"] not in gone and link["to"] not in gone
        ]
        doc["finish_line"]["spaces"] = ["1-0", "2-0"]

    [found] = diagnostics(edit(RING, partial_lane_3), "LAP004")
    assert found.severity == Severity.INFO
    assert found.message.startswith("the partial lane 3 has no space on the finish line")
