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

from pydantic import ValidationError

from trackformat.io import dumps_track, write_text_atomically
from trackformat.io.files import FileRefused, read_limited
from trackformat.model import Track
from trackformat.rules import Ruleset, WearPoints, ruleset_from_document
from trackformat.sim.core import events as ev
from trackformat.sim.core.board import Board
from trackformat.sim.core.dice import Dice
from trackformat.sim.drivers.bots import DRIVERS
from trackformat.sim.race.grid import RaceSetupError, new_race
from trackformat.sim.race.runner import RaceResult, run_race

LOG_KIND = "formula-d-race-log"
LOG_VERSION = 1

MAX_LAPS = 20
"""The most laps a race may have: the most a track file may give (its ``metadata.laps``; the
tests hold the two equal). A longer race only takes longer; a race of 100,000 laps took hours."""

MAX_LOG_BYTES = 16 * 1024 * 1024
"""Largest race log replayed. The longest race allowed (20 laps, 10 cars on Monaco's 283-space
lap) logs about 1 MB; 16 times that leaves room for longer laps and larger grids. A log is held
line by line, which for the shortest lines takes some 20 times its size: the limit keeps that
to a few hundred MB. Beyond it is not the log of one race."""


class RaceLogError(ValueError):
    """A log that cannot be read or replayed, with the line at fault."""


class RaceCannotStart(RaceLogError):
    """A race that cannot start on the track: too many cars for its grid, no finish line, a
    build or a team race that does not fit the line-up (the message says which)."""


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


def check_start(track: Track | Board, rules: Ruleset, cars: int, laps: int | None = None,
                builds: Sequence[WearPoints | None] = ()) -> None:
    """Raise :class:`RaceCannotStart` unless ``cars`` cars can start a race on ``track``
    (enough grid slots, a finish line, teams of two for the team race): asked of the number
    alone, so that a command can ask before it makes a line-up of that many cars, which for a
    billion would not fit in memory."""
    board = track if isinstance(track, Board) else Board.of(track)
    try:
        new_race(board, rules, cars, laps if laps is not None else board.graphs.track.metadata.laps,
                 Dice(0), [], builds)
    except RaceSetupError as err:
        raise RaceCannotStart(str(err)) from None


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
    if not 1 <= race_laps <= MAX_LAPS:
        raise RaceLogError(f"a race has 1 to {MAX_LAPS} laps, not {race_laps}")
    board = Board.of(track)
    # Checked before the bots are made: a log may name millions of cars for a grid of ten.
    check_start(board, rules, len(bots), race_laps, builds)
    drivers = [DRIVERS[name](seed) for name in bots]
    try:
        result = run_race(board, rules, drivers, seed, laps=race_laps, builds=builds)
    except RaceSetupError as err:
        raise RaceCannotStart(str(err)) from None
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
    """The setup line and the event lines of a log file: a regular file of at most
    :data:`MAX_LOG_BYTES`, whose setup holds every field with a value of its type (a seed of
    1.5 is not the race of seed 1, so it is refused rather than rounded)."""
    try:
        lines = read_limited(path, MAX_LOG_BYTES, "race log").decode("utf-8").splitlines()
    except FileRefused as err:
        raise RaceLogError(f"{path}: {err.reason}") from None
    except OSError as err:
        raise RaceLogError(f"{path}: cannot be read: {err.strerror or err}") from None
    except UnicodeDecodeError as err:
        raise RaceLogError(f"{path}: not UTF-8 text (byte {err.start + 1} of the file); a race "
                           "log is written by `trackformat race --log`") from None
    if not lines:
        raise RaceLogError(f"{path}: the log is empty")
    try:
        head = json.loads(lines[0])
    except json.JSONDecodeError as err:
        raise RaceLogError(f"{path}: line 1: not JSON ({err.msg})") from None
    except (ValueError, RecursionError):  # a number of 5,000 digits, or [[[[... 100,000 deep
        raise RaceLogError(f"{path}: line 1: not the setup of a race (its JSON is beyond "
                           "reading: a number too long, or nested too deep)") from None
    if not isinstance(head, dict) or head.get("kind") != LOG_KIND:
        raise RaceLogError(f"{path}: line 1: not a race log (it starts with the race's setup)")
    if head.get("version") != LOG_VERSION:
        raise RaceLogError(
            f"{path}: line 1: log version {_shown(head.get('version'))} is not {LOG_VERSION}"
        )
    problem = _setup_problem(head)
    if problem:
        raise RaceLogError(f"{path}: line 1: {problem}")
    setup = RaceSetup(head["track"], head["ruleset"], tuple(head["bots"]), head["seed"],
                      head["laps"], tuple(head.get("builds", ())))
    return setup, lines[1:]


def _shown(value: Any) -> str:
    """A value of a log as its JSON, cut short for a message."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


def _whole(value: Any) -> bool:
    """Whether a JSON value is a whole number (``true`` is not, though Python counts it)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _setup_problem(head: dict[str, Any]) -> str:
    """What is wrong with the setup line's fields, naming the field; empty when nothing is."""
    missing = [name for name in ("track", "ruleset", "bots", "seed", "laps") if name not in head]
    if missing:
        return f"field {missing[0]!r} is missing: the race's setup is incomplete"
    wrong = [
        ("track", isinstance(head["track"], str), "not a track's fingerprint"),
        ("ruleset", isinstance(head["ruleset"], dict), "not a ruleset (a JSON object)"),
        ("seed", _whole(head["seed"]), "not a whole number"),
        ("laps", _whole(head["laps"]) and 1 <= head["laps"] <= MAX_LAPS,
         f"not a whole number from 1 to {MAX_LAPS}"),
        ("bots", isinstance(head["bots"], list) and all(isinstance(b, str) for b in head["bots"]),
         "not a list of bot names"),
        ("builds", isinstance(head.get("builds", []), list), "not a list of builds"),
    ]
    for name, right, should in wrong:
        if not right:
            return f"field {name!r} is {_shown(head[name])}, {should}"
    if not head["bots"]:
        return "field 'bots' is [], but a race needs at least one car"
    unknown = [b for b in head["bots"] if b not in DRIVERS]
    if unknown:
        return (f"field 'bots' names {unknown[0]!r}, which is no bot (bots: "
                f"{', '.join(sorted(DRIVERS))})")
    for car, build in enumerate(head.get("builds", []), start=1):
        try:
            if build is not None:
                WearPoints.model_validate(build)
        except ValidationError as err:
            first = err.errors()[0]
            where = ".".join(str(part) for part in first["loc"])
            return (f"field 'builds': car {car}'s build is {_shown(build)}: "
                    f"{where + ': ' if where else ''}{first['msg']}")
    return ""


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
    rules = ruleset_from_document(setup.ruleset, f"{path}: line 1: field 'ruleset'")
    try:
        _, result = race(track, rules, setup.bots, setup.seed, setup.laps, setup.build_points())
    except RaceCannotStart as err:
        raise RaceLogError(f"{path}: line 1: the race cannot start on this track: {err}"
                           ) from None
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
    "MAX_LAPS",
    "MAX_LOG_BYTES",
    "RaceCannotStart",
    "RaceLogError",
    "RaceSetup",
    "ReplayCheck",
    "check_start",
    "event_line",
    "race",
    "read_setup",
    "replay",
    "track_fingerprint",
    "write_log",
]
