"""The solo race as a problem to solve: one car alone, its places, its gears and its dice.

A car alone on the track is in a *place* (where it stands and what it owes the rules there: the
space, the laps started, the stops made in the corner it is in, whether it is spun, the pit stops
made, and whether it is at the start of a turn, waiting in its box after a slow stop, or leaving
its box at once after a quick one) and has a *gear* and *wear points*. Everything else a race
state holds is the same for every solo race or does not matter to a car alone (see
docs/par.md, "The state"). This module says what a place is, builds the engine's own race state
for any place, so that every question is asked of the engine itself, and gathers the numbers of
the ruleset the solver needs (the gear options, the dice, the black-die chances).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import IntEnum
from fractions import Fraction

from trackformat.model.track import Track
from trackformat.rules import WEAR_CATEGORIES, Ruleset
from trackformat.sim.core.board import Board
from trackformat.sim.core.dice import Dice
from trackformat.sim.core.state import CarState, CarStatus, RaceState, Wear
from trackformat.sim.move.gears import face_distribution, gear_options
from trackformat.sim.move.routes import may_enter_pit
from trackformat.sim.race.grid import RaceSetupError, new_race, starting_lap

MAX_LAPS = 20
"""The most laps a par is asked for: the most a track file may give (``metadata.laps``)."""

MODELLED = ("tyres", "brakes", "gearbox", "engine")
"""The wear categories that matter to a car alone, in the order of the solver's arrays. Body WP
are only lost in contacts and suspension WP only on debris (see docs/par.md), so a car alone
keeps them whole."""


class ParError(ValueError):
    """A par that cannot be asked: a track no race can start on, laps out of range, or rules
    the solver does not model (the message says which and why)."""


class Kind(IntEnum):
    """What the car does next in a place."""

    TURN = 0
    """A game turn starts: the car chooses its gear."""
    WAIT = 1
    """A turn starts in the box after a slow stop: a gear up to the ruleset's cap, free."""
    EXIT = 2
    """Mid-turn, in the box after a quick stop: the car leaves at once, moving half the crew's
    roll in the quick-stop gear (no gear die, so no engine roll)."""


@dataclass(frozen=True, slots=True)
class Place:
    """Where a car alone stands and what it owes there (see the module docstring)."""

    space: str
    lap: int
    """Laps started (0 on a grid behind the finish line)."""
    stops: int
    """Stops made in the corner of :attr:`space` on this visit, counted up to the corner's
    stops (more are worth no more: the walk only asks how many are missing)."""
    spun: bool
    pit_stops: int
    kind: Kind


WalkKey = tuple[str, int, bool, bool]
"""What the engine's legal moves of a place depend on, besides the wear: the space, the stops
made, whether the pit entry is open, whether the car is spun."""


class SoloRace:
    """One car alone on ``track`` under ``rules`` for ``laps`` laps: its pole position and the
    engine's race state at any place, gear and wear.

    ``box`` is where the car stops in the pits (a box or a garage of the pit lane); None: the
    pole sitter's of a race of one car. A driver among other cars gives its own, since a car
    may stop only at its team's box and par's values in and before the pit lane depend on it.

    Raises :class:`ParError` when no solo race can be set up."""

    def __init__(self, track: Track, rules: Ruleset, laps: int, box: str | None = None) -> None:
        if not 1 <= laps <= MAX_LAPS:
            raise ParError(f"a race has 1 to {MAX_LAPS} laps, not {laps}")
        if rules.team_repairs is not None:
            raise ParError("the team race's repairs are shared by teams of two cars, and par "
                           "is for a car alone: use rules without team_repairs")
        for step in rules.shifting.downshifts:
            costly = [n for n in WEAR_CATEGORIES if getattr(step.cost, n) and n not in MODELLED]
            if costly:
                raise ParError(f"a downshift of {step.gears} gears costs {', '.join(costly)} "
                               "WP in these rules; par models only "
                               f"{', '.join(MODELLED)} (docs/par.md)")
        if rules.movement.brakes_per_space < 1:
            raise ParError("with brakes_per_space 0 a car may brake to a standstill for free, "
                           "turn after turn; par needs every turn to move the car or spend a WP")
        self.track = track
        self.rules = rules
        self.laps = laps
        try:
            self.board = Board.of(track)
            opening = new_race(self.board, rules, 1, laps, Dice(0), [])
        except RaceSetupError as err:
            raise ParError(str(err)) from None
        if box is not None and not self.board.in_pit(box):
            raise ParError(f"{box!r} is not a space of the pit lane: a car cannot stop there")
        self.pole: CarState = (opening.cars[0] if box is None
                               else replace(opening.cars[0], box=box))
        """The car on pole before its start roll."""
        self.start: Wear = opening.starting_wear(0)
        self.top: tuple[int, ...] = tuple(getattr(self.start, n) for n in MODELLED)
        """The starting WP of the modelled categories: the top of each array dimension."""
        self.opening = opening

    # -- the engine's own state at a place ------------------------------------------------------

    def corner_at(self, space: str) -> str | None:
        """The corner a car standing on ``space`` is in (None on a straight or in the pits)."""
        if self.board.in_pit(space):
            return None
        return self.board.corner_of.get(space)

    def needed_stops(self, space: str) -> int:
        """Stops the corner of ``space`` demands (0 on a straight)."""
        corner = self.corner_at(space)
        return self.board.corner_stops[corner] if corner is not None else 0

    def car_at(self, place: Place, gear: int = 1, wear: Wear | None = None) -> CarState:
        """The car at ``place`` as the engine keeps it."""
        return CarState(index=0, space=place.space, gear=gear,
                        wear=wear if wear is not None else self.start, lap=place.lap,
                        box=self.pole.box, corner=self.corner_at(place.space),
                        stops=place.stops,
                        status=CarStatus.SPUN if place.spun else CarStatus.RACING,
                        started=True, pit_stops=place.pit_stops,
                        pit_wait=place.kind == Kind.WAIT)

    def state_at(self, place: Place, gear: int = 1, wear: Wear | None = None,
                 laps: int | None = None) -> RaceState:
        """The solo race with the car at ``place`` (a race of ``laps`` laps if given)."""
        return RaceState(board=self.board, rules=self.rules,
                         laps=self.laps if laps is None else laps,
                         cars=(self.car_at(place, gear, wear),), starting=(self.start,))

    def walk_key(self, place: Place) -> WalkKey:
        """What the legal moves at ``place`` depend on besides the wear (:data:`WalkKey`)."""
        state = self.state_at(place)
        return (place.space, place.stops, may_enter_pit(state, state.cars[0]), place.spun)

    def grid_place(self) -> Place:
        """The pole position, as the place of the car's first turn."""
        return Place(self.pole.space, self.pole.lap, 0, False, 0, Kind.TURN)

    def grid_places(self) -> list[Place]:
        """Every slot of the grid, as the place of a first turn there (a car of a race of
        many may start from any of them)."""
        return [Place(slot, starting_lap(self.board, slot), 0, False, 0, Kind.TURN)
                for slot in self.track.grid if slot in self.board.lane]

    # -- the dice and the black die -------------------------------------------------------------

    def faces(self, gear: int) -> tuple[tuple[int, Fraction], ...]:
        """Each result of the die of ``gear`` with its probability (the engine's own)."""
        return face_distribution(self.rules, gear)

    def black_chance(self, results: list[int] | range) -> Fraction:
        """The chance that the black die shows one of ``results``."""
        black = self.rules.dice.black
        return Fraction(sum(1 for face in black if face in results), len(black))

    def exit_rolls(self) -> tuple[tuple[int, Fraction], ...]:
        """After a quick stop: each distance the car moves out of its box, with its chance
        given that the stop was quick (half the crew's roll, rounded up)."""
        pits = self.rules.pits
        quick = [face for face in self.rules.dice.black if face <= pits.quick_max]
        counts: dict[int, int] = {}
        for face in quick:
            spaces = -(-face // pits.quick_divisor)
            counts[spaces] = counts.get(spaces, 0) + 1
        return tuple((spaces, Fraction(n, len(quick))) for spaces, n in sorted(counts.items()))

    def engine_loss_chance(self) -> Fraction:
        """The chance that an engine roll costs an engine WP (0 without engine damage)."""
        damage = self.rules.engine_damage
        return self.black_chance(damage.losing) if damage is not None else Fraction(0)

    def triggers(self, gear: int, face: int) -> bool:
        """Whether ``face`` in ``gear`` sets off an engine roll."""
        damage = self.rules.engine_damage
        return damage is not None and any(t.gear == gear and t.face == face
                                          for t in damage.triggers)

    # -- gears ------------------------------------------------------------------------------------

    def options(self, place: Place, gear: int, wear: Wear) -> list[tuple[int, Wear]]:
        """The gears the engine offers the car at ``place`` in ``gear`` with ``wear``, each with
        its cost; a shift that would eliminate the car (its last engine WP) is left out, since
        par counts only policies that are never eliminated."""
        state = self.state_at(place, gear, wear)
        return [(option.gear, option.cost) for option in gear_options(state, 0)
                if not option.eliminates]
