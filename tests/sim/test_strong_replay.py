"""The strong driver plays as it did before the engine and the driver were made faster.

Seeded races of the strong driver, alone and with the simple drivers, recorded from the engine
as it was (tests/sim/recorded_strong.py), must replay event for event: same gears, same moves,
same dice. Its choices rest on sums of floats, so this also holds any change to the order those
sums are made in.
"""

from __future__ import annotations

import pytest

from tests.sim.recorded_strong import RACES, StrongRace, play, recorded


@pytest.fixture(scope="module")
def logs() -> dict[str, list[list[object]]]:
    return recorded()


@pytest.mark.parametrize("race", RACES, ids=lambda r: r.name)
def test_recorded_strong_races_replay_event_for_event(
        race: StrongRace, logs: dict[str, list[list[object]]]) -> None:
    expected = logs[race.name]
    got = play(race)
    for n, (old, new) in enumerate(zip(expected, got, strict=False)):
        assert old == new, f"{race.name}: event {n} differs"
    assert len(got) == len(expected), race.name
    assert any(row[0] == "Finished" for row in got), "a race worth comparing has finishers"
