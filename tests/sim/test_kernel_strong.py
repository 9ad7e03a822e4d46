"""The strong driver in the kernel, race for race: strong drivers, alone or among random ones,
make exactly the readable strong driver's choices under either ruleset, so the races are the
readable engine's event for event, on the test ring, the recorded Monaco and every shipped
track."""

from __future__ import annotations

import pytest

from tests.sim.test_kernel_moves import TRACKS, board
from trackformat.rules import load_ruleset
from trackformat.sim import RandomDriver, run_race
from trackformat.sim.drivers.strong import StrongDriver
from trackformat.sim.kernel.race import KernelRacer
from trackformat.sim.race.runner import RaceResult

SEEDS = range(12)
"""Races per track and ruleset (the readable strong driver takes most of the time)."""
PRESETS = ("formula-d", "formule-de-basic")


def assert_same_race(got: RaceResult, expected: RaceResult, where: tuple[object, ...]) -> None:
    assert got.events == expected.events, where
    assert got.cars == expected.cars, where
    assert got.final == expected.final, where
    assert got.final.debris == expected.final.debris, where
    assert (got.turns, got.completed, got.finish_order) == (
        expected.turns, expected.completed, expected.finish_order), where


@pytest.mark.parametrize("track", TRACKS)
@pytest.mark.parametrize("preset", PRESETS)
def test_strong_drivers_race_event_for_event_in_the_kernel(track: str, preset: str) -> None:
    rules = load_ruleset(preset)
    the_board = board(track)
    racers: dict[int, KernelRacer] = {}
    for seed in SEEDS:
        cars = 3 + seed % 4
        racer = racers.get(cars) or racers.setdefault(
            cars, KernelRacer(the_board, rules, ["strong"] * cars, laps=1))
        expected = run_race(the_board, rules, [StrongDriver(seed) for _ in range(cars)], seed,
                            laps=1)
        assert_same_race(racer.race(seed), expected, (track, preset, seed))


@pytest.mark.parametrize("track", TRACKS)
@pytest.mark.parametrize("preset", PRESETS)
def test_strong_and_random_drivers_race_together_event_for_event(track: str,
                                                                preset: str) -> None:
    rules = load_ruleset(preset)
    the_board = board(track)
    bots = ["random", "strong", "random", "strong", "strong"]
    racer = KernelRacer(the_board, rules, bots, laps=1)
    for seed in range(6):
        seeds = [seed * 10 + car for car in range(len(bots))]
        drivers = [StrongDriver(s) if bot == "strong" else RandomDriver(s)
                   for bot, s in zip(bots, seeds, strict=True)]
        expected = run_race(the_board, rules, drivers, seed, laps=1)
        assert_same_race(racer.race(seed, seeds), expected, (track, preset, seed))


def test_strong_drivers_race_two_laps_of_monaco_the_same() -> None:
    """Ten cars, two laps: every phase of the outlook, and the pit window open (the drivers
    weigh the moves into their boxes)."""
    rules = load_ruleset("formula-d")
    the_board = board("monaco-snapshot")
    racer = KernelRacer(the_board, rules, ["strong"] * 10, laps=2)
    for seed in range(2):
        expected = run_race(the_board, rules, [StrongDriver(seed) for _ in range(10)], seed,
                            laps=2)
        assert_same_race(racer.race(seed), expected, ("monaco-snapshot", seed))
