"""A race's rules and its few running numbers as the compiled kernel reads them: a row of
numbers (``P_*``), a few tables (``T_*`` rows) and the engine's triggers, built once per race
from the ruleset (:func:`rule_tables`), and the race's own numbers (``R_*``,
:func:`race_numbers`). :mod:`~trackformat.sim.kernel.resolve` plays moves with them."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from trackformat.rules import WEAR_CATEGORIES, Ruleset
from trackformat.sim.core.state import RaceState

Ints = npt.NDArray[np.int64]

R_SEQUENCE, R_FINISHED, R_REPAIRS = 0, 1, 2
"""The race's numbers: moves made so far, cars finished so far, then the team race's repair WP
left to each team (team ``k`` at ``R_REPAIRS + k``; none when the rules have no repairs)."""


def race_numbers(state: RaceState) -> Ints:
    """The race's numbers (``R_*``) of ``state``."""
    return np.array([state.sequence, len(state.finish_order), *state.repairs], np.int64)


(P_LAPS, P_STOP_AFTER_OVERSHOOT, P_HITS_AHEAD, P_QUICK_MAX, P_QUICK_DIVISOR, P_QUICK_GEAR,
 P_HAS_DEBRIS, P_DEBRIS_BODY, P_DEBRIS_ENGINE, P_DEBRIS_ELIMINATION, P_COSTS_ARRIVING,
 P_HAS_ENGINE, P_PIT_EXIT_CROSSES, P_TEAM_REPAIRS) = range(14)
RULE_COLUMNS = 14

T_BLACK, T_DEBRIS_LOSING, T_CONTACT_LOSING, T_ENGINE_LOSING, T_ENGINE_GEARS, T_REFILL = range(6)
"""Rows of the rule tables: the black die's faces (padded with 0), then flags by face or
gear, then flags by wear category: 1 for those a pit stop refills (to the car's own starting
WP, in its row)."""


def rule_tables(rules: Ruleset, laps: int, pit_exit_crosses: bool) -> tuple[Ints, Ints, Ints]:
    """The numbers (``P_*``), the tables (``T_*`` rows) and the engine triggers (gear, face)
    of ``rules`` for a race of ``laps`` laps."""
    numbers = np.zeros(RULE_COLUMNS, np.int64)
    numbers[P_LAPS] = laps
    numbers[P_STOP_AFTER_OVERSHOOT] = rules.corners.stop_after_overshoot_counts
    numbers[P_HITS_AHEAD] = rules.blocking.elimination_hits_car_ahead
    numbers[P_QUICK_MAX] = rules.pits.quick_max
    numbers[P_QUICK_DIVISOR] = rules.pits.quick_divisor
    numbers[P_QUICK_GEAR] = rules.pits.quick_gear
    numbers[P_COSTS_ARRIVING] = rules.collision.eliminating_costs_arriving
    numbers[P_PIT_EXIT_CROSSES] = pit_exit_crosses
    numbers[P_TEAM_REPAIRS] = rules.team_repairs is not None
    # A row per table, a column per face of the black die (a house die may print up to 100),
    # and the die's number of faces in the last column.
    faces = [*rules.dice.black, *rules.collision.losing]
    if rules.debris is not None:
        faces += rules.debris.losing
    if rules.engine_damage is not None:
        faces += rules.engine_damage.losing
    width = max(64, len(rules.dice.black) + 1, max(faces) + 2)
    tables = np.zeros((6, width), np.int64)
    tables[T_BLACK, : len(rules.dice.black)] = rules.dice.black
    tables[T_BLACK, width - 1] = len(rules.dice.black)
    for face in rules.collision.losing:
        tables[T_CONTACT_LOSING, face] = 1
    if rules.debris is not None:
        numbers[P_HAS_DEBRIS] = 1
        numbers[P_DEBRIS_BODY] = rules.debris.on_body_loss
        numbers[P_DEBRIS_ENGINE] = rules.debris.on_engine_loss
        numbers[P_DEBRIS_ELIMINATION] = rules.debris.on_elimination
        for face in rules.debris.losing:
            tables[T_DEBRIS_LOSING, face] = 1
    triggers = np.zeros((0, 2), np.int64)
    if rules.engine_damage is not None:
        numbers[P_HAS_ENGINE] = 1
        for face in rules.engine_damage.losing:
            tables[T_ENGINE_LOSING, face] = 1
        for gear in rules.engine_damage.gears:
            tables[T_ENGINE_GEARS, gear] = 1
        triggers = np.array([[t.gear, t.face] for t in rules.engine_damage.triggers],
                            np.int64).reshape(-1, 2)
    for category in rules.pits.refill:
        tables[T_REFILL, WEAR_CATEGORIES.index(category)] = 1
    return numbers, tables, triggers
