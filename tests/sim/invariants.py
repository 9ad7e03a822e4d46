"""What must hold in every race, checked while it runs and from its log afterwards.

Shared by the ring's race tests and the test drives of the shipped tracks: a
:class:`CheckingDriver` checks the state and every offered move each time it is asked to
choose; :func:`check_log` replays the event log (positions from the grid, each move, cars
leaving) and :func:`check_result` the outcome.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from trackformat.sim import (
    Board,
    CarStatus,
    Driver,
    GearOption,
    Move,
    RaceResult,
    RaceState,
    RandomDriver,
)
from trackformat.sim import events as ev


class CheckingDriver:
    """A driver (random unless given one) that checks the race's invariants every time it is
    asked to choose, then lets the driver it wraps choose."""

    def __init__(self, inner: Driver | None = None) -> None:
        self.inner: Driver = inner if inner is not None else RandomDriver()

    def start_race(self, seed: int, car: int) -> None:
        self.inner.start_race(seed, car)

    def choose_gear(self, state: RaceState, car: int,
                    options: Sequence[GearOption]) -> GearOption:
        check_state(state, car)
        return self.inner.choose_gear(state, car, options)

    def choose_move(self, state: RaceState, car: int, roll: int,
                    moves: Sequence[Move]) -> Move:
        check_state(state, car)
        assert moves, "a car on the board always has a move"
        for move in moves:
            check_move(state, car, move)
        return self.inner.choose_move(state, car, roll, moves)

    def choose_slipstream(self, state: RaceState, car: int, move: Move,
                          options: Sequence[Move]) -> Move | None:
        return self.inner.choose_slipstream(state, car, move, options)


def check_state(state: RaceState, car: int) -> None:
    """The car asked is on the board, no two cars share a space, no WP is negative."""
    assert state.cars[car].on_board, "only cars on the board are asked to play"
    spaces = [c.space for c in state.cars if c.on_board]
    assert len(spaces) == len(set(spaces)), "two cars on one space"
    for c in state.cars:
        assert min(c.wear.tyres, c.wear.brakes, c.wear.gearbox, c.wear.body, c.wear.engine,
                   c.wear.suspension) >= 0


def check_path(board: Board, path: Sequence[str]) -> None:
    """Every step follows a link, and none goes backward along the lap (except across the
    finish line)."""
    for a, b in itertools.pairwise(path):
        assert board.graphs.moves.has_edge(a, b), f"{a}->{b} is not a link"
        if a in board.progress and b in board.progress:
            assert board.progress[b] > board.progress[a] or (a, b) in board.crossing, (
                f"{a}->{b} goes backward")


def check_move(state: RaceState, car: int, move: Move) -> None:
    """An offered move follows links forward and passes through no car."""
    taken = set(state.occupied(except_car=car))
    path = (move.start, *move.route)
    check_path(state.board, path)
    assert not taken.intersection(path[1:]), "through or onto a car"


def check_log(board: Board, events: Sequence[ev.Event]) -> None:
    """Replay where every car is from the log: each move starts where its car stands, follows
    links forward, ends on a free space, and no car moves after leaving the race."""
    where: dict[int, str] = {}
    gone: set[int] = set()
    for event in events:
        if isinstance(event, ev.GridSlot):
            where[event.car] = event.space
        elif isinstance(event, ev.Moved):
            assert event.car not in gone, "a car moved after leaving the race"
            assert where[event.car] == event.start, "a move started away from its car"
            check_path(board, (event.start, *event.route))
            others = {space for car, space in where.items() if car != event.car}
            assert event.destination not in others, "two cars on one space"
            where[event.car] = event.destination
        elif isinstance(event, (ev.Eliminated, ev.Finished)):
            gone.add(event.car)
            where.pop(event.car, None)


def check_result(result_cars: int, events: Sequence[ev.Event], finish: Sequence[int],
                 statuses: Sequence[CarStatus]) -> None:
    """Every car finished or was eliminated, once; the finish order lists the finishers."""
    gone: set[int] = set()
    for event in events:
        if isinstance(event, ev.Moved):
            assert event.car not in gone, "a car moved after leaving the race"
        if isinstance(event, (ev.Eliminated, ev.Finished)):
            gone.add(event.car)
    assert all(s in (CarStatus.FINISHED, CarStatus.ELIMINATED) for s in statuses)
    finished = [i for i, s in enumerate(statuses) if s == CarStatus.FINISHED]
    assert sorted(finish) == finished and len(gone) == result_cars


def check_race(board: Board, result: RaceResult) -> None:
    """Everything checked from a finished race: its log, its outcome, places 1 to n, and no
    negative WP at the end."""
    check_log(board, result.events)
    check_result(len(result.cars), result.events, result.finish_order,
                 [c.status for c in result.cars])
    places = sorted(c.place for c in result.cars if c.place is not None)
    assert places == list(range(1, len(places) + 1))
    for car in result.cars:
        assert min(car.wear.tyres, car.wear.brakes, car.wear.gearbox, car.wear.body,
                   car.wear.engine, car.wear.suspension) >= 0
