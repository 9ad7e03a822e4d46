"""The kernel offers the slipstream extras the readable engine offers, in the same order and by
the same routes, chained ones included, on random positions where a fast car leads; and it
sees a slipstream after exactly the moves the engine sees one after."""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest

from tests.sim.positions import position
from tests.sim.test_kernel_moves import TRACKS, board
from trackformat.rules import load_ruleset
from trackformat.sim import CarStatus, legal_moves, slipstream_leader, slipstream_moves
from trackformat.sim.kernel.ask import has_leader as race_has_leader
from trackformat.sim.kernel.cars import car_rows
from trackformat.sim.kernel.game import G_SLIP_AT_LEAST, G_SLIP_MIN_GEAR, GAME_COLUMNS
from trackformat.sim.kernel.jit import from_python
from trackformat.sim.kernel.moves import (
    board_arrays,
    engine_move,
    kernel_slipstream_moves,
    move_row,
)

has_leader = from_python(race_has_leader)


@pytest.mark.parametrize("track", TRACKS)
def test_the_kernel_offers_the_engines_slipstream_extras(track: str) -> None:
    rules = load_ruleset("formula-d")
    rng = random.Random(f"kernel-slipstream:{track}")
    the_board = board(track)
    arrays = board_arrays(the_board)
    game = np.zeros(GAME_COLUMNS, np.int64)
    game[G_SLIP_MIN_GEAR] = 4
    game[G_SLIP_AT_LEAST] = 1
    compared = chained = 0
    for n in range(300):
        state = position(the_board, rules, rng)
        mover = state.cars[0]
        state = state.with_car(replace(mover, gear=rng.randint(4, 6), status=CarStatus.RACING))
        # A leader in a gear the mover may follow, right ahead of where one of its moves ends.
        roll = rng.choice(rules.faces(state.cars[0].gear))
        taken = state.occupied()
        ends = [the_board.ahead.get(m.destination) for m in legal_moves(state, 0, roll)
                if m.distance == roll and m.eliminated is None and not m.box]
        free = [s for s in ends if s is not None and s not in taken]
        if not free or len(state.cars) < 2:
            continue
        leader = replace(state.cars[1], space=rng.choice(free), status=CarStatus.RACING,
                         gear=rng.randint(4, state.cars[0].gear), corner=None, stops=0)
        state = state.with_car(leader)
        every = legal_moves(state, 0, roll)
        rows = car_rows(state, arrays)
        for move in every:
            assert has_leader(rows, 0, move_row(move, arrays), arrays.in_pit, arrays.ahead,
                               game) == (slipstream_leader(state, 0, move) is not None)
        moves = [m for m in every if slipstream_leader(state, 0, m) is not None]
        for move in moves[:2]:
            expected = slipstream_moves(state, 0, move)
            assert kernel_slipstream_moves(state, 0, move) == [
                engine_move(m) for m in expected], (track, n, move.route)
            compared += 1 + len(expected)
            for extra in expected[:3]:
                # A second leader right ahead of where the extras end: a chained slipstream.
                front = the_board.ahead.get(extra.destination)
                if front is None or front in state.occupied() or len(state.cars) < 3:
                    continue
                chain = state.with_car(replace(
                    state.cars[2], space=front, status=CarStatus.RACING, corner=None, stops=0,
                    gear=rng.randint(4, state.cars[0].gear)))
                if slipstream_leader(chain, 0, extra) is not None:
                    again = slipstream_moves(chain, 0, extra)
                    assert kernel_slipstream_moves(chain, 0, extra) == [
                        engine_move(m) for m in again], (track, n, extra.route)
                    chained += 1
    # Harbour Sprint, the smallest board, gives the fewest (about 140 and 20).
    assert compared > 100 and chained > 15, "plenty of slipstreams, some chained, to compare"
