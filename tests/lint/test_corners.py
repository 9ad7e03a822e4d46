"""The corner rules: each one fires on exactly the broken corner of an otherwise sound ring."""

from __future__ import annotations

from typing import Any

import pytest

from tests.factories import drop_links, edit, ring
from trackformat.lint import RULES, Diagnostic, Severity, validate
from trackformat.model import Track

CODES = [f"CORNER00{n}" for n in range(1, 10)]
RING = ring()
RING_CENTRE = {s.id: (s.centre[0], s.centre[1]) for s in RING.spaces}


def diagnostics(track: Track, code: str) -> list[Diagnostic]:
    return list(validate(track, codes=[code]).diagnostics)


def corner(document: dict[str, Any], corner_id: str) -> dict[str, Any]:
    return next(c for c in document["corners"] if c["id"] == corner_id)


def test_the_ring_has_no_corner_problem() -> None:
    assert validate(RING, codes=CODES).diagnostics == ()


@pytest.mark.parametrize("code", CODES)
def test_every_corner_rule_is_documented(code: str) -> None:
    found = RULES[code]
    assert found.topic == "corners"
    assert found.summary and found.explanation and found.example


@pytest.mark.parametrize("stops", [0, 4])
def test_stops_outside_one_to_three_are_refused(stops: int) -> None:
    track = edit(RING, lambda d: corner(d, "south").update(stops=stops))
    [found] = diagnostics(track, "CORNER001")
    assert found.location.elements == ("south",)
    assert found.location.pointer == "/corners/1/stops"
    assert found.location.point is not None
    assert f"{stops} stops" in found.message


def test_three_stops_are_allowed() -> None:
    track = edit(RING, lambda d: corner(d, "south").update(stops=3))
    assert diagnostics(track, "CORNER001") == []


def test_a_space_missing_in_the_middle_of_a_lane_is_a_gap() -> None:
    track = edit(RING, lambda d: corner(d, "north")["spaces"].remove("2-9"))
    [found] = diagnostics(track, "CORNER002")
    assert found.location.elements == ("north", "2-9")
    assert found.location.pointer == "/corners/0/spaces"
    assert "lane 2" in found.message and "2-9" in found.message
    assert found.location.point == RING_CENTRE["2-9"]


def test_a_shorter_run_in_one_lane_is_no_gap() -> None:
    track = edit(RING, lambda d: corner(d, "north")["spaces"].remove("2-8"))
    assert diagnostics(track, "CORNER002") == []


def test_a_corner_over_the_finish_line_is_one_run_in_each_lane() -> None:
    def add_corner(document: dict[str, Any]) -> None:
        spaces = [f"{lane}-{k}" for lane in (1, 2, 3) for k in (38, 39, 0, 1)]
        document["corners"].append({"id": "line", "stops": 1, "spaces": spaces})

    assert diagnostics(edit(RING, add_corner), "CORNER002") == []


def test_a_lane_with_no_space_in_the_corner_is_reported() -> None:
    def drop_lane_3(document: dict[str, Any]) -> None:
        spaces = corner(document, "north")["spaces"]
        spaces[:] = [s for s in spaces if not s.startswith("3-")]

    [found] = diagnostics(edit(RING, drop_lane_3), "CORNER003")
    assert found.severity == Severity.ERROR
    assert found.location.elements == ("north",)
    assert found.location.pointer == "/corners/0/spaces"
    assert "lane 3" in found.message


def test_a_partial_lane_missing_a_corner_is_a_warning() -> None:
    # Lane 3 stops beside lane 2 after 3-30 and starts again at 3-31, as partial lanes of real
    # boards do: that it misses a corner is worth a look, not an error.
    def partial_lane_3(document: dict[str, Any]) -> None:
        drop_links(document, {("3-30", "3-31")})
        spaces = corner(document, "north")["spaces"]
        spaces[:] = [s for s in spaces if not s.startswith("3-")]

    [found] = diagnostics(edit(RING, partial_lane_3), "CORNER003")
    assert found.severity == Severity.WARNING
    assert found.location.elements == ("north", "3-8")
    assert found.message.startswith(
        "corner 'north' (North) has no space in the partial lane 3, which runs beside it (its "
        "space 3-8 is next to the corner's 2-9)")


def test_a_partial_lane_is_only_told_about_the_corners_it_runs_beside() -> None:
    # Lane 3 has no spaces from 3-6 to 3-13, round North: a partial lane that widens the track
    # elsewhere, as Indianapolis's fourth lane does along its main straight. It need not pass
    # North; it does run beside South, which it must pass.
    gone = {f"3-{k}" for k in range(6, 14)}

    def lane_3_stops_short_of_north(document: dict[str, Any]) -> None:
        document["spaces"] = [s for s in document["spaces"] if s["id"] not in gone]
        document["links"] = [link for link in document["links"]
                             if link["from"] not in gone and link["to"] not in gone]
        corner(document, "north")["spaces"] = [
            s for s in corner(document, "north")["spaces"] if s not in gone]
        corner(document, "south")["spaces"] = [
            s for s in corner(document, "south")["spaces"] if not s.startswith("3-")]

    [found] = diagnostics(edit(RING, lane_3_stops_short_of_north), "CORNER003")
    assert found.severity == Severity.WARNING
    assert found.location.elements[0] == "south"
    assert "has no space in the partial lane 3, which runs beside it" in found.message


def test_a_space_in_two_corners_is_an_error() -> None:
    track = edit(RING, lambda d: corner(d, "south")["spaces"].append("1-11"))
    [found] = diagnostics(track, "CORNER004")
    assert found.severity == Severity.ERROR
    assert found.location.elements == ("north", "south", "1-11")
    assert found.location.pointer == "/corners/1/spaces/15"


def test_a_space_listed_twice_in_one_corner_is_a_warning() -> None:
    track = edit(RING, lambda d: corner(d, "north")["spaces"].append("2-9"))
    [found] = diagnostics(track, "CORNER004")
    assert found.severity == Severity.WARNING
    assert found.location.elements == ("north", "2-9")
    assert found.location.pointer == "/corners/0/spaces/12"


def test_a_wrong_printed_long_shows_both_numbers_and_the_route() -> None:
    track = edit(RING, lambda d: corner(d, "north").update(printed_long=5))
    [found] = diagnostics(track, "CORNER005")
    assert found.location.elements[0] == "north"
    assert found.location.pointer == "/corners/0/printed_long"
    assert "5" in found.message and "give 4" in found.message
    assert "3-8 → 3-9 → 3-10 → 3-11" in found.message


def test_a_wrong_printed_short_is_reported_on_its_own_field() -> None:
    track = edit(RING, lambda d: corner(d, "south").update(printed_short=3))
    assert diagnostics(track, "CORNER005") == []
    [found] = diagnostics(track, "CORNER006")
    assert found.location.pointer == "/corners/1/printed_short"
    assert "give 5" in found.message


def test_absent_printed_numbers_are_a_note_with_the_computed_values() -> None:
    track = edit(RING, lambda d: corner(d, "north").update(printed_long=None, printed_short=None))
    [found] = diagnostics(track, "CORNER007")
    assert found.severity == Severity.INFO
    assert found.location.pointer == "/corners/0"
    assert "printed_long to 4" in found.message and "printed_short to 4" in found.message
    assert diagnostics(track, "CORNER005") == [] and diagnostics(track, "CORNER006") == []


def test_a_corner_cut_in_two_has_no_way_through() -> None:
    cut = {(f"{lane}-10", f"{other}-11") for lane in (1, 2, 3) for other in (1, 2, 3)}
    track = edit(RING, lambda d: drop_links(d, cut))
    [found] = diagnostics(track, "CORNER008")
    assert found.location.elements == ("north",)
    assert found.location.pointer == "/corners/0"
    assert "no chain of links" in found.message
    # With no way through there are no numbers to compare the printed ones with.
    assert diagnostics(track, "CORNER005") == []


def test_an_empty_corner_has_no_way_through() -> None:
    track = edit(RING, lambda d: corner(d, "south").update(spaces=[]))
    [found] = diagnostics(track, "CORNER008")
    assert found.location.pointer == "/corners/1"
    assert "no track space" in found.message
    assert diagnostics(track, "CORNER003") == []


def test_a_pit_space_in_a_corner_is_reported() -> None:
    track = edit(RING, lambda d: corner(d, "north")["spaces"].append("pit-2"))
    [found] = diagnostics(track, "CORNER009")
    assert found.location.elements == ("north", "pit-2")
    assert found.location.pointer == "/corners/0/spaces/12"


def test_unknown_space_ids_are_left_to_the_reference_rules() -> None:
    track = edit(RING, lambda d: corner(d, "north")["spaces"].extend(["nowhere", "nowhere"]))
    assert validate(track, codes=CODES).diagnostics == ()



def test_a_lap_with_no_corner_is_said() -> None:
    bare = edit(RING, lambda d: d.update(corners=[]))
    [found] = diagnostics(bare, "CORNER010")
    assert found.severity == Severity.WARNING and "the lap has no corner" in found.message
    assert found.location.pointer == "/corners"
    assert diagnostics(RING, "CORNER010") == []  # a lap with corners
    unfinished = edit(RING, lambda d: d.update(corners=[], finish_line=None))
    assert diagnostics(unfinished, "CORNER010") == []  # no lap yet: LAP004 speaks first
