"""LAP006: side-by-side lanes are staggered, so a lane change and back lands one space ahead."""

from __future__ import annotations

import math
from typing import Any

from tests.corpus import ROOT
from tests.factories import CX, CY, OUTER, WIDTH, ring_document, sid
from trackformat.io import load_track, track_from_document
from trackformat.lint import Severity, all_rules, validate
from trackformat.model import Track

PER_LANE = 120
"""Long enough that each space turns 3 degrees, like the straights the rule judges."""


def _staggered_document(per_lane: int) -> dict[str, Any]:
    """A two-lane ring laid like a printed board: lane 2 sits half a space ahead of lane 1, and
    each diagonal lands on the space half a space ahead in the other lane."""
    document = ring_document(lanes=2, per_lane=per_lane)
    step = 2 * math.pi / per_lane
    for space in document["spaces"]:
        if space["lane"] != "2":
            continue
        k = int(space["id"].split("-")[1]) + 0.5
        r_in, r_out = OUTER - 2 * WIDTH, OUTER - WIDTH

        def at(r: float, a: float) -> list[float]:
            return [round(CX + r * math.cos(a), 3), round(CY + r * math.sin(a), 3)]

        a0, a1 = k * step, (k + 1) * step
        space["polygon"] = [at(r_out, a0), at(r_out, a1), at(r_in, a1), at(r_in, a0)]
        space["centre"] = at((r_in + r_out) / 2, (a0 + a1) / 2)
        space["heading"] = round(math.degrees((a0 + a1) / 2) + 90.0, 3) % 360.0
    diagonal = {(sid(1, k), sid(2, (k + 1) % per_lane)) for k in range(per_lane)}
    diagonal |= {(sid(2, k), sid(1, (k + 1) % per_lane)) for k in range(per_lane)}
    kept = [link for link in document["links"] if (link["from"], link["to"]) not in diagonal]
    lane1_to_2 = [{"from": sid(1, k), "to": sid(2, k)} for k in range(per_lane)]
    lane2_to_1 = [{"from": sid(2, k), "to": sid(1, (k + 1) % per_lane)} for k in range(per_lane)]
    document["links"] = kept + lane1_to_2 + lane2_to_1
    return document


def lap006(track: Track) -> list[str]:
    return [d.message for d in validate(track, codes=["LAP006"]).diagnostics]


def test_level_lanes_with_diagonals_a_space_ahead_are_warned_once_per_stretch() -> None:
    track = track_from_document(ring_document(lanes=3, per_lane=PER_LANE), "level")
    report = validate(track, codes=["LAP006"])
    assert report.count(Severity.WARNING) == len(report.diagnostics) >= 2
    messages = [d.message for d in report.diagnostics]
    assert any(m.startswith("lanes 1 and 2 are not staggered") for m in messages)
    assert any(m.startswith("lanes 2 and 3 are not staggered") for m in messages)
    assert "1-0 -> 2-1 -> 1-2 lands two straight moves ahead" in messages[0]
    # The ring's two single-arrow spaces before each corner break the stretches, nothing else:
    # far fewer warnings than lane changes.
    assert len(messages) <= 8


def test_the_warning_names_the_spaces_to_select() -> None:
    track = track_from_document(ring_document(lanes=2, per_lane=PER_LANE), "level")
    first = validate(track, codes=["LAP006"]).diagnostics[0]
    assert {"1-0", "2-1", "1-2"} <= set(first.location.elements)
    assert first.location.pointer is not None and first.location.pointer.startswith("/spaces/")


def test_a_board_staggered_by_half_a_space_is_not_warned() -> None:
    assert lap006(track_from_document(_staggered_document(PER_LANE), "staggered")) == []


def test_a_diagonal_pointed_one_space_too_far_on_a_staggered_board_is_warned() -> None:
    document = _staggered_document(PER_LANE)
    document["links"].append({"from": sid(1, 50), "to": sid(2, 51)})
    messages = lap006(track_from_document(document, "one too far"))
    assert len(messages) == 1
    assert "1-50 -> 2-51" in messages[0]


def test_tight_bends_are_not_judged() -> None:
    """On a 40-space ring every space turns 9 degrees: the inside lane's short spaces of a real
    bend may let a zig-zag gain a space, so the rule stays silent there."""
    assert lap006(track_from_document(ring_document(lanes=3, per_lane=40), "tight")) == []


def test_the_rule_is_a_documented_warning() -> None:
    found = {r.code: r for r in all_rules()}["LAP006"]
    assert found.severity is Severity.WARNING and found.topic == "lap"
    assert found.summary and found.explanation and found.example


def test_the_shipped_monaco_whose_moves_are_the_real_boards_is_not_warned() -> None:
    """tools/build_monaco.py lays Monaco's lanes staggered stretch by stretch as the board prints
    them, and its moves are the board's (tests/builder/test_monaco_board.py): a sound board."""
    assert lap006(load_track(ROOT / "tracks" / "monaco.json")) == []
