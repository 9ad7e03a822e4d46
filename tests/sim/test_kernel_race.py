"""Whole races in the kernel, race for race: the drivers the kernel races, under either ruleset
(slipstream included), give exactly the readable engine's race, event for event, on the test
ring, the recorded Monaco and every shipped track."""

from __future__ import annotations

import pytest

from tests.reference_races import ReferenceRaces
from tests.sim.test_kernel_moves import TRACKS, board
from trackformat.rules import load_ruleset
from trackformat.sim import RandomDriver, run_race
from trackformat.sim.kernel.race import KernelRacer

SEEDS = range(12)
"""Races per track (the reference engine takes most of the time)."""


@pytest.mark.parametrize("track", TRACKS)
@pytest.mark.parametrize("preset", ("formula-d", "formule-de-basic"))
def test_random_drivers_race_event_for_event_in_the_kernel(
        track: str, preset: str, reference_races: ReferenceRaces) -> None:
    races = [(seed, ("random",) * (4 + seed % 5),
              tuple(seed * 10 + car for car in range(4 + seed % 5))) for seed in SEEDS]
    reference_races.assert_kernel_races_as_readable(
        board(track), load_ruleset(preset), None, races, label=(track, preset))


def test_a_full_log_is_grown_and_the_race_played_again_the_same() -> None:
    rules = load_ruleset("formula-d")
    the_board = board(TRACKS[0])
    expected = run_race(the_board, rules, [RandomDriver(3) for _ in range(6)], 3)
    racer = KernelRacer(the_board, rules, ["random"] * 6)
    racer.log = racer.log[:5]  # far too short for a race
    got = racer.race(3, [3] * 6)
    assert got.events == expected.events
    assert len(racer.log) >= len(expected.events)
