"""Race logs: one race as JSON lines, and replaying a log to check it event for event.

The first line says what the race was (the track's fingerprint, the ruleset, the bots, the seed,
the laps, and each car's build when the line-up gave builds; the team race's repairs are in the
ruleset); every other line is one event. Since a race depends on nothing else, racing the first
line again must give the other lines exactly: that is how a log is replayed, and how a league
can check a reported result, or a developer a change to the engine.
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from trackformat.io import dumps_track, write_text_atomically
from trackformat.model import Track
from trackformat.rules import Ruleset, WearPoints, ruleset_from_document
from trackformat.sim.core import events as ev
from trackformat.sim.core.board import Board
from trackformat.sim.drivers.bots import DRIVERS
from trackformat.sim.race.grid import RaceSetupError
from trackformat.sim.race.runner import RaceResult, run_race

LOG_KIND = "formula-d-race-log"
LOG_VERSION = 1


class RaceLogError(ValueError):
    """A log that cannot be read or replayed, with the line at fault."""


def track_fingerprint(track: Track) -> str:
    """A hash of the track file's text: a log replays only on the very same track."""
    return hashlib.sha256(dumps_track(track).encode()).hexdigest()[:16]


def _plain(value: Any) -> Any:
    if isinstance(value, enum.Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    return value


def event_line(event: ev.Event) -> str:
    """One event as a line of JSON: its type, then its fields in order."""
    fields = {f.name: _plain(getattr(event, f.name)) for f in dataclasses.fields(event)}
    return json.dumps({"event": type(event).__name__, **fields}, ensure_ascii=False)


@dataclass(frozen=True)
class RaceSetup:
    """What the first line of a log records."""

    track: str
    """The track's fingerprint (:func:`track_fingerprint`)."""
    ruleset: dict[str, Any]
    bots: tuple[str, ...]
    seed: int
    laps: int
    builds: tuple[dict[str, int] | None, ...] = ()
    """Each car's WP when the line-up gave builds (None: the ruleset's); empty: no builds."""

    def header(self) -> str:
        head: dict[str, Any] = {
            "kind": LOG_KIND,
            "version": LOG_VERSION,
            "track": self.track,
            "ruleset": self.ruleset,
            "bots": list(self.bots),
            "seed": self.seed,
            "laps": self.laps,
        }
        if self.builds:
            head["builds"] = list(self.builds)
        return json.dumps(head, ensure_ascii=False)

    def build_points(self) -> tuple[WearPoints | None, ...]:
        """:attr:`builds` as the engine takes them."""
        return tuple(None if b is None else WearPoints.model_validate(b) for b in self.builds)


def race(
    track: Track, rules: Ruleset, bots: Sequence[str], seed: int, laps: int | None = None,
    builds: Sequence[WearPoints | None] = (),
) -> tuple[RaceSetup, RaceResult]:
    """Race ``bots`` (names from ``DRIVERS``, one car each), each car with its build if
    ``builds`` gives one, and say how, for the log."""
    unknown = [b for b in bots if b not in DRIVERS]
    if unknown:
        raise RaceLogError(f"unknown bot {unknown[0]!r} (bots: {', '.join(sorted(DRIVERS))})")
    race_laps = laps if laps is not None else track.metadata.laps
    drivers = [DRIVERS[name](seed) for name in bots]
    try:
        result = run_race(Board.of(track), rules, drivers, seed, laps=race_laps, builds=builds)
    except RaceSetupError as err:
        raise RaceLogError(str(err)) from None
    setup = RaceSetup(
        track_fingerprint(track),
        rules.model_dump(mode="json", by_alias=True),
        tuple(bots),
        seed,
        race_laps,
        tuple(None if b is None else b.model_dump() for b in builds),
    )
    return setup, result


def log_lines(setup: RaceSetup, result: RaceResult) -> Iterator[str]:
    yield setup.header()
    for event in result.events:
        yield event_line(event)


def write_log(path: Path, setup: RaceSetup, result: RaceResult) -> None:
    write_text_atomically(path, "\n".join(log_lines(setup, result)) + "\n")


def read_setup(path: Path) -> tuple[RaceSetup, list[str]]:
    """The setup line and the event lines of a log file."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as err:
        raise RaceLogError(f"{path}: cannot be read ({err})") from None
    if not lines:
        raise RaceLogError(f"{path}: the log is empty")
    try:
        head = json.loads(lines[0])
    except json.JSONDecodeError as err:
        raise RaceLogError(f"{path}: line 1: not JSON ({err.msg})") from None
    if not isinstance(head, dict) or head.get("kind") != LOG_KIND:
        raise RaceLogError(f"{path}: line 1: not a race log (it starts with the race's setup)")
    if head.get("version") != LOG_VERSION:
        raise RaceLogError(
            f"{path}: line 1: log version {head.get('version')!r} is not {LOG_VERSION}"
        )
    try:
        setup = RaceSetup(
            str(head["track"]),
            dict(head["ruleset"]),
            tuple(head["bots"]),
            int(head["seed"]),
            int(head["laps"]),
            tuple(head.get("builds", ())),
        )
        setup.build_points()
    except (KeyError, TypeError, ValueError) as err:
        raise RaceLogError(f"{path}: line 1: the race's setup is incomplete ({err})") from None
    return setup, lines[1:]


@dataclass(frozen=True)
class ReplayCheck:
    """How a replay went: equal, or the first line that differs."""

    events: int
    difference: tuple[int, str, str] | None = None
    """(line number, the line in the log, the line raced now) at the first difference."""

    @property
    def same(self) -> bool:
        return self.difference is None


def replay(path: Path, track: Track) -> ReplayCheck:
    """Race the log's setup again on ``track`` and compare, line by line."""
    setup, logged = read_setup(path)
    if setup.track != track_fingerprint(track):
        raise RaceLogError(
            f"{path}: the log was raced on another version of the track "
            f"(fingerprint {setup.track}, this track's is {track_fingerprint(track)})"
        )
    rules = ruleset_from_document(setup.ruleset, f"{path} (ruleset)")
    _, result = race(track, rules, setup.bots, setup.seed, setup.laps, setup.build_points())
    raced = [event_line(e) for e in result.events]
    for number, (old, new) in enumerate(zip(logged, raced, strict=False), start=2):
        if old != new:
            return ReplayCheck(len(raced), (number, old, new))
    if len(logged) != len(raced):
        number = min(len(logged), len(raced)) + 2
        old = logged[number - 2] if len(logged) > len(raced) else "(end of log)"
        new = raced[number - 2] if len(raced) > len(logged) else "(end of race)"
        return ReplayCheck(len(raced), (number, old, new))
    return ReplayCheck(len(raced))


__all__ = [
    "RaceLogError",
    "RaceSetup",
    "ReplayCheck",
    "event_line",
    "race",
    "read_setup",
    "replay",
    "track_fingerprint",
    "write_log",
]
