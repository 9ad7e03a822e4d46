"""Whole races in the kernel, race for race: the drivers the kernel races, under either ruleset
(slipstream included), give exactly the readable engine's race, event for event, on the test
ring, the recorded Monaco and every shipped track."""

from __future__ import annotations

import pytest

from tests.sim.test_kernel_moves import TRACKS, board
from trackformat.rules import load_ruleset
from trackformat.sim import RandomDriver, run_race
from trackformat.sim.kernel.race import KernelRacer

SEEDS = range(12)
"""Races per track (the reference engine takes most of the time)."""


@pytest.mark.parametrize("track", TRACKS)
@pytest.mark.parametrize("preset", ("formula-d", "formule-de-basic"))
def test_random_drivers_race_event_for_event_in_the_kernel(track: str, preset: str) -> None:
    rules = load_ruleset(preset)
    the_board = board(track)
    for seed in SEEDS:
        cars = 4 + seed % 5
        drivers = [seed * 10 + car for car in range(cars)]
        expected = run_race(the_board, rules, [RandomDriver(d) for d in drivers], seed)
        got = KernelRacer(the_board, rules, ["random"] * cars).race(seed, drivers)
        assert got.events == expected.events, (track, seed)
        assert got.cars == expected.cars, (track, seed)
        assert got.final == expected.final, (track, seed)
        assert got.final.debris == expected.final.debris, (track, seed)
        assert (got.turns, got.completed, got.finish_order) == (
            expected.turns, expected.completed, expected.finish_order), (track, seed)


def test_a_full_log_is_grown_and_the_race_played_again_the_same() -> None:
    rules = load_ruleset("formula-d")
    the_board = board(TRACKS[0])
    expected = run_race(the_board, rules, [RandomDriver(3) for _ in range(6)], 3)
    racer = KernelRacer(the_board, rules, ["random"] * 6)
    racer.log = racer.log[:5]  # far too short for a race
    got = racer.race(3, [3] * 6)
    assert got.events == expected.events
    assert len(racer.log) >= len(expected.events)
