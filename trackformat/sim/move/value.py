"""A move as a value: where a car goes for a roll, by which spaces, and what it costs; and the
one reading of the overshoot rules that prices it, whichever walk found the route.

Kept apart from :mod:`trackformat.sim.move.legal` (which finds the legal moves) so that both ways of
pricing routes, the fast one of :mod:`trackformat.sim.move.pricing` and the plain one of
:func:`trackformat.sim.move.legal.collect_moves`, can share them without importing each other.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any

from trackformat.rules import Ruleset
from trackformat.sim.core.state import CarState, CarStatus, Cause, Wear

__all__ = ["CornerExit", "Move", "build_move", "overshoot_cost", "overshoot_outcome"]


@dataclass(frozen=True, slots=True)
class CornerExit:
    """An overshoot: ``spaces`` ended beyond ``corner`` with ``missing`` stops not made."""

    corner: str
    spaces: int
    missing: int


@dataclass(frozen=True, slots=True)
class Move:
    """One way to play a roll: where the car goes, by which spaces, and what it costs."""

    start: str
    route: tuple[str, ...]
    """The spaces entered, in order (the start is not included): its length is the distance."""
    roll: int
    """The spaces the move had to cover (the die, plus slipstream extras)."""
    brakes: int = 0
    """Brakes WP paid (braking and blocking)."""
    tyres: int = 0
    """Tyres WP paid (overshoot and blocking); capped at what the car has."""
    blocked: int = 0
    """Spaces of the roll left over because cars blocked every way (0 when not blocked)."""
    overshoots: tuple[CornerExit, ...] = ()
    spin: bool = False
    """The car spins out at the end of the move."""
    eliminated: Cause | None = None
    """The move eliminates the car, and why."""
    debris: tuple[str, ...] = ()
    """Debris markers passed or stopped on (one suspension roll each)."""
    box: bool = False
    """The move ends in the car's box: a pit stop."""
    slipstream: int = 0
    """How many slipstream extras the move includes."""
    corner_entries: int = field(default=0, compare=False)
    """Corners entered during slipstream extras (each costs the ruleset's corner-entry cost,
    already counted in :attr:`brakes`)."""

    @property
    def destination(self) -> str:
        return self.route[-1] if self.route else self.start

    @property
    def distance(self) -> int:
        return len(self.route)

    @property
    def cost(self) -> Wear:
        """The WP the move costs."""
        return Wear(tyres=self.tyres, brakes=self.brakes)

    @property
    def overshoot(self) -> int:
        """Spaces beyond corners left without their stops, all corners together."""
        return sum(exit_.spaces for exit_ in self.overshoots)


def overshoot_outcome(
    rules: Ruleset, car: CarState, exits: tuple[CornerExit, ...]
) -> tuple[int, bool, Cause | None]:
    """What leaving corners without their stops costs: (tyres WP owed, whether the car spins,
    why it is eliminated if it is). One reading of the overshoot, spin-out and missed-stop
    rules for every way of walking routes."""
    return overshoot_cost(rules, car, sum(e.spaces for e in exits),
                          max((e.missing for e in exits), default=-1))


def overshoot_cost(rules: Ruleset, car: CarState, spaces_beyond: int,
                   most_missing: int) -> tuple[int, bool, Cause | None]:
    """:func:`overshoot_outcome` from what it depends on: the spaces beyond the corners left
    short, all together, and the most stops missing in one of them (-1 for none); so a walk
    can work those out once per route and price the route for car after car."""
    over_tyres = spaces_beyond * rules.corners.tyres_per_space
    tyres_left = car.wear.tyres
    eliminated: Cause | None = None
    spin = False
    if most_missing >= rules.corners.eliminated_missing:
        eliminated = Cause.MISSED_STOPS
    elif over_tyres > 0:
        if car.status == CarStatus.SPUN:
            if spaces_beyond <= rules.spin_out.respin_max_spaces:
                spin = True
            else:
                eliminated = Cause.SPIN
        elif over_tyres > tyres_left:
            eliminated = Cause.OVERSHOOT
        elif over_tyres == tyres_left:
            spin = True
    return over_tyres, spin, eliminated


def _setters() -> tuple[Callable[[Move, Any], None], ...]:
    names = tuple(f.name for f in fields(Move))
    if names != _FIELDS:
        raise RuntimeError(f"Move's fields changed to {names}: update build_move")
    return tuple(getattr(Move, name).__set__ for name in names)


_FIELDS = ("start", "route", "roll", "brakes", "tyres", "blocked", "overshoots", "spin",
           "eliminated", "debris", "box", "slipstream", "corner_entries")
(_start, _route, _roll, _brakes, _tyres, _blocked, _overshoots, _spin, _eliminated, _debris,
 _box, _slipstream, _entries) = _setters()
_new = object.__new__


def build_move(start: str, route: tuple[str, ...], roll: int, brakes: int, tyres: int,
               blocked: int, overshoots: tuple[CornerExit, ...], spin: bool,
               eliminated: Cause | None, debris: tuple[str, ...], box: bool) -> Move:
    """``Move(start, route, ..., box)``, the same value, built twice as fast.

    A frozen dataclass sets each field through ``object.__setattr__`` in its ``__init__``; the
    move lists build tens of thousands of moves a race, so they set the slots directly instead
    (every field, as ``__init__`` would, the last two at their defaults). The field list is
    checked when the module loads, so a new field cannot be left unset."""
    move = _new(Move)
    _start(move, start)
    _route(move, route)
    _roll(move, roll)
    _brakes(move, brakes)
    _tyres(move, tyres)
    _blocked(move, blocked)
    _overshoots(move, overshoots)
    _spin(move, spin)
    _eliminated(move, eliminated)
    _debris(move, debris)
    _box(move, box)
    _slipstream(move, 0)
    _entries(move, 0)
    return move
