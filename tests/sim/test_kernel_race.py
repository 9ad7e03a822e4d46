"""Whole races in the kernel, race for race: random drivers, under either ruleset (slipstream
included), end every race exactly as the readable engine ends it, on the test ring, the
recorded Monaco and every shipped track."""

from __future__ import annotations

import pytest

from tests.sim.test_kernel_moves import TRACKS, board
from trackformat.rules import load_ruleset
from trackformat.sim import RandomDriver, run_race
from trackformat.sim.kernel.cars import car_rows
from trackformat.sim.kernel.moves import board_arrays
from trackformat.sim.kernel.race import kernel_random_race

SEEDS = range(12)
"""Races per track (the reference engine takes most of the time)."""


@pytest.mark.parametrize("track", TRACKS)
@pytest.mark.parametrize("preset", ("formula-d", "formule-de-basic"))
def test_random_drivers_race_race_for_race_in_the_kernel(track: str, preset: str) -> None:
    rules = load_ruleset(preset)
    the_board = board(track)
    arrays = board_arrays(the_board)
    for seed in SEEDS:
        cars = 4 + seed % 5
        drivers = [seed * 10 + car for car in range(cars)]
        expected = run_race(the_board, rules, [RandomDriver(d) for d in drivers], seed)
        got = kernel_random_race(the_board, rules, cars, seed, driver_seed=drivers)
        assert got.cars.tolist() == car_rows(expected.final, arrays).tolist(), (track, seed)
        assert got.debris == expected.final.debris, (track, seed)
        assert (got.turns, got.completed) == (expected.turns, expected.completed), (track, seed)
