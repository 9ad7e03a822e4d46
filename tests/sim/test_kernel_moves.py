"""The compiled kernel finds the same legal moves as the readable engine, on thousands of
random positions: packs of cars across every lane, debris in the way, corners half done, spun
cars on their last tyres, cars in the pit lane and with their window open.

The readable engine is the reference: every move it lists (by destination, costs, blocking,
spin, elimination, overshoots, debris and box) must be found by the kernel, and nothing else,
in the same order and by the same route, so that a driver choosing by its place in the list
(the random driver) chooses the same move in both engines.
"""

from __future__ import annotations

import io
import random
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from tests.sim.positions import position
from tests.sim.recorded import board as recorded_board
from trackformat.io import load_track
from trackformat.rules import load_ruleset
from trackformat.sim import Board, legal_moves, legal_moves_by_roll
from trackformat.sim.kernel.arrays import BoardArrays
from trackformat.sim.kernel.moves import engine_move, kernel_moves, kernel_moves_by_roll
from trackformat.sim.kernel.race import KernelRacer
from trackformat.sim.kernel.warm import announced, is_cached, variant_of

SHIPPED = sorted((Path(__file__).parent.parent.parent / "tracks").glob("*.json"))
TRACKS = ["ring", "monaco-snapshot", *(p.stem for p in SHIPPED)]
PRESETS = ("formula-d", "formule-de-basic")
POSITIONS = 300
"""Random positions per track and ruleset (3,000 in all), each asked one roll and every face of
a gear die."""


@cache
def board(name: str) -> Board:
    """The test ring, the recorded Monaco snapshot, or a shipped track by file name."""
    if name in ("ring", "monaco-snapshot"):
        return recorded_board(name.removesuffix("-snapshot"))
    return Board.of(load_track(next(p for p in SHIPPED if p.stem == name)))


@pytest.mark.parametrize("track", TRACKS)
@pytest.mark.parametrize("preset", PRESETS)
def test_the_kernel_finds_the_legal_moves_of_the_reference_engine(track: str,
                                                                  preset: str) -> None:
    rules = load_ruleset(preset)
    rng = random.Random(f"kernel:{track}:{preset}")
    compared = 0
    for n in range(POSITIONS):
        state = position(board(track), rules, rng)
        roll = rng.randint(1, 30)
        expected = [engine_move(m) for m in legal_moves(state, 0, roll)]
        assert kernel_moves(state, 0, roll) == expected, (track, preset, n, roll)
        compared += len(expected)
        # Every face of a gear die at once, from one walk, as the strong driver asks.
        faces = rules.faces(rng.randint(1, 6))
        by_roll = kernel_moves_by_roll(state, 0, faces)
        for face, moves in legal_moves_by_roll(state, 0, faces).items():
            assert by_roll[face] == [engine_move(m) for m in moves], (track, preset, n, face)
            compared += len(moves)
    assert compared > 2 * POSITIONS, "the positions should give plenty of moves to compare"


def test_the_board_arrays_number_every_space_and_keep_the_engine_order() -> None:
    the_board = board("ring")
    arrays = BoardArrays.of(the_board)
    assert len(arrays.names) == len(the_board.kind)
    for name, number in arrays.number.items():
        row = arrays.track_next[number]
        assert [arrays.names[v] for v in row[row >= 0]] == list(the_board.track_next.get(name, ()))
        row = arrays.contacts[number]
        assert {arrays.names[v] for v in row[row >= 0]} == set(the_board.contacts.get(name, ()))
        assert arrays.lane[number] == the_board.lane.get(name, -1)
    north = arrays.corner_names.index("north")
    assert arrays.corner_stops[north] == 1
    assert np.all(arrays.corner[[arrays.number[s] for s in ("1-8", "2-9", "3-11")]] == north)


def test_a_cold_kernel_says_on_stderr_that_it_is_compiling_and_how_long_it_took(
        tmp_path: Path) -> None:
    err = io.StringIO()
    kernel = KernelRacer(board("ring"), load_ruleset("formula-d"), ["random", "random"], 1)
    result, seconds = announced(lambda: kernel.race(3), "random", err=err, folder=tmp_path)
    assert result.turns > 0
    lines = err.getvalue().splitlines()
    assert lines[0] == f"trackformat: compiling the race kernel, once (kept in {tmp_path})..."
    assert lines[1] == f"trackformat: race kernel compiled in {seconds:.1f} s"
    assert is_cached("random", tmp_path) and not is_cached("strong", tmp_path)
    err = io.StringIO()
    announced(lambda: kernel.race(3), "random", err=err, folder=tmp_path)
    assert err.getvalue() == "", "a warm cache compiles nothing and says nothing"
    announced(lambda: kernel.race(3), "strong", err=err, folder=tmp_path)
    assert err.getvalue().startswith("trackformat: compiling the race kernel, once"), (
        "another mix of drivers compiles a race loop of its own")


def test_each_mix_of_drivers_races_on_a_race_loop_of_its_own() -> None:
    assert [variant_of(bots) for bots in (["random"] * 3, ["strong", "random"],
                                          ["cautious"], ["strong", "cautious", "random"])] == [
        "random", "strong", "cautious", "cautious+strong"]


def test_a_cold_compile_drops_the_oldest_compiled_versions_of_the_kernel(tmp_path: Path) -> None:
    import os

    from trackformat.sim.kernel.warm import drop_old_kernels

    for age, name in enumerate(("kernel-new", "kernel-current", "kernel-old", "kernel-older",
                                "strong-tables-of-someone", "kernel-oldest")):
        (tmp_path / name).mkdir()
        (tmp_path / name / "kept.nbi").touch()
        os.utime(tmp_path / name, (2_000_000 - age * 1000, 2_000_000 - age * 1000))
    drop_old_kernels(tmp_path / "kernel-current", kept=2)
    left = sorted(path.name for path in tmp_path.iterdir())
    assert left == ["kernel-current", "kernel-new", "kernel-old", "strong-tables-of-someone"]
