"""Gear choices, shifting costs and the exact outcomes of each die."""

from __future__ import annotations

from fractions import Fraction

from tests.sim.helpers import race, rules
from trackformat.sim import (
    CarStatus,
    Cause,
    GearOption,
    Wear,
    face_distribution,
    gear_options,
    pay_shift,
)
from trackformat.sim import events as ev


def gears(state_car: dict[str, object]) -> dict[int, Wear]:
    return {o.gear: o.cost for o in gear_options(race([state_car]), 0)}


def test_up_one_gear_at_a_time_and_down_at_a_price() -> None:
    assert gears({"space": "2-28", "gear": 6}) == {
        2: Wear(gearbox=1, brakes=1, engine=1),  # four gears down
        3: Wear(gearbox=1, brakes=1),
        4: Wear(gearbox=1),
        5: Wear(),
        6: Wear(),
    }, "sixth to first (five gears) is forbidden"
    assert set(gears({"space": "2-28", "gear": 3})) == {1, 2, 3, 4}


def test_an_empty_gearbox_allows_one_gear_down_only() -> None:
    assert set(gears({"space": "2-28", "gear": 5, "wear": {"gearbox": 0}})) == {4, 5, 6}


def test_a_downshift_needs_the_wear_points_it_costs() -> None:
    assert set(gears({"space": "2-28", "gear": 6, "wear": {"brakes": 0}})) == {4, 5, 6}


def test_losing_the_last_engine_point_on_a_downshift_is_flagged() -> None:
    options = gear_options(race([{"space": "2-28", "gear": 6, "wear": {"engine": 1}}]), 0)
    assert [o.gear for o in options if o.eliminates] == [2]


def test_special_cases_first_gear_at_the_start_and_after_a_spin() -> None:
    assert set(gears({"space": "2-28", "gear": 0})) == {1}
    assert set(gears({"space": "2-28", "gear": 5, "status": CarStatus.SPUN})) == {1}


def test_after_a_slow_stop_the_car_leaves_in_fourth_at_most_for_free() -> None:
    assert gears({"space": "box-1", "gear": 6, "pit_wait": True}) == {
        g: Wear() for g in (1, 2, 3, 4)
    }


def test_in_the_pit_lane_shifting_down_is_free() -> None:
    assert gears({"space": "pit-4", "gear": 5}) == {g: Wear() for g in range(1, 7)}


def test_gear_dice_are_the_real_dice_not_uniform_ranges() -> None:
    ruleset = rules()
    assert face_distribution(ruleset, 1) == ((1, Fraction(1, 2)), (2, Fraction(1, 2)))
    assert face_distribution(ruleset, 2) == (
        (2, Fraction(1, 6)), (3, Fraction(1, 3)), (4, Fraction(1, 2))
    )
    assert dict(face_distribution(ruleset, 3))[6] == Fraction(1, 4)
    means = [sum(v * p for v, p in face_distribution(ruleset, g)) for g in range(1, 7)]
    assert means == [Fraction(3, 2), Fraction(10, 3), Fraction(51, 8), Fraction(19, 2),
                     Fraction(31, 2), Fraction(51, 2)]


def test_a_four_gear_downshift_pays_and_may_eliminate() -> None:
    state = race([{"space": "2-28", "gear": 6, "wear": {"engine": 1}}])
    log: list[ev.Event] = []
    option = next(o for o in gear_options(state, 0) if o.gear == 2)
    after = pay_shift(state, 0, option, log)
    assert after.cars[0].cause == Cause.SHIFT and "2-28" in after.debris
    cheap = pay_shift(state, 0, GearOption(4, Wear(gearbox=1)), [])
    assert (cheap.cars[0].gear, cheap.cars[0].wear.gearbox) == (4, 2)
