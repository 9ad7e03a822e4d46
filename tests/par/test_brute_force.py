"""Par equals an independent brute force on small rings with a corner of each stop count.

The brute force (``tests/par/brute.py``) plays the readable engine's race itself over the whole
race state, every die face by face, and shares no code with the solver: the solver's places,
tables, pricing by wear, compiled induction and start formula are all held to it. The rings
are small enough for it, and the rules chosen so that each case reaches a different part of
the rules: the real dice, a pit stop, engine rolls that make fifth gear a risk, a race no
policy finishes without risking elimination.
"""

from __future__ import annotations

import math

import pytest

from tests.par.brute import BruteForce
from tests.par.rings import FAST_DICE, short_ring, small_rules
from trackformat.model import Track
from trackformat.par.solve import solve
from trackformat.rules import Ruleset, load_ruleset


def formula_d_with_few_wp() -> Ruleset:
    """Formula D's own dice, with few WP so that the brute force stays small."""
    document = load_ruleset("formula-d").model_dump(mode="json")
    document["wear"] = [{"laps": 1, "points": {"tyres": 2, "brakes": 1, "gearbox": 1,
                                               "body": 1, "engine": 2, "suspension": 1}}]
    return Ruleset.model_validate(document)


def long_straight() -> Track:
    """One lane of 45 spaces, one 1-stop corner: fifth and sixth gear are worth their risk."""
    return short_ring(per_lane=45, lanes=1, corners=(("one", 3, 2, 1),))


def assert_same(track: Track, rules: Ruleset, laps: int) -> float:
    par = solve(track, rules, laps).par
    brute = BruteForce(track, rules, laps).par()
    if math.isinf(brute):
        assert math.isinf(par)
    else:
        assert par == pytest.approx(brute, rel=1e-12, abs=1e-12)
    return par


def test_par_is_the_brute_force_on_a_ring_of_each_stop_count() -> None:
    par = assert_same(short_ring(), small_rules(), 1)
    assert 8 < par < 9


def test_par_is_the_brute_force_with_the_real_dice() -> None:
    assert_same(short_ring(), formula_d_with_few_wp(), 1)


def test_par_is_the_brute_force_over_two_laps_with_a_pit_stop() -> None:
    assert_same(short_ring(), formula_d_with_few_wp(), 2)


@pytest.mark.parametrize("engine", [1, 2])
def test_par_is_the_brute_force_where_engine_rolls_make_fifth_gear_a_risk(engine: int) -> None:
    par = assert_same(long_straight(), small_rules(dice=FAST_DICE, debris=False, engine=engine),
                      1)
    if engine == 1:  # one engine WP: fifth gear could eliminate the car, so it is never taken
        assert par > solve(long_straight(), small_rules(dice=FAST_DICE, engine=3), 1).par + 1


def test_par_is_infinite_where_every_policy_risks_elimination() -> None:
    tight = short_ring(per_lane=16, corners=(("one", 3, 2, 1), ("two", 7, 3, 2),
                                             ("three", 12, 3, 3)))
    assert math.isinf(assert_same(tight, small_rules(), 1))
