"""The engine's legal moves of a car alone, asked once per place and wear, kept as tables.

Par adds no rule of its own about moves: every move it weighs is one the compiled kernel lists
(:func:`~trackformat.sim.kernel.moves.legal_move_rows`, which tests hold equal to the readable
engine's :func:`~trackformat.sim.move.legal.legal_moves`), and where a move leads (the space,
the laps, the stops counted, the pit stop) is what the readable engine's
:func:`~trackformat.sim.move.resolve.play_move` makes of it, asked of the two pieces of it that
decide (``resolve._stops`` and :meth:`~trackformat.sim.core.board.Board.crossings`; tests hold
the answers to ``play_move``'s own).

The moves of a place depend on its :data:`~trackformat.par.problem.WalkKey` and on the car's
tyres and brakes WP (braking needs the brakes; an overshoot is paid, spins or eliminates by the
tyres left): the kernel is asked for every face of every die at once, and its answers are kept
for each level of tyres and brakes, each move packed in one int (its outcome, tyres and brakes
paid, and whether it spins the car: :func:`pack_moves`), in the engine's order, found by level
and roll through a table of offsets.
An *outcome* is what a move does whatever its roll and price: where it ends, how far, which
corners it leaves short and whether it stops at the box; where it leads is worked out once per
outcome.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from trackformat.par.bellman import (
    BRAKES_SHIFT,
    OUTCOME_MASK,
    PAID_MASK,
    SPIN_SHIFT,
    TYRES_SHIFT,
)
from trackformat.par.problem import Kind, ParError, Place, SoloRace, WalkKey
from trackformat.sim.kernel import price as kp
from trackformat.sim.kernel.limits import kernel_limit
from trackformat.sim.kernel.moves import _setting, blocking_table, board_arrays, legal_move_rows
from trackformat.sim.kernel.route_rows import MAX_EXITS
from trackformat.sim.move.resolve import _stops
from trackformat.sim.move.routes import may_enter_pit
from trackformat.sim.move.value import CornerExit, Move, overshoot_cost

Ints = npt.NDArray[np.int64]
Moves = npt.NDArray[np.int32]

(P_ROLL, P_OUTCOME, P_TYRES, P_BRAKES, P_SPIN) = range(5)
"""Columns of the moves of one level as they are priced: the roll, the outcome and the price."""


KEY_COLUMNS = (kp.M_DEST, kp.M_DISTANCE, kp.M_BOX, kp.M_NEXITS,
               *range(kp.M_EXITS, kp.M_EXITS + 3 * MAX_EXITS))
"""The columns of a kernel move that make its outcome (the exits past their count cleared)."""

@dataclass(frozen=True)
class Resolution:
    """Where an outcome leads a car from a space with some stops made, as ``play_move`` says."""

    space: str
    crossings: int
    """Finish-line crossings the move makes."""
    stops: int
    """Stops made in the corner of :attr:`space` after the move (capped at its stops)."""
    box: bool
    """The move ends at the car's box: a pit stop."""
    in_pit: bool
    """The move ends in the pit lane or the box: no engine roll there."""
    overshoot: bool
    """The move leaves a corner short of its stops."""


@dataclass(frozen=True)
class WalkTable:
    """Every legal move of one :data:`~trackformat.par.problem.WalkKey` at every tyres and
    brakes level, packed (:func:`pack_moves`), sorted by tyres, brakes and roll, the moves of a
    roll in the engine's order; :attr:`offsets` ``[tyres, brakes, roll]`` is the first move of
    that level and roll (and ``[..., roll + 1]`` one past its last); :attr:`outcomes` holds one
    kernel move row of each outcome."""

    key: WalkKey
    outcomes: npt.NDArray[np.int32]
    moves: Moves
    offsets: Ints

    def level(self, tyres: int, brakes: int) -> list[tuple[int, int, int, int, int]]:
        """The moves of one level as (roll, outcome, tyres paid, brakes paid, spin)."""
        found = []
        for roll in range(self.offsets.shape[2] - 1):
            for move in self.moves[self.offsets[tyres, brakes, roll]:
                                   self.offsets[tyres, brakes, roll + 1]]:
                found.append((roll, *unpack(int(move))))
        return found


class MoveTables:
    """The engine's moves and their resolutions for a solo race, asked as they are needed and
    kept (see the module docstring)."""

    def __init__(self, solo: SoloRace) -> None:
        self.solo = solo
        rules = solo.rules
        self.rolls = np.asarray(sorted(
            {face for gear in range(1, len(rules.dice.gears) + 1) for face, _ in solo.faces(gear)}
            | {spaces for spaces, _ in solo.exit_rolls()}), np.int64)
        """Every roll a car alone may have to play: each face of each gear die, and each
        distance out of the box after a quick stop."""
        self.max_roll = int(self.rolls[-1])
        self.tables: dict[WalkKey, WalkTable] = {}
        self.kernel_calls = 0
        self.arrays = board_arrays(solo.board)
        too_far = kernel_limit(self.arrays, rules)
        if too_far is not None:
            raise ParError(f"par asks the compiled engine for every move, and {too_far}")
        block_brakes, block_tyres, block_from = blocking_table(rules)
        self._block = (block_from, block_brakes, block_tyres)
        self._overshoots: dict[tuple[int, bool, int, int], tuple[int, bool, bool]] = {}
        self._resolved: dict[tuple[str, int, bytes], Resolution] = {}

    def clear(self) -> None:
        """Let go of the tables and resolutions asked so far (once they are packed)."""
        self.tables.clear()
        self._resolved.clear()

    def table(self, place: Place) -> WalkTable:
        """The moves of ``place`` at every tyres and brakes level (asked once per walk key)."""
        key = self.solo.walk_key(place)
        known = self.tables.get(key)
        if known is None:
            known = self.tables[key] = self._ask(place, key)
        return known

    def kernel_rows(self, place: Place, tyres: int, brakes: int) -> Ints:
        """The kernel's legal moves at ``place`` for every roll, with these tyres and brakes WP
        (:data:`~trackformat.sim.kernel.price.MOVE_COLUMNS` columns, the engine's order)."""
        solo, rules = self.solo, self.solo.rules
        arrays = self.arrays
        state = solo.state_at(place)
        _, origin, occupied, debris, passable, counts = _setting(state, 0)
        box = arrays.number[solo.pole.box] if solo.pole.box is not None else -1
        block_from, block_brakes, block_tyres = self._block
        self.kernel_calls += 1
        rows: Ints = legal_move_rows(
            arrays.track_next, arrays.pit_next, arrays.pit_entry, arrays.lane,
            arrays.lane_index, arrays.lane_length, arrays.corner, arrays.corner_stops,
            arrays.in_pit, arrays.is_box, origin, occupied, debris, passable, counts,
            self.rolls, may_enter_pit(state, state.cars[0]), box,
            rules.movement.max_lane_changes_on_straight, brakes, tyres, place.spun,
            rules.movement.brakes_per_space, rules.corners.tyres_per_space,
            rules.corners.eliminated_missing, rules.spin_out.respin_max_spaces, block_from,
            block_brakes, block_tyres)
        for e in range(MAX_EXITS):  # the kernel leaves the columns past the count unwritten
            unused = rows[:, kp.M_NEXITS] <= e
            rows[unused, kp.M_EXITS + 3 * e: kp.M_EXITS + 3 * e + 3] = -1
        return rows

    def _ask(self, place: Place, key: WalkKey) -> WalkTable:
        """Ask the kernel once, with every WP; price for fewer WP (:meth:`_priced`): moves
        that brake more than the car's brakes WP are left out, and overshoots are priced for
        its tyres WP (``tests/par`` holds these tables equal to the kernel's own at every
        level)."""
        top_tyres, top_brakes = self.solo.top[0], self.solo.top[1]
        full = self.kernel_rows(place, top_tyres, top_brakes)
        full = full[full[:, kp.M_ELIMINATED] == kp.NOT_ELIMINATED]
        _, first, outcome = np.unique(_outcome_codes(full), return_index=True,
                                      return_inverse=True)
        outcome = np.asarray(outcome).reshape(-1)
        outcomes = full[first].astype(np.int32)
        if np.any(full[:, kp.M_BLOCKED] > 0):
            # Blocked at the end of the track's links: its price reads the WP in ways the
            # pricing below does not follow, so every level is asked of the kernel itself.
            return self._ask_every_level(place, key, outcomes)
        beyond, missing = _overshoots(full)
        pairs, pair = np.unique(beyond * 1024 + missing + 1, return_inverse=True)
        pair = np.asarray(pair).reshape(-1)
        levels: list[list[Ints]] = []
        known: dict[bytes, Ints] = {}
        for tyres in range(top_tyres + 1):
            prices = np.asarray([self._overshoot(tyres, place.spun, int(code) // 1024,
                                                 int(code) % 1024 - 1) for code in pairs],
                                np.int64).reshape(-1, 3)
            priced = known.get(prices.tobytes())
            if priced is None:  # the same prices at another tyres level give the same moves
                priced = known[prices.tobytes()] = self._priced(full, outcome, prices, pair)
            # Braking needs the WP: fewer brakes WP, the moves that brake more left out.
            levels.append([priced[priced[:, P_BRAKES] <= brakes]
                           for brakes in range(top_brakes + 1)])
        return self._table(key, outcomes, levels)

    def _table(self, key: WalkKey, outcomes: npt.NDArray[np.int32],
               levels: list[list[Ints]]) -> WalkTable:
        """A table of the moves priced at each level (``levels[tyres][brakes]``, ``P_*``
        columns, sorted by roll)."""
        width = self.max_roll + 2
        offsets = np.zeros((len(levels), len(levels[0]), width), np.int64)
        parts = []
        start = 0
        for tyres, by_brakes in enumerate(levels):
            for brakes, priced in enumerate(by_brakes):
                offsets[tyres, brakes] = start + np.searchsorted(
                    priced[:, P_ROLL], np.arange(width), side="left")
                parts.append(pack_moves(priced))
                start += len(priced)
        return WalkTable(key, outcomes, np.concatenate(parts), offsets)

    def _priced(self, full: Ints, outcome: Ints, prices: Ints, pair: Ints) -> Ints:
        """The moves asked with every WP (``full``, each of ``outcome``), priced for fewer
        tyres WP: a move that leaves corners short pays their tyres WP (as many as the car
        has), spins the car or eliminates it as the engine's one reading of the overshoot rules
        says (:func:`~trackformat.sim.move.value.overshoot_cost`: ``prices`` holds its answer,
        (tyres paid, spins, eliminated), for each overshoot ``pair`` names); every other move
        costs the same at any tyres level. The moves of a roll stay in the engine's order."""
        rows = np.empty((len(full), 5), np.int64)
        rows[:, P_ROLL] = full[:, kp.M_ROLL]
        rows[:, P_OUTCOME] = outcome
        rows[:, P_TYRES] = full[:, kp.M_TYRES]
        rows[:, P_BRAKES] = full[:, kp.M_BRAKES]
        rows[:, P_SPIN] = full[:, kp.M_SPIN]
        short = full[:, kp.M_NEXITS] > 0
        rows[short, P_TYRES] = prices[pair[short], 0]
        rows[short, P_SPIN] = prices[pair[short], 1]
        keep = ~short | (prices[pair, 2] == 0)
        rows = rows[keep]
        distance = full[keep, kp.M_DISTANCE]
        destination = full[keep, kp.M_DEST]
        # The engine's order within a roll: the longest first, then the cheapest, then by
        # destination (space numbers sort as their ids), then as the kernel listed them.
        order = np.lexsort((np.arange(len(rows)), destination,
                            rows[:, P_TYRES] + rows[:, P_BRAKES], -distance, rows[:, P_ROLL]))
        ordered: Ints = rows[order]
        return ordered

    def _overshoot(self, tyres: int, spun: bool, beyond: int,
                   missing: int) -> tuple[int, bool, bool]:
        """(tyres WP paid, spins, eliminated) of ``beyond`` spaces past corners left short,
        ``missing`` stops at most missing in one, for a car with ``tyres`` tyres WP."""
        key = (tyres, spun, beyond, missing)
        known = self._overshoots.get(key)
        if known is None:
            car = self.solo.car_at(Place(self.solo.pole.space, 1, 0, spun, 0, Kind.TURN),
                                   wear=self.solo.start.with_(tyres=tyres))
            owed, spin, cause = overshoot_cost(self.solo.rules, car, beyond, missing)
            known = self._overshoots[key] = (min(owed, tyres), spin and cause is None,
                                            cause is not None)
        return known

    def _ask_every_level(self, place: Place, key: WalkKey,
                         outcomes: npt.NDArray[np.int32]) -> WalkTable:
        codes = _outcome_codes(outcomes.astype(np.int64))
        top_tyres, top_brakes = self.solo.top[0], self.solo.top[1]
        levels: list[list[Ints]] = []
        for tyres in range(top_tyres + 1):
            levels.append([])
            for brakes in range(top_brakes + 1):
                rows = self.kernel_rows(place, tyres, brakes)
                rows = rows[rows[:, kp.M_ELIMINATED] == kp.NOT_ELIMINATED]
                found = np.searchsorted(codes, _outcome_codes(rows))
                levels[-1].append(np.stack((rows[:, kp.M_ROLL], found, rows[:, kp.M_TYRES],
                                            rows[:, kp.M_BRAKES], rows[:, kp.M_SPIN]), axis=1))
        return self._table(key, outcomes, levels)

    def resolve_all(self, place: Place, table: WalkTable) -> list[Resolution]:
        """Where each outcome of ``table`` leads from ``place``: the corner visit and stops as
        the engine counts them after a move (``resolve._stops``), and the finish-line
        crossings (:meth:`~trackformat.sim.core.board.Board.crossings`)."""
        solo = self.solo
        board = solo.board
        names, corners = self.arrays.names, self.arrays.corner_names
        state = solo.state_at(place)
        car = state.cars[0]
        found = []
        for outcome, code in zip(table.outcomes, _outcome_codes(table.outcomes), strict=True):
            key = (place.space, place.stops, code.tobytes())
            known = self._resolved.get(key)
            if known is not None:
                found.append(known)
                continue
            distance = int(outcome[kp.M_DISTANCE])
            exits = tuple(CornerExit(corners[outcome[kp.M_EXITS + 3 * e]],
                                     int(outcome[kp.M_EXITS + 3 * e + 1]),
                                     int(outcome[kp.M_EXITS + 3 * e + 2]))
                          for e in range(int(outcome[kp.M_NEXITS])))
            route = tuple(names[v] for v in outcome[kp.M_ROUTE: kp.M_ROUTE + distance])
            move = Move(start=place.space, route=route, roll=int(outcome[kp.M_ROLL]),
                        overshoots=exits, box=bool(outcome[kp.M_BOX]))
            _, stops = _stops(state, car, move)
            end = move.destination
            known = self._resolved[key] = Resolution(
                end, len(board.crossings(place.space, route)), min(stops, solo.needed_stops(end)),
                move.box, board.in_pit(end), bool(exits))
            found.append(known)
        return found


def _outcome_codes(rows: npt.NDArray[np.int64] | npt.NDArray[np.int32]) -> npt.NDArray[np.void]:
    """Each move's outcome (:data:`KEY_COLUMNS`) as one sortable value."""
    keys = np.ascontiguousarray(rows[:, list(KEY_COLUMNS)], np.int64)
    return keys.view(np.dtype((np.void, keys.dtype.itemsize * keys.shape[1]))).ravel()


def _overshoots(rows: Ints) -> tuple[Ints, Ints]:
    """Each move's spaces beyond the corners it leaves short, all together, and the most stops
    missing in one of them (-1 for none): what its overshoot price depends on."""
    count = rows[:, kp.M_NEXITS]
    left = np.arange(MAX_EXITS)[None, :] < count[:, None]
    spaces = rows[:, kp.M_EXITS + 1: kp.M_EXITS + 3 * MAX_EXITS: 3]
    missing = rows[:, kp.M_EXITS + 2: kp.M_EXITS + 3 * MAX_EXITS: 3]
    return (np.where(left, spaces, 0).sum(axis=1),
            np.where(left, missing, -1).max(axis=1))


def pack_moves(priced: Ints) -> Moves:
    """Moves priced (``P_*`` columns) each packed in one 32-bit int, as the solver reads them:
    a tenth of the memory of the rows (two laps of Monaco price ten million moves)."""
    if len(priced) and (priced[:, P_OUTCOME].max() > OUTCOME_MASK
                        or priced[:, [P_TYRES, P_BRAKES]].max() > PAID_MASK):
        raise ParError("a walk has more outcomes, or moves cost more WP, than par can pack")
    packed = (priced[:, P_OUTCOME] | (priced[:, P_TYRES] << TYRES_SHIFT)
              | (priced[:, P_BRAKES] << BRAKES_SHIFT) | (priced[:, P_SPIN] << SPIN_SHIFT))
    return packed.astype(np.int32)


def unpack(move: int) -> tuple[int, int, int, int]:
    """A packed move as (outcome, tyres paid, brakes paid, spin)."""
    return (move & OUTCOME_MASK, (move >> TYRES_SHIFT) & PAID_MASK,
            (move >> BRAKES_SHIFT) & PAID_MASK, (move >> SPIN_SHIFT) & 1)
