"""The replay's log in the game's words: "Car 2 moves 7 spaces, 1-010 to 2-017". No Qt.

Cars are numbered from 1, as their badges on the board are; corners are called by their names,
wear by the game's wear points (WP) of each part of the car.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from trackformat.sim import events as ev
from trackformat.words import ordinal

CAUSES = {
    "missed_stops": "went through a corner missing too many stops",
    "overshoot": "overshot with too few tyres WP left",
    "spin": "overshot too far restarting after a spin",
    "blocked": "blocked without the WP to pay for it",
    "body": "lost its last body WP",
    "engine": "lost its last engine WP",
    "suspension": "lost its last suspension WP",
    "shift": "lost its last engine WP changing down four gears",
}
"""Why a car left the race, by the engine's cause."""


def wear(cost: Any) -> str:
    """A wear cost as "1 tyres WP, 2 brakes WP"; "nothing" when it costs none."""
    parts = [
        f"{getattr(cost, part)} {part} WP"
        for part in ("tyres", "brakes", "gearbox", "body", "engine", "suspension")
        if getattr(cost, part, 0)
    ]
    return ", ".join(parts) or "nothing"


def _loses(lost: int, part: str) -> str:
    return f"loses {lost} {part} WP" if lost else "no damage"


def _moved(e: ev.Moved, car: str, _corner: Callable[[str], str]) -> str:
    spaces = len(e.route)
    text = f"{car} moves {spaces} space{'s' if spaces != 1 else ''}, {e.start} to {e.destination}"
    if e.slipstream:
        text += f", {e.slipstream} of them in slipstream"
    costs = [f"{points} {part} WP" for part, points in (("brakes", e.brakes), ("tyres", e.tyres))
             if points]
    return text + (f" (spends {', '.join(costs)})" if costs else "")


def _shift(e: ev.Shift, car: str, _corner: Callable[[str], str]) -> str:
    way = "up" if e.to_gear > e.from_gear else "down"
    cost = wear(e.cost)
    paid = "" if cost == "nothing" else f" (costs {cost})"
    return f"{car} changes {way} from {ordinal(e.from_gear)} to {ordinal(e.to_gear)} gear{paid}"


def _pit(e: ev.PitStop, car: str, _corner: Callable[[str], str]) -> str:
    crew = f"crew rolls {e.roll}: " + (
        f"quick stop, moves out {e.spaces} spaces at once" if e.quick else "slow stop"
    )
    return f"{car} stops at box {e.box}, new tyres; {crew}"


def _repair(e: ev.Repair, car: str, _corner: Callable[[str], str]) -> str:
    """The team race's repairs after a pit stop: what the crew mended from the team's pool of
    repair WP, and what the pool has left for the two cars' next stops."""
    team = e.car // 2 * 2 + 1
    left = e.left or "no"
    return (f"{car}'s crew repairs {wear(e.repaired)} from the team's repair WP; cars "
            f"{team}-{team + 1} have {left} repair WP left")


def _collision(e: ev.CollisionRoll, car: str, _corner: Callable[[str], str]) -> str:
    rolled = "" if e.roll is None else f", rolls {e.roll}"
    return f"{car} touches car {e.other + 1} on {e.space}{rolled}: {_loses(e.lost, 'body')}"


_WORDS: dict[type, Callable[[Any, str, Callable[[str], str]], str]] = {
    ev.GridRoll: lambda e, car, _c: f"{car} rolls {e.roll} for the grid"
    + (f" (tie, roll {e.round})" if e.round > 1 else ""),
    ev.GridSlot: lambda e, car, _c: f"{car} starts {ordinal(e.position)} on the grid, {e.space}",
    ev.StartRoll: lambda e, car, _c: f"{car} rolls {e.roll} at the start: "
    + {"stall": "stalls", "super": "super start"}.get(e.outcome, "normal start"),
    ev.Shift: _shift,
    ev.GearRoll: lambda e, car, _c: f"{car} rolls {e.roll} in {ordinal(e.gear)} gear",
    ev.Moved: _moved,
    # The block's cost is the move's, already told on the line before.
    ev.Blocked: lambda e, car, _c: f"{car} is blocked on {e.space} with {e.spaces} "
    f"space{'s' if e.spaces != 1 else ''} of its roll left over",
    ev.Overshoot: lambda e, car, corner: f"{car} overshoots {corner(e.corner)} by {e.spaces} "
    f"space{'s' if e.spaces != 1 else ''}, {e.missing} stop{'s' if e.missing != 1 else ''} "
    f"short, on {e.space}",
    ev.SpinOut: lambda e, car, _c: f"{car} spins out on {e.space}",
    ev.DebrisRoll: lambda e, car, _c: f"{car} rolls {e.roll} for debris on {e.space}: "
    + _loses(e.lost, "suspension"),
    ev.DebrisDropped: lambda e, _car, _c: f"debris left on {e.space}",
    ev.CollisionRoll: _collision,
    ev.EngineRoll: lambda e, car, _c: f"{car} rolls {e.roll} for its engine on {e.space}: "
    + _loses(e.lost, "engine"),
    ev.Eliminated: lambda e, car, _c: f"{car} is out on {e.space}: "
    + CAUSES.get(str(e.cause.value), str(e.cause.value)),
    ev.LapCompleted: lambda e, car, _c: f"{car} completes lap {e.lap}",
    ev.Finished: lambda e, car, _c: f"{car} finishes {ordinal(e.place)}",
    ev.PitStop: _pit,
    ev.Repair: _repair,
    ev.Skipped: lambda e, car, _c: f"{car} does not move ({e.reason})",
}


def describe(event: ev.Event, corner_names: Mapping[str, str] | None = None) -> str:
    """One line of the replay's log for ``event``, numbering cars as the board's badges."""
    names = corner_names or {}
    car = f"Car {event.car + 1}"
    words = _WORDS.get(type(event))
    if words is None:  # an event this log does not know yet: its name, never a traceback
        return f"{car}: {type(event).__name__.lower()}"
    return words(event, car, lambda corner: names.get(corner) or corner)
