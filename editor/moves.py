"""What the Moves tool asks the race engine: where a car may end its move, and at what cost.

A car stands on a space in a gear, with a roll of its die (or every face of it), and other cars
stand where the user put them. The engine (:func:`trackformat.sim.legal_moves`) says which moves
the rules allow; this module only builds the race state it needs and sorts its answer by the
space each move ends on, so that the board can light those spaces. No rule of the game is read
again here: a change to the engine shows on the board as it is.

Qt-free, so that it is tested without a window.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from trackformat.model import Track
from trackformat.rules import Ruleset
from trackformat.sim import (
    Board,
    CarState,
    Move,
    RaceSetupError,
    RaceState,
    Wear,
    face_distribution,
    legal_moves_by_roll,
)

MOVING_CAR = 0
"""Index of the car whose moves are shown; the other cars follow it."""


class MovesError(Exception):
    """The engine cannot answer on this track as it is; the message says why, for the status
    bar (a half-made track is normal in an editor, never a traceback)."""


@dataclass(frozen=True)
class MovesSetup:
    """Everything the user chose: the car, its gear and roll, its race, and the other cars."""

    space: str
    """The space the car stands on."""
    gear: int = 2
    roll: int | None = None
    """The roll of the gear's die; None for every face of it."""
    lap: int = 1
    """Laps the car has started (0 on a grid behind the line)."""
    laps: int = 2
    """Length of the race: it sets the starting wear points and the pit windows."""
    place_to_stop: str | None = None
    """The team's box or garage, where a move may end in a pit stop."""
    stops: int = 1
    """Stops already made in the corner the car stands in (when it stands in one)."""
    others: tuple[str, ...] = ()
    """Spaces of the other cars, obstacles to the move."""


@dataclass(frozen=True)
class Landing:
    """A space where the car may end its move, with every legal move that ends there."""

    space: str
    moves: tuple[Move, ...] = field(repr=False)

    @property
    def best(self) -> Move:
        """The move a player would pick to end here: out of the race last, then a spin, then
        the fewest wear points."""
        return min(self.moves, key=_price)

    @property
    def label(self) -> str:
        """What the best move costs, as the board writes it ("" when it costs nothing)."""
        return cost_label(self.best)

    @property
    def free(self) -> bool:
        best = self.best
        return best.eliminated is None and not best.spin and best.cost.total() == 0

    @property
    def out(self) -> bool:
        """Whether every way of ending here eliminates the car."""
        return self.best.eliminated is not None

    def details(self) -> str:
        """Every way of ending here, one line each, for the space's tooltip."""
        lines = sorted({(m.roll, describe(m)) for m in self.moves})
        return "\n".join([self.space, *(f"roll {roll}: {text}" for roll, text in lines)])


def _price(move: Move) -> tuple[int, int, int, int]:
    return (move.eliminated is not None, move.spin, move.cost.total(), move.brakes)


def cost_label(move: Move) -> str:
    """The move's cost in the board's shorthand: "B2" brakes, "T1" tyres, "spin", "X" out of
    the race, "pit" a pit stop; "" for a free move."""
    if move.eliminated is not None:
        return "X"
    parts = []
    if move.box:
        parts.append("pit")
    if move.brakes:
        parts.append(f"B{move.brakes}")
    if move.tyres:
        parts.append(f"T{move.tyres}")
    if move.spin:
        parts.append("spin")
    return " ".join(parts)


def describe(move: Move) -> str:
    """One move in words: how far, what it costs and what happens."""
    what = [f"{move.distance} space{'s' if move.distance != 1 else ''}"]
    if move.brakes:
        what.append(f"{move.brakes} brakes WP")
    if move.tyres:
        what.append(f"{move.tyres} tyres WP")
    if move.blocked:
        what.append(f"blocked with {move.blocked} left over")
    for exit_ in move.overshoots:
        what.append(f"overshoots {exit_.corner} by {exit_.spaces}")
    if move.box:
        what.append("pit stop")
    if move.spin:
        what.append("spins")
    if move.eliminated is not None:
        what.append(f"out of the race ({move.eliminated.value.replace('_', ' ')})")
    if len(what) == 1:
        what.append("free")
    return ", ".join(what)


def die_faces(rules: Ruleset, gear: int) -> tuple[int, ...]:
    """The distinct results of the die of ``gear``, lowest first."""
    return tuple(value for value, _chance in face_distribution(rules, gear))


def places_to_stop(track: Track) -> list[str]:
    """The spaces where a team may stop in the pits: the boxes beside the pit lane, then the
    garages in line in it (the engine stops cars at both)."""
    pit = track.pit_lane
    if pit is None:
        return []
    spaces = {s.id for s in track.spaces}
    return [s for s in dict.fromkeys([*pit.boxes, *pit.garages]) if s in spaces]


def board_of(track: Track) -> Board:
    """The engine's lookups of ``track``, or :class:`MovesError` saying why it cannot read it."""
    if not track.spaces:
        raise MovesError("the track has no spaces yet")
    try:
        board = Board.of(track)
    except Exception as err:  # a half-made track may break the engine anywhere in its lookups
        raise MovesError(f"the race engine cannot read this track yet: {_reason(err)}") from err
    if board.laneless:
        named = ", ".join(board.laneless[:5]) + (", ..." if len(board.laneless) > 5 else "")
        raise MovesError(
            f"{named} {'are' if len(board.laneless) > 1 else 'is'} in no lane, and the engine "
            "reads lane changes by lane: give every track space a lane (see Problems)"
        )
    return board


def race_state(board: Board, rules: Ruleset, setup: MovesSetup) -> RaceState:
    """The race as the engine sees it at the start of the car's move."""
    wear = Wear.of(rules.starting_wear(setup.laps))
    corner = board.corner_of.get(setup.space)
    car = CarState(
        index=MOVING_CAR, space=setup.space, gear=setup.gear, wear=wear, lap=setup.lap,
        started=True, box=setup.place_to_stop, corner=corner,
        stops=setup.stops if corner is not None else 0,
    )
    others = tuple(
        CarState(index=n, space=space, gear=setup.gear, wear=wear, lap=setup.lap, started=True)
        for n, space in enumerate(setup.others, start=MOVING_CAR + 1)
    )
    return RaceState(board=board, rules=rules, laps=setup.laps, cars=(car, *others))


def landings(board: Board, rules: Ruleset, setup: MovesSetup) -> dict[str, Landing]:
    """Every space the car may end its move on, by space id, as the engine plays the rules."""
    if setup.space not in board.kind:
        raise MovesError(f"the car's space {setup.space} is not on the board")
    rolls: Iterable[int] = (
        die_faces(rules, setup.gear) if setup.roll is None else (setup.roll,)
    )
    try:
        state = race_state(board, rules, setup)
        by_roll = legal_moves_by_roll(state, MOVING_CAR, rolls)
    except RaceSetupError as err:
        raise MovesError(str(err)) from err
    except Exception as err:  # the engine met a track it cannot race: say so, keep working
        raise MovesError(f"the race engine cannot move a car here: {_reason(err)}") from err
    return group(move for moves in by_roll.values() for move in moves)


def group(moves: Iterable[Move]) -> dict[str, Landing]:
    """Moves sorted by the space they end on, in the order the engine listed them."""
    ends: dict[str, list[Move]] = {}
    for move in moves:
        ends.setdefault(move.destination, []).append(move)
    return {space: Landing(space, tuple(found)) for space, found in ends.items()}


def summary(setup: MovesSetup, found: Sequence[Landing], faces: Sequence[int]) -> str:
    """The status line after a look: what was asked and how many spaces the car may reach."""
    roll = f"roll {setup.roll}" if setup.roll is not None else (
        f"every face ({faces[0]}-{faces[-1]})" if faces else "every face"
    )
    free = sum(1 for landing in found if landing.free)
    costly = len(found) - free
    return (
        f"Car on {setup.space}, gear {setup.gear}, {roll}: {len(found)} space"
        f"{'s' if len(found) != 1 else ''} to end on, {free} free, {costly} at a cost"
    )


def _reason(err: Exception) -> str:
    text = str(err).strip() or type(err).__name__
    if isinstance(err, KeyError):
        text = f"no space {text}"
    return text.splitlines()[0]
