"""Boards and rulesets beyond the kernel's fixed room race on the readable engine, said so, and
give the same report; those within it (every preset, every shipped and real board, house dice
with a hundred faces, nine lane changes on three lanes) race on the kernel, race for race."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.factories import ring
from tests.reference_races import ReferenceRaces
from tests.sim.positions import position
from tests.sim.test_kernel_moves import SHIPPED, board
from trackformat.io import load_track
from trackformat.rules import Ruleset, load_ruleset, ruleset_from_document
from trackformat.sim import Board, legal_moves
from trackformat.sim.batch.report import batch_report
from trackformat.sim.batch.testdrive import DriveSpec, prepare, run_batch
from trackformat.sim.kernel import limits
from trackformat.sim.kernel.arrays import BoardArrays
from trackformat.sim.kernel.race import KernelRacer

LINEUP = ("strong", "cautious", "random")


def house_rules(change: Any, preset: str = "formula-d") -> Ruleset:
    """A preset with ``change(document)`` applied to its JSON document."""
    document = load_ruleset(preset).model_dump(mode="json", by_alias=True)
    change(document)
    document["name"] = "house rules"
    return ruleset_from_document(document, "house rules")


def long_sixth_gear(document: dict[str, Any]) -> None:
    document["dice"]["gears"][5] = [50, 55, 60, 66, 70, 72]
    document["engine_damage"]["triggers"][1]["face"] = 72


def nine_lane_changes(document: dict[str, Any]) -> None:
    document["movement"]["max_lane_changes_on_straight"] = 9


def hundred_faced_black_die(document: dict[str, Any]) -> None:
    document["dice"]["black"] = list(range(1, 101))
    document["start"]["super_start"] = [100]
    document["collision"]["losing"] = [1, 2, 3, 4, 5, 70]


def drive(the_board: Board, rules: Ruleset, engine: str) -> tuple[dict[str, Any], list[str]]:
    """A small test drive's report, and what it said."""
    said: list[str] = []
    spec = DriveSpec.of(the_board.graphs.track, rules, LINEUP, seed=5, laps=1, engine=engine)
    context = prepare(spec, say=said.append)
    return batch_report(run_batch(spec, 3, context=context), context), said


@pytest.mark.parametrize(("track", "change", "reason"), [
    (board("ring"), long_sixth_gear,
     "moves of at most 48 spaces, and this ruleset's moves reach 75 (a die face of 72 and 3 "
     "slipstream spaces)"),
    (Board.of(ring(lanes=8, per_lane=44)), nine_lane_changes,
     "at most 4 lanes left in one move, and this ruleset allows 9 lane changes on a straight of "
     "this track's 8 lanes"),
])
def test_a_batch_beyond_the_kernel_races_on_the_reference_engine_and_says_why(
        track: Board, change: Any, reason: str) -> None:
    rules = house_rules(change)
    with pytest.raises(limits.KernelLimit, match=reason.replace("(", r"\(").replace(")", r"\)")):
        KernelRacer(track, rules, list(LINEUP), 1)
    report, said = drive(track, rules, "kernel")
    assert said == [f"trackformat: the compiled engine keeps {reason}: the reference engine "
                    "races instead (the same races, slower)"]
    expected, _ = drive(track, rules, "reference")
    assert report == expected and report["completed"] == 3


def test_corners_beyond_the_kernel_are_found_before_a_race(
        monkeypatch: pytest.MonkeyPatch) -> None:
    arrays = BoardArrays.of(board("ring"))
    rules = load_ruleset("formula-d")
    most = limits.most_corners_left(arrays, limits.longest_move(rules))
    assert most >= 2, "a 33-space move on the ring may leave both its corners"
    assert limits.kernel_limit(arrays, rules) is None
    monkeypatch.setattr(limits, "MAX_EXITS", most - 1)
    assert limits.kernel_limit(arrays, rules) == (
        f"the compiled engine keeps at most {most - 1} corners left in one move, and a move "
        f"of 33 spaces on this track may leave up to {most}")


@pytest.mark.parametrize("track", ["ring", "monaco-snapshot", *(p.stem for p in SHIPPED)])
def test_no_move_leaves_more_corners_than_the_bound_says(track: str) -> None:
    the_board = board(track)
    rules = load_ruleset("formula-d")
    arrays = BoardArrays.of(the_board)
    rng = random.Random(f"corners:{track}")
    most = 0
    for _ in range(150):
        roll = rng.randint(1, 30)
        for move in legal_moves(position(the_board, rules, rng), 0, roll):
            most = max(most, len(move.overshoots))
            assert len(move.overshoots) <= limits.most_corners_left(arrays, roll)
    assert most >= 1, "some positions should overshoot a corner"


@pytest.mark.parametrize("preset", ["formula-d", "formule-de-basic"])
def test_every_preset_races_on_the_kernel_on_every_shipped_board(preset: str) -> None:
    rules = load_ruleset(preset)
    for path in SHIPPED:
        assert limits.kernel_limit(BoardArrays.of(Board.of(load_track(path))), rules) is None


@pytest.mark.parametrize("change", [nine_lane_changes, hundred_faced_black_die])
def test_house_rules_within_the_kernel_race_as_on_the_readable_engine(
        change: Any, reference_races: ReferenceRaces) -> None:
    races = [(seed, tuple(LINEUP)) for seed in range(12)]
    reference_races.assert_kernel_races_as_readable(
        board("monaco-snapshot"), house_rules(change), 1, races, label=(change.__name__,))
