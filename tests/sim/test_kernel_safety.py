"""The cautious driver's shortcut in the kernel gives up a gear before walking its routes only
when the readable driver would find it unsafe: where a car's moves may end (``reach``) holds
every legal move's end, and a face ruled out (``no_safe_end``) has no move the readable
cautious driver calls safe. Checked on random positions of every shipped track and the test
ring, both rulesets; the races themselves are compared in ``test_kernel_drivers``."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from tests.sim.positions import position
from tests.sim.test_kernel_moves import PRESETS, TRACKS, board
from trackformat.rules import Ruleset, load_ruleset
from trackformat.sim import Board, legal_moves
from trackformat.sim.drivers.bots import CautiousDriver
from trackformat.sim.kernel import cars as kc
from trackformat.sim.kernel import cautious, game
from trackformat.sim.kernel.arrays import BoardArrays
from trackformat.sim.kernel.game import Ints
from trackformat.sim.kernel.jit import from_python
from trackformat.sim.kernel.reach import CLEAN, IN_START_CORNER, SHORT, STANDINGS
from trackformat.sim.kernel.reach import reach as race_reach
from trackformat.sim.kernel.safety import no_safe_end as race_no_safe_end

reach = from_python(race_reach)
no_safe_end = from_python(race_no_safe_end)

POSITIONS = 150


def _setup(track: str, preset: str) -> tuple[Board, Ruleset, BoardArrays, tuple[Ints, ...]]:
    """The board, the rules, the board as arrays and the board tuple compiled code reads."""
    the_board, rules = board(track), load_ruleset(preset)
    arrays = BoardArrays.of(the_board)
    return the_board, rules, arrays, game.board_tables(arrays)


@pytest.mark.parametrize("track", TRACKS)
@pytest.mark.parametrize("preset", PRESETS)
def test_every_legal_move_ends_where_the_car_may_reach(track: str, preset: str) -> None:
    the_board, rules, arrays, tables = _setup(track, preset)
    number = {name: n for n, name in enumerate(arrays.names)}
    rng = random.Random(f"reach:{track}:{preset}")
    checked = 0
    for n in range(POSITIONS):
        state = position(the_board, rules, rng)
        roll = rng.randint(1, 30)
        ends, counts = reach(kc.car_rows(state, arrays)[0], roll, tables)
        start = state.cars[0].space
        start_corner = None if the_board.in_pit(start) else the_board.corner_of.get(start)
        for move in legal_moves(state, 0, roll):
            if move.overshoots:
                standing = SHORT
            elif start_corner is not None and all(
                    the_board.corner_of.get(s) == start_corner for s in move.route):
                standing = IN_START_CORNER
            else:
                standing = CLEAN
            depth = len(move.route)
            assert counts[depth] >= 0, (track, preset, n, roll)
            found = set(ends[depth, :counts[depth]].tolist())
            assert number[move.destination] * STANDINGS + standing in found, (
                track, preset, n, roll, move.destination, standing)
            checked += 1
    assert checked > POSITIONS, "the positions should give plenty of moves"


@pytest.mark.parametrize("track", TRACKS)
@pytest.mark.parametrize("preset", PRESETS)
def test_a_face_ruled_out_before_the_walk_has_no_safe_move(track: str, preset: str) -> None:
    the_board, rules, arrays, tables = _setup(track, preset)
    rule_tables = game.rule_set(the_board, arrays, rules, 2)
    driver_tables = cautious.tables(the_board, arrays, rules, 2)
    driver = CautiousDriver()
    rng = random.Random(f"safety:{track}:{preset}")
    ruled_out = kept = 0
    for n in range(POSITIONS):
        state = position(the_board, rules, rng)
        ends, counts = reach(kc.car_rows(state, arrays)[0], 30, tables)
        for gear in range(1, len(rules.dice.gears) + 1):
            in_gear = state.with_car(replace(state.cars[0], gear=gear))
            face = max(rules.faces(gear))
            row = kc.car_rows(in_gear, arrays)[0]
            if no_safe_end(driver_tables, row, face, ends, counts, tables, rule_tables):
                assert not any(driver.safe(in_gear, 0, move)
                               for move in legal_moves(in_gear, 0, face)), (
                    track, preset, n, gear, face)
                ruled_out += 1
            else:
                kept += 1
    # Not a check that never fires: many of these faces are ruled out, and many are not.
    assert ruled_out > POSITIONS and kept > POSITIONS, (ruled_out, kept)
