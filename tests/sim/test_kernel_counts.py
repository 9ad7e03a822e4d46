"""The corner and space counts the kernel reads from its own log are the ones the test drive
counts from the engine's events, race by race and added up, on every track under both rulesets
(random and cautious cars together, so that races hold overshoots, spins, eliminations, pit
stops and finishes)."""

from __future__ import annotations

import pytest

from tests.sim.test_kernel_drivers import BOTS
from tests.sim.test_kernel_moves import PRESETS, TRACKS, board
from trackformat.rules import load_ruleset
from trackformat.sim.batch.stats import DriveStats
from trackformat.sim.kernel.race import KernelRacer


@pytest.mark.parametrize("track", TRACKS)
@pytest.mark.parametrize("preset", PRESETS)
def test_kernel_counts_equal_the_counts_of_the_events(track: str, preset: str) -> None:
    the_board = board(track)
    lineup = [BOTS[car % len(BOTS)] for car in range(8)]
    racer = KernelRacer(the_board, load_ruleset(preset), lineup)
    from_events, from_kernel = DriveStats(), DriveStats()
    corners, spaces = racer.count_tables()
    for seed in range(40):
        from_events.count_events(racer.race(seed).events, the_board)
        racer.count(seed, corners, spaces)
        if seed % 10 == 9:  # the tables add up over several races, then are read once
            from_kernel.add_counts(*racer.read_counts(corners, spaces))
            corners, spaces = racer.count_tables()
    assert from_kernel.corners == from_events.corners
    assert from_kernel.spaces == from_events.spaces
    assert from_events.corners and sum(from_events.spaces.values()) > 0
    kinds = {what for _, what in from_events.corners}
    assert {"entries", "overshoots", "eliminations"} <= kinds, "the races should bite"
