"""The shipped presets carry the numbers of the booklets."""

from __future__ import annotations

from fractions import Fraction

import pytest

from trackformat.rules import PoleRoll, TieBreak, WearPoints, load_ruleset, preset_names


def test_both_presets_ship_and_formula_d_is_the_default() -> None:
    assert preset_names() == ["formula-d", "formule-de-basic"]
    assert load_ruleset().name == "formula-d"


@pytest.mark.parametrize("name", ["formula-d", "formule-de-basic"])
def test_gear_dice_have_the_real_faces(name: str) -> None:
    rules = load_ruleset(name)
    assert rules.faces(1) == (1, 1, 2, 2)
    assert rules.faces(2) == (2, 3, 3, 4, 4, 4)
    assert rules.faces(3) == (4, 5, 6, 6, 7, 7, 8, 8)
    assert sorted(rules.faces(4)) == sorted(list(range(7, 13)) * 2)
    assert sorted(rules.faces(5)) == sorted(list(range(11, 21)) * 2)
    assert sorted(rules.faces(6)) == sorted(list(range(21, 31)) * 3)
    assert rules.dice.black == list(range(1, 21))
    means = [Fraction(sum(rules.faces(g)), len(rules.faces(g))) for g in range(1, 7)]
    assert [round(float(m), 3) for m in means] == [1.5, 3.333, 6.375, 9.5, 15.5, 25.5]


def test_formula_d_numbers() -> None:
    rules = load_ruleset("formula-d")
    assert rules.starting_wear(2) == WearPoints(
        tyres=6, brakes=3, gearbox=3, body=3, engine=3, suspension=2
    )
    assert rules.starting_wear(2).total() == 20
    assert rules.shifting.downshift_cost(2) == WearPoints(gearbox=1)
    assert rules.shifting.downshift_cost(3) == WearPoints(gearbox=1, brakes=1)
    assert rules.shifting.downshift_cost(4) == WearPoints(gearbox=1, brakes=1, engine=1)
    assert rules.shifting.max_down == 4 and rules.shifting.max_down_without_gearbox == 1
    assert [rules.blocking.cost(n) for n in (1, 3, 4, 6)] == [
        WearPoints(brakes=1), WearPoints(brakes=3), WearPoints(brakes=3, tyres=1),
        WearPoints(brakes=3, tyres=3)]
    assert rules.blocking.cost(7) is None
    assert (rules.start.stall, rules.start.super_start, rules.start.super_start_spaces) == (
        [1], [20], 4)
    assert rules.grid.pole == PoleRoll.HIGHEST and rules.tie_break == TieBreak.INSIDE
    assert rules.collision.losing == [1]
    assert rules.engine_damage is not None and rules.engine_damage.losing == [1, 2, 3, 4]
    assert {(t.gear, t.face) for t in rules.engine_damage.triggers} == {(5, 20), (6, 30)}
    assert rules.debris is not None and rules.debris.losing == [1, 2, 3, 4]
    window = rules.pits.window(2)
    assert window is not None and window.after_laps == [1]
    assert rules.pits.window(1) is None
    assert (rules.pits.quick_max, rules.pits.quick_gear, rules.pits.slow_max_gear) == (10, 4, 4)
    assert rules.slipstream is not None
    assert (rules.slipstream.min_gear, rules.slipstream.extra_spaces) == (4, 3)
    assert rules.slipstream.corner_entry_cost == WearPoints(brakes=1)
    assert rules.corners.eliminated_missing == 2


def test_basic_rules_differ_where_the_booklet_does() -> None:
    rules = load_ruleset("formule-de-basic")
    assert rules.grid.pole == PoleRoll.LOWEST and rules.tie_break == TieBreak.ARRIVAL
    assert rules.starting_wear(1).tyres == 4, "one lap: more than 4 tyres lost eliminates"
    assert rules.starting_wear(2).tyres > rules.starting_wear(1).tyres
    assert rules.debris is None and rules.slipstream is None
    assert rules.blocking.elimination_hits_car_ahead
    assert rules.collision.eliminating_costs_arriving
