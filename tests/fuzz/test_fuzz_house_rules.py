"""Fuzz target: house rulesets race the same on both engines.

A ruleset file may change any number the booklet prints, within the schema: dice of any faces up
to 100, nine lane changes, a black die of a hundred faces, no slipstream, blocking tables of
any length. Each generated ruleset races one short race of mixed bots on the test ring, on the
readable engine and on the kernel: the kernel gives the same events and the same final state,
or, beyond its fixed room, refuses before racing with a reason (and the batch races on the
readable engine, see :mod:`trackformat.sim.kernel.limits`). It never crashes.
"""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import event, given, settings
from hypothesis import strategies as st

from tests.fuzz.engines import assert_same_race
from tests.sim.test_kernel_drivers import BOTS
from tests.sim.test_kernel_moves import board
from trackformat.rules import RulesetError, load_ruleset, ruleset_from_document

FUZZ = settings.get_profile("fuzz")
PRESETS = {name: load_ruleset(name).model_dump(mode="json", by_alias=True)
           for name in ("formula-d", "formule-de-basic")}

FACES = st.lists(st.integers(1, 40), min_size=1, max_size=12).map(sorted)
SMALL_FACES = st.lists(st.integers(1, 20), max_size=6).map(sorted)
WEAR = st.fixed_dictionaries({c: st.integers(0, 12) for c in (
    "tyres", "brakes", "gearbox", "body", "engine", "suspension")})
COST = st.fixed_dictionaries({"tyres": st.integers(0, 3), "brakes": st.integers(0, 3),
                              "gearbox": st.just(0), "body": st.just(0), "engine": st.just(0),
                              "suspension": st.just(0)})


@st.composite
def house_rules(draw: st.DrawFn) -> dict[str, Any]:
    """A preset's document with a few of its numbers changed (the result may break the
    schema: such a file is refused when loaded, and the example is not raced)."""
    document = copy.deepcopy(PRESETS[draw(st.sampled_from(sorted(PRESETS)))])
    changes = draw(st.lists(st.integers(0, 11), min_size=1, max_size=5))
    for change in changes:
        if change == 0:
            document["dice"]["gears"][draw(st.integers(0, 5))] = draw(FACES)
        elif change == 1:
            top = draw(st.sampled_from([6, 20, 100]))
            document["dice"]["black"] = draw(
                st.lists(st.integers(1, top), min_size=2, max_size=30).map(sorted))
        elif change == 2:
            document["movement"]["max_lane_changes_on_straight"] = draw(st.integers(0, 9))
            document["movement"]["brakes_per_space"] = draw(st.integers(0, 9))
        elif change == 3:
            document["corners"]["tyres_per_space"] = draw(st.integers(0, 5))
            document["corners"]["eliminated_missing"] = draw(st.integers(1, 4))
            document["corners"]["stop_after_overshoot_counts"] = draw(st.booleans())
        elif change == 4:
            for key in ("max_up", "max_down", "max_down_without_gearbox"):
                document["shifting"][key] = draw(st.integers(1, 5))
        elif change == 5:
            document["start"]["stall"] = draw(SMALL_FACES)
            document["start"]["super_start"] = draw(SMALL_FACES)
            document["start"]["super_start_spaces"] = draw(st.integers(1, 30))
        elif change == 6:
            document["collision"]["losing"] = draw(SMALL_FACES)
            document["collision"]["eliminating_costs_arriving"] = draw(st.booleans())
        elif change == 7:
            document["slipstream"] = None if draw(st.booleans()) else document["slipstream"]
            if document["slipstream"] is not None:
                document["slipstream"]["extra_spaces"] = draw(st.integers(1, 9))
                document["slipstream"]["min_gear"] = draw(st.integers(1, 6))
        elif change == 8:
            document["engine_damage"] = None
        elif change == 9:
            document["debris"] = None
        elif change == 10:
            for allowance in document["wear"]:
                allowance["points"] = draw(WEAR)
        else:
            steps = draw(st.lists(COST, min_size=1, max_size=8))
            document["blocking"]["steps"] = [{"spaces": n + 1, "cost": cost}
                                             for n, cost in enumerate(steps)]
            document["blocking"]["eliminated_from"] = draw(st.integers(1, 31))
            document["blocking"]["elimination_hits_car_ahead"] = draw(st.booleans())
    document["name"] = "house rules"
    return document


@FUZZ
@given(house_rules(),
       st.lists(st.sampled_from(BOTS), min_size=2, max_size=5),
       st.integers(0, 999))
def test_a_house_ruleset_races_the_same_on_both_engines(document: dict[str, Any],
                                                          bots: list[str], seed: int) -> None:
    try:
        rules = ruleset_from_document(document, "house rules")
    except RulesetError:
        event("refused when loaded")
        return  # refused with a message when loaded: nothing to race
    assert_same_race(board("ring"), rules, bots, seed)
