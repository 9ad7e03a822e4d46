"""The kernel's legal moves asked with a race state: the bridge the differential tests cross.

:func:`kernel_moves` turns a :class:`~trackformat.sim.core.state.RaceState` into the arrays of
:func:`~legal_move_rows`, and its rows into (:class:`MoveKey`,
route) pairs in the engine's order; :func:`engine_move` gives the same pair for a
:class:`~trackformat.sim.move.value.Move` of the readable engine, so the two engines' move lists
compare with ``==``, order and chosen routes included.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from trackformat.rules import Ruleset
from trackformat.sim.core.board import Board
from trackformat.sim.core.state import CarStatus, Cause, RaceState
from trackformat.sim.kernel import price as kp
from trackformat.sim.kernel import route_rows as krows
from trackformat.sim.kernel import terms as kt
from trackformat.sim.kernel import walk as kw
from trackformat.sim.kernel.arrays import BoardArrays
from trackformat.sim.kernel.jit import entry, from_python, inlined
from trackformat.sim.kernel.rolls import moves_of
from trackformat.sim.kernel.workspace import new_workspace
from trackformat.sim.move.routes import may_enter_pit
from trackformat.sim.move.slipstream import _patterns
from trackformat.sim.move.value import Move

Ints = npt.NDArray[np.int64]

CAUSES: dict[int, Cause | None] = {
    kp.NOT_ELIMINATED: None,
    kp.BY_MISSED_STOPS: Cause.MISSED_STOPS,
    kp.BY_OVERSHOOT: Cause.OVERSHOOT,
    kp.BY_SPIN: Cause.SPIN,
    kp.BY_BLOCKED: Cause.BLOCKED,
}


class MoveKey(NamedTuple):
    """What tells two moves apart (the readable engine lists each once)."""

    destination: str
    brakes: int
    tyres: int
    blocked: int
    spin: bool
    eliminated: Cause | None
    overshoots: tuple[tuple[str, int, int], ...]
    debris: int
    box: bool


def move_key(move: Move) -> MoveKey:
    """The key of a move of the readable engine."""
    return MoveKey(move.destination, move.brakes, move.tyres, move.blocked, move.spin,
                   move.eliminated, tuple((e.corner, e.spaces, e.missing)
                                          for e in move.overshoots),
                   len(move.debris), move.box)


_ARRAYS: dict[int, tuple[Board, BoardArrays]] = {}


def board_arrays(board: Board) -> BoardArrays:
    """The arrays of ``board``, built once per board object."""
    known = _ARRAYS.get(id(board))
    if known is None or known[0] is not board:
        if len(_ARRAYS) > 16:
            _ARRAYS.clear()
        known = _ARRAYS[id(board)] = (board, BoardArrays.of(board))
    return known[1]


def blocking_table(rules: Ruleset) -> tuple[np.ndarray, np.ndarray, int]:
    """The blocking table by spaces left over: (brakes WP, tyres WP, eliminated from)."""
    block = rules.blocking
    size = max(block.eliminated_from, 1)
    brakes = np.zeros(size, np.int64)
    tyres = np.zeros(size, np.int64)
    for spaces in range(1, block.eliminated_from):
        cost = block.cost(spaces)
        if cost is not None:
            brakes[spaces], tyres[spaces] = cost.brakes, cost.tyres
    return brakes, tyres, block.eliminated_from


KernelMove = tuple[MoveKey, tuple[str, ...]]
"""A move found by the kernel: its key and its route."""


def engine_move(move: Move) -> KernelMove:
    """A move of the readable engine as the kernel gives it."""
    return move_key(move), move.route


def kernel_moves(state: RaceState, car: int, roll: int) -> list[KernelMove]:
    """The legal moves of ``car`` for ``roll``, found by the compiled walk, in the engine's
    order (:func:`~trackformat.sim.move.legal.legal_moves`)."""
    return kernel_moves_by_roll(state, car, (roll,))[roll]


def kernel_moves_by_roll(state: RaceState, car: int,
                         rolls: Iterable[int]) -> dict[int, list[KernelMove]]:
    """:func:`kernel_moves` for several rolls at once, from one walk (every face of a die)."""
    wanted = sorted(set(rolls))
    if not wanted:
        return {}
    arrays = board_arrays(state.board)
    found: dict[int, list[KernelMove]] = {roll: [] for roll in wanted}
    for row in kernel_move_rows(state, car, wanted).tolist():
        found[row[kp.M_ROLL]].append(kernel_move(row, arrays))
    return found


def kernel_move_rows(state: RaceState, car: int, wanted: list[int]) -> npt.NDArray[np.int64]:
    """The kernel's moves of ``car`` for the sorted, distinct rolls ``wanted``, as rows
    (:mod:`trackformat.sim.kernel.price`), roll by roll in the engine's order."""
    rules = state.rules
    current = state.cars[car]
    arrays, origin, occupied, debris, passable, counts = _setting(state, car)
    block_brakes, block_tyres, block_from = blocking_table(rules)
    rows: npt.NDArray[np.int64] = legal_move_rows(
        arrays.track_next, arrays.pit_next, arrays.pit_entry, arrays.lane, arrays.lane_index,
        arrays.lane_length, arrays.corner, arrays.corner_stops, arrays.in_pit, arrays.is_box,
        origin, occupied, debris, passable, counts, np.asarray(wanted, np.int64),
        may_enter_pit(state, current),
        arrays.number[current.box] if current.box is not None else -1,
        rules.movement.max_lane_changes_on_straight, current.wear.brakes, current.wear.tyres,
        current.status == CarStatus.SPUN, rules.movement.brakes_per_space,
        rules.corners.tyres_per_space, rules.corners.eliminated_missing,
        rules.spin_out.respin_max_spaces, block_from, block_brakes, block_tyres)
    return rows


def kernel_routes(state: RaceState, car: int, roll: int) -> npt.NDArray[np.int64]:
    """The routes the kernel walks for ``car`` and ``roll`` (before pricing), one row each
    (``R_*`` columns, :mod:`trackformat.sim.kernel.route_rows`), in the walk's order."""
    current = state.cars[car]
    arrays, origin, occupied, debris, passable, counts = _setting(state, car)
    walk = np.zeros(krows.WALK_COLUMNS, np.int64)
    walk[krows.W_BASE] = walk[krows.W_OWN_LANE] = -1
    walk[krows.W_LIMITED_UNTIL] = walk[krows.W_ENTRIES_FROM] = krows.NEVER
    walk[krows.W_ROLL], walk[krows.W_MAY_PIT] = roll, may_enter_pit(state, current)
    walk[krows.W_CAR_BOX] = arrays.number[current.box] if current.box is not None else -1
    walk[krows.W_MAX_CHANGES] = state.rules.movement.max_lane_changes_on_straight
    board = (arrays.track_next, arrays.pit_next, arrays.pit_entry, arrays.lane,
             arrays.lane_index, arrays.lane_length, arrays.corner, arrays.corner_stops,
             arrays.in_pit, arrays.is_box)
    workspace = new_workspace(len(arrays.names), len(arrays.lane_length),
                    max(arrays.track_next.shape[1] + arrays.pit_entry.shape[1],
                        arrays.pit_next.shape[1]), len(state.cars))
    walk_routes = from_python(kw.walk_routes)
    routes, count = walk_routes(board, (occupied, debris, passable, counts), origin, walk,
                                np.zeros((1, 1), np.int64), workspace[0])
    found: npt.NDArray[np.int64] = routes[:count, : krows.ROUTE_COLUMNS].copy()
    for row in found:  # the walk leaves the path past a route's depth unwritten
        row[krows.R_PATH + row[krows.R_DEPTH]:] = -1
    return found


def kernel_slipstream_moves(state: RaceState, car: int, move: Move) -> list[KernelMove]:
    """The kernel's slipstream extras after ``move`` (whose slipstream conditions hold: see
    :func:`~trackformat.sim.move.slipstream.slipstream_leader`), in the engine's order."""
    rules = state.rules
    slip = rules.slipstream
    if slip is None:
        return []
    current = state.cars[car]
    arrays, origin, occupied, debris, passable, counts = _setting(state, car)
    block_brakes, block_tyres, block_from = blocking_table(rules)
    shapes = np.array(_patterns(slip.extra_spaces), np.int64)
    cost = slip.corner_entry_cost
    rows = slipstream_rows(
        arrays.track_next, arrays.pit_next, arrays.pit_entry, arrays.lane, arrays.lane_index,
        arrays.lane_length, arrays.corner, arrays.corner_stops, arrays.in_pit, arrays.is_box,
        origin, occupied, debris, passable, counts, move_row(move, arrays), slip.extra_spaces,
        shapes, cost.brakes, cost.tyres, may_enter_pit(state, current),
        arrays.number[current.box] if current.box is not None else -1,
        rules.movement.max_lane_changes_on_straight, current.wear.brakes, current.wear.tyres,
        current.status == CarStatus.SPUN, rules.movement.brakes_per_space,
        rules.corners.tyres_per_space, rules.corners.eliminated_missing,
        rules.spin_out.respin_max_spaces, block_from, block_brakes, block_tyres)
    return [kernel_move(row, arrays) for row in rows.tolist()]


def kernel_move(row: list[int], arrays: BoardArrays) -> KernelMove:
    """A move row as (key, route)."""
    names, corners = arrays.names, arrays.corner_names
    exits = tuple((corners[row[kp.M_EXITS + 3 * e]], row[kp.M_EXITS + 3 * e + 1],
                   row[kp.M_EXITS + 3 * e + 2]) for e in range(row[kp.M_NEXITS]))
    key = MoveKey(names[row[kp.M_DEST]], row[kp.M_BRAKES], row[kp.M_TYRES],
                  row[kp.M_BLOCKED], bool(row[kp.M_SPIN]), CAUSES[row[kp.M_ELIMINATED]],
                  exits, row[kp.M_DEBRIS], bool(row[kp.M_BOX]))
    return key, tuple(names[v] for v in row[kp.M_ROUTE: kp.M_ROUTE + row[kp.M_DISTANCE]])


def move_row(move: Move, arrays: BoardArrays) -> npt.NDArray[np.int64]:
    """A move of the readable engine as a kernel move row."""
    number = arrays.number
    row = np.full(kp.MOVE_COLUMNS, -1, np.int64)
    row[kp.M_ROLL] = move.roll
    row[kp.M_DEST] = number[move.destination]
    row[kp.M_BRAKES], row[kp.M_TYRES], row[kp.M_BLOCKED] = move.brakes, move.tyres, move.blocked
    row[kp.M_SPIN] = move.spin
    row[kp.M_ELIMINATED] = next(code for code, cause in CAUSES.items()
                                if cause == move.eliminated)
    row[kp.M_DEBRIS], row[kp.M_BOX] = len(move.debris), move.box
    row[kp.M_NEXITS] = len(move.overshoots)
    for e, exit_ in enumerate(move.overshoots):
        row[kp.M_EXITS + 3 * e: kp.M_EXITS + 3 * e + 3] = (
            arrays.corner_names.index(exit_.corner), exit_.spaces, exit_.missing)
    row[kp.M_DISTANCE] = move.distance
    row[kp.M_ROUTE: kp.M_ROUTE + move.distance] = [number[s] for s in move.route]
    row[kp.M_ENTRIES], row[kp.M_SLIPSTREAM] = move.corner_entries, move.slipstream
    return row


def _setting(state: RaceState, car: int) -> tuple[BoardArrays, npt.NDArray[np.int64],
                                                  npt.NDArray[np.int64], npt.NDArray[np.int64],
                                                  npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """What a walk of ``car`` reads: the board's arrays, the car's origin route, the other
    cars' spaces, the debris, and the cars and debris of each lane."""
    board = state.board
    arrays = board_arrays(board)
    number = arrays.number
    current = state.cars[car]
    n = len(arrays.names)
    occupied = np.zeros(n, np.int64)
    debris = np.zeros(n, np.int64)
    lanes = len(arrays.lane_length)
    spots: list[list[int]] = [[] for _ in range(lanes)]
    for space in state.occupied(except_car=car):
        occupied[number[space]] = 1
    for space in state.debris:
        debris[number[space]] = 1
    for space in (*state.occupied(except_car=car), *state.debris):
        lane = board.lane.get(space)
        if lane is not None:
            spots[lane].append(board.lane_index[space])
    passable = np.full((lanes, max((len(s) for s in spots), default=0) or 1), -1, np.int64)
    for lane, positions in enumerate(spots):
        passable[lane, : len(positions)] = positions
    counts = np.asarray([len(s) for s in spots], np.int64)
    start = number[current.space]
    origin = np.zeros(krows.ROUTE_COLUMNS, np.int64)
    origin[krows.R_PATH:] = -1
    origin[krows.R_END] = start
    origin[krows.R_LOCK] = -1
    corner = int(arrays.corner[start])
    origin[krows.R_CORNER] = corner
    same_corner = corner >= 0 and current.corner == arrays.corner_names[corner]
    origin[krows.R_STOPS] = current.stops if same_corner else 0
    in_pit = bool(arrays.in_pit[start])
    origin[krows.R_IN_PIT] = int(in_pit)
    origin[krows.R_ANCHOR] = -1 if in_pit or corner >= 0 else start
    return arrays, origin, occupied, debris, passable, counts


@entry
def legal_move_rows(track_next: Ints, pit_next: Ints, pit_entry: Ints, lane: Ints,
                    lane_index: Ints, lane_length: Ints, corner: Ints, corner_stops: Ints,
                    in_pit: Ints, is_box: Ints, origin: Ints, occupied: Ints, debris: Ints,
                    passable: Ints, passable_count: Ints, rolls: Ints, may_pit: bool,
                    car_box: int, max_changes: int, brakes_left: int, tyres_left: int,
                    spun: bool, brakes_per_space: int, tyres_per_space: int,
                    eliminated_missing: int, respin_max: int, block_from: int,
                    block_brakes: Ints, block_tyres: Ints) -> Ints:
    """Every distinct legal move of a car for each of ``rolls`` (sorted, distinct), one row
    each (``M_*`` columns, the roll in ``M_ROLL``), roll by roll in the engine's order.

    ``origin`` is the route of no space (the car where it stands, its corner and stops);
    ``occupied`` and ``debris`` flag the spaces of the other cars and the debris markers;
    ``passable`` lists, per lane, the positions of the cars and debris in it. (The race asks
    through :func:`~trackformat.sim.kernel.ask.moves_after`, with the same walk and terms.)"""
    walk, terms = kt.ordinary_walk(origin, rolls, may_pit, car_box, max_changes, brakes_left,
                                   tyres_left, spun, brakes_per_space, tyres_per_space,
                                eliminated_missing, respin_max, block_from)
    walk_space, workspace = _small_workspace()
    return moves_of((track_next, pit_next, pit_entry, lane, lane_index, lane_length, corner,
                   corner_stops, in_pit, is_box), (occupied, debris, passable, passable_count),
                  origin, walk, np.zeros((1, 1), np.int64), rolls, terms, block_brakes,
                  block_tyres, walk_space, workspace)


@entry
def slipstream_rows(track_next: Ints, pit_next: Ints, pit_entry: Ints, lane: Ints,
                    lane_index: Ints, lane_length: Ints, corner: Ints, corner_stops: Ints,
                    in_pit: Ints, is_box: Ints, origin: Ints, occupied: Ints, debris: Ints,
                    passable: Ints, passable_count: Ints, move: Ints, extra_spaces: int,
                    shapes: Ints, entry_brakes: int, entry_tyres: int, may_pit: bool,
                    car_box: int, max_changes: int, brakes_left: int, tyres_left: int,
                    spun: bool, brakes_per_space: int, tyres_per_space: int,
                    eliminated_missing: int, respin_max: int, block_from: int,
                    block_brakes: Ints, block_tyres: Ints) -> Ints:
    """The moves that add slipstream extras to ``move`` (a move row whose slipstream
    conditions hold), in the engine's order, as
    :func:`~trackformat.sim.move.slipstream.slipstream_moves` gives them; no rows when the
    extras cannot be taken."""
    walk, terms, roll = kt.slipstream_walk(
        origin, lane, move, extra_spaces, entry_brakes, entry_tyres, may_pit, car_box,
        max_changes, brakes_left, tyres_left, spun, brakes_per_space, tyres_per_space,
        eliminated_missing, respin_max, block_from)
    walk_space, workspace = _small_workspace()
    return moves_of((track_next, pit_next, pit_entry, lane, lane_index, lane_length, corner,
                   corner_stops, in_pit, is_box), (occupied, debris, passable, passable_count),
                  origin, walk, shapes, roll, terms, block_brakes, block_tyres, walk_space,
                  workspace)


@inlined
def _small_workspace() -> tuple[krows.WalkSpace, tuple[Ints, Ints, Ints, Ints]]:
    """Empty tables for one question asked on its own (the walk and pricing make what they
    need): the race lends a workspace that lasts instead
    (:mod:`~trackformat.sim.kernel.workspace`)."""
    none = np.empty((0, 1), np.int64)
    return ((none, np.empty(0, np.int64), none, np.empty((0, 0), np.int64),
             np.empty(0, np.int64)),
            (none, none, np.empty(0, np.int64), np.empty(0, np.int64)))
