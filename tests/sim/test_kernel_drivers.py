"""Every bot the kernel races gives the readable engine's races, event for event: at least 200
seeds per driver on every shipped track and the test ring, under both rulesets (short races:
a few cars, one lap, so that the readable engine can keep up).

Each of the 200 seeds races a line-up of every bot (three to five cars, the bots taking turns
at the grid's slots from seed to seed), so that each seed checks every bot's choices at once:
a third of the races that a field of each bot alone per seed took, for the same count of
seeds per bot. Fields of one bot alone, where every car makes the same kind of choice (a
grid of random drivers crashes most), keep 40 seeds of their own."""

from __future__ import annotations

import pytest

from tests.reference_races import ReferenceRaces
from tests.sim.test_kernel_moves import PRESETS, TRACKS, board
from trackformat.rules import load_ruleset
from trackformat.sim import DRIVERS, Board
from trackformat.sim.batch.testdrive import default_engine
from trackformat.sim.kernel.race import KERNEL_DRIVERS

SEEDS = range(200)
ALONE_SEEDS = range(40)
RACED = [track for track in TRACKS if track != "monaco-snapshot"]
"""The test ring and the shipped tracks. Not the frozen copy of Monaco the move tests also ask
(``tests/sim/recorded.py``): its spaces and corners are the shipped Monaco's, raced here, and
the kernel races it against the readable engine in ``test_kernel_race.py``; racing it here too
took a fifth of this file's minutes."""

BOTS = sorted(KERNEL_DRIVERS - {"par"})
"""The bots raced here and by the other tests of the kernel's races: all but par, which solves
par before its first race (seconds to a minute for each board and box). The par driver's races
are compared on tracks it solves quickly, in tests/par/test_kernel_driver.py."""

pytestmark = pytest.mark.usefixtures("compiled_kernel")
"""The kernel compiled for every mix of drivers before the first race (the run's processes
sharing the compiles out on a cold cache, see tests/conftest.py)."""


def assert_same_races(reference: ReferenceRaces, the_board: Board, track: str, preset: str,
                      lineup: list[str], seeds: range, laps: int = 1,
                      every_bot: bool = False) -> None:
    """Each seed's race of ``lineup`` (cut to 2 to 5 cars by seed; with ``every_bot``, 3 to 5
    cars and every bot of ``lineup`` in each race, their order turned by the seed) in both
    engines, on ``the_board`` (``track`` names it in a failure)."""
    races = []
    for seed in seeds:
        if every_bot:
            cars = len(lineup) + seed % (6 - len(lineup))
            bots = tuple(lineup[(car + seed) % len(lineup)] for car in range(cars))
        else:
            cars = 2 + seed % 4
            bots = tuple(lineup[car % len(lineup)] for car in range(cars))
        races.append((seed, bots))
    reference.assert_kernel_races_as_readable(the_board, load_ruleset(preset), laps, races,
                                              label=(track, preset))


@pytest.mark.parametrize("track", RACED)
@pytest.mark.parametrize("preset", PRESETS)
def test_every_driver_races_as_the_readable_engine(track: str, preset: str,
                                                   reference_races: ReferenceRaces) -> None:
    assert_same_races(reference_races, board(track), track, preset, BOTS, SEEDS, every_bot=True)


@pytest.mark.parametrize("track", RACED)
@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("driver", BOTS)
def test_each_driver_alone_races_as_the_readable_engine(
        driver: str, track: str, preset: str, reference_races: ReferenceRaces) -> None:
    assert_same_races(reference_races, board(track), track, preset, [driver], ALONE_SEEDS)


def test_the_kernel_races_every_bot() -> None:
    # Test drives race on the kernel whatever the line-up, the par driver's included.
    assert set(DRIVERS) == KERNEL_DRIVERS
    assert default_engine(tuple(KERNEL_DRIVERS)) == "kernel"
    assert default_engine(("strong", "par")) == "kernel"
