"""A half-made track is told its problems once per cause, not once per space."""

from __future__ import annotations

import json
from typing import Any

from tests.factories import edit, ring, space
from trackformat.builder.stretch import build_stretch
from trackformat.lint import validate
from trackformat.model import Board, Lane, Metadata, Track

RING = ring()


def _open_lap(doc: dict[str, Any]) -> None:
    """Every link onto the finish line's spaces removed: lanes laid round, not joined up."""
    doc["links"] = [k for k in doc["links"] if not k["to"].endswith("-0")]


def test_an_unfinished_lap_is_one_problem_naming_its_open_ends() -> None:
    report = validate(edit(RING, _open_lap))
    loop = [d for d in report.diagnostics if d.code == "REACH004"]
    assert len(loop) == 1
    assert loop[0].message.startswith("the lap is not closed yet: the lanes stop at 1-39, 2-39")
    assert "Lanes tool" in loop[0].message
    assert {"1-39", "2-39", "3-39", "1-0", "2-0", "3-0"} <= set(loop[0].location.elements)
    dead_ends = [d for d in report.diagnostics if d.code == "REACH003"]
    assert not any(set(d.location.elements) & {"1-39", "2-39", "3-39"} for d in dead_ends)
    assert report.errors < 10
    # Unreachable spaces and spaces with no way to the line are that open lap, said again.
    assert not {"REACH001", "REACH002"} & set(report.codes())


def test_an_unfinished_staggered_lap_names_the_end_of_every_lane() -> None:
    # The middle lane lies half a space ahead: the side lanes' last spaces lead only diagonally
    # onto its last space, and its first space is reached only diagonally from theirs.
    stretch = build_stretch([(100.0, 300.0), (900.0, 300.0)], ["1", "2", "3"], 40.0, None,
                            space_length=80.0, stagger=(0.0, 0.5, 0.0))
    track = Track(metadata=Metadata(name="half made"), board=Board(width=1000, height=600),
                  lanes=[Lane(id=lane) for lane in "123"], spaces=stretch.spaces,
                  links=list(stretch.links))
    [loop] = [d for d in validate(track).diagnostics if d.code == "REACH004"]
    assert loop.message.startswith(
        "the lap is not closed yet: the lanes stop at 1-s10, 2-s10 and 3-s10 and start at "
        "1-s1, 2-s1 and 3-s1;"
    ), loop.message
    assert set(loop.location.elements) == {"1-s10", "2-s10", "3-s10", "1-s1", "2-s1", "3-s1"}


def test_a_stretch_off_the_loop_is_one_problem_not_one_a_space() -> None:
    cut = {"1-10", "1-11", "1-12", "1-13"}

    def detach(doc: dict[str, Any]) -> None:
        doc["links"] = [
            k for k in doc["links"] if not ((k["from"] in cut) ^ (k["to"] in cut))
        ]

    found = [d for d in validate(edit(RING, detach)).diagnostics if d.code == "REACH004"]
    assert len(found) == 1
    assert found[0].location.elements == ("1-10", "1-11", "1-12", "1-13")
    assert found[0].message.startswith("4 spaces (1-10, 1-11, 1-12 and 1-13) are cut off")


def test_repeats_of_one_message_become_one_problem_with_every_culprit() -> None:
    def scatter(doc: dict[str, Any]) -> None:
        for n in range(4):
            loose = dict(space(doc, "1-5"), id=f"loose-{n}")
            x = 1500 + 50 * n
            loose["polygon"] = [[x, 100], [x + 40, 100], [x + 40, 140], [x, 140]]
            loose["centre"] = [x + 20, 120]
            doc["spaces"].append(loose)

    report = validate(edit(RING, scatter), codes=["REACH006"])
    [found] = report.diagnostics
    assert found.location.elements == ("loose-0", "loose-1", "loose-2", "loose-3")
    assert found.message.startswith("space loose-0 has no link in or out")
    assert found.message.endswith("(the same for loose-1, loose-2 and loose-3)")
    document = json.loads(json.dumps(report.to_json()))
    assert document["counts"]["warning"] == 1
    assert document["diagnostics"][0]["location"]["elements"] == [
        "loose-0",
        "loose-1",
        "loose-2",
        "loose-3",
    ]
