"""Race logs recorded from the engine before it was made faster, to prove it still plays the same.

The engine was rewritten for speed (precomputed lookups, plain ints and tuples on the hot path);
its behaviour must not move by one event. These seeded races were played by the original engine
and their full event logs kept under ``tests/sim/data/``; the tests replay them and compare event
for event. Two tracks: the factory ring, and a frozen copy of the Monaco board (a snapshot, so that
later work on ``tracks/monaco.json`` does not invalidate the logs).

Re-record only on purpose, when a rule changes the play:
``python -m tests.sim.recorded``. Last recorded when the pit lane and the end of the race came
to follow the text (docs/rules.md, W1 to W4: no drive-through the pit lane, the finishing move's
debris and engine rolls, free downshifts in the pit lane within the usual limits); before that,
when collisions and the super start came to follow the booklets' text and races moved to the
project's own dice generator (:mod:`trackformat.sim.core.dice`), which the compiled kernel
repeats draw for draw.
"""

from __future__ import annotations

import dataclasses
import enum
import gzip
import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from tests.factories import ring
from trackformat.io import loads_track
from trackformat.rules import load_ruleset
from trackformat.sim import Board, CautiousDriver, Driver, RandomDriver, run_race
from trackformat.sim import events as ev
from trackformat.sim.core.state import Wear

DATA = Path(__file__).resolve().parent / "data"
LOGS = DATA / "race_logs.json.gz"
MONACO = DATA / "monaco-snapshot.json.gz"


@cache
def board(name: str) -> Board:
    """``ring`` (3 lanes of 40) or ``monaco`` (the snapshot)."""
    if name == "ring":
        return Board.of(ring(lanes=3, per_lane=40))
    text = gzip.decompress(MONACO.read_bytes()).decode("utf-8")
    return Board.of(loads_track(text, source=str(MONACO.name)))


@dataclass(frozen=True)
class RecordedRace:
    """One seeded race: where, under which rules, with which drivers (one letter per car:
    r random, c cautious)."""

    track: str
    rules: str
    drivers: str
    seed: int
    laps: int = 2

    @property
    def name(self) -> str:
        return f"{self.track}-{self.rules}-{self.drivers}-{self.seed}"


RACES = (
    *(RecordedRace("ring", "formula-d", "rrrrrr", seed) for seed in range(4)),
    *(RecordedRace("ring", "formula-d", "cccc", seed) for seed in range(2)),
    RecordedRace("ring", "formula-d", "rcrcrcrc", 5, laps=3),
    RecordedRace("ring", "formule-de-basic", "rrrrrr", 0),
    RecordedRace("ring", "formule-de-basic", "cccc", 1),
    *(RecordedRace("monaco", "formula-d", "r" * 10, seed) for seed in range(3)),
    RecordedRace("monaco", "formula-d", "c" * 10, 0),
    RecordedRace("monaco", "formula-d", "rrrrrccccc", 7),
    RecordedRace("monaco", "formule-de-basic", "rcrcrcrcrc", 2),
)

MAKERS: dict[str, Callable[[], Driver]] = {"r": RandomDriver, "c": CautiousDriver}


def plain(value: Any) -> Any:
    """An event field as JSON: wear as its six numbers, enums as their value."""
    if isinstance(value, Wear):
        return [getattr(value, f.name) for f in dataclasses.fields(value)]
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple):
        return [plain(v) for v in value]
    return value


def row(event: ev.Event) -> list[Any]:
    """An event as a JSON row: its type, then its fields in order."""
    return [type(event).__name__,
            *(plain(getattr(event, f.name)) for f in dataclasses.fields(event))]


def play(race: RecordedRace) -> list[list[Any]]:
    """The race's log as rows, played by the engine as it is now."""
    drivers = [MAKERS[letter]() for letter in race.drivers]
    result = run_race(board(race.track), load_ruleset(race.rules), drivers, race.seed,
                      laps=race.laps)
    return [row(e) for e in result.events]


def recorded() -> dict[str, list[list[Any]]]:
    """The logs kept on disk, by race name."""
    return read_logs(LOGS)


def read_logs(path: Path) -> dict[str, list[list[Any]]]:
    """Race logs kept in a gzipped JSON file, by race name."""
    logs: dict[str, list[list[Any]]] = json.loads(gzip.decompress(path.read_bytes()))
    return logs


def write_logs(path: Path, logs: dict[str, list[list[Any]]]) -> None:
    """Keep race logs in a gzipped JSON file, byte for byte the same for the same logs."""
    text = json.dumps(logs, separators=(",", ":"))
    path.write_bytes(gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0))
    for name, log in logs.items():
        print(f"{name}: {len(log)} events")


def record() -> None:
    """Play every race and write the logs (only when the play is meant to change)."""
    write_logs(LOGS, {race.name: play(race) for race in RACES})


if __name__ == "__main__":
    record()
