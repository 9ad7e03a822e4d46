"""What happens in a race, as small frozen values.

Every roll of a die and every consequence is an event, in the order it happened: the list of
events is the race's log. Statistics (where cars overshoot, spin, crash) and the editor's replay
are both read from it, and two runs with the same seed give equal lists.
"""

from __future__ import annotations

from dataclasses import dataclass

from trackformat.sim.core.state import Cause, Wear


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened to ``car`` in game turn ``turn``."""

    turn: int
    car: int


@dataclass(frozen=True, slots=True)
class GridRoll(Event):
    """The black-die roll that places a car on the grid (``round`` > 1 for rerolled ties)."""

    roll: int
    round: int


@dataclass(frozen=True, slots=True)
class GridSlot(Event):
    """Where the grid put the car (position 1 is pole)."""

    position: int
    space: str


@dataclass(frozen=True, slots=True)
class StartRoll(Event):
    """The black-die roll before a car's first gear: ``outcome`` is stall, normal or super."""

    roll: int
    outcome: str


@dataclass(frozen=True, slots=True)
class Shift(Event):
    """A gear change and what it cost."""

    from_gear: int
    to_gear: int
    cost: Wear


@dataclass(frozen=True, slots=True)
class GearRoll(Event):
    """The roll of a gear die."""

    gear: int
    roll: int


@dataclass(frozen=True, slots=True)
class Moved(Event):
    """A move played: its route (spaces entered), and the brakes and tyres WP it cost."""

    start: str
    destination: str
    route: tuple[str, ...]
    roll: int
    brakes: int
    tyres: int
    slipstream: int
    """Slipstream extras taken (0 for a plain move)."""


@dataclass(frozen=True, slots=True)
class Blocked(Event):
    """The car was blocked with ``spaces`` of its roll left over."""

    space: str
    spaces: int
    cost: Wear


@dataclass(frozen=True, slots=True)
class Overshoot(Event):
    """The car ended ``spaces`` beyond ``corner`` without its stops (``missing`` of them)."""

    corner: str
    spaces: int
    missing: int
    space: str


@dataclass(frozen=True, slots=True)
class SpinOut(Event):
    """The car spun out on ``space`` (its last tyres WP lost on an overshoot)."""

    space: str


@dataclass(frozen=True, slots=True)
class DebrisRoll(Event):
    """A suspension roll for a debris marker on ``space``; ``lost`` WP lost (0 or 1)."""

    space: str
    roll: int
    lost: int


@dataclass(frozen=True, slots=True)
class DebrisDropped(Event):
    """A debris marker left on ``space``."""

    space: str


@dataclass(frozen=True, slots=True)
class CollisionRoll(Event):
    """A contact roll of ``car`` against ``other``; ``lost`` body WP lost (0 or 1)."""

    other: int
    roll: int | None
    """The black-die result, or None when the loss was automatic (basic rules)."""
    lost: int
    space: str


@dataclass(frozen=True, slots=True)
class EngineRoll(Event):
    """An engine roll after a top result in a high gear; ``lost`` engine WP lost (0 or 1)."""

    roll: int
    lost: int
    space: str


@dataclass(frozen=True, slots=True)
class Eliminated(Event):
    """The car left the race, and why."""

    cause: Cause
    space: str


@dataclass(frozen=True, slots=True)
class LapCompleted(Event):
    """The car crossed the line, completing lap ``lap``."""

    lap: int


@dataclass(frozen=True, slots=True)
class Finished(Event):
    """The car crossed the line for the last time, in ``place``."""

    place: int


@dataclass(frozen=True, slots=True)
class PitStop(Event):
    """A stop at the box: tyres back, then the crew's black-die roll."""

    box: str
    roll: int
    quick: bool
    spaces: int
    """Spaces the car moves out at once after a quick stop (0 after a slow one)."""


@dataclass(frozen=True, slots=True)
class Repair(Event):
    """The team race's repairs at a pit stop, after its roll: the WP the crew gave back from the
    team's pool (never above the car's starting WP), and the pool's WP left."""

    repaired: Wear
    left: int


@dataclass(frozen=True, slots=True)
class Skipped(Event):
    """The car did not move this turn (``reason``: stall)."""

    reason: str


__all__ = [
    "Blocked",
    "CollisionRoll",
    "DebrisDropped",
    "DebrisRoll",
    "Eliminated",
    "EngineRoll",
    "Event",
    "Finished",
    "GearRoll",
    "GridRoll",
    "GridSlot",
    "LapCompleted",
    "Moved",
    "Overshoot",
    "PitStop",
    "Repair",
    "Shift",
    "Skipped",
    "SpinOut",
    "StartRoll",
]
