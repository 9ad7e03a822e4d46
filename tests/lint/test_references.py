"""The reference rules: duplicate ids, links and lists naming spaces that do not exist."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tests.factories import edit, ring, space
from trackformat.lint import Diagnostic, Severity, all_rules, validate
from trackformat.model import Track

CODES = ["REF001", "REF002", "REF003", "REF004", "REF005"]
RING = ring()
POSITION = {s.id: n for n, s in enumerate(RING.spaces)}
LINKS = len(RING.links)


def diagnostics(track: Track, code: str) -> list[Diagnostic]:
    return list(validate(track, codes=[code]).diagnostics)


def test_the_ring_has_no_reference_problem() -> None:
    assert validate(RING, codes=CODES).diagnostics == ()


@pytest.mark.parametrize("code", CODES)
def test_every_reference_rule_is_documented(code: str) -> None:
    found = {r.code: r for r in all_rules()}[code]
    assert found.topic == "references"
    assert found.summary and found.explanation and found.example


def test_a_space_id_used_twice_names_both_places() -> None:
    def duplicate(doc: dict[str, Any]) -> None:
        doc["spaces"].append(copy.deepcopy(space(doc, "1-5")))

    [found] = diagnostics(edit(RING, duplicate), "REF001")
    last = len(RING.spaces)
    assert found.severity == Severity.ERROR
    assert found.location.elements == ("1-5",)
    assert found.location.pointer == f"/spaces/{last}"
    assert found.location.point == RING.spaces[POSITION["1-5"]].centre
    assert found.message == (
        f"space id 1-5 is used twice in /spaces, at /spaces/{POSITION['1-5']} and "
        f"/spaces/{last}; references to 1-5 reach only the first one, so give the other a new id"
    )


def test_lane_and_corner_ids_used_twice_are_reported_in_their_lists() -> None:
    def duplicate(doc: dict[str, Any]) -> None:
        doc["lanes"].append({"id": "2", "name": "again"})
        doc["corners"].append(copy.deepcopy(doc["corners"][0]))

    found = {d.location.pointer: d for d in diagnostics(edit(RING, duplicate), "REF001")}
    assert {p: d.location.elements for p, d in found.items()} == {
        "/corners/2": ("north",),
        "/lanes/3": ("2",),
    }
    assert "lane id 2 is used twice in /lanes, at /lanes/1 and /lanes/3" in (
        found["/lanes/3"].message
    )
    assert "corner id north is used twice in /corners, at /corners/0 and /corners/2" in (
        found["/corners/2"].message
    )


def test_a_link_to_a_missing_space_is_reported_with_its_pointer() -> None:
    def dangle(doc: dict[str, Any]) -> None:
        doc["links"].append({"from": "1-5", "to": "1-99"})

    [found] = diagnostics(edit(RING, dangle), "REF002")
    assert found.location.elements == ("1-5", "1-99")
    assert found.location.pointer == f"/links/{LINKS}"
    assert found.location.point == RING.spaces[POSITION["1-5"]].centre
    assert found.message == (
        "link 1-5 -> 1-99 names space 1-99, which the track does not have; point it at an "
        "existing space or delete it"
    )


def test_pit_entry_and_exit_links_to_missing_spaces_are_reported() -> None:
    def dangle(doc: dict[str, Any]) -> None:
        doc["pit_lane"]["entry"][0]["to"] = "pit-99"
        doc["pit_lane"]["exit"][0]["from"] = "nowhere"

    found = diagnostics(edit(RING, dangle), "REF002")
    assert [d.location.pointer for d in found] == ["/pit_lane/entry/0", "/pit_lane/exit/0"]
    assert found[0].message.startswith("pit entry link 3-35 -> pit-99 names space pit-99")
    assert found[1].message.startswith("pit exit link nowhere -> 3-3 names space nowhere")


def test_a_link_from_a_space_to_itself_is_reported() -> None:
    def loop(doc: dict[str, Any]) -> None:
        doc["links"].append({"from": "2-7", "to": "2-7"})

    [found] = diagnostics(edit(RING, loop), "REF002")
    assert found.location.elements == ("2-7",)
    assert "leads from a space to itself" in found.message


def test_a_track_space_without_a_known_lane_is_an_error() -> None:
    def unlane(doc: dict[str, Any]) -> None:
        space(doc, "1-5")["lane"] = None
        space(doc, "2-5")["lane"] = "7"

    found = diagnostics(edit(RING, unlane), "REF003")
    assert [(d.location.elements, d.location.pointer, d.severity) for d in found] == [
        (("1-5",), f"/spaces/{POSITION['1-5']}", Severity.ERROR),
        (("2-5",), f"/spaces/{POSITION['2-5']}/lane", Severity.ERROR),
    ]
    assert found[0].message == (
        "track space 1-5 has no lane; give it one of the lanes in /lanes (1, 2, 3)"
    )
    assert found[1].message == (
        "track space 2-5 is in lane 7, which is not in /lanes (lanes: 1, 2, 3)"
    )


def test_a_pit_space_with_a_lane_is_only_a_warning() -> None:
    [found] = diagnostics(edit(RING, lambda doc: space(doc, "pit-2").update(lane="3")), "REF003")
    assert found.severity == Severity.WARNING
    assert found.location.elements == ("pit-2",)
    assert found.message.startswith("pit space pit-2 has lane 3, but pit and box spaces")


def test_lists_naming_missing_spaces_point_at_the_entry() -> None:
    def misname(doc: dict[str, Any]) -> None:
        doc["corners"][1]["spaces"].append("9-9")
        doc["finish_line"]["spaces"][2] = "3-99"
        doc["grid"][4] = "1-77"
        doc["pit_lane"]["spaces"][6] = "pit-66"
        doc["pit_lane"]["boxes"][1] = "box-9"

    found = diagnostics(edit(RING, misname), "REF004")
    corner_size = len(RING.corners[1].spaces)
    assert {d.location.pointer: d.location.elements for d in found} == {
        f"/corners/1/spaces/{corner_size}": ("south", "9-9"),
        "/finish_line/spaces/2": ("3-99",),
        "/grid/4": ("1-77",),
        "/pit_lane/spaces/6": ("pit-66",),
        "/pit_lane/boxes/1": ("box-9",),
    }
    assert all(d.severity == Severity.ERROR for d in found)
    messages = {d.message for d in found}
    assert "corner south lists space 9-9, which the track does not have" in messages
    assert "grid slot 5 is space 1-77, which the track does not have" in messages


def test_ignore_entries_naming_nothing_are_warnings() -> None:
    def ignore(doc: dict[str, Any]) -> None:
        doc["ignore"] = [
            {"code": "GEOM002", "elements": ["north", "2", "1-5", "gone"], "reason": "test"},
            {"code": "NOPE001", "elements": [], "reason": "typo"},
        ]

    found = diagnostics(edit(RING, ignore), "REF004")
    found.sort(key=lambda d: d.location.pointer or "")
    assert [(d.location.pointer, d.severity) for d in found] == [
        ("/ignore/0/elements/3", Severity.WARNING),
        ("/ignore/1/code", Severity.WARNING),
    ]
    assert found[0].message.startswith("ignore entry 1 (GEOM002) names gone, which is no space")
    assert "NOPE001, which is no validator rule" in found[1].message


def test_a_link_listed_twice_is_a_warning_naming_both_places() -> None:
    def twice(doc: dict[str, Any]) -> None:
        doc["links"].append({"from": "1-5", "to": "1-6"})

    [found] = diagnostics(edit(RING, twice), "REF005")
    first = next(n for n, link in enumerate(RING.links) if (link.from_, link.to) == ("1-5", "1-6"))
    assert found.severity == Severity.WARNING
    assert found.location.elements == ("1-5", "1-6")
    assert found.location.pointer == f"/links/{LINKS}"
    assert found.message == (
        f"link 1-5 -> 1-6 is listed twice, at /links/{first} and /links/{LINKS}; delete one of them"
    )


def test_a_pit_entry_also_in_links_says_where_it_belongs() -> None:
    def twice(doc: dict[str, Any]) -> None:
        doc["links"].append(dict(doc["pit_lane"]["entry"][0]))

    [found] = diagnostics(edit(RING, twice), "REF005")
    assert found.location.pointer == "/pit_lane/entry/0"
    assert "a pit entry is listed only in /pit_lane/entry, so delete it from /links" in (
        found.message
    )


MY_TOPICS = ("references", "reachability", "lap", "shortest-path")


@pytest.mark.parametrize(
    "change",
    [
        lambda doc: doc.update(spaces=[], links=[], corners=[], grid=[], pit_lane=None),
        lambda doc: doc.update(lanes=[], finish_line=None),
        lambda doc: doc.update(links=[]),
        lambda doc: doc["pit_lane"].update(spaces=[], boxes=[]),
    ],
    ids=["no-spaces", "no-lanes-or-line", "no-links", "empty-pit-lane"],
)
def test_half_made_tracks_are_checked_without_a_crash(change: Any) -> None:
    codes = [r.code for r in all_rules() if r.topic in MY_TOPICS]
    report = validate(edit(RING, change), codes=codes)
    assert "INTERNAL" not in report.codes()
    assert not report.ok
