"""What par reports adds up: the distribution's mean is the par, the turns per corner and
straight sum to it, the costs are chances, and the value of any solo state can be asked."""

from __future__ import annotations

import itertools
import math
from dataclasses import replace
from functools import cache

import pytest

from tests.par.rings import short_ring, small_rules
from trackformat.par.report import report
from trackformat.par.solve import Solution, solve
from trackformat.sim.core.state import CarStatus


@cache
def two_laps() -> tuple[Solution, dict[str, object]]:
    solution = solve(short_ring(), small_rules(debris=False), 2)
    return solution, report(solution)


def test_the_distribution_is_a_distribution_whose_mean_is_par() -> None:
    solution, document = two_laps()
    rows = document["distribution"]
    assert isinstance(rows, list)
    assert sum(row["chance"] for row in rows) == pytest.approx(1.0, abs=1e-12)
    assert sum(row["turns"] * row["chance"] for row in rows) == pytest.approx(solution.par,
                                                                              rel=1e-12)
    assert rows[-1]["within"] == pytest.approx(1.0)
    assert all(a["within"] <= b["within"] for a, b in itertools.pairwise(rows))


def test_the_turns_of_each_corner_and_straight_add_up_to_par() -> None:
    solution, document = two_laps()
    segments = document["segments"]
    assert isinstance(segments, list)
    assert sum(row["turns"] for row in segments) == pytest.approx(solution.par, rel=1e-12)
    corners = [row["id"] for row in segments if row["kind"] == "corner"]
    assert corners == ["one", "two", "three"]
    assert any(row["kind"] == "pit lane" and row["turns"] > 0 for row in segments)


def test_the_costs_are_chances_and_two_laps_stop_in_the_pits() -> None:
    _, document = two_laps()
    costs = document["costs"]
    assert isinstance(costs, dict)
    for name in ("tyres", "brakes", "gearbox", "engine", "overshoot", "spin", "pit_stop"):
        assert 0.0 <= costs[name]["chance"] <= 1.0
    assert costs["pit_stop"]["chance"] > 0.5  # two tyres WP do not last two laps of overshoots
    assert costs["quick_stop"]["expected"] + costs["slow_stop"]["expected"] == pytest.approx(
        costs["pit_stop"]["expected"])
    assert costs["stall"]["chance"] == costs["super_start"]["chance"] == 0.05


def test_the_gear_plan_lists_gears_from_spaces_into_and_in_each_corner() -> None:
    _, document = two_laps()
    plan = document["gear_plan"]
    assert isinstance(plan, list)
    assert [corner["corner"] for corner in plan] == ["one", "two", "three"]
    for corner in plan:
        assert corner["turns"]
        assert any(row["in_corner"] for row in corner["turns"])
        assert any(not row["in_corner"] for row in corner["turns"])
        for row in corner["turns"]:
            assert 1 <= row["gear"] <= 6 and 0 < row["gear_chance"] <= 1


def test_a_driver_can_ask_the_value_of_a_solo_state() -> None:
    solution, _ = two_laps()
    pole = solution.solo.pole
    assert solution.value_of(pole) == solution.par
    started = replace(pole, started=True)
    first_turn = solution.value_of(started)
    assert first_turn is not None and first_turn > solution.par - 1
    assert solution.value_of(replace(started, status=CarStatus.FINISHED)) == 0.0
    assert math.isinf(solution.value_of(replace(started, status=CarStatus.ELIMINATED)) or 0)
    assert solution.value_of(replace(started, space="pit-0")) is None  # never a turn start
    worn = replace(started, wear=started.wear.with_(brakes=started.wear.brakes + 1))
    assert solution.value_of(worn) is None  # more WP than the car starts with
