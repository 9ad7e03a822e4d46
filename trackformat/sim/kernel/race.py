"""Whole races in compiled code, race for race with the readable engine, events included.

A :class:`KernelRacer` makes a batch's board, rules and drivers into arrays once; each
:meth:`KernelRacer.race` then draws the grid with the readable engine
(:func:`~trackformat.sim.race.grid.new_race`, with the race's generator, so the grid events are
the readable ones) and plays every game turn in compiled code, as
:class:`~trackformat.sim.race.runner.Race` plays it: the order of play at the start of each
game turn, the start roll (stall, super start), the gear chosen and its shift paid, its die,
the move chosen, the slipstream extras taken or declined, the move played and what it sets off,
the quick stop's exit, and the turn limit (:mod:`~trackformat.sim.kernel.turns`). The result
is the readable engine's :class:`~trackformat.sim.race.runner.RaceResult`: the same seed and
drivers give equal results, event for event.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from trackformat.rules import WEAR_CATEGORIES, Ruleset, WearPoints
from trackformat.sim.core.board import Board
from trackformat.sim.core.dice import Dice, seed_state
from trackformat.sim.core.events import Event
from trackformat.sim.core.state import RaceState, Wear
from trackformat.sim.drivers.bots import COMPILED_DRIVERS
from trackformat.sim.kernel import cars as kc
from trackformat.sim.kernel import cautious as kcautious
from trackformat.sim.kernel import drivers as kd
from trackformat.sim.kernel import par_worth as kworth
from trackformat.sim.kernel import race_rules as krr
from trackformat.sim.kernel import strong as kstrong
from trackformat.sim.kernel.arrays import BoardArrays
from trackformat.sim.kernel.counts import CORNER_COUNTS, SPACE_COUNTS, count_log, count_tables
from trackformat.sim.kernel.dice import State
from trackformat.sim.kernel.game import board_tables, rule_set
from trackformat.sim.kernel.limits import KernelLimit, kernel_limit
from trackformat.sim.kernel.log import L_USED, events_of, new_log
from trackformat.sim.kernel.moves import board_arrays
from trackformat.sim.kernel.turns import play_turns
from trackformat.sim.kernel.warm import announced, reading_again, variant_of
from trackformat.sim.kernel.workspace import new_workspace
from trackformat.sim.race.grid import new_race
from trackformat.sim.race.runner import CarResult, RaceResult

Ints = npt.NDArray[np.int64]

KERNEL_DRIVERS = COMPILED_DRIVERS
"""The bots (by their names in :data:`~trackformat.sim.drivers.bots.DRIVERS`) the kernel races."""

_RACED: set[str] = set()
"""The race loops (:func:`~trackformat.sim.kernel.warm.variant_of`) this process has raced on:
the first race on each says on stderr if it compiles it."""


class KernelRacer:
    """Races of ``bots`` (one car each, by name) on ``board`` under ``rules``, in the kernel,
    each car with its build if ``builds`` gives one (see
    :func:`~trackformat.sim.race.grid.new_race`).

    Everything that does not change from race to race is made into arrays here, once."""

    def __init__(self, board: Board, rules: Ruleset, bots: Sequence[str],
                 laps: int | None = None, max_turns: int | None = None,
                 builds: Sequence[WearPoints | None] = ()) -> None:
        unknown = sorted(set(bots) - KERNEL_DRIVERS)
        if unknown:
            raise ValueError(f"the race kernel cannot race {', '.join(unknown)} drivers yet")
        self.board = board
        self.rules = rules
        self.bots = tuple(bots)
        self.builds = tuple(builds)
        self.variant = variant_of(self.bots)  # the race loop of this line-up's mix of drivers
        self.laps = laps if laps is not None else board.graphs.track.metadata.laps
        self.arrays: BoardArrays = board_arrays(board)
        beyond = kernel_limit(self.arrays, rules)
        if beyond is not None:
            raise KernelLimit(beyond)
        self.board_tables = board_tables(self.arrays)
        self.rule_tables = rule_set(board, self.arrays, rules, self.laps, max_turns)
        kinds = np.array([kd.KINDS[bot] for bot in self.bots], np.int64)
        self.kinds = kinds
        # None for a driver the line-up does not have: the race loop is compiled without it.
        self.cautious = (kcautious.tables(board, self.arrays, rules, self.laps)
                         if (kinds == kd.CAUTIOUS).any() else None)
        # Par drivers fall back on the strong driver: a line-up with them has its tables too.
        racing_par = kinds == kd.PAR
        self.strong = (kstrong.tables(board, self.arrays, rules, self.laps)
                       if (kinds == kd.STRONG).any() or racing_par.any() else None)
        self.racing_par = racing_par.tolist()
        self.par: tuple[Any, ...] | None = None
        """The par drivers' tables, made at the first race (:meth:`_seat_par_drivers`)."""
        self.par_boxes: list[str | None] = []
        """The boxes par has been solved for, in the order of the par tables' solutions."""
        self.log, self.cursor = new_log()
        arrays = self.arrays
        fan = max(arrays.track_next.shape[1] + arrays.pit_entry.shape[1],
                  arrays.pit_next.shape[1])
        self.workspace = new_workspace(len(arrays.names), len(arrays.lane_length), fan,
                                       len(self.bots))
        """Where the walk and its pricing work (one racer, one workspace: see
        :mod:`~trackformat.sim.kernel.workspace`)."""
        self.last_cars = np.zeros((0, kc.CAR_COLUMNS), np.int64)
        """The car table as the last race left it (for checks on the kernel's own numbers)."""

    def _seat_par_drivers(self, start: RaceState) -> None:
        """Seat the par drivers of the race about to start: each reads par's values for the
        box it stops at, which goes by its place on the grid (GP Online's garages) or by its
        team; a box no race of the batch had yet is solved first, and the tables made again
        (:func:`~trackformat.par.kernel_tables.par_tables`), their counts kept."""
        from trackformat.par.kernel_tables import par_tables, seat

        stops: list[str | bool | None] = [car.box if par else False for car, par in
                                          zip(start.cars, self.racing_par, strict=True)]
        new = [box for box in dict.fromkeys(stops)
               if not isinstance(box, bool) and box not in self.par_boxes]
        if self.par is None or new:
            self.par_boxes += new
            counts = self.par_counts()
            self.par = par_tables(self.board, self.arrays, self.rules, self.laps,
                                  self.rule_tables, self.par_boxes, len(self.bots),
                                  len(krr.race_numbers(start)))
            self.par[kworth.P_COUNTS][:] = counts
        seat(self.par, self.par_boxes, stops)

    def par_counts(self) -> Ints:
        """Per car, the decisions its par driver took so far, and how many of them the strong
        driver took (zeros for the other drivers)."""
        return (self.par[kworth.P_COUNTS].copy() if self.par is not None
                else np.zeros((len(self.bots), 2), np.int64))

    @reading_again
    def race(self, seed: int, driver_seeds: Sequence[int] | None = None) -> RaceResult:
        """The race of ``seed``, its events read back as the engine's; car ``n``'s random
        driver is seeded as ``RandomDriver(driver_seeds[n])`` seeds it (by default, as the test
        drives make them: with the race's seed)."""
        played = self._play(seed, driver_seeds)
        events = (*played.grid, *events_of(self.log, int(self.cursor[L_USED]), self.arrays))
        return self._result(seed, played, events)

    @reading_again
    def count(self, seed: int, corners: Ints, spaces: Ints,
              driver_seeds: Sequence[int] | None = None) -> RaceOutcome:
        """The race of ``seed`` (bots seeded as :meth:`race` seeds them), its corner and space
        counts added to the tables of :mod:`~trackformat.sim.kernel.counts`, and how it ended:
        no events and no final state, which is what spares a test drive reading them back."""
        played = self._play(seed, driver_seeds)
        count_log(self.log, int(self.cursor[L_USED]), len(self.bots), self.arrays.corner,
                  self.arrays.crossing, self.arrays.in_pit, self.arrays.pit_exit_crosses,
                  corners, spaces)
        names = self.arrays.names
        cars = []
        places = []
        for car, row in enumerate(played.table.tolist()):
            place = row[kc.C_PLACE] if row[kc.C_PLACE] >= 0 else None
            if place is not None:
                places.append((place, car))
            cars.append(CarResult(
                car=car, status=_STATUS[row[kc.C_STATUS]], place=place,
                cause=kc.CAUSES[row[kc.C_CAUSE]], laps=max(row[kc.C_LAP] - 1, 0),
                space=names[row[kc.C_SPACE]], wear=Wear(*row[kc.C_WEAR:kc.C_WEAR + 6])))
        return RaceOutcome(played.turns, played.completed,
                           tuple(car for _, car in sorted(places)), tuple(cars))

    def count_tables(self) -> tuple[Ints, Ints]:
        """Empty tables of corner and space counts for :meth:`count`."""
        return count_tables(len(self.arrays.corner_names), len(self.arrays.names))

    def read_counts(self, corners: Ints, spaces: Ints) -> tuple[dict[tuple[str, str], int],
                                                                dict[tuple[str, str], int]]:
        """The tables keyed as the test drive's counts are: (corner id, what), (space id,
        what), the non-zero ones."""
        corner_names, names = self.arrays.corner_names, self.arrays.names
        by_corner = {(corner_names[c], CORNER_COUNTS[k]): int(corners[c, k])
                     for c, k in zip(*np.nonzero(corners), strict=True)}
        by_space = {(names[s], SPACE_COUNTS[k]): int(spaces[s, k])
                    for s, k in zip(*np.nonzero(spaces), strict=True)}
        return by_corner, by_space

    def _play(self, seed: int, driver_seeds: Sequence[int] | None) -> _Played:
        """Draw the grid and race to the end in compiled code, the events left in the log."""
        cars = len(self.bots)
        seeds = list(driver_seeds) if driver_seeds is not None else [seed] * cars
        dice = Dice(seed)
        grid_events: list[Event] = []
        start = new_race(self.board, self.rules, cars, self.laps, dice, grid_events,
                         self.builds)
        if any(self.racing_par):
            self._seat_par_drivers(start)
        while True:
            generators = np.array([[seed_state(f"random-driver:{seeds[car]}:{seed}:{car}")]
                                   for car in range(cars)], np.uint64)
            drivers = (self.kinds, generators)
            table = kc.car_rows(start, self.arrays)
            race = krr.race_numbers(start)
            debris = np.zeros(len(self.arrays.names), np.int64)
            state_dice = np.array([dice.state], np.uint64)
            self.cursor[:] = 0
            try:
                turns, completed = self._run(table, race, debris, state_dice, drivers)
                break
            except OverflowError:  # the log is full: race again with a longer one
                self.log, self.cursor = new_log(2 * len(self.log))
        self.last_cars = table
        return _Played(tuple(grid_events), start, table, debris, turns, completed, race)

    def _result(self, seed: int, played: _Played, events: tuple[Event, ...]) -> RaceResult:
        final = self._final(played.start, played.table, played.debris, played.turns,
                            played.race)
        results = tuple(
            CarResult(car=c.index, status=c.status, place=c.place, cause=c.cause,
                      laps=max(c.lap - 1, 0), space=c.space, wear=c.wear)
            for c in final.cars)
        return RaceResult(seed=seed, laps=self.laps, turns=played.turns, events=events,
                          finish_order=final.finish_order, cars=results, final=final,
                          completed=played.completed)

    def _run(self, table: Ints, race: Ints, debris: Ints, dice: State,
             drivers: tuple) -> tuple[int, bool]:  # type: ignore[type-arg]
        def run() -> tuple[int, bool]:
            turns, completed = play_turns(table, race, debris, dice, drivers, self.cautious,
                                          self.strong, self.par, self.board_tables,
                                          self.rule_tables,
                                          self.log, self.cursor, self.workspace)
            return int(turns), bool(completed)

        if self.variant not in _RACED:
            result, _ = announced(run, self.variant)
            _RACED.add(self.variant)
            return result
        return run()

    def _final(self, start: RaceState, table: Ints, debris: Ints, turns: int,
               race: Ints) -> RaceState:
        """The race state of the car table at the end of a race."""
        names, corners = self.arrays.names, self.arrays.corner_names
        cars = []
        for car, row in zip(start.cars, table.tolist(), strict=True):
            cars.append(replace(
                car, space=names[row[kc.C_SPACE]], gear=row[kc.C_GEAR],
                wear=Wear(**{c: row[kc.C_WEAR + n] for n, c in enumerate(WEAR_CATEGORIES)}),
                lap=row[kc.C_LAP], corner=corners[row[kc.C_CORNER]] if row[kc.C_CORNER] >= 0
                else None, stops=row[kc.C_STOPS], status=_STATUS[row[kc.C_STATUS]],
                cause=kc.CAUSES[row[kc.C_CAUSE]], started=bool(row[kc.C_STARTED]),
                pit_stops=row[kc.C_PIT_STOPS], pit_wait=bool(row[kc.C_PIT_WAIT]),
                pit_exit=row[kc.C_PIT_EXIT], arrival=row[kc.C_ARRIVAL],
                place=row[kc.C_PLACE] if row[kc.C_PLACE] >= 0 else None))
        finish_order = tuple(c.index for c in sorted(
            (c for c in cars if c.place is not None), key=lambda c: c.place or 0))
        return start.but(cars=tuple(cars), turn=turns, sequence=int(race[krr.R_SEQUENCE]),
                         debris=frozenset(names[s] for s in np.flatnonzero(debris)),
                         finish_order=finish_order,
                         repairs=tuple(int(left) for left in race[krr.R_REPAIRS:]))


_STATUS = {code: status for status, code in kc.STATUS.items()}


class RaceOutcome(NamedTuple):
    """How a race ended, without its events (see :meth:`KernelRacer.count`)."""

    turns: int
    completed: bool
    finish_order: tuple[int, ...]
    cars: tuple[CarResult, ...]


class _Played(NamedTuple):
    """A race played in compiled code, before its result is read."""

    grid: tuple[Event, ...]
    start: RaceState
    table: Ints
    debris: Ints
    turns: int
    completed: bool
    race: Ints
    """The race's numbers at the end (``R_*`` of :mod:`~trackformat.sim.kernel.resolve`)."""


def kernel_race(board: Board, rules: Ruleset, bots: Sequence[str], seed: int,
                laps: int | None = None, max_turns: int | None = None,
                driver_seeds: Sequence[int] | None = None,
                builds: Sequence[WearPoints | None] = ()) -> RaceResult:
    """One race of ``bots`` in the kernel (see :class:`KernelRacer`)."""
    return KernelRacer(board, rules, bots, laps, max_turns, builds).race(seed, driver_seeds)
