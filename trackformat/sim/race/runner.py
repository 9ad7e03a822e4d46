"""Running a race: one seeded generator, drivers choosing through the public API, a full log.

A game turn lets every car on the board play once, furthest ahead first. A car's turn: the start
roll on its first turn (stall, normal start, super start); otherwise a gear chosen among
:func:`~trackformat.sim.move.gears.gear_options`, its die rolled, a move chosen among
:func:`~trackformat.sim.move.legal.legal_moves`, slipstream extras offered while they apply,
then :func:`~trackformat.sim.move.resolve.play_move`. Drivers see the state and the options and
return one of the options; they never touch the generator, so a seed replays the race exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from trackformat.collector import collection_deferred
from trackformat.model.track import Track
from trackformat.rules import Ruleset, WearPoints
from trackformat.sim.core import events as ev
from trackformat.sim.core.board import Board
from trackformat.sim.core.dice import Dice, Rng
from trackformat.sim.core.state import CarStatus, Cause, RaceState, Wear
from trackformat.sim.move.gears import GearOption, gear_options, roll_die
from trackformat.sim.move.legal import Move, legal_moves, super_start_moves
from trackformat.sim.move.resolve import eliminate, pay_shift, play_move
from trackformat.sim.move.slipstream import slipstream_moves
from trackformat.sim.race.grid import new_race, turn_order


class Driver(Protocol):
    """What drives a car: a bot, or a seat for a person. Choices are taken from the options."""

    def start_race(self, seed: int, car: int) -> None:
        """Called once before the race, so a driver with its own randomness can reseed."""

    def choose_gear(self, state: RaceState, car: int,
                    options: Sequence[GearOption]) -> GearOption:
        """One of ``options``."""
        ...

    def choose_move(self, state: RaceState, car: int, roll: int,
                    moves: Sequence[Move]) -> Move:
        """One of ``moves`` (never empty)."""
        ...

    def choose_slipstream(self, state: RaceState, car: int, move: Move,
                          options: Sequence[Move]) -> Move | None:
        """One of ``options`` to take the slipstream after ``move``, or None to decline."""
        ...


class DriverError(RuntimeError):
    """A driver answered with something that was not one of its options."""


@dataclass(frozen=True)
class CarResult:
    """How one car's race ended."""

    car: int
    status: CarStatus
    place: int | None
    cause: Cause | None
    laps: int
    """Laps completed."""
    space: str
    wear: Wear


@dataclass(frozen=True)
class RaceResult:
    """A finished race: the log, the finishing order, each car's outcome."""

    seed: int
    laps: int
    turns: int
    events: tuple[ev.Event, ...]
    finish_order: tuple[int, ...]
    cars: tuple[CarResult, ...]
    final: RaceState
    completed: bool
    """False when the turn limit stopped a race that could not finish."""


class Race:
    """A race in progress; :meth:`run` plays it to the end."""

    def __init__(self, track: Track | Board, rules: Ruleset, drivers: Sequence[Driver],
                 seed: int, laps: int | None = None, rng: Rng | None = None,
                 builds: Sequence[WearPoints | None] = ()) -> None:
        """Draw the grid and get ready; ``rng`` replaces ``Dice(seed)`` (for tests
        that script the dice); ``builds``: each car's own WP, if any (see
        :func:`~trackformat.sim.race.grid.new_race`)."""
        board = track if isinstance(track, Board) else Board.of(track)
        self.seed = seed
        self.rng: Rng = rng if rng is not None else Dice(seed)
        self.drivers = list(drivers)
        self.events: list[ev.Event] = []
        race_laps = laps if laps is not None else board.graphs.track.metadata.laps
        self.state = new_race(board, rules, len(self.drivers), race_laps, self.rng, self.events,
                              builds)
        for index, driver in enumerate(self.drivers):
            driver.start_race(seed, index)

    def _log(self, state: RaceState, events: list[ev.Event]) -> None:
        self.state = state
        self.events.extend(events)

    def play_turn(self) -> None:
        """One game turn: every car on the board plays once, in the order of the turn start."""
        self.state = self.state.but(turn=self.state.turn + 1)
        for index in turn_order(self.state):
            if self.state.cars[index].on_board:
                self._play_car(index)

    def _play_car(self, index: int) -> None:
        state, rules, driver = self.state, self.state.rules, self.drivers[index]
        car = state.cars[index]
        if not car.started:
            roll = roll_die(self.rng, rules.dice.black)
            outcome = ("stall" if roll in rules.start.stall
                       else "super" if roll in rules.start.super_start else "normal")
            self.events.append(ev.StartRoll(state.turn, index, roll, outcome))
            self.state = state.with_car(replace(car, started=True))
            if outcome == "stall":
                self.events.append(ev.Skipped(state.turn, index, "stall"))
                return
            if outcome == "super":
                spaces = rules.start.super_start_spaces
                move = self._choose(index, spaces, super_start_moves(self.state, index, spaces))
                self._log(*play_move(self.state, index, move, self.rng))
                if self.state.cars[index].on_board:
                    self.state = self.state.with_car(replace(self.state.cars[index], gear=1))
                return
            state = self.state
            car = state.cars[index]
        options = gear_options(state, index)
        option = driver.choose_gear(state, index, options)
        if option not in options:
            raise DriverError(f"car {index} chose gear {option}, not one of {options}")
        log: list[ev.Event] = []
        state = pay_shift(state, index, option, log)
        self._log(state, log)
        if not state.cars[index].on_board:
            return
        roll = roll_die(self.rng, rules.faces(option.gear))
        self.events.append(ev.GearRoll(state.turn, index, option.gear, roll))
        move = self._choose(index, roll, legal_moves(state, index, roll))
        while True:
            extras = slipstream_moves(state, index, move)
            if not extras:
                break
            choice = driver.choose_slipstream(state, index, move, extras)
            if choice is None:
                break
            if choice not in extras:
                raise DriverError(f"car {index} chose a slipstream move not offered")
            move = choice
        self._log(*play_move(state, index, move, self.rng, gear_roll=roll))
        exit_spaces = self.state.cars[index].pit_exit
        if exit_spaces and self.state.cars[index].on_board:
            move = self._choose(index, exit_spaces, legal_moves(self.state, index, exit_spaces))
            self._log(*play_move(self.state, index, move, self.rng))

    def _choose(self, index: int, roll: int, moves: tuple[Move, ...]) -> Move:
        move = self.drivers[index].choose_move(self.state, index, roll, moves)
        if move not in moves:
            raise DriverError(f"car {index} chose a move that is not legal: {move}")
        return move

    def run(self, max_turns: int | None = None) -> RaceResult:
        """Play until every car has finished or been eliminated (or ``max_turns`` is reached;
        cars still running then are eliminated with the cause ``turn_limit``)."""
        board = self.state.board
        limit = max_turns if max_turns is not None else 4 * board.lap_length * (
            self.state.laps + 1) + 100
        with collection_deferred():
            while not self.state.over and self.state.turn < limit:
                self.play_turn()
        completed = self.state.over
        if not completed:
            log: list[ev.Event] = []
            state = self.state
            for car in state.cars:
                if car.on_board:
                    state = eliminate(state, car.index, Cause.TURN_LIMIT, log)
            self._log(state, log)
        final = self.state
        cars = tuple(
            CarResult(car=c.index, status=c.status, place=c.place, cause=c.cause,
                      laps=max(c.lap - 1, 0), space=c.space, wear=c.wear)
            for c in final.cars
        )
        return RaceResult(seed=self.seed, laps=final.laps, turns=final.turn,
                          events=tuple(self.events), finish_order=final.finish_order,
                          cars=cars, final=final, completed=completed)


def run_race(track: Track | Board, rules: Ruleset, bots: Sequence[Driver], seed: int,
             laps: int | None = None, max_turns: int | None = None,
             builds: Sequence[WearPoints | None] = ()) -> RaceResult:
    """Race ``bots`` (one car each, in this order) on ``track``, each car with its build if
    ``builds`` gives one; the same seed, track, rules, builds and bots give the same race,
    event for event."""
    return Race(track, rules, bots, seed, laps, builds=builds).run(max_turns)
