"""Solving a solo race: the places, the tables, the compiled backward induction, and the value
of any state of the car (for the par of the track, and for a driver that asks what a solo state
is worth).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from trackformat.model.track import Track
from trackformat.par.bellman import FINISH, solve_places
from trackformat.par.layout import Layout, wear_levels
from trackformat.par.packed import Packed, pack
from trackformat.par.problem import Kind, Place, SoloRace
from trackformat.par.tables import MoveTables
from trackformat.rules import Ruleset
from trackformat.sim.core.state import CarState, CarStatus, Wear

Floats = npt.NDArray[np.float64]
Choices = npt.NDArray[np.int8]


@dataclass(frozen=True)
class SolveFigures:
    """What a solve cost: CPU seconds of each stage, states solved, moves tabled."""

    layout_seconds: float
    solve_seconds: float
    places: int
    states: int
    moves: int
    kernel_calls: int


class Solution:
    """The values of every state of a solo race (see :mod:`trackformat.par.bellman`)."""

    def __init__(self, solo: SoloRace, layout: Layout, packed: Packed, values: Floats,
                 choices: Choices, figures: SolveFigures) -> None:
        self.solo = solo
        self.layout = layout
        self.packed = packed
        self.values = values
        """Expected turns left, by place, gear slot and WP (``packed.VALUE_AXES``); NaN for the
        states no place reaches with those WP."""
        self.choices = choices
        """The gear option the policy takes in each state (its number among the engine's
        options); -1 where none is."""
        self.figures = figures

    @property
    def par(self) -> float:
        """The least expected number of game turns from pole to the flag (the start roll
        included: a stall loses the first turn, a super start leaps ahead)."""
        start = self.layout.start
        grid = self.value(self.layout.index[self.solo.grid_place()], 0, self.solo.start)
        leaps = [self.value(place, 1, wear) for place, wear in start.super_places]
        leap = min(leaps, default=np.inf)
        total = 1.0 + start.stall * grid + start.normal * (grid - 1.0)
        return float(total + start.super_start * leap) if start.super_start else float(total)

    def value(self, place: int, gear: int, wear: Wear) -> float:
        """Expected turns left for the car at place number ``place`` (:data:`FINISH` for a car
        that has finished), in ``gear``, with ``wear``, its turn about to start."""
        if place == FINISH:
            return 0.0
        slot = 0 if self.packed.places[2][place] else gear
        tyres, brakes, gearbox, engine = wear_levels(wear)
        if engine <= 0:
            return float("inf")
        return float(self.values[place, slot, tyres, brakes, gearbox, engine])

    def value_of(self, car: CarState) -> float | None:
        """Expected turns left for a car alone in the state ``car``, as its turn starts (or,
        for a car in its box after a quick stop, as it is about to leave); None for a state par
        has not solved (a place no solo race from pole reaches, or wear above the car's
        starting WP). A finished car has 0 left, an eliminated one infinity."""
        if car.status == CarStatus.FINISHED:
            return 0.0
        if car.status == CarStatus.ELIMINATED:
            return float("inf")
        if not car.started:
            return self.par if car.space == self.solo.pole.space else None
        place = self._place(car)
        levels = wear_levels(car.wear)
        if place is None or any(not 0 <= w <= top for w, top in zip(levels, self.solo.top,
                                                                     strict=True)):
            return None
        value = self.value(place, car.gear, car.wear)
        return None if np.isnan(value) else value

    def gear_of(self, car: CarState) -> int | None:
        """The gear the policy takes for a car alone in the state ``car`` as its turn starts
        (None where :meth:`value_of` is None): a driver picks the engine's option of that
        gear."""
        if self.value_of(car) is None or not car.started or car.pit_exit:
            return None
        place = self._place(car)
        assert place is not None
        slot = 0 if self.packed.places[2][place] else car.gear
        levels = wear_levels(car.wear)
        ctx = int(self.packed.places[3][place])
        chosen = int(self.choices[(place, slot, *levels)])
        if chosen < 0:
            return None
        return int(self.packed.gears[0][(ctx, slot, *levels, chosen, 0)])

    def _place(self, car: CarState) -> int | None:
        """The number of the place of ``car`` (started, racing or spun), if par reached it."""
        stops = min(car.stops, self.solo.needed_stops(car.space))
        if car.corner != self.solo.corner_at(car.space):
            stops = 0
        # In the box: waiting a turn after a slow stop, or leaving at once after a quick one
        # (then the value is the turn's rest, the crew's roll averaged over).
        kind = Kind.WAIT if car.pit_wait else Kind.EXIT if car.pit_exit else Kind.TURN
        return self.layout.index.get(Place(car.space, car.lap, stops,
                                           car.status == CarStatus.SPUN, car.pit_stops, kind))


def solve(track: Track, rules: Ruleset, laps: int) -> Solution:
    """Solve the solo race of ``laps`` laps on ``track`` under ``rules``
    (:class:`~trackformat.par.problem.ParError` for one that cannot be set up)."""
    return solve_race(SoloRace(track, rules, laps))


def solve_race(solo: SoloRace, roots: Sequence[Place] = ()) -> Solution:
    """Solve the solo race ``solo`` (set up, so known to be one a race can start on), from
    pole and from each place of ``roots`` (see :class:`~trackformat.par.layout.Layout`)."""
    started = time.process_time()
    moves = MoveTables(solo)
    layout = Layout(solo, moves, roots)
    packed = pack(layout)
    layout.release_tables()
    laid = time.process_time()
    values = np.full(packed.shape, np.nan)
    choices = np.full(packed.shape, -1, np.int8)
    states = solve_places(packed.places, packed.moves, packed.gears, packed.dice, values,
                          choices, packed.chances, packed.refill, packed.tops,
                          packed.quick_gear)
    figures = SolveFigures(laid - started, time.process_time() - laid, len(layout.places),
                           int(states), len(packed.moves[1]), moves.kernel_calls)
    return Solution(solo, layout, packed, values, choices, figures)
