"""The shortest-path rules: a lap exists, passes every corner, and the pit lane is no shortcut."""

from __future__ import annotations

from typing import Any

import pytest

from tests.factories import drop_links, edit, ring
from trackformat.lint import Diagnostic, Severity, all_rules, validate
from trackformat.model import Track

CODES = ["PATH001", "PATH002", "PATH003", "PATH004"]
RING = ring()
NORTH = set(RING.corners[0].spaces)
FINISH = set(RING.finish_line.spaces) if RING.finish_line else set()


def diagnostics(track: Track, code: str) -> list[Diagnostic]:
    return list(validate(track, codes=[code]).diagnostics)


def with_links(*pairs: tuple[str, str]) -> Track:
    def add(doc: dict[str, Any]) -> None:
        doc["links"] += [{"from": a, "to": b} for a, b in pairs]

    return edit(RING, add)


def pit_ends(entry_from: str, exit_to: str) -> Track:
    def move(doc: dict[str, Any]) -> None:
        doc["pit_lane"]["entry"][0]["from"] = entry_from
        doc["pit_lane"]["exit"][0]["to"] = exit_to

    return edit(RING, move)


def test_the_ring_has_a_sound_lap_and_only_a_note_about_it() -> None:
    report = validate(RING, codes=CODES)
    assert [d.code for d in report.diagnostics] == ["PATH004"]
    [note] = report.diagnostics
    assert note.severity == Severity.INFO
    assert note.message.startswith("the shortest lap takes 40 moves, from ")
    route = note.location.elements
    assert len(route) == 41
    assert route[0] in FINISH and route[-1] in FINISH
    assert note.location.pointer == "/finish_line"


@pytest.mark.parametrize("code", CODES)
def test_every_shortest_path_rule_is_documented(code: str) -> None:
    found = {r.code: r for r in all_rules()}[code]
    assert found.topic == "shortest-path"
    assert found.summary and found.explanation and found.example


def test_no_way_back_onto_the_line_means_no_lap() -> None:
    onto_line = {
        (f"{a}-39", f"{b}-0") for a in range(1, 4) for b in range(1, 4) if abs(a - b) <= 1
    }
    [found] = diagnostics(edit(RING, lambda doc: drop_links(doc, onto_line)), "PATH001")
    assert found.location.elements == ("1-0", "2-0", "3-0")
    assert found.message.startswith(
        "no lap can be completed: no route of links leads from the finish line round to it"
    )
    assert diagnostics(RING, "PATH001") == []


def test_a_link_round_a_corner_lets_a_lap_bypass_it() -> None:
    [found] = diagnostics(with_links(("3-6", "3-13")), "PATH002")
    corner, *route = found.location.elements
    assert corner == "north"
    assert {"3-6", "3-13"} <= set(route) and not NORTH & set(route)
    assert found.location.pointer == "/corners/0"
    assert found.message.startswith(f"a lap of {len(route) - 1} moves avoids corner North (north)")


def test_a_corner_missing_a_lane_is_bypassed_in_that_lane() -> None:
    def shrink(doc: dict[str, Any]) -> None:
        doc["corners"][1]["spaces"] = [s for s in doc["corners"][1]["spaces"] if s[0] != "3"]

    [found] = diagnostics(edit(RING, shrink), "PATH002")
    assert found.location.elements[0] == "south"
    assert "3-24" in found.location.elements
    assert diagnostics(RING, "PATH002") == []


def no_place_to_stop(document: dict[str, Any]) -> None:
    """The ring's pit lane without its two boxes: a lane a car could drive through."""
    boxes = set(document["pit_lane"]["boxes"])
    document["spaces"] = [s for s in document["spaces"] if s["id"] not in boxes]
    document["links"] = [link for link in document["links"]
                         if link["from"] not in boxes and link["to"] not in boxes]
    document["pit_lane"]["boxes"] = []


def garages_instead_of_boxes(document: dict[str, Any]) -> None:
    """The ring's teams stop in line in the pit lane, as on GP Online's boards."""
    no_place_to_stop(document)
    document["pit_lane"]["garages"] = ["pit-2", "pit-3", "pit-4"]


def test_a_pit_lane_that_saves_moves_even_with_its_stop_is_a_shortcut() -> None:
    [found] = diagnostics(pit_ends("3-35", "3-6"), "PATH003")
    assert found.severity == Severity.ERROR
    # The route passes the first box, where a car that turns in must end its move.
    assert found.location.elements == (
        "3-35", "pit-0", "pit-1", "box-1", "pit-3", "pit-4", "pit-5", "pit-6", "3-6")
    assert found.location.pointer == "/pit_lane"
    assert found.message == (
        "through the pit lane, 3-35 to 3-6 takes 8 moves but 11 on the track, stopping at "
        "box-1: a car whose move ends there gains up to 3 moves on one that drove on; the pit "
        "lane must never be a shortcut, so move its entry or exit, or add pit spaces"
    )
    assert diagnostics(RING, "PATH003") == []


@pytest.mark.parametrize("places", [None, garages_instead_of_boxes], ids=["boxes", "garages"])
def test_a_pit_lane_a_move_short_with_a_place_to_stop_is_no_shortcut(places: Any) -> None:
    # As on every real GP Online board: the lane runs straight where the track bends, and a car
    # that turns in must stop at its box or garage, which ends its move.
    track = pit_ends("3-35", "3-4")
    track = edit(track, places) if places else track
    assert diagnostics(track, "PATH003") == []


def test_a_pit_lane_a_move_short_with_no_place_to_stop_is_a_warning() -> None:
    # Nothing to stop at: a car could drive through the lane like the track.
    [found] = diagnostics(edit(pit_ends("3-35", "3-4"), no_place_to_stop), "PATH003")
    assert found.severity == Severity.WARNING
    assert found.message.startswith(
        "through the pit lane, 3-35 to 3-4 takes 8 moves but 9 on the track, and it has no "
        "place to stop (no box beside it, no garage in it), so a car can drive through it")
    [found] = diagnostics(edit(pit_ends("3-35", "3-6"), no_place_to_stop), "PATH003")
    assert found.severity == Severity.ERROR


def north_stops(stops: int) -> Any:
    def change(document: dict[str, Any]) -> None:
        document["corners"][0]["stops"] = stops

    return change


def test_a_pit_lane_beside_a_one_stop_corner_with_a_place_to_stop_skips_nothing() -> None:
    # The stop at the box ends a move in the lane, as the one-stop corner North demands.
    assert diagnostics(pit_ends("3-6", "3-13"), "PATH003") == []


def test_a_pit_lane_that_saves_a_corner_stops_bypasses_it() -> None:
    [found] = diagnostics(edit(pit_ends("3-6", "3-13"), north_stops(3)), "PATH003")
    assert found.severity == Severity.WARNING
    assert found.location.elements[0] == "north"
    assert found.location.elements[1] == "3-6" and found.location.elements[-1] == "3-13"
    assert found.message.startswith(
        "the pit lane from 3-6 to 3-13 bypasses corner North (north): every track route"
    )
    assert "its 3 stops are more than the one a car makes at its place in the lane (2 stops " \
        "saved)" in found.message
    [found] = diagnostics(edit(pit_ends("3-6", "3-13"), no_place_to_stop), "PATH003")
    assert found.location.elements[0] == "north"
    assert "no place to stop, so a car skips the corner's stops" in found.message


def test_a_lap_cut_short_is_a_warning() -> None:
    [found] = diagnostics(with_links(("1-20", "1-0")), "PATH004")
    assert found.severity == Severity.WARNING
    assert found.location.elements[-2:] == ("1-20", "1-0")
    assert found.message.startswith("the shortest lap takes only 21 moves")
    assert "fewer than any lane driven alone (40 spaces)" in found.message


def test_a_long_lap_is_only_a_note() -> None:
    [found] = diagnostics(ring(per_lane=64), "PATH004")
    assert found.severity == Severity.INFO
    assert found.message.startswith("the shortest lap takes 64 moves")
