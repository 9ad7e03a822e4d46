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
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.par import brute
from tests.par.brute import BruteForce
from tests.par.rings import FAST_DICE, short_ring, small_rules
from tests.reference_races import ReferenceValues
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


BRUTE_SOURCE = Path(brute.__file__).read_text(encoding="utf-8")


def assert_same(reference: ReferenceValues, track: Track, rules: Ruleset, laps: int) -> float:
    """Par is the brute force's (remembered between runs while neither it nor ``trackformat``
    changed; a par that differs from the remembered value is held to a new brute force)."""
    par = solve(track, rules, laps).par

    def force() -> float:
        return BruteForce(track, rules, laps).par()

    brute = reference.value(_parts(track, rules, laps), force)
    if not _same(par, brute):
        brute = reference.value(_parts(track, rules, laps), force, fresh=True)
    assert _same(par, brute), (par, brute)
    return par


def _parts(track: Track, rules: Ruleset, laps: int) -> list[object]:
    """What the brute force's par depends on, besides ``trackformat``."""
    return ["brute force", BRUTE_SOURCE, track.model_dump_json(), rules.model_dump_json(), laps]


def _same(par: float, brute: float) -> bool:
    if math.isinf(brute):
        return math.isinf(par)
    return par == pytest.approx(brute, rel=1e-12, abs=1e-12)


def test_par_is_the_brute_force_on_a_ring_of_each_stop_count(
        reference_values: ReferenceValues) -> None:
    par = assert_same(reference_values, short_ring(), small_rules(), 1)
    assert 8 < par < 9


def test_par_is_the_brute_force_with_the_real_dice(reference_values: ReferenceValues) -> None:
    assert_same(reference_values, short_ring(), formula_d_with_few_wp(), 1)


def test_par_is_the_brute_force_over_two_laps_with_a_pit_stop(
        reference_values: ReferenceValues) -> None:
    assert_same(reference_values, short_ring(), formula_d_with_few_wp(), 2)


@pytest.mark.parametrize("engine", [1, 2])
def test_par_is_the_brute_force_where_engine_rolls_make_fifth_gear_a_risk(
        engine: int, reference_values: ReferenceValues) -> None:
    par = assert_same(reference_values, long_straight(),
                      small_rules(dice=FAST_DICE, debris=False, engine=engine), 1)
    if engine == 1:  # one engine WP: fifth gear could eliminate the car, so it is never taken
        assert par > solve(long_straight(), small_rules(dice=FAST_DICE, engine=3), 1).par + 1


def test_par_is_infinite_where_every_policy_risks_elimination(
        reference_values: ReferenceValues) -> None:
    tight = short_ring(per_lane=16, corners=(("one", 3, 2, 1), ("two", 7, 3, 2),
                                             ("three", 12, 3, 3)))
    assert math.isinf(assert_same(reference_values, tight, small_rules(), 1))


def test_a_par_unlike_the_remembered_brute_force_is_held_to_a_new_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    reference = ReferenceValues(tmp_path)
    track, rules = short_ring(), small_rules()
    right = solve(track, rules, 1).par
    reference.value(_parts(track, rules, 1), lambda: right)  # as a run before would keep it
    forced: list[float] = []
    real = BruteForce.par

    def counted(self: BruteForce) -> float:
        forced.append(real(self))
        return forced[-1]

    monkeypatch.setattr(BruteForce, "par", counted)
    monkeypatch.setattr(sys.modules[__name__], "solve",
                        lambda *args: SimpleNamespace(par=right + 0.01))
    with pytest.raises(AssertionError):
        assert_same(reference, track, rules, 1)
    assert forced == [pytest.approx(right, rel=1e-12)], "held to a new brute force"
