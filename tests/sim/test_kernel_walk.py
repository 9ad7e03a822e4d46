"""The compiled walk where the other kernel tests seldom take it: a four-lane ring, where a
sixth-gear roll has up to a thousand routes (more than the walk's first table holds, so the
table grows mid-walk), every face of sixth gear asked at once, and a route longer than the
kernel keeps."""

from __future__ import annotations

import random
from functools import cache

import pytest

from tests.factories import ring
from tests.sim.positions import position
from tests.sim.test_kernel_moves import PRESETS
from trackformat.rules import load_ruleset
from trackformat.sim import Board, CarState, RaceState, Wear, legal_moves_by_roll
from trackformat.sim.kernel import route_rows as kw
from trackformat.sim.kernel.moves import (
    engine_move,
    kernel_moves,
    kernel_moves_by_roll,
    kernel_routes,
)


@cache
def wide() -> Board:
    """A ring of four lanes and 80 spaces a lane: long straights where routes multiply."""
    return Board.of(ring(lanes=4, per_lane=80))


@pytest.mark.parametrize("preset", PRESETS)
def test_every_face_of_sixth_gear_on_four_lanes_as_the_reference_engine_moves(
        preset: str) -> None:
    rules = load_ruleset(preset)
    rng = random.Random(f"kernel-walk:{preset}")
    faces = rules.faces(6)
    first_table = kw.ROUTES_PER_SPACE * (max(faces) + 1)
    outgrown = 0
    for n in range(40):
        state = position(wide(), rules, rng, cars=rng.choice((2, 4, 10)))
        got = kernel_moves_by_roll(state, 0, faces)
        for face, moves in legal_moves_by_roll(state, 0, faces).items():
            assert got[face] == [engine_move(m) for m in moves], (preset, n, face)
        outgrown += len(kernel_routes(state, 0, max(faces))) > first_table
    assert outgrown >= 2, "some walks should outgrow the walk's first route table"


def test_a_route_longer_than_the_kernel_keeps_is_refused_with_a_clear_error() -> None:
    rules = load_ruleset("formula-d")
    car = CarState(index=0, space="1-30", gear=6, wear=Wear.of(rules.starting_wear(2)), lap=1)
    state = RaceState(board=wide(), rules=rules, laps=2, cars=(car,), debris=frozenset())
    assert kernel_moves(state, 0, kw.MAX_DEPTH)  # as long as the kernel keeps: moves
    with pytest.raises(ValueError, match="a route longer than the kernel keeps"):
        kernel_moves(state, 0, kw.MAX_DEPTH + 1)
