"""Building your car and the team race's repairs as data: the booklet's numbers in the presets,
builds checked against them with a message that says what is wrong, named builds in a ruleset
file, and line-ups that give each car its build."""

from __future__ import annotations

import pytest

from trackformat.rules import (
    STANDARD,
    BuildError,
    RulesetError,
    TeamRepairs,
    WearPoints,
    build_lineup,
    check_build,
    lineup_points,
    load_ruleset,
    parse_build,
    ruleset_from_document,
)

ALL_ONES = {"tyres": 1, "brakes": 1, "gearbox": 1, "body": 1, "engine": 1, "suspension": 1}


def test_a_build_spreads_exactly_20_wp_within_the_limits() -> None:
    limits = load_ruleset("formula-d").car_build
    assert limits is not None
    assert limits.total == 20
    assert limits.min == WearPoints(**ALL_ONES)
    assert limits.max == WearPoints(tyres=14, brakes=7, gearbox=7, body=7, engine=7, suspension=7)
    # The standard car is a build, and so are the extremes the limits allow.
    assert check_build(limits, load_ruleset("formula-d").starting_wear(2)) == []
    assert check_build(limits, parse_build(
        "tyres=14,brakes=1,gearbox=1,body=1,engine=1,suspension=2")) == []
    assert check_build(limits, parse_build(
        "tyres=1,brakes=7,gearbox=7,body=1,engine=1,suspension=3")) == []
    # One past a limit, or a WP more or less in all, is refused, saying what is wrong.
    assert check_build(limits, parse_build(
        "tyres=15,brakes=1,gearbox=1,body=1,engine=1,suspension=1")) == [
        "gives tyres 15: tyres take 1 to 14"]
    assert check_build(limits, parse_build(
        "tyres=6,brakes=8,gearbox=1,body=1,engine=1,suspension=3")) == [
        "gives brakes 8: brakes take 1 to 7"]
    assert check_build(limits, parse_build(
        "tyres=6,brakes=3,gearbox=3,body=3,engine=2,suspension=2")) == [
        "totals 19 WP, not 20"]
    assert check_build(limits, parse_build("tyres=10,brakes=4,gearbox=2,body=2,engine=2")) == [
        "gives suspension 0: suspension takes 1 to 7"]


def test_a_line_up_gives_each_car_its_build_in_turn() -> None:
    rules = load_ruleset("formula-d")
    lineup = build_lineup(["brakes=4, tyres=8,gearbox=2,body=2,engine=2,suspension=2", STANDARD],
                          5, rules.car_build, rules.builds, rules.name)
    own = "tyres=8,brakes=4,gearbox=2,body=2,engine=2,suspension=2"
    assert lineup == (own, STANDARD, own, STANDARD, own), "written back in the sheet's order"
    assert lineup_points(lineup, rules.builds)[:2] == (
        WearPoints(tyres=8, brakes=4, gearbox=2, body=2, engine=2, suspension=2), None)


@pytest.mark.parametrize(("given", "message"), [
    ("tyres=15,brakes=1,gearbox=1,body=1,engine=1,suspension=1",
     "car 2's build gives tyres 15: tyres take 1 to 14"),
    ("tyres=6,brakes=3,gearbox=3,body=3,engine=2,suspension=2",
     "car 2's build totals 19 WP, not 20"),
    ("tyre=6", "car 2's build: unknown category 'tyre' (categories: tyres, brakes, gearbox, "
               "body, engine, suspension)"),
    ("tyres=6,tyres=7", "car 2's build: gives tyres twice"),
    ("tyres=six", "car 2's build: gives tyres 'six': a whole number of WP, 0 to 99"),
    ("tyres=8,brakes", "car 2's build: 'brakes' is not category=WP"),
    ("fast", "car 2's build: no build named 'fast' (builds of the formula-d rules: none; or "
             "standard, or tyres=N,brakes=N,...)"),
])
def test_a_bad_build_names_the_car_and_what_is_wrong(given: str, message: str) -> None:
    rules = load_ruleset("formula-d")
    with pytest.raises(BuildError) as caught:
        build_lineup([STANDARD, given], 2, rules.car_build, rules.builds, rules.name)
    assert str(caught.value).startswith(message)


def test_the_basic_rules_have_no_building_your_car() -> None:
    rules = load_ruleset("formule-de-basic")
    assert rules.car_build is None and rules.builds == {}
    assert build_lineup([STANDARD], 2, rules.car_build, rules.builds, rules.name) == (
        STANDARD, STANDARD)
    with pytest.raises(BuildError, match="car 1's build: the formule-de-basic rules have no "
                                         "building your car"):
        build_lineup(["tyres=8,brakes=5,gearbox=4,body=4,engine=4"], 2, rules.car_build,
                     rules.builds, rules.name)


def _with(name: str = "formula-d", **changes: object) -> dict[str, object]:
    document = load_ruleset(name).model_dump(mode="json")
    document.update(changes)
    return document


def test_a_ruleset_file_names_builds_that_a_line_up_refers_to() -> None:
    late = {"tyres": 4, "brakes": 7, "gearbox": 3, "body": 2, "engine": 2, "suspension": 2}
    rules = ruleset_from_document(_with(builds={"late-braker": late}), "house.json")
    assert rules.builds["late-braker"] == WearPoints(**late)
    assert build_lineup(["late-braker", STANDARD], 2, rules.car_build, rules.builds,
                        rules.name) == ("late-braker", STANDARD)
    assert lineup_points(("late-braker",), rules.builds) == (WearPoints(**late),)


def test_a_ruleset_file_with_a_bad_build_is_refused_where_it_is() -> None:
    bad = {"tyres": 15, "brakes": 1, "gearbox": 1, "body": 1, "engine": 1, "suspension": 1}
    with pytest.raises(RulesetError) as caught:
        ruleset_from_document(_with(builds={"wild": bad}), "house.json")
    assert str(caught.value) == ("house.json: /builds: build 'wild' gives tyres 15: tyres take "
                                 "1 to 14")
    with pytest.raises(RulesetError, match="/builds: named builds need car_build"):
        ruleset_from_document(_with("formule-de-basic", builds={"any": ALL_ONES}), "basic.json")
    with pytest.raises(RulesetError, match="no build can total 20 WP"):
        ruleset_from_document(_with(car_build={"total": 20, "min": ALL_ONES, "max": ALL_ONES}),
                              "house.json")


def test_team_repairs_are_off_in_both_presets_and_4_wp_a_team_when_on() -> None:
    assert load_ruleset("formula-d").team_repairs is None
    assert load_ruleset("formule-de-basic").team_repairs is None
    assert load_ruleset("formula-d").with_team_repairs().team_repairs == TeamRepairs(points=4)
    own = ruleset_from_document(_with(team_repairs={"points": 6}), "house.json")
    assert own.with_team_repairs().team_repairs == TeamRepairs(points=6)
    with pytest.raises(ValueError, match="the formule-de-basic rules have no team race"):
        load_ruleset("formule-de-basic").with_team_repairs()
