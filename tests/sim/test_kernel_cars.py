"""The kernel's choices before a move match the readable engine's on random positions: the
gears a car may take (with their costs) and the order the cars play in."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from tests.sim.positions import position
from tests.sim.test_kernel_moves import TRACKS, board
from trackformat.rules import WEAR_CATEGORIES, load_ruleset
from trackformat.sim import CarStatus, gear_options, turn_order
from trackformat.sim.kernel.cars import kernel_gear_options, kernel_turn_order
from trackformat.sim.kernel.moves import board_arrays

PRESETS = ("formula-d", "formule-de-basic")


@pytest.mark.parametrize("track", TRACKS)
@pytest.mark.parametrize("preset", PRESETS)
def test_the_kernel_offers_the_gears_and_plays_the_cars_in_the_engines_order(
        track: str, preset: str) -> None:
    rules = load_ruleset(preset)
    rng = random.Random(f"kernel-cars:{track}:{preset}")
    the_board = board(track)
    arrays = board_arrays(the_board)
    for n in range(200):
        state = position(the_board, rules, rng)
        # Vary what the options depend on: gear 0 before the start, an empty gearbox, a slow
        # stop's wait, arrival numbers for the basic rules' tie-break.
        cars = tuple(replace(
            c, gear=rng.choice((0, c.gear, c.gear, c.gear)),
            wear=c.wear.with_(gearbox=rng.choice((0, c.wear.gearbox)),
                              engine=rng.choice((1, c.wear.engine))),
            pit_wait=rng.random() < 0.05, arrival=rng.randint(0, 50)) for c in state.cars)
        state = replace(state, cars=cars)
        for car in state.cars:
            if car.status in (CarStatus.FINISHED, CarStatus.ELIMINATED):
                continue
            expected = [(o.gear, tuple(getattr(o.cost, c) for c in WEAR_CATEGORIES),
                         o.eliminates) for o in gear_options(state, car.index)]
            assert kernel_gear_options(state, car.index, arrays) == expected, (track, n, car)
        assert kernel_turn_order(state, arrays) == turn_order(state), (track, n)
