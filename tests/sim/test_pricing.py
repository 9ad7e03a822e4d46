"""Plain moves built once into place give the same move list as pricing every route.

:func:`trackformat.sim.move.pricing.moves_of_roll` builds the moves that only brake straight into
the order of the list and prices only the routes that overshoot, are blocked or go into the pit
lane; :func:`~trackformat.sim.move.pricing.priced_one_by_one` prices every route and sorts. On many
random positions (packs of cars, debris, corners half done, spun cars, the pit lane) and every
roll, the two must agree move for move.
"""

from __future__ import annotations

import random

import pytest

from tests.sim.positions import position
from tests.sim.recorded import board
from trackformat.rules import load_ruleset
from trackformat.sim.move.pricing import moves_of_roll, priced_one_by_one
from trackformat.sim.move.reuse import routes


@pytest.mark.parametrize("track", ["ring", "monaco"])
def test_moves_built_into_place_equal_every_route_priced(track: str) -> None:
    rules = load_ruleset("formula-d")
    rng = random.Random(f"pricing:{track}")
    compared = overshooting = 0
    for _ in range(80):
        state = position(board(track), rules, rng)
        car = state.cars[0]
        leaving_pit = state.board.in_pit(car.space)
        walked = routes(state, car, 30)
        for roll in range(1, 31):
            fast = moves_of_roll(rules, car, leaving_pit, walked, roll)
            plain = priced_one_by_one(rules, car, leaving_pit, walked, roll)
            assert fast == plain, (track, car, roll)
            assert [m.corner_entries for m in fast] == [m.corner_entries for m in plain]
            compared += len(fast)
            overshooting += sum(1 for m in fast if m.overshoots or m.blocked)
    assert compared > 5000 and overshooting > 500, (compared, overshooting)
