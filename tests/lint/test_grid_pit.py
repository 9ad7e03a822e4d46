"""The grid and pit-lane rules: each fires on exactly the broken part of an otherwise sound ring."""

from __future__ import annotations

from typing import Any

import pytest

from tests.factories import edit, ring, space
from trackformat.lint import RULES, Diagnostic, Severity, validate
from trackformat.model import Track

CODES = ["GRID001", "GRID002", "GRID003", "GRID004", "PIT001", "PIT002", "PIT003", "PIT004",
         "PIT005"]
RING = ring()
POSITION = {s.id: n for n, s in enumerate(RING.spaces)}


def diagnostics(track: Track, code: str) -> list[Diagnostic]:
    return list(validate(track, codes=[code]).diagnostics)


def test_the_ring_has_no_grid_or_pit_problem() -> None:
    assert validate(RING, codes=CODES).diagnostics == ()


@pytest.mark.parametrize("code", CODES)
def test_every_grid_and_pit_rule_is_documented(code: str) -> None:
    found = RULES[code]
    assert found.topic == "grid-pit"
    assert found.summary and found.explanation and found.example


def set_slot(position: int, slot: str) -> Any:
    def change(document: dict[str, Any]) -> None:
        document["grid"][position] = slot

    return change


def test_a_pit_space_as_grid_slot_is_refused() -> None:
    [found] = diagnostics(edit(RING, set_slot(3, "pit-2")), "GRID001")
    assert found.location.elements == ("pit-2",)
    assert found.location.pointer == "/grid/3"


def test_a_slot_used_twice_is_reported_at_its_second_use() -> None:
    [found] = diagnostics(edit(RING, set_slot(4, RING.grid[0])), "GRID001")
    assert found.location.elements == (RING.grid[0],)
    assert found.location.pointer == "/grid/4"
    assert "slot 1" in found.message


def test_an_unknown_slot_is_left_to_the_reference_rules() -> None:
    track = edit(RING, set_slot(3, "nowhere"))
    assert validate(track, codes=CODES).diagnostics == ()


def test_a_slot_far_from_the_line_is_not_behind_it() -> None:
    track = edit(RING, lambda d: d["grid"].append("1-15"))
    [found] = diagnostics(track, "GRID002")
    assert found.location.elements == ("1-15",)
    assert found.location.pointer == "/grid/10"
    assert "25 moves" in found.message


def test_a_slot_on_the_finish_line_is_past_it() -> None:
    track = edit(RING, set_slot(0, "2-0"))
    [found] = diagnostics(track, "GRID002")
    assert found.location.pointer == "/grid/0"
    assert "past the finish line" in found.message


def test_a_pole_behind_slot_two_breaks_the_order() -> None:
    def swap(document: dict[str, Any]) -> None:
        grid = document["grid"]
        grid[0], grid[1] = grid[1], grid[0]

    [found] = diagnostics(edit(RING, swap), "GRID003")
    assert found.location.elements == (RING.grid[0], RING.grid[1])
    assert found.location.pointer == "/grid/1"
    assert "the pole" in found.message


def test_slots_side_by_side_keep_the_order() -> None:
    # 2-39 is as near the line as the pole 1-39.
    assert diagnostics(edit(RING, set_slot(1, "2-39")), "GRID003") == []


def test_a_short_grid_is_a_warning() -> None:
    track = edit(RING, lambda d: d.update(grid=d["grid"][:6]))
    [found] = diagnostics(track, "GRID004")
    assert found.severity == Severity.WARNING
    assert found.location.pointer == "/grid"
    assert "6 slots" in found.message


def test_no_grid_is_an_error() -> None:
    [found] = diagnostics(edit(RING, lambda d: d.update(grid=[])), "GRID004")
    assert found.severity == Severity.ERROR


def test_a_pit_space_listed_as_a_box_is_refused() -> None:
    track = edit(RING, lambda d: d["pit_lane"]["boxes"].append("pit-5"))
    [found] = diagnostics(track, "PIT001")
    assert found.location.elements == ("pit-5",)
    assert found.location.pointer == "/pit_lane/boxes/2"


def test_a_box_listed_twice_is_reported_at_its_second_mention() -> None:
    track = edit(RING, lambda d: d["pit_lane"]["boxes"].append("box-1"))
    [found] = diagnostics(track, "PIT001")
    assert found.severity == Severity.ERROR
    assert found.location.elements == ("box-1",)
    assert found.location.pointer == "/pit_lane/boxes/2"
    assert "box 3 is box-1, already box 1" in found.message


def test_a_box_away_from_the_pit_lane_is_refused() -> None:
    def move(document: dict[str, Any]) -> None:
        space(document, "box-2").update(
            polygon=[[580, 580], [620, 580], [620, 620], [580, 620]], centre=[600, 600]
        )

    [found] = diagnostics(edit(RING, move), "PIT001")
    assert found.location.elements == ("box-2",)
    assert found.location.pointer == "/pit_lane/boxes/1"
    assert "does not touch" in found.message


def test_an_unlisted_box_space_is_a_warning() -> None:
    track = edit(RING, lambda d: d["pit_lane"]["boxes"].remove("box-2"))
    [found] = diagnostics(track, "PIT001")
    assert found.severity == Severity.WARNING
    assert found.location.elements == ("box-2",)
    assert found.location.pointer == f"/spaces/{POSITION['box-2']}"


def test_garages_in_line_in_the_pit_lane_are_sound() -> None:
    track = edit(RING, lambda d: d["pit_lane"]["garages"].extend(["pit-2", "pit-3"]))
    assert validate(track, codes=CODES).diagnostics == ()


def test_a_garage_off_the_pit_lane_is_refused() -> None:
    track = edit(RING, lambda d: d["pit_lane"]["garages"].extend(["pit-2", "3-36"]))
    [found] = diagnostics(track, "PIT005")
    assert found.severity == Severity.ERROR
    assert found.location.elements == ("3-36",)
    assert found.location.pointer == "/pit_lane/garages/1"
    assert "garage 2 is 3-36, a track space not in the pit lane" in found.message


def test_a_box_listed_as_a_garage_is_sent_to_the_boxes() -> None:
    track = edit(RING, lambda d: d["pit_lane"]["garages"].append("box-1"))
    [found] = diagnostics(track, "PIT005")
    assert "list it in pit_lane.boxes instead" in found.message


def test_a_garage_listed_twice_is_reported_at_its_second_mention() -> None:
    track = edit(RING, lambda d: d["pit_lane"]["garages"].extend(["pit-2", "pit-2"]))
    [found] = diagnostics(track, "PIT005")
    assert found.location.pointer == "/pit_lane/garages/1"
    assert "garage 2 is pit-2, already garage 1" in found.message


def test_an_unknown_garage_is_an_unknown_reference() -> None:
    track = edit(RING, lambda d: d["pit_lane"]["garages"].append("pit-99"))
    assert diagnostics(track, "PIT005") == []
    [found] = diagnostics(track, "REF004")
    assert found.location.pointer == "/pit_lane/garages/0"
    assert "garage pit-99" in found.message


def test_a_pit_entry_past_the_line_is_refused() -> None:
    track = edit(RING, lambda d: d["pit_lane"]["entry"][0].update({"from": "3-5"}))
    [found] = diagnostics(track, "PIT002")
    assert found.location.elements == ("3-5", "pit-0")
    assert found.location.pointer == "/pit_lane/entry/0"
    assert "past the line" in found.message


def test_a_pit_entry_onto_a_box_is_refused() -> None:
    track = edit(RING, lambda d: d["pit_lane"]["entry"][0].update(to="box-1"))
    [found] = diagnostics(track, "PIT002")
    assert "not a pit-lane space" in found.message


def test_a_pit_exit_before_the_line_is_refused() -> None:
    track = edit(RING, lambda d: d["pit_lane"]["exit"][0].update(to="3-30"))
    [found] = diagnostics(track, "PIT003")
    assert found.location.elements == ("pit-6", "3-30")
    assert found.location.pointer == "/pit_lane/exit/0"
    assert "behind the finish line" in found.message


def test_a_pit_exit_from_the_track_is_refused() -> None:
    track = edit(RING, lambda d: d["pit_lane"]["exit"][0].update({"from": "3-2"}))
    [found] = diagnostics(track, "PIT003")
    assert "not a pit-lane space" in found.message


def test_a_track_space_in_the_pit_lane_is_refused() -> None:
    track = edit(RING, lambda d: d["pit_lane"]["spaces"].append("3-20"))
    [found] = diagnostics(track, "PIT004")
    assert found.location.elements == ("3-20",)
    assert found.location.pointer == "/pit_lane/spaces/7"


def test_a_pit_space_left_out_of_the_pit_lane_is_refused() -> None:
    track = edit(RING, lambda d: d["pit_lane"]["spaces"].remove("pit-6"))
    [found] = diagnostics(track, "PIT004")
    assert found.location.elements == ("pit-6",)
    assert found.location.pointer == f"/spaces/{POSITION['pit-6']}"


def test_a_track_without_pit_lane_has_no_pit_findings() -> None:
    def remove_pit(document: dict[str, Any]) -> None:
        document["pit_lane"] = None
        gone = {s["id"] for s in document["spaces"] if s["kind"] != "track"}
        document["spaces"] = [s for s in document["spaces"] if s["id"] not in gone]
        document["links"] = [
            link for link in document["links"] if not {link["from"], link["to"]} & gone
        ]

    track = edit(RING, remove_pit)
    assert validate(track, codes=CODES).diagnostics == ()
