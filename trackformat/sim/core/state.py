"""The race as a value: the cars, their wear points and where they are, and the debris.

A :class:`RaceState` is immutable: applying a move gives a new one, so a bot can look ahead by
applying moves to copies without undoing anything, and a replay is a list of states. It carries
the :class:`~trackformat.sim.core.board.Board` and the ruleset it is played under, so that
``legal_moves(state, car, roll)`` needs nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from typing import TYPE_CHECKING

from trackformat.rules import WEAR_CATEGORIES, Ruleset, WearPoints

if TYPE_CHECKING:
    from trackformat.sim.core.board import Board


@dataclass(frozen=True, slots=True)
class Wear:
    """Wear points (WP) left in each category, or a cost in WP."""

    tyres: int = 0
    brakes: int = 0
    gearbox: int = 0
    body: int = 0
    engine: int = 0
    suspension: int = 0

    @classmethod
    def of(cls, points: WearPoints) -> Wear:
        """The same numbers as a ruleset's :class:`~trackformat.rules.WearPoints`."""
        return cls(**{name: getattr(points, name) for name in WEAR_CATEGORIES})

    def minus(self, cost: Wear) -> Wear:
        """WP left after paying ``cost`` (may go negative: check :meth:`covers` first)."""
        if cost is NO_COST:
            return self  # the usual shift: nothing to pay (wear is a value: no copy needed)
        return Wear(*(getattr(self, n) - getattr(cost, n) for n in WEAR_CATEGORIES))

    def covers(self, cost: Wear) -> bool:
        """Whether there are enough WP in every category to pay ``cost``."""
        # Category by category, spelt out: asked for every gear of every turn.
        return (self.tyres >= cost.tyres and self.brakes >= cost.brakes
                and self.gearbox >= cost.gearbox and self.body >= cost.body
                and self.engine >= cost.engine and self.suspension >= cost.suspension)

    def total(self) -> int:
        """All WP together (the size of a cost)."""
        return sum(getattr(self, n) for n in WEAR_CATEGORIES)

    def with_(self, **values: int) -> Wear:
        """A copy with some categories changed."""
        return replace(self, **values)


NO_COST = Wear()
"""A cost of nothing."""

if tuple(f.name for f in fields(Wear)) != WEAR_CATEGORIES:
    raise RuntimeError("Wear must list the ruleset's WEAR_CATEGORIES, in order")


class CarStatus(StrEnum):
    """Where a car stands in the race."""

    RACING = "racing"
    SPUN = "spun"
    """Spun out on its last tyres WP: it restarts in first on its next turn, under the respin
    rule of that turn."""
    FINISHED = "finished"
    ELIMINATED = "eliminated"


_ON_BOARD = frozenset((CarStatus.RACING, CarStatus.SPUN))
"""Statuses of a car still on the board (a set: asked for every car many times a move)."""


class Cause(StrEnum):
    """Why a car was eliminated."""

    MISSED_STOPS = "missed_stops"
    """Went through a corner missing too many of its stops."""
    OVERSHOOT = "overshoot"
    """An overshoot that would cost more tyres WP than the car had left."""
    SPIN = "spin"
    """Overshot too far on the turn of its restart after a spin."""
    BLOCKED = "blocked"
    """Blocked with too many spaces left over, or without the WP to pay for the block."""
    BODY = "body"
    ENGINE = "engine"
    SUSPENSION = "suspension"
    SHIFT = "shift"
    """Lost its last engine WP on a four-gear downshift."""
    TURN_LIMIT = "turn_limit"
    """Still running when the race runner's turn limit was reached (a track where cars cannot
    finish); not a rule of the game."""


@dataclass(frozen=True, slots=True)
class CarState:
    """One car: where it is, its gear and wear, and where it stands in the race."""

    index: int
    """Position of the car in the race's list of cars (its identity)."""
    space: str
    """The space it stands on (its last space once finished or eliminated)."""
    gear: int
    """Current gear, 0 before the car has started."""
    wear: Wear
    """Wear points left."""
    lap: int
    """Laps started: 0 on a grid behind the line, 1 after the first crossing, and so on."""
    box: str | None = None
    """Where this car stops in the pits, if the track gives it a place: its team's box beside
    the pit lane or its garage in line in it (:func:`~trackformat.sim.race.grid.places_to_stop`).
    The engine calls both a box: a move that ends there is a pit stop."""
    corner: str | None = None
    """The corner the car is in (this visit), or None on a straight."""
    stops: int = 0
    """Stops made in :attr:`corner` on this visit."""
    status: CarStatus = CarStatus.RACING
    cause: Cause | None = None
    """Why it was eliminated."""
    started: bool = False
    """Whether the start roll of the black die has been made."""
    pit_stops: int = 0
    """Pit stops made so far."""
    pit_wait: bool = False
    """After a slow stop: the car leaves its box this turn, in a gear of its choice up to the
    ruleset's limit, with no downshift cost."""
    pit_exit: int = 0
    """After a quick stop: spaces the car moves out of its box at once (0 otherwise)."""
    arrival: int = 0
    """Sequence number of the car's last move, for the "first arrived plays first" rule."""
    place: int | None = None
    """Finishing place (1 for the winner)."""

    @property
    def on_board(self) -> bool:
        """Whether the car still stands on the board (an obstacle and a collision neighbour)."""
        return self.status in _ON_BOARD


@dataclass(frozen=True)
class RaceState:
    """The whole race at one moment; see the module docstring."""

    board: Board = field(repr=False, compare=False)
    rules: Ruleset = field(repr=False, compare=False)
    laps: int
    """Length of the race in laps."""
    cars: tuple[CarState, ...]
    debris: frozenset[str] = frozenset()
    """Spaces with a debris marker."""
    turn: int = 0
    """Game turn number, from 1 once the race has started."""
    finish_order: tuple[int, ...] = ()
    """Car indices in the order they crossed the line for the last time."""
    sequence: int = 0
    """Moves made so far in the race (gives each move its arrival number)."""
    starting: tuple[Wear, ...] = ()
    """Each car's starting WP, by car: its build's (building your car) or the ruleset's; empty
    when every car starts with the ruleset's (a race state made by hand). A pit stop refills to
    these."""
    repairs: tuple[int, ...] = ()
    """The team race's repair WP each team has left (team ``k``: cars ``2k`` and ``2k + 1``);
    empty when the rules have no team repairs."""

    def car(self, index: int) -> CarState:
        return self.cars[index]

    def starting_wear(self, index: int) -> Wear:
        """The WP car ``index`` started the race with (see :attr:`starting`)."""
        if self.starting:
            return self.starting[index]
        return Wear.of(self.rules.starting_wear(self.laps))

    def with_car(self, car: CarState) -> RaceState:
        """A copy with one car replaced."""
        cars = list(self.cars)
        cars[car.index] = car
        return self.but(cars=tuple(cars))

    def but(self, **changes: object) -> RaceState:
        """A copy with some fields changed: ``dataclasses.replace(self, **changes)``, several
        times cheaper. The race is copied for every move a car plays; a race state has no
        ``__post_init__`` and no field outside ``__init__``, so copying its fields and setting
        the changed ones is all ``replace`` would do."""
        unknown = changes.keys() - _RACE_FIELDS
        if unknown:
            raise TypeError(f"RaceState has no field {sorted(unknown)}")
        copy = object.__new__(RaceState)
        fields_ = copy.__dict__
        fields_.update(self.__dict__)
        fields_.update(changes)
        return copy

    def occupied(self, except_car: int | None = None) -> dict[str, int]:
        """Spaces taken by cars still on the board, mapped to the car on each."""
        return {
            c.space: c.index for c in self.cars if c.on_board and c.index != except_car
        }

    @property
    def over(self) -> bool:
        """Whether every car has finished or been eliminated."""
        return not any(c.on_board for c in self.cars)


_RACE_FIELDS = frozenset(f.name for f in fields(RaceState))
