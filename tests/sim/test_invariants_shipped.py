"""Every shipped track races soundly: a few random races on each, checked move by move.

Random drivers try moves no sensible player would, which is what finds holes in the engine or
in a track (a link that goes backward, a dead end, two cars put on one space); one cautious
car per race also gets to the finish line, so laps and the finish are exercised too.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from tests.sim.helpers import ring_board, rules
from tests.sim.invariants import CheckingDriver, check_log, check_race
from trackformat.io import load_track
from trackformat.sim import Board, CautiousDriver, Driver, RandomDriver, run_race
from trackformat.sim import events as ev

TRACKS = Path(__file__).parent.parent.parent / "tracks"
SHIPPED = sorted(TRACKS.glob("*.json"))

RACES = (("formula-d", 0, 5), ("formula-d", 1, 4), ("formule-de-basic", 2, 5),
         ("formule-de-basic", 3, 4))
"""(preset, seed, cars) of the races run on each track: 4 races of 4-5 cars, bounded in time."""


@cache
def board(path: Path) -> Board:
    return Board.of(load_track(path))


def drivers(cars: int, seed: int) -> list[Driver]:
    """One checking cautious car, the rest checking random ones."""
    return [CheckingDriver(CautiousDriver()),
            *(CheckingDriver(RandomDriver(seed)) for _ in range(cars - 1))]


@pytest.mark.parametrize(
    "path",
    [pytest.param(p, id=p.stem) for p in SHIPPED]
    or [pytest.param(None, marks=pytest.mark.skip(reason="no track shipped in tracks/"))],
)
def test_random_races_on_a_shipped_track_keep_every_invariant(path: Path) -> None:
    track_board = board(path)
    finishers = 0
    for preset, seed, cars in RACES:
        result = run_race(track_board, rules(preset), drivers(cars, seed), seed)
        assert result.completed, f"{path.name}: race {seed} did not end by itself"
        check_race(track_board, result)
        finishers += len(result.finish_order)
    assert finishers, f"{path.name}: not one car reached the finish"


def test_the_log_check_catches_a_car_put_on_another_and_a_move_backward() -> None:
    ring = ring_board()
    grid = [ev.GridSlot(0, 0, 1, "1-5"), ev.GridSlot(0, 1, 2, "1-3")]
    onto = ev.Moved(1, 1, "1-3", "1-5", ("1-4", "1-5"), 2, 0, 0, 0)
    with pytest.raises(AssertionError, match="two cars on one space"):
        check_log(ring, [*grid, onto])
    back = ev.Moved(1, 0, "1-5", "1-4", ("1-4",), 1, 0, 0, 0)
    with pytest.raises(AssertionError, match="not a link"):
        check_log(ring, [*grid, back])
    check_log(ring, [*grid, ev.Moved(1, 0, "1-5", "1-7", ("1-6", "1-7"), 2, 0, 0, 0)])
