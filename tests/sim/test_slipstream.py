"""Slipstream: its conditions, the three patterns, the corner-entry cost, chains."""

from __future__ import annotations

from typing import Any

from tests.sim.helpers import full, race, rules
from trackformat.sim import Move, RaceState, legal_moves, slipstream_moves


def behind(state: RaceState, destination: str, roll: int = 4) -> Move:
    return next(m for m in legal_moves(state, 0, roll)
                if m.destination == destination and m.distance == roll)


def car(space: str, gear: int = 4, **extra: Any) -> dict[str, Any]:
    return {"space": space, "gear": gear, **extra}


def test_the_three_patterns_give_three_more_spaces() -> None:
    state = race([car("1-28"), car("1-33")])
    extras = slipstream_moves(state, 0, behind(state, "1-32"))
    # Back into lane 1 in front of the car; one lane out and on; two lanes out and on.
    assert full(extras) == {"1-35", "2-35", "3-35"}
    assert {m.slipstream for m in extras} == {1} and {m.roll for m in extras} == {7}
    back_in = next(m for m in extras if m.destination == "1-35")
    assert back_in.route[4] == "2-33", "the first extra space pulls out of the lane"


def test_the_extras_are_played_in_full_unless_braking() -> None:
    state = race([car("1-28"), car("1-33")])
    extras = slipstream_moves(state, 0, behind(state, "1-32"))
    assert {(m.destination, m.brakes) for m in extras if m.distance < 7} == {
        ("2-33", 2), ("1-34", 1), ("2-34", 1), ("3-34", 1)
    }


def test_no_slipstream_below_fourth_gear_or_behind_a_faster_car() -> None:
    for follower, leader in ((3, 3), (4, 5), (5, 3)):
        state = race([car("1-28", follower), car("1-33", leader)])
        assert not slipstream_moves(state, 0, behind(state, "1-32")), (follower, leader)
    state = race([car("1-28", 5), car("1-33", 4)])
    assert slipstream_moves(state, 0, behind(state, "1-32"))


def test_no_slipstream_after_braking_nor_without_ending_right_behind() -> None:
    state = race([car("1-28"), car("1-33")])
    braked = next(m for m in legal_moves(state, 0, 5) if m.destination == "1-32")
    assert braked.brakes == 1 and not slipstream_moves(state, 0, braked)
    assert not slipstream_moves(state, 0, behind(state, "2-32"))


def test_entering_a_corner_in_the_slipstream_costs_a_brakes_point() -> None:
    state = race([car("1-1"), car("1-6")])
    extras = slipstream_moves(state, 0, behind(state, "1-5"))
    into_corner = {m.destination: m.brakes for m in extras if m.distance == 7}
    # Back in (2-6, 1-7, 1-8), one lane out (2-6, 2-7, 2-8), two lanes out (2-6, 3-7, 3-8).
    assert into_corner == {"1-8": 1, "2-8": 1, "3-8": 1}


def test_a_slipstream_can_chain_behind_another_car() -> None:
    state = race([car("1-28"), car("1-33"), car("2-36")])
    first = next(m for m in slipstream_moves(state, 0, behind(state, "1-32"))
                 if m.destination == "2-35")
    chained = slipstream_moves(state, 0, first)
    assert chained and {m.slipstream for m in chained} == {2}
    assert full(chained) == {"1-38", "2-38", "3-38"}


def test_the_basic_rules_have_no_slipstream() -> None:
    state = race([car("1-28"), car("1-33")], ruleset=rules("formule-de-basic"))
    assert not slipstream_moves(state, 0, behind(state, "1-32"))
