"""Whole races: grid, start, order of play, determinism, and invariants over many races."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from tests.factories import drop_links, edit, ring
from tests.sim.helpers import Rolls, race, ring_board, rules
from tests.sim.invariants import CheckingDriver, check_race, check_result
from trackformat.sim import (
    Board,
    CautiousDriver,
    Move,
    Race,
    RaceSetupError,
    RaceState,
    RandomDriver,
    gear_options,
    legal_moves,
    new_race,
    run_race,
    super_start_moves,
    turn_order,
)
from trackformat.sim import events as ev


def test_the_grid_puts_the_highest_roll_on_pole_and_rerolls_ties() -> None:
    log: list[ev.Event] = []
    state = new_race(ring_board(), rules(), 3, 2, Rolls(5, 12, 12, 3, 8), log)
    assert [e.car for e in log if isinstance(e, ev.GridSlot)] == [2, 1, 0]
    assert [c.space for c in state.cars] == ["1-37", "3-38", "1-39"]
    assert {c.lap for c in state.cars} == {0}, "a grid behind the line starts on lap 0"


def test_the_basic_rules_put_the_lowest_roll_on_pole() -> None:
    log: list[ev.Event] = []
    new_race(ring_board(), rules("formule-de-basic"), 3, 2, Rolls(5, 12, 12, 3, 8), log)
    assert [e.car for e in log if isinstance(e, ev.GridSlot)] == [0, 1, 2]


def test_a_race_needs_grid_slots_for_every_car_and_a_finish_line() -> None:
    with pytest.raises(RaceSetupError, match="10 grid slots"):
        run_race(ring_board(), rules(), [RandomDriver() for _ in range(11)], seed=1)
    no_line = edit(ring(), lambda doc: doc.update(finish_line=None))
    with pytest.raises(RaceSetupError, match="no finish line"):
        run_race(no_line, rules(), [RandomDriver()], seed=1)


def test_start_rolls_stall_on_1_and_super_start_on_20() -> None:
    game = Race(ring_board(), rules(), [CautiousDriver(), CautiousDriver()], seed=0,
                rng=Rolls(10, 5, 1, 20))
    game.play_turn()
    starts = [(e.car, e.outcome) for e in game.events if isinstance(e, ev.StartRoll)]
    assert starts == [(0, "stall"), (1, "super")]
    stalled, leaper = game.state.cars
    assert stalled.space == "1-39" and stalled.started
    assert [o.gear for o in gear_options(game.state, 0)] == [1]
    jump = next(e for e in game.events if isinstance(e, ev.Moved))
    assert (jump.car, len(jump.route)) == (1, 4)
    assert leaper.gear == 1 and leaper.lap == 1
    assert not any(isinstance(e, ev.GearRoll) for e in game.events)


def test_a_super_start_leaps_four_spaces_straight_ahead_without_braking_or_lane_choice() -> None:
    state = race([{"space": "2-37", "started": False, "gear": 1}])
    assert len(legal_moves(state, 0, 4)) > 1, "an ordinary roll of 4 has lanes and braking"
    assert [(m.route, m.brakes) for m in super_start_moves(state, 0, 4)] == [
        (("2-38", "2-39", "2-0", "2-1"), 0)
    ]


def test_a_super_start_moves_over_one_or_two_lanes_only_if_a_car_is_in_the_way() -> None:
    state = race([{"space": "2-37", "started": False, "gear": 1}, "2-39"])
    moves = super_start_moves(state, 0, 4)
    assert {m.destination for m in moves} == {"1-1", "2-1", "3-1"}
    assert all(m.distance == 4 and m.brakes == 0 and "2-39" not in m.route for m in moves)
    game = Race(ring_board(), rules(), [CautiousDriver(), CautiousDriver()], seed=0,
                rng=Rolls(10, 5, 20))
    game.state = state
    game._play_car(0)
    jump = next(e for e in game.events if isinstance(e, ev.Moved))
    assert (jump.car, jump.roll, jump.brakes, len(jump.route)) == (0, 4, 0, 4)
    assert game.state.cars[0].gear == 1


def test_the_furthest_car_plays_first_then_the_higher_gear_then_the_inside_line() -> None:
    state = race([{"space": "1-30", "gear": 3}, {"space": "2-33", "gear": 3},
                  {"space": "3-30", "gear": 3}, {"space": "2-30", "gear": 4},
                  {"space": "2-5", "gear": 1, "lap": 2}])
    # The ring turns right: lane 3 is the inside of its corners.
    assert turn_order(state) == (4, 1, 3, 2, 0)


def test_the_basic_rules_let_the_first_arrived_play_first() -> None:
    state = race([{"space": "1-30", "arrival": 5}, {"space": "3-30", "arrival": 9}],
                 ruleset=rules("formule-de-basic"))
    assert turn_order(state) == (0, 1)


def test_cars_in_the_pit_lane_play_after_the_cars_between_pit_entry_and_exit() -> None:
    state = race([{"space": "pit-3", "box": "box-1"}, {"space": "3-1", "lap": 2},
                  {"space": "2-37"}, {"space": "1-20"}])
    assert turn_order(state) == (1, 2, 0, 3)


def test_the_same_seed_replays_the_race_event_for_event() -> None:
    def drivers() -> list[RandomDriver | CautiousDriver]:
        return [RandomDriver(), RandomDriver(), CautiousDriver(), CautiousDriver()]

    first = run_race(ring_board(), rules(), drivers(), seed=7)
    again = run_race(ring_board(), rules(), drivers(), seed=7)
    other = run_race(ring_board(), rules(), drivers(), seed=8)
    assert first.events == again.events and first.finish_order == again.finish_order
    assert first.events != other.events


@pytest.mark.parametrize(
    ("preset", "lanes", "cars", "seeds"),
    [("formula-d", 3, 6, range(30)), ("formule-de-basic", 3, 6, range(12)),
     ("formula-d", 2, 4, range(12))],
)
def test_random_races_keep_every_invariant_and_end(preset: str, lanes: int, cars: int,
                                                   seeds: range) -> None:
    board: Board = ring_board(lanes=lanes)
    for seed in seeds:
        result = run_race(board, rules(preset), [CheckingDriver() for _ in range(cars)], seed)
        assert result.completed
        check_race(board, result)


class PittingDriver(CautiousDriver):
    """A cautious driver that stops at its box whenever it can."""

    def choose_move(self, state: RaceState, car: int, roll: int,
                    moves: Sequence[Move]) -> Move:
        boxes = [m for m in moves if m.box]
        return boxes[0] if boxes else super().choose_move(state, car, roll, moves)


def test_a_pit_stop_in_a_race_leaves_at_once_or_the_next_turn() -> None:
    kinds: set[bool] = set()
    for seed in range(4):
        result = run_race(ring_board(), rules(), [PittingDriver() for _ in range(4)], seed)
        log = list(result.events)
        for position, event in enumerate(log):
            if not isinstance(event, ev.PitStop):
                continue
            kinds.add(event.quick)
            leaving = next(e for e in log[position + 1:]
                           if isinstance(e, ev.Moved) and e.car == event.car)
            assert leaving.start == event.box
            if event.quick:
                assert (leaving.turn, leaving.roll) == (event.turn, event.spaces)
            else:
                assert leaving.turn == event.turn + 1
    assert kinds == {True, False}, "both a quick and a slow stop were played"


def test_a_race_on_a_broken_track_still_ends() -> None:
    # A dead end on 2-15 and a link back from 1-30 to 1-20: cars get stuck or go round in
    # circles, and the race still ends with every car accounted for.
    def break_it(doc: dict[str, object]) -> None:
        drop_links(doc, {("2-15", f"{lane}-16") for lane in (1, 2, 3)})
        doc["links"].append({"from": "1-30", "to": "1-20"})  # type: ignore[attr-defined]

    track = edit(ring(), break_it)
    for seed in range(3):
        result = run_race(track, rules(), [RandomDriver() for _ in range(4)], seed,
                          max_turns=60)
        check_result(4, result.events, result.finish_order, [c.status for c in result.cars])
