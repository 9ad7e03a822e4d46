"""The reachability rules: every space reached, every car able to finish, no trap, one loop."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tests.factories import drop_links, edit, ring, space
from trackformat.lint import Diagnostic, Severity, all_rules, validate
from trackformat.model import Track

CODES = ["REACH001", "REACH002", "REACH003", "REACH004", "REACH005", "REACH006"]
RING = ring()
POSITION = {s.id: n for n, s in enumerate(RING.spaces)}
LINKS = len(RING.links)


def diagnostics(track: Track, code: str) -> list[Diagnostic]:
    return list(validate(track, codes=[code]).diagnostics)


def without(pairs: set[tuple[str, str]]) -> Track:
    return edit(RING, lambda doc: drop_links(doc, pairs))


def with_links(*pairs: tuple[str, str]) -> Track:
    def add(doc: dict[str, Any]) -> None:
        doc["links"] += [{"from": a, "to": b} for a, b in pairs]

    return edit(RING, add)


INTO_1_5 = {("1-4", "1-5"), ("2-4", "1-5")}
OUT_OF_1_5 = {("1-5", "1-6"), ("1-5", "2-6")}


def test_the_ring_has_no_reachability_problem() -> None:
    assert validate(RING, codes=CODES).diagnostics == ()


@pytest.mark.parametrize("code", CODES)
def test_every_reachability_rule_is_documented(code: str) -> None:
    found = {r.code: r for r in all_rules()}[code]
    assert found.topic == "reachability"
    assert found.summary and found.explanation and found.example


def test_a_space_no_link_leads_onto_is_unreachable_from_the_grid() -> None:
    [found] = diagnostics(without(INTO_1_5), "REACH001")
    assert found.severity == Severity.ERROR
    assert found.location.elements == ("1-5",)
    assert found.location.pointer == f"/spaces/{POSITION['1-5']}"
    assert found.location.point == RING.spaces[POSITION["1-5"]].centre
    assert found.message == (
        "space 1-5 is never reached from the grid: no route of links leads there; add the "
        "missing link onto 1-5 or turn a wrong-way link round"
    )


def test_unreachable_spaces_joined_by_links_are_reported_once() -> None:
    [found] = diagnostics(without(INTO_1_5 | {("2-5", "1-6")}), "REACH001")
    assert found.location.elements == ("1-5", "1-6")
    assert found.message.startswith("2 spaces (1-5 and 1-6) are never reached from the grid")


def test_without_a_grid_reachability_starts_at_the_finish_line() -> None:
    def no_grid(doc: dict[str, Any]) -> None:
        doc["grid"] = []
        drop_links(doc, INTO_1_5)

    [found] = diagnostics(edit(RING, no_grid), "REACH001")
    assert "from the finish line (the track has no grid)" in found.message


def test_a_space_with_no_way_on_cannot_finish() -> None:
    [found] = diagnostics(without(OUT_OF_1_5), "REACH002")
    assert found.location.elements == ("1-5",)
    assert found.message == (
        "from space 1-5 no route of links leads back to the finish line, so a car there could "
        "never finish; add the links that lead on"
    )


def test_a_dead_end_is_a_trap() -> None:
    [found] = diagnostics(without(OUT_OF_1_5), "REACH003")
    assert found.location.elements == ("1-5",)
    assert found.message.startswith("space 1-5 is a dead end: a car can move onto it")


def test_a_box_with_no_way_back_is_a_dead_end() -> None:
    [found] = diagnostics(without({("box-1", "pit-3")}), "REACH003")
    assert found.location.elements == ("box-1",)
    assert found.message.startswith("box box-1 is a dead end")


def test_spaces_that_only_lead_among_themselves_are_one_trap() -> None:
    def enclose(doc: dict[str, Any]) -> None:
        drop_links(doc, {("1-5", "2-6"), ("1-6", "1-7"), ("1-6", "2-7")})
        doc["links"].append({"from": "1-6", "to": "1-5"})

    [found] = diagnostics(edit(RING, enclose), "REACH003")
    assert found.location.elements == ("1-5", "1-6")
    assert found.message.startswith("2 spaces (1-5 and 1-6) form a trap")


def test_a_circuit_in_two_parts_names_the_part_off_the_main_loop() -> None:
    [found] = diagnostics(without(OUT_OF_1_5), "REACH004")
    assert found.location.elements == ("1-5",)
    assert found.message == (
        "space 1-5 is reached from the main loop but no track link leads back to it "
        "(the circuit falls into 2 parts)"
    )
    [found] = diagnostics(without(INTO_1_5), "REACH004")
    assert found.message.startswith("space 1-5 leads onto the main loop but cannot be reached")


def pit_diagnostics(track: Track) -> dict[tuple[str, ...], Diagnostic]:
    found = diagnostics(track, "REACH005")
    by_elements = {d.location.elements: d for d in found}
    assert len(by_elements) == len(found), "each pit-lane fault is reported once"
    return by_elements


def test_a_link_back_along_the_pit_lane_breaks_the_chain() -> None:
    found = pit_diagnostics(with_links(("pit-3", "pit-1")))
    assert list(found) == [("pit-3", "pit-1")]
    assert found[("pit-3", "pit-1")].location.pointer == f"/links/{LINKS}"
    assert found[("pit-3", "pit-1")].message == (
        "link pit-3 -> pit-1 goes back along the pit lane; the pit lane is one-way, from pit-0 "
        "to pit-6"
    )


def test_a_link_skipping_pit_spaces_breaks_the_chain() -> None:
    found = pit_diagnostics(with_links(("pit-0", "pit-3")))
    assert found[("pit-0", "pit-3")].message.startswith(
        "link pit-0 -> pit-3 skips pit-1 and pit-2 of the pit lane"
    )


def test_consecutive_pit_spaces_must_be_linked() -> None:
    found = pit_diagnostics(without({("pit-2", "pit-3")}))
    assert list(found) == [("pit-2", "pit-3")]
    assert found[("pit-2", "pit-3")].location.pointer == "/pit_lane/spaces/3"


def test_the_pit_entry_lands_on_the_first_pit_space_and_the_exit_leaves_the_last() -> None:
    def move_ends(doc: dict[str, Any]) -> None:
        doc["pit_lane"]["entry"][0]["to"] = "pit-2"
        doc["pit_lane"]["exit"][0]["from"] = "pit-5"

    found = pit_diagnostics(edit(RING, move_ends))
    assert found[("3-35", "pit-2")].location.pointer == "/pit_lane/entry/0"
    assert found[("3-35", "pit-2")].message == (
        "pit entry link 3-35 -> pit-2 lands on pit-2; a car enters the pit lane on its first "
        "space, pit-0"
    )
    assert found[("pit-5", "3-3")].location.pointer == "/pit_lane/exit/0"
    assert "leaves the pit lane from its last space, pit-6" in found[("pit-5", "3-3")].message


def test_a_pit_lane_without_entry_or_exit_is_reported() -> None:
    def close(doc: dict[str, Any]) -> None:
        doc["pit_lane"]["entry"] = []
        doc["pit_lane"]["exit"] = []

    found = pit_diagnostics(edit(RING, close))
    assert found[("pit-0",)].message.startswith("the pit lane has no entry")
    assert found[("pit-6",)].message.startswith("the pit lane has no exit")


def test_an_undeclared_link_between_track_and_pit_lane_is_reported() -> None:
    found = pit_diagnostics(with_links(("pit-4", "3-1")))
    assert list(found) == [("pit-4", "3-1")]
    assert "is not a declared entry or exit" in found[("pit-4", "3-1")].message


def test_boxes_may_leave_the_chain_but_not_return_behind_it() -> None:
    found = pit_diagnostics(with_links(("box-2", "pit-1")))
    assert list(found) == [("box-2", "pit-1")]
    assert found[("box-2", "pit-1")].message.startswith(
        "box box-2 leads back onto the pit lane at pit-1, which is not past pit-3"
    )


def test_a_space_with_no_link_at_all_is_a_warning() -> None:
    def lonely(doc: dict[str, Any]) -> None:
        extra = copy.deepcopy(space(doc, "box-1"))
        extra["id"] = "box-3"
        doc["spaces"].append(extra)

    [found] = diagnostics(edit(RING, lonely), "REACH006")
    assert found.severity == Severity.WARNING
    assert found.location.elements == ("box-3",)
    assert found.location.pointer == f"/spaces/{len(RING.spaces)}"
    assert found.message == (
        "box box-3 has no link in or out, so no car can ever use it; link it to its "
        "neighbours or delete it"
    )


def test_a_space_with_no_link_at_all_is_reported_once() -> None:
    # Like a blocked space of a real board: out of play, not unreachable or cut off as well.
    def blocked(doc: dict[str, Any]) -> None:
        drop_links(doc, {(a, b) for a, b in _pairs(doc) if "3-20" in (a, b)})

    track = edit(RING, blocked)
    codes = [d.code for d in validate(track, codes=CODES).diagnostics]
    assert codes == ["REACH006"]


def _pairs(doc: dict[str, Any]) -> set[tuple[str, str]]:
    return {(link["from"], link["to"]) for link in doc["links"]}
