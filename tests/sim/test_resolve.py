"""Playing a move: costs paid, stops counted, laps, the finish, pits, and the black-die rolls
it sets off (contacts, debris, engine). Dice are scripted with :class:`Rolls`."""

from __future__ import annotations

from tests.sim.helpers import Rolls, race, rules
from trackformat.sim import CarStatus, Cause, Move, RaceState, Wear, legal_moves, play_move
from trackformat.sim import events as ev


def move_to(state: RaceState, car: int, roll: int, destination: str) -> Move:
    return next(m for m in legal_moves(state, car, roll) if m.destination == destination)


def test_a_move_pays_its_brakes_and_tyres() -> None:
    state = race([{"space": "1-9", "corner": "north"}])
    after, log = play_move(state, 0, move_to(state, 0, 5, "1-13"), Rolls())
    assert after.cars[0].wear == Wear.of(rules().starting_wear(2)).with_(brakes=2, tyres=4)
    assert [type(e) for e in log] == [ev.Moved, ev.Overshoot]


def test_stops_are_counted_per_corner_per_visit() -> None:
    state = race(["1-6"])
    state, _ = play_move(state, 0, move_to(state, 0, 3, "1-9"), Rolls())
    assert (state.cars[0].corner, state.cars[0].stops) == ("north", 1)
    state, _ = play_move(state, 0, move_to(state, 0, 1, "1-10"), Rolls())
    assert state.cars[0].stops == 2
    state, _ = play_move(state, 0, move_to(state, 0, 4, "1-14"), Rolls())
    assert (state.cars[0].corner, state.cars[0].stops) == (None, 0)


def test_a_spin_leaves_the_car_turned_round_and_it_restarts_in_first() -> None:
    state = race([{"space": "1-10", "corner": "north", "wear": {"tyres": 2}}])
    state, log = play_move(state, 0, move_to(state, 0, 4, "1-13"), Rolls())
    assert state.cars[0].status == CarStatus.SPUN and state.cars[0].wear.tyres == 0
    assert any(isinstance(e, ev.SpinOut) for e in log)
    state, _ = play_move(state, 0, move_to(state, 0, 1, "1-14"), Rolls())
    assert state.cars[0].status == CarStatus.RACING


def test_each_neighbour_rolls_then_the_arriving_car_rolls_once_per_neighbour() -> None:
    state = race(["2-27", "1-30", "3-30", "2-31"])
    move = move_to(state, 0, 3, "2-30")
    # Neighbours 1-30, 2-31, 3-30 roll 5, 1, 9; the arriving car rolls 1, 7, 20.
    after, log = play_move(state, 0, move, Rolls(5, 1, 9, 1, 7, 20))
    contacts = [(e.car, e.other, e.roll, e.lost) for e in log if isinstance(e, ev.CollisionRoll)]
    assert contacts == [(1, 0, 5, 0), (3, 0, 1, 1), (2, 0, 9, 0),
                        (0, 1, 1, 1), (0, 3, 7, 0), (0, 2, 20, 0)]
    assert after.cars[3].wear.body == 2 and after.cars[0].wear.body == 2
    assert {"2-31", "2-30"} <= after.debris, "a body WP lost leaves debris"


def test_a_car_that_ends_right_in_front_of_another_risks_no_contact() -> None:
    # Car 1 waits on 2-29; car 0 goes round it and ends on 2-30, right in front of it.
    state = race(["2-27", "2-29"])
    move = next(m for m in legal_moves(state, 0, 3)
                if m.destination == "2-30" and "2-29" not in m.route)
    after, log = play_move(state, 0, move, Rolls())
    assert not any(isinstance(e, ev.CollisionRoll) for e in log)
    assert after.cars[0].wear == after.cars[1].wear == Wear.of(rules().starting_wear(2))


def test_a_car_that_ends_right_behind_another_risks_contact() -> None:
    state = race(["2-27", "2-31"])
    after, log = play_move(state, 0, move_to(state, 0, 3, "2-30"), Rolls(1, 1))
    assert [(e.car, e.other, e.lost) for e in log if isinstance(e, ev.CollisionRoll)] == [
        (1, 0, 1), (0, 1, 1)
    ]
    assert after.cars[0].wear.body == after.cars[1].wear.body == 2


def test_losing_the_last_body_point_eliminates() -> None:
    state = race(["2-27", {"space": "2-31", "wear": {"body": 1}}])
    after, log = play_move(state, 0, move_to(state, 0, 3, "2-30"), Rolls(1, 10))
    assert after.cars[1].status == CarStatus.ELIMINATED and after.cars[1].cause == Cause.BODY
    assert after.cars[0].wear.body == 3
    assert ev.Eliminated(0, 1, Cause.BODY, "2-31") in log
    assert "2-31" in after.debris, "an elimination leaves debris"


def test_basic_rules_an_eliminating_contact_costs_the_arriving_car_without_a_roll() -> None:
    basic = rules("formule-de-basic")
    state = race(["2-27", {"space": "2-31", "wear": {"body": 1}}], ruleset=basic)
    after, log = play_move(state, 0, move_to(state, 0, 3, "2-30"), Rolls(1))
    assert after.cars[1].status == CarStatus.ELIMINATED
    assert after.cars[0].wear.body == basic.starting_wear(2).body - 1
    assert ev.CollisionRoll(0, 0, 1, None, 1, "2-30") in log


def test_debris_passed_costs_suspension_on_1_to_4() -> None:
    state = race(["2-28"], debris=("2-29", "2-30"))
    move = next(m for m in legal_moves(state, 0, 3)
                if m.destination == "2-31" and len(m.debris) == 2)
    after, log = play_move(state, 0, move, Rolls(4, 5))
    assert [(e.space, e.lost) for e in log if isinstance(e, ev.DebrisRoll)] == [
        ("2-29", 1), ("2-30", 0)
    ]
    assert after.cars[0].wear.suspension == 1


def test_a_top_result_in_fifth_makes_every_car_in_fifth_or_sixth_roll_for_its_engine() -> None:
    state = race([{"space": "2-27", "gear": 5}, {"space": "1-30", "gear": 6},
                  {"space": "3-30", "gear": 4}])
    move = move_to(state, 0, 20, "2-7")
    after, log = play_move(state, 0, move, Rolls(3, 17), gear_roll=20)
    assert [(e.car, e.roll, e.lost) for e in log if isinstance(e, ev.EngineRoll)] == [
        (0, 3, 1), (1, 17, 0)
    ]
    assert after.cars[0].wear.engine == 2
    assert after.cars[2].wear.engine == 3, "a car in fourth does not roll"


def test_no_engine_rolls_below_the_top_face() -> None:
    state = race([{"space": "2-27", "gear": 5}, {"space": "1-30", "gear": 6}])
    _, log = play_move(state, 0, move_to(state, 0, 19, "2-6"), Rolls(), gear_roll=19)
    assert not any(isinstance(e, ev.EngineRoll) for e in log)


def test_crossing_the_line_completes_a_lap_and_the_last_crossing_finishes() -> None:
    state = race([{"space": "2-38", "lap": 1}, {"space": "1-38", "lap": 2}])
    state, log = play_move(state, 0, move_to(state, 0, 4, "2-2"), Rolls())
    assert state.cars[0].lap == 2 and ev.LapCompleted(0, 0, 1) in log
    state, log = play_move(state, 1, move_to(state, 1, 4, "1-2"), Rolls())
    assert state.cars[1].status == CarStatus.FINISHED and state.cars[1].place == 1
    assert state.finish_order == (1,)
    assert "1-2" not in state.occupied(), "a finished car leaves the board"


def test_a_pit_stop_needs_the_window_and_the_roll_to_reach_the_box() -> None:
    # 3-33 -> 3-34 -> 3-35 -> pit-0 -> pit-1 -> box-1: five spaces.
    end_of_lap_1 = race([{"space": "3-33", "lap": 1, "box": "box-1"}])
    assert any(m.box for m in legal_moves(end_of_lap_1, 0, 5))
    assert any(m.box and m.destination == "box-1" for m in legal_moves(end_of_lap_1, 0, 9))
    assert not any(m.box for m in legal_moves(end_of_lap_1, 0, 4))
    assert not any(m.route and m.route[-1].startswith("pit")
                   for m in legal_moves(end_of_lap_1, 0, 4)), "the roll must reach the box"
    last_lap = race([{"space": "3-33", "lap": 2, "box": "box-1"}])
    assert not any(m.box for m in legal_moves(last_lap, 0, 5))


def test_a_quick_stop_refits_the_tyres_and_leaves_at_once_in_fourth() -> None:
    state = race([{"space": "3-33", "lap": 1, "box": "box-1", "wear": {"tyres": 1}}])
    box = next(m for m in legal_moves(state, 0, 7) if m.box)
    after, log = play_move(state, 0, box, Rolls(7))
    car = after.cars[0]
    assert (car.space, car.wear.tyres, car.gear, car.pit_exit, car.pit_stops) == (
        "box-1", 6, 4, 4, 1)
    assert ev.PitStop(0, 0, "box-1", 7, True, 4) in log
    exits = legal_moves(after, 0, car.pit_exit)
    assert {m.destination for m in exits} == {"pit-6"}
    after, _ = play_move(after, 0, exits[0], Rolls())
    assert after.cars[0].pit_exit == 0


def test_a_slow_stop_waits_a_turn() -> None:
    state = race([{"space": "3-33", "lap": 1, "box": "box-1"}])
    box = next(m for m in legal_moves(state, 0, 7) if m.box)
    after, _ = play_move(state, 0, box, Rolls(11))
    assert after.cars[0].pit_wait and after.cars[0].pit_exit == 0


def test_leaving_the_pit_lane_across_the_line_counts_the_lap() -> None:
    state = race([{"space": "pit-5", "lap": 1, "gear": 4, "pit_stops": 1, "box": "box-1"}])
    after, log = play_move(state, 0, move_to(state, 0, 4, "3-5"), Rolls())
    assert after.cars[0].lap == 2 and ev.LapCompleted(0, 0, 1) in log


def test_the_pit_lane_is_single_file_and_waiting_is_free() -> None:
    state = race([{"space": "pit-3", "gear": 4, "box": "box-1"},
                  {"space": "pit-5", "gear": 4, "box": "box-2"}])
    [wait] = legal_moves(state, 0, 8)
    assert (wait.destination, wait.brakes, wait.blocked) == ("pit-4", 0, 0)


def test_basic_rules_a_car_eliminated_by_a_block_costs_the_car_ahead_a_body_point() -> None:
    basic = rules("formule-de-basic")
    state = race([{"space": "2-28", "gear": 4}, "1-29", "2-29", "3-29"], ruleset=basic)
    [move] = legal_moves(state, 0, 7)
    after, _ = play_move(state, 0, move, Rolls())
    assert after.cars[0].cause == Cause.BLOCKED
    assert after.cars[2].wear.body == basic.starting_wear(2).body - 1
