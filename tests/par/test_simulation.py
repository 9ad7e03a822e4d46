"""Races of the readable engine, driven by the policy par solved, take par turns on average.

The driver below plays par's policy through the engine's public API: the gear par chooses
(:meth:`~trackformat.par.solve.Solution.gear_of`), and the move whose outcomes, as
``play_move`` plays them die face by die face, have the least expected value
(:meth:`~trackformat.par.solve.Solution.value_of`). The engine then races as it always does:
its own dice, its own resolution, debris and all. If par's model of a turn were wrong, the
mean of the races would miss par: 2,000 races put it within a 99% interval, and the chance of
finishing within the likeliest number of turns within its own.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from tests.par import brute
from tests.par.brute import every_outcome
from tests.par.rings import short_ring
from tests.par.test_brute_force import formula_d_with_few_wp
from tests.reference_races import ReferenceValues
from trackformat.par.report import report
from trackformat.par.solve import Solution, solve
from trackformat.sim import Board, GearOption, Move, RaceState, play_move, run_race
from trackformat.sim.core.state import CarStatus

RACES = 2_000
Z99 = 2.576


class ParDriver:
    """Plays par's policy (see the module docstring)."""

    def __init__(self, solution: Solution) -> None:
        self.solution = solution

    def start_race(self, seed: int, car: int) -> None:
        pass

    def choose_gear(self, state: RaceState, car: int,
                    options: Sequence[GearOption]) -> GearOption:
        gear = self.solution.gear_of(state.cars[car])
        return next(option for option in options if option.gear == gear)

    def choose_move(self, state: RaceState, car: int, roll: int, moves: Sequence[Move]) -> Move:
        current = state.cars[car]
        # A quick stop's exit and a super start move without a gear die (no engine roll); a
        # super start leaves the car in first gear.
        die = None if current.pit_exit or current.gear == 0 else roll
        after_gear = 1 if current.gear == 0 else None
        return min(moves, key=lambda move: self.expected(state, car, move, die, after_gear))

    def expected(self, state: RaceState, car: int, move: Move, die: int | None,
                 after_gear: int | None) -> float:
        total = 0.0
        for chance, (after, _) in every_outcome(
                lambda rng: play_move(state, car, move, rng, gear_roll=die)):
            moved = after.cars[car]
            if after_gear is not None and moved.status in (CarStatus.RACING, CarStatus.SPUN):
                moved = replace(moved, gear=after_gear)
            value = self.solution.value_of(moved)
            assert value is not None, moved
            total += chance * value
        return total

    def choose_slipstream(self, state: RaceState, car: int, move: Move,
                          options: Sequence[Move]) -> Move | None:
        return None


def test_the_engine_driven_by_par_takes_par_turns_on_average(
        reference_values: ReferenceValues) -> None:
    track, rules, laps = short_ring(), formula_d_with_few_wp(), 2
    solution = solve(track, rules, laps)
    board = Board.of(track)

    def race() -> list[int]:
        """The turns of each race (remembered between runs: see tests/reference_races.py)."""
        driver, turns = ParDriver(solution), []
        for seed in range(RACES):
            result = run_race(board, rules, [driver], seed=seed, laps=laps)
            assert result.cars[0].status == CarStatus.FINISHED  # never eliminated
            turns.append(result.turns)
        return turns

    parts = ["par's policy raced", Path(__file__).read_text(encoding="utf-8"),
             Path(brute.__file__).read_text(encoding="utf-8"), track.model_dump_json(),
             rules.model_dump_json(), laps, RACES]
    turns = reference_values.value(parts, race, valid=_turns)
    if _off_par(turns, solution):  # held to races run afresh
        turns = reference_values.value(parts, race, fresh=True)
    assert not _off_par(turns, solution), _off_par(turns, solution)


def _turns(value: object) -> bool:
    return (isinstance(value, list) and len(value) == RACES
            and all(type(turns) is int for turns in value))


def _off_par(turns: list[int], solution: Solution) -> str:
    """How the races miss par's figures (empty when they do not): the mean turns within a 99%
    interval of par, and the share finishing within the likeliest number of turns within one
    of the chance par gives it."""
    mean = sum(turns) / RACES
    spread = math.sqrt(sum((t - mean) ** 2 for t in turns) / (RACES - 1))
    if abs(mean - solution.par) > Z99 * spread / math.sqrt(RACES):
        return f"mean {mean} turns, par {solution.par}"
    likeliest = max(report(solution)["distribution"], key=lambda row: row["chance"])
    within = sum(t <= likeliest["turns"] for t in turns) / RACES
    chance = likeliest["within"]
    if abs(within - chance) > Z99 * math.sqrt(chance * (1 - chance) / RACES):
        return f"{within} within {likeliest['turns']} turns, par's chance {chance}"
    return ""
