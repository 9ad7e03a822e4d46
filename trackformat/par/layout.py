"""The places a car alone can reach from pole, the links between them, and their order.

Places are found by following the engine's moves from pole (:class:`Layout`), so only places
a solo race can reach are solved. Every move leads to a later place or spends a brakes WP in
the same one (a car that brakes to a standstill): the places are put in an order where every
link goes forward (:func:`forward_order`), and the solver works backwards through it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np
import numpy.typing as npt

from trackformat.par.bellman import BRAKES_SHIFT, FINISH, OUTCOME_MASK, PAID_MASK, SPIN_SHIFT
from trackformat.par.problem import MODELLED, Kind, ParError, Place, SoloRace
from trackformat.par.tables import MoveTables, Resolution, WalkTable
from trackformat.sim.core.state import CarState, CarStatus, Wear
from trackformat.sim.move.legal import super_start_moves
from trackformat.sim.move.resolve import play_move

Ints = npt.NDArray[np.int64]

NOWHERE = -2
"""The "next place" of an outcome that cannot happen (a spin the prices never give)."""


@dataclass
class Start:
    """How the car's first turn may go: its chances, and where each super start leaves it."""

    stall: float
    super_start: float
    normal: float
    super_places: list[tuple[int, Wear]] = field(default_factory=list)
    """After a super start: the place (or :data:`FINISH`) and wear of each move the engine
    offers, for the solver to pick the best (there is one, bar a car in the way)."""


class Layout:
    """Every place a car alone reaches from pole, with its moves' tables and links; and from
    each of ``roots`` too (other grid slots, for a driver that may start from any)."""

    def __init__(self, solo: SoloRace, moves: MoveTables, roots: Sequence[Place] = ()) -> None:
        self.solo = solo
        self.moves = moves
        self.places: list[Place] = []
        self.index: dict[Place, int] = {}
        self.tables: list[WalkTable] = []
        self.table_index: dict[tuple[object, ...], int] = {}
        self.table_of: list[int] = []
        self.resolutions: list[list[Resolution]] = []
        """Per table: where each of its outcomes leads (from the table's space and stops)."""
        self.next: list[Ints] = []
        """Per place: the next place of each outcome of its table, without and with a spin
        (:data:`FINISH`, :data:`NOWHERE`); for a stop at the box, the place of a slow stop."""
        self.exit: list[Ints] = []
        """Per place: for a stop at the box, the place of a quick stop (else :data:`NOWHERE`)."""
        self.start = self._start()
        self.grids: list[int] = [self._add(solo.grid_place())]
        """The places of a first turn on the grid: pole's, then each root's."""
        for place in roots:
            index = self._add(place)
            if index not in self.grids:
                self.grids.append(index)
        queue = deque(self.grids)
        for index, _ in self.start.super_places:
            if index >= 0:
                queue.append(index)
        seen = set(queue)
        while queue:
            for successor in self._link(queue.popleft()):
                if successor not in seen:
                    seen.add(successor)
                    queue.append(successor)
        self.order = forward_order(self)

    def release_tables(self) -> None:
        """Let go of the move tables once they are packed (the solver reads the packed arrays
        only): a third of the memory a solve holds."""
        self.tables.clear()
        self.resolutions.clear()
        self.moves.clear()

    def _add(self, place: Place) -> int:
        index = self.index.get(place)
        if index is None:
            index = self.index[place] = len(self.places)
            self.places.append(place)
            self.next.append(np.empty((0, 2), np.int64))
            self.exit.append(np.empty((0, 2), np.int64))
            self.table_of.append(-1)
        return index

    def place_of(self, car: CarState) -> int:
        """The place of a car after a move (:data:`FINISH` once finished), as a turn starts."""
        if car.status == CarStatus.FINISHED:
            return FINISH
        if car.status not in (CarStatus.RACING, CarStatus.SPUN) or car.pit_stops:
            raise ParError(f"the start leaves the car {car.status} at {car.space}: par expects "
                           "a start to leave it racing on the track")
        stops = min(car.stops, self.solo.needed_stops(car.space))
        return self._add(Place(car.space, car.lap, stops, car.status == CarStatus.SPUN, 0,
                               Kind.TURN))

    def _start(self) -> Start:
        """The start roll's chances, and the engine's super start moves played out."""
        solo, rules = self.solo, self.solo.rules
        leaps = [face for face in rules.start.super_start if face not in rules.start.stall]
        start = Start(float(solo.black_chance(rules.start.stall)),
                      float(solo.black_chance(leaps)), 0.0)  # a stall first, as the runner
        start.normal = 1.0 - start.stall - start.super_start
        if start.super_start > 0:
            opening = solo.opening
            state = opening.with_car(replace(opening.cars[0], started=True))
            for move in super_start_moves(state, 0, rules.start.super_start_spaces):
                if move.eliminated is not None:
                    continue
                after, _ = play_move(state, 0, move, _NoDice())
                car = after.cars[0]
                start.super_places.append((self.place_of(car), car.wear))
        return start

    def _table(self, place: Place) -> int:
        table = self.moves.table(place)
        known = self.table_index.get(table.key)
        if known is None:
            known = self.table_index[table.key] = len(self.tables)
            self.tables.append(table)
            self.resolutions.append(self.moves.resolve_all(place, table))
        return known

    def _link(self, index: int) -> list[int]:
        """Work out where each move from place ``index`` leads; the places it reaches."""
        place = self.places[index]
        number = self._table(place)
        self.table_of[index] = number
        table, resolutions = self.tables[number], self.resolutions[number]
        moves = table.moves
        if place.kind == Kind.EXIT:  # leaving the box after a quick stop: its rolls only
            offsets = table.offsets
            moves = np.concatenate([
                moves[offsets[t, b, spaces]: offsets[t, b, spaces + 1]]
                for t in range(offsets.shape[0]) for b in range(offsets.shape[1])
                for spaces, _ in self.solo.exit_rolls()])
        outcomes = moves & OUTCOME_MASK
        seen = np.zeros((len(resolutions), 2), np.bool_)
        seen[outcomes, (moves >> SPIN_SHIFT) & 1] = True
        nexts = np.full((len(resolutions), 2), NOWHERE, np.int64)
        exits = np.full((len(resolutions), 2), NOWHERE, np.int64)
        reached: list[int] = []
        for outcome, resolution in enumerate(resolutions):
            for spin in (0, 1):
                if not seen[outcome, spin]:
                    continue
                after, quick = self._after(place, resolution, bool(spin))
                nexts[outcome, spin] = after
                exits[outcome, spin] = quick
                reached += [p for p in (after, quick) if p >= 0 and p != index]
        self.next[index], self.exit[index] = nexts, exits
        # Standing still (braking to a standstill on a straight, or in a corner whose stops
        # are made) must spend WP, or the order of the solver would not hold.
        still = np.flatnonzero((nexts == index).any(axis=1))
        brakes = (moves >> BRAKES_SHIFT) & PAID_MASK
        if len(still) and np.any(brakes[np.isin(outcomes, still)] < 1):
            raise ParError(f"at {place.space} a car may stand still without spending a WP: "
                           "par needs every turn to move the car or spend one")
        return reached

    def _after(self, place: Place, resolution: Resolution, spin: bool) -> tuple[int, int]:
        """The place a move leads to (and after a stop, the place of a quick one)."""
        lap = place.lap + resolution.crossings
        if resolution.box:
            stops = place.pit_stops + 1
            wait = self._add(Place(resolution.space, lap, 0, spin, stops, Kind.WAIT))
            quick = self._add(Place(resolution.space, lap, 0, spin, stops, Kind.EXIT))
            return wait, quick
        if resolution.crossings and place.lap + resolution.crossings - 1 >= self.solo.laps:
            return FINISH, NOWHERE  # a crossing made with the race's laps all started
        return self._add(Place(resolution.space, lap, resolution.stops, spin,
                               place.pit_stops, Kind.TURN)), NOWHERE


def forward_order(layout: Layout) -> Ints:
    """The places in an order where every link goes forward (Kahn's algorithm); a link back
    would be a loop a car could go round for ever, which the rules do not allow."""
    count = len(layout.places)
    entering = np.zeros(count, np.int64)
    targets: list[list[int]] = [[] for _ in range(count)]
    for index in range(count):
        links = np.concatenate((layout.next[index].ravel(), layout.exit[index].ravel()))
        for target in set(links[links >= 0].tolist()) - {index}:
            targets[index].append(target)
            entering[target] += 1
    ready = deque(np.flatnonzero(entering == 0).tolist())
    order: list[int] = []
    while ready:
        index = ready.popleft()
        order.append(index)
        for target in targets[index]:
            entering[target] -= 1
            if entering[target] == 0:
                ready.append(target)
    if len(order) != count:
        raise ParError("the places a car alone can reach link round in a loop: par cannot "
                       "order them (a broken track?)")
    return np.asarray(order, np.int64)


def wear_levels(wear: Wear) -> tuple[int, ...]:
    """The modelled WP of ``wear``, in the solver's order."""
    return tuple(getattr(wear, name) for name in MODELLED)


class _NoDice:
    """A super start rolls nothing on a track alone (no contact, no engine roll without a gear
    die, no debris): a roll asked for is a bug."""

    def randrange(self, n: int) -> int:
        raise ParError("a super start asked for a roll of the dice where par expects none")
