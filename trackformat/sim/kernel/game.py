"""A race's rules and board as the arrays the compiled race reads, built once per batch.

The kernel's compiled functions take no Python objects: the board is a tuple of numbered arrays
(:func:`board_tables`, in the order of :data:`BOARD`), and the rules of one race (ruleset and
race length) a tuple of int arrays (:func:`rule_set`, in the order of :data:`RULES`): the
resolution's numbers and tables (:mod:`~trackformat.sim.kernel.resolve`), the shifting numbers
(:mod:`~trackformat.sim.kernel.cars`), and the numbers the turn needs (``G_*``), the flag tables
(``F_*``), the gear dice and the slipstream's lane patterns.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from trackformat.rules import Ruleset
from trackformat.sim.core.board import Board
from trackformat.sim.kernel import cars as kc
from trackformat.sim.kernel import race_rules as krr
from trackformat.sim.kernel.arrays import BoardArrays
from trackformat.sim.kernel.moves import blocking_table
from trackformat.sim.move.slipstream import _patterns

Ints = npt.NDArray[np.int64]

(TRACK_NEXT, PIT_NEXT, PIT_ENTRY, LANE, LANE_INDEX, LANE_LENGTH, CORNER, CORNER_STOPS, IN_PIT,
 IS_BOX, AHEAD, CROSSING, CONTACTS, PROGRESS, INSIDE, PIT_HALF) = range(16)
BOARD = ("track_next", "pit_next", "pit_entry", "lane", "lane_index", "lane_length", "corner",
         "corner_stops", "in_pit", "is_box", "ahead", "crossing", "contacts", "progress",
         "inside", "pit_half")
"""The board's arrays in the order of the board tuple (their names in :class:`BoardArrays`)."""

NUMBERS, TABLES, TRIGGERS, SHIFTING, SHIFT_COSTS, GAME, FLAGS, GEARS, SHAPES = range(9)
RULES = ("numbers", "tables", "triggers", "shifting", "shift_costs", "game", "flags", "gears",
         "shapes")
"""The rules' arrays in the order of the rules tuple."""

(G_MAX_CHANGES, G_BRAKES_PER_SPACE, G_TYRES_PER_SPACE, G_ELIMINATED_MISSING, G_RESPIN_MAX,
 G_BLOCK_FROM, G_HAS_PIT_ENTRY, G_MAX_STOPS, G_SUPER_SPACES, G_LIMIT, G_PIT_ENTRY_RANK,
 G_TIE_INSIDE, G_SLIPSTREAM, G_SLIP_MIN_GEAR, G_SLIP_AT_LEAST, G_SLIP_EXTRA, G_SLIP_BRAKES,
 G_SLIP_TYRES) = range(18)
GAME_COLUMNS = 18
"""The numbers of a race the turn needs besides the resolution's (``P_*``)."""

(F_BLOCK_BRAKES, F_BLOCK_TYRES, F_WINDOW, F_STALL, F_SUPER) = range(5)
"""Rows of the race's flag tables: blocking costs by spaces left over, the pit window by laps
done, and the start's black-die results."""

DIE = 63
"""In a row of the gear dice, the column that holds the number of faces."""


def board_tables(arrays: BoardArrays) -> tuple[Ints, ...]:
    """The board tuple of ``arrays``."""
    return tuple(getattr(arrays, name) for name in BOARD)


def rule_set(board: Board, arrays: BoardArrays, rules: Ruleset, laps: int,
             max_turns: int | None = None) -> tuple[Ints, ...]:
    """The rules tuple of a race of ``laps`` laps on ``board`` (``max_turns``: the runner's turn
    limit, by default the readable runner's)."""
    numbers, tables, triggers = krr.rule_tables(rules, laps, arrays.pit_exit_crosses)
    shifting, shift_costs = kc.shifting(rules)
    game = np.zeros(GAME_COLUMNS, np.int64)
    game[G_MAX_CHANGES] = rules.movement.max_lane_changes_on_straight
    game[G_BRAKES_PER_SPACE] = rules.movement.brakes_per_space
    game[G_TYRES_PER_SPACE] = rules.corners.tyres_per_space
    game[G_ELIMINATED_MISSING] = rules.corners.eliminated_missing
    game[G_RESPIN_MAX] = rules.spin_out.respin_max_spaces
    block_brakes, block_tyres, block_from = blocking_table(rules)
    game[G_BLOCK_FROM] = block_from
    game[G_HAS_PIT_ENTRY] = bool(board.pit_entry)
    window = rules.pits.window(laps)
    game[G_MAX_STOPS] = window.max_stops if window is not None else -1
    game[G_SUPER_SPACES] = rules.start.super_start_spaces
    game[G_LIMIT] = (max_turns if max_turns is not None
                     else 4 * board.lap_length * (laps + 1) + 100)
    game[G_PIT_ENTRY_RANK] = arrays.pit_entry_rank
    game[G_TIE_INSIDE] = rules.tie_break.value == "inside"
    slip = rules.slipstream
    shapes = np.zeros((1, 1), np.int64)
    if slip is not None:
        game[G_SLIPSTREAM] = 1
        game[G_SLIP_MIN_GEAR] = slip.min_gear
        game[G_SLIP_AT_LEAST] = slip.follower_at_least_leader
        game[G_SLIP_EXTRA] = slip.extra_spaces
        game[G_SLIP_BRAKES] = slip.corner_entry_cost.brakes
        game[G_SLIP_TYRES] = slip.corner_entry_cost.tyres
        shapes = np.array(_patterns(slip.extra_spaces), np.int64)
    # Wide enough for every face of the black die (a house die may print up to 100).
    width = max(64, len(block_brakes), len(block_tyres),
                1 + max([*rules.dice.black, *rules.start.stall, *rules.start.super_start]))
    flags = np.zeros((5, width), np.int64)
    flags[F_BLOCK_BRAKES, : len(block_brakes)] = block_brakes
    flags[F_BLOCK_TYRES, : len(block_tyres)] = block_tyres
    for done in window.after_laps if window is not None else ():
        flags[F_WINDOW, done] = 1
    for face in rules.start.stall:
        flags[F_STALL, face] = 1
    for face in rules.start.super_start:
        flags[F_SUPER, face] = 1
    gears = np.zeros((len(rules.dice.gears), 64), np.int64)
    for n, faces in enumerate(rules.dice.gears):
        gears[n, : len(faces)] = faces
        gears[n, DIE] = len(faces)
    return (numbers, tables, triggers, shifting, shift_costs, game, flags, gears, shapes)
