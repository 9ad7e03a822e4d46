"""The engine's invariants hold in the kernel too: every race ends, no two cars share a space,
no move goes backward or leaves the links, no car moves once out, places run 1 to n, and no wear
category is ever below zero (checked on the kernel's own car table after every race, before any
value is read back)."""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.factories import ring
from tests.sim.helpers import rules
from tests.sim.invariants import check_race
from tests.sim.test_kernel_drivers import BOTS
from tests.sim.test_kernel_moves import TRACKS, board
from trackformat.sim import Board
from trackformat.sim.kernel import cars as kc
from trackformat.sim.kernel.race import KernelRacer


@cache
def ring_board(lanes: int, per_lane: int) -> Board:
    return Board.of(ring(lanes=lanes, per_lane=per_lane))


def race_soundly(racer: KernelRacer, seed: int) -> int:
    """Race ``seed`` and check it; the number of finishers."""
    result = racer.race(seed)
    check_race(racer.board, result)
    wear = racer.last_cars[:, kc.C_WEAR:kc.C_WEAR + 6]
    assert (wear >= 0).all(), "a wear category went below zero"
    assert result.completed or all(c.cause is not None for c in result.cars)
    return len(result.finish_order)


@settings(max_examples=25, deadline=None)
@given(lanes=st.integers(2, 4), per_lane=st.sampled_from([30, 40, 64]),
       lineup=st.lists(st.sampled_from(BOTS), min_size=2, max_size=8),
       preset=st.sampled_from(["formula-d", "formule-de-basic"]), seed=st.integers(0, 2**31),
       laps=st.integers(1, 2))
def test_kernel_races_on_rings_keep_every_invariant(lanes: int, per_lane: int, lineup: list[str],
                                                     preset: str, seed: int, laps: int) -> None:
    racer = KernelRacer(ring_board(lanes, per_lane), rules(preset), lineup, laps)
    race_soundly(racer, seed)


@pytest.mark.parametrize("track", TRACKS)
@pytest.mark.parametrize("preset", ["formula-d", "formule-de-basic"])
def test_kernel_races_on_every_track_keep_every_invariant(track: str, preset: str) -> None:
    lineup = [BOTS[car % len(BOTS)] for car in range(6)]
    racer = KernelRacer(board(track), rules(preset), lineup)
    finishers = sum(race_soundly(racer, seed) for seed in range(30))
    assert finishers > 0, "some cars should reach the flag"
