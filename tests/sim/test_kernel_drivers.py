"""Every bot the kernel races gives the readable engine's races, event for event: at least 200
seeds per driver on every shipped track and the test ring, under both rulesets (short races:
a few cars, one lap, so that the readable engine can keep up), and lineups that mix the bots."""

from __future__ import annotations

import pytest

from tests.sim.test_kernel_moves import PRESETS, TRACKS, board
from trackformat.rules import load_ruleset
from trackformat.sim import DRIVERS, Board, run_race
from trackformat.sim.kernel.race import KERNEL_DRIVERS, KernelRacer

SEEDS = range(200)


def assert_same_races(the_board: Board, track: str, preset: str, lineup: list[str],
                      seeds: range, laps: int = 1) -> None:
    """Each seed's race of ``lineup`` (cut to 2 to 5 cars by seed) in both engines, on
    ``the_board`` (``track`` names it in a failure)."""
    rules = load_ruleset(preset)
    racers: dict[int, KernelRacer] = {}
    for seed in seeds:
        cars = 2 + seed % 4
        bots = [lineup[car % len(lineup)] for car in range(cars)]
        expected = run_race(the_board, rules, [DRIVERS[bot](seed) for bot in bots], seed,
                            laps=laps)
        racer = racers.get(cars) or racers.setdefault(
            cars, KernelRacer(the_board, rules, bots, laps))
        got = racer.race(seed)
        assert got.events == expected.events, (track, preset, bots, seed)
        assert got.final == expected.final, (track, preset, bots, seed)
        assert (got.turns, got.completed, got.finish_order) == (
            expected.turns, expected.completed, expected.finish_order), (track, preset, seed)


@pytest.mark.parametrize("track", TRACKS)
@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("driver", sorted(KERNEL_DRIVERS))
def test_each_driver_races_as_the_readable_engine(driver: str, track: str, preset: str) -> None:
    assert_same_races(board(track), track, preset, [driver], SEEDS)


@pytest.mark.parametrize("track", TRACKS)
@pytest.mark.parametrize("preset", PRESETS)
def test_mixed_lineups_race_as_the_readable_engine(track: str, preset: str) -> None:
    assert_same_races(board(track), track, preset, sorted(KERNEL_DRIVERS), range(40))


def test_the_kernel_races_every_bot_the_engine_offers() -> None:
    # Test drives race on the kernel by default: every bot must be one it races.
    assert set(DRIVERS) == KERNEL_DRIVERS
