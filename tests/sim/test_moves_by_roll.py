"""Moves for every face of a die at once are exactly the moves of each face on its own."""

from __future__ import annotations

from collections.abc import Sequence

from tests.sim.helpers import ring_board, rules
from trackformat.sim import (
    GearOption,
    RaceState,
    RandomDriver,
    faces,
    legal_moves,
    legal_moves_by_roll,
    run_race,
)


class ComparingDriver(RandomDriver):
    compared = 0

    def choose_gear(self, state: RaceState, car: int,
                    options: Sequence[GearOption]) -> GearOption:
        option = super().choose_gear(state, car, options)
        rolls = set(faces(state.rules, option.gear))
        together = legal_moves_by_roll(state, car, rolls)
        assert together == {roll: legal_moves(state, car, roll) for roll in rolls}
        ComparingDriver.compared += 1
        return option


def test_moves_by_roll_match_moves_roll_by_roll_all_through_races() -> None:
    for seed in range(3):
        run_race(ring_board(), rules(), [ComparingDriver() for _ in range(6)], seed)
    assert ComparingDriver.compared > 100
