"""The kernel on boards other people made: the twelve real GP Online files of the corpus, imported
as a user imports them, race as the readable engine races them and offer its legal moves.

The shipped tracks and the test ring are ours; these boards are not, and they have what ours may
lack (long single-lane stretches, odd lane counts, pit lanes drawn their own way). Skipped when
the corpus is absent.
"""

from __future__ import annotations

import random
from functools import cache

import pytest

from tests.interop.test_gponline_corpus import TRACKS, imported
from tests.reference_races import ReferenceRaces
from tests.sim.positions import position
from tests.sim.test_kernel_drivers import BOTS, assert_same_races
from trackformat.rules import load_ruleset
from trackformat.sim import Board, legal_moves
from trackformat.sim.batch.testdrive import DriveSpec, run_batch
from trackformat.sim.kernel.arrays import BoardArrays
from trackformat.sim.kernel.limits import kernel_limit
from trackformat.sim.kernel.moves import engine_move, kernel_moves

SEEDS = range(24)
"""Races per real board and ruleset, the drivers mixed (the readable engine takes the time)."""
POSITIONS = 80
"""Random positions per real board, each asked one roll."""

pytestmark = pytest.mark.usefixtures("compiled_kernel")
"""The kernel compiled for every mix of drivers before the first race (the run's processes
sharing the compiles out on a cold cache, see tests/conftest.py)."""


@cache
def real_board(name: str) -> Board:
    return Board.of(imported(name).track)


@pytest.mark.parametrize("name", TRACKS)
@pytest.mark.parametrize("preset", ("formula-d", "formule-de-basic"))
def test_races_on_a_real_board_are_those_of_the_readable_engine(
        name: str, preset: str, reference_races: ReferenceRaces) -> None:
    assert_same_races(reference_races, real_board(name), name, preset, BOTS, SEEDS)


@pytest.mark.parametrize("name", TRACKS)
def test_the_kernel_finds_the_legal_moves_of_a_real_board(name: str) -> None:
    rules = load_ruleset("formula-d")
    the_board = real_board(name)
    rng = random.Random(f"real-board:{name}")
    compared = 0
    for n in range(POSITIONS):
        state = position(the_board, rules, rng)
        roll = rng.randint(1, 30)
        expected = [engine_move(m) for m in legal_moves(state, 0, roll)]
        assert kernel_moves(state, 0, roll) == expected, (name, n, roll)
        compared += len(expected)
    assert compared > POSITIONS, "the positions should give plenty of moves to compare"


@pytest.mark.parametrize("name", TRACKS)
def test_a_real_board_is_within_the_kernels_limits(name: str) -> None:
    arrays = BoardArrays.of(real_board(name))
    for preset in ("formula-d", "formule-de-basic"):
        assert kernel_limit(arrays, load_ruleset(preset)) is None, (name, preset)


@pytest.mark.parametrize("name", TRACKS)
def test_a_test_drive_of_a_real_board_makes_pit_stops_at_its_garages(
        name: str, compiled_kernel: None) -> None:
    # GP Online's teams stop at garages in line in the pit lane; cautious drivers, who stop
    # once their tyres run low, make stops there in two-lap races on every real board.
    track = imported(name).track
    spec = DriveSpec.of(track, load_ruleset(), ("cautious",) * 6, seed=0, laps=2)
    stats = run_batch(spec, 20)
    garages = set(track.pit_lane.garages) if track.pit_lane else set()
    stopped = {space for (space, what), n in stats.spaces.items() if what == "pit_stops" and n}
    assert stopped and stopped <= garages, (name, stopped)
