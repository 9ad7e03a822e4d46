"""Races of the strong driver recorded from the engine before it was made faster.

The races of :mod:`tests.sim.recorded` pin the engine and the simple drivers; the strong driver
was made faster too (its look at each move reads the outlook in place, its per-turn values are
gathered once), and its decisions rest on sums of floats, which a reordering would change. These
seeded races, the strong driver alone and with the others, were played by the engine as it was
before and their logs kept in ``tests/sim/data/strong_race_logs.json.gz``; the tests replay them
event for event.

Re-record only on purpose, when a rule or the strong driver's judgement changes the play:
``python -m tests.sim.recorded_strong``. Last recorded with the races of
:mod:`tests.sim.recorded`, for the same reasons.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tests.sim.recorded import DATA, board, read_logs, row, write_logs
from trackformat.rules import load_ruleset
from trackformat.sim import CautiousDriver, Driver, RandomDriver, run_race
from trackformat.sim.drivers.strong import StrongDriver

LOGS = DATA / "strong_race_logs.json.gz"


@dataclass(frozen=True)
class StrongRace:
    """One seeded race: where, under which rules, with which drivers (one letter per car:
    s strong, r random, c cautious)."""

    track: str
    rules: str
    drivers: str
    seed: int
    laps: int = 2

    @property
    def name(self) -> str:
        return f"{self.track}-{self.rules}-{self.drivers}-{self.seed}"


RACES = (
    StrongRace("ring", "formula-d", "ssssss", 0),
    StrongRace("ring", "formule-de-basic", "srcsrc", 1),
    StrongRace("monaco", "formula-d", "s" * 10, 2),
    StrongRace("monaco", "formula-d", "srcsrcsrcs", 3),
)

MAKERS: dict[str, Callable[[int], Driver]] = {
    "s": StrongDriver,
    "r": RandomDriver,
    "c": lambda seed: CautiousDriver(),
}


def play(race: StrongRace) -> list[list[Any]]:
    """The race's log as rows, played by the engine as it is now."""
    drivers = [MAKERS[letter](race.seed * 100 + n) for n, letter in enumerate(race.drivers)]
    result = run_race(board(race.track), load_ruleset(race.rules), drivers, race.seed,
                      laps=race.laps)
    return [row(e) for e in result.events]


def recorded() -> dict[str, list[list[Any]]]:
    """The logs kept on disk, by race name."""
    return read_logs(LOGS)


def record() -> None:
    """Play every race and write the logs (only when the play is meant to change)."""
    write_logs(LOGS, {race.name: play(race) for race in RACES})


if __name__ == "__main__":
    record()
