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


def test_a_pit_lane_shorter_than_the_track_is_a_shortcut() -> None:
    [found] = diagnostics(pit_ends("3-35", "3-6"), "PATH003")
    assert found.severity == Severity.ERROR
    assert found.location.elements == ("3-35", *(f"pit-{i}" for i in range(7)), "3-6")
    assert found.location.pointer == "/pit_lane"
    assert found.message == (
        "through the pit lane, 3-35 to 3-6 takes 8 moves but 11 on the track; the pit lane must "
        "never be a shortcut, so move its entry or exit, or add pit spaces"
    )
    assert diagnostics(RING, "PATH003") == []


def test_a_pit_lane_a_move_or_two_short_is_a_warning() -> None:
    # As on real boards, whose pit lanes run straight beside a track that bends.
    [found] = diagnostics(pit_ends("3-35", "3-4"), "PATH003")
    assert found.severity == Severity.WARNING
    assert found.message.startswith("through the pit lane, 3-35 to 3-4 takes 8 moves but 9 on")


def test_a_pit_lane_beside_a_corner_bypasses_it() -> None:
    [found] = diagnostics(pit_ends("3-6", "3-13"), "PATH003")
    assert found.severity == Severity.WARNING
    assert found.location.elements[0] == "north"
    assert found.location.elements[1] == "3-6" and found.location.elements[-1] == "3-13"
    assert found.message.startswith(
        "the pit lane from 3-6 to 3-13 bypasses corner North (north): every track route"
    )


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
