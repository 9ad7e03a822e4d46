"""The pit lane and the end of the race by the text, in both engines: garages are places to stop
like boxes (rules 34 to 37), no drive-through (W1), the finishing move rolls (W2), a blocked car
may brake (W3), the pit lane waives costs, not limits (W4). docs/rules.md states each ruling.

Every position is asked of the readable engine and of the compiled kernel, which must agree
move for move (and, for a move played, event for event)."""

from __future__ import annotations

import json
from dataclasses import replace
from functools import cache
from pathlib import Path

from tests.sim.helpers import race, ring_board
from tests.sim.test_kernel_resolve import kernel_after
from trackformat.model.track import Track
from trackformat.rules import load_ruleset
from trackformat.sim import Board, CarStatus, RaceState, gear_options, legal_moves, play_move
from trackformat.sim import events as ev
from trackformat.sim.core.dice import Dice
from trackformat.sim.kernel.cars import kernel_gear_options
from trackformat.sim.kernel.moves import board_arrays, engine_move, kernel_moves
from trackformat.sim.race.grid import new_race

MONACO = Path(__file__).parent.parent.parent / "tracks" / "monaco.json"


@cache
def monaco() -> Board:
    return Board.of(Track.model_validate(json.loads(MONACO.read_text())))


@cache
def monaco_with_garages(count: int) -> Board:
    """Monaco as GP Online draws a pit lane: no boxes beside it, ``count`` garages in line in it
    (pit-04 onwards)."""
    document = json.loads(MONACO.read_text())
    boxes = {s["id"] for s in document["spaces"] if s["kind"] == "box"}
    document["spaces"] = [s for s in document["spaces"] if s["id"] not in boxes]
    document["links"] = [link for link in document["links"]
                         if link["from"] not in boxes and link["to"] not in boxes]
    pit = document["pit_lane"]
    pit["boxes"] = []
    pit["garages"] = pit["spaces"][4:4 + count]
    return Board.of(Track.model_validate(document))


def assert_engines_agree(state: RaceState, roll: int) -> None:
    """The kernel lists the readable engine's moves, in its order and by its routes."""
    assert kernel_moves(state, 0, roll) == [engine_move(m) for m in legal_moves(state, 0, roll)]


def monaco_race(cars: list[dict[str, object]], board: Board | None = None) -> RaceState:
    return race(cars, board or monaco(), laps=2)  # type: ignore[arg-type]


# -- W1: no drive-through ------------------------------------------------------------------------

def test_w1_no_drive_through_the_pit_lane() -> None:
    # The audit's position: a car at 3-146 in 6th with its window open and a wall of cars
    # ahead on the track. It used to be offered the pit lane all the way to 3-001 and 3-002,
    # with no stop and no block paid.
    state = monaco_race([
        {"space": "3-146", "gear": 6, "box": "box-1"},
        {"space": "1-157", "gear": 6}, {"space": "2-155", "gear": 6}, {"space": "3-152", "gear": 6},
    ])
    moves = legal_moves(state, 0, 19)
    into_pit = [m for m in moves if any(state.board.in_pit(s) for s in m.route)]
    assert [(m.destination, m.box) for m in into_pit] == [("box-1", True)]
    assert all(not state.board.in_pit(s) for m in moves if not m.box for s in m.route)
    assert_engines_agree(state, 19)


def test_w1_a_car_waiting_in_the_pit_lane_stops_at_its_place() -> None:
    # Waiting at pit-01, short of its box: whatever the roll, it stops at box-1, never drives on.
    state = monaco_race([{"space": "pit-01", "gear": 4, "box": "box-1", "lap": 2}])
    for roll in (3, 4, 9, 12):
        assert [(m.destination, m.box) for m in legal_moves(state, 0, roll)] == [("box-1", True)]
        assert_engines_agree(state, roll)
    # Its team-mate stands in the box: it waits beside it, at pit-03, for free.
    state = monaco_race([{"space": "pit-01", "gear": 4, "box": "box-1", "lap": 2},
                         {"space": "box-1", "gear": 4, "box": "box-1", "lap": 2}])
    moves = legal_moves(state, 0, 9)
    assert [(m.destination, m.brakes, m.box) for m in moves] == [("pit-03", 0, False)]
    assert_engines_agree(state, 9)


def test_w1_a_car_leaving_its_box_drives_on_out() -> None:
    state = monaco_race([{"space": "box-1", "gear": 4, "box": "box-1", "lap": 2,
                          "pit_stops": 1}])
    moves = legal_moves(state, 0, 14)
    assert {m.destination for m in moves} == {"3-001", "3-002"}
    assert_engines_agree(state, 14)


# -- garages -------------------------------------------------------------------------------------

def test_garages_in_line_are_places_to_stop_like_boxes() -> None:
    board = monaco_with_garages(10)
    # A car at the pit entry whose garage is pit-06: the roll covers the spaces to it (7), so
    # it may stop there; it drives past the other teams' garages but never past its own.
    state = monaco_race([{"space": "3-146", "gear": 4, "box": "pit-06"}], board)
    for roll in (7, 8, 11):
        pits = [m for m in legal_moves(state, 0, roll) if board.in_pit(m.destination)]
        assert [(m.destination, m.box) for m in pits] == [("pit-06", True)], roll
        assert_engines_agree(state, roll)
    # Short of it, there is no pit move (a car turns in only to stop).
    assert not [m for m in legal_moves(state, 0, 6) if board.in_pit(m.destination)]
    assert_engines_agree(state, 6)
    # A stop there refits the tyres and is a pit stop, in both engines alike.
    state = monaco_race([{"space": "3-146", "gear": 4, "box": "pit-06", "wear": {"tyres": 1}}],
                        board)
    pick = next(n for n, m in enumerate(legal_moves(state, 0, 8)) if m.box)
    after, events = play_move(state, 0, legal_moves(state, 0, 8)[pick], Dice(5))
    stop = [e for e in events if isinstance(e, ev.PitStop)]
    assert [e.box for e in stop] == ["pit-06"]
    assert after.cars[0].wear.tyres == 6 and after.cars[0].pit_stops == 1
    assert kernel_after(state, pick, 8, -1, 5)[4] == events


def test_a_car_stopped_in_its_garage_holds_up_the_cars_behind() -> None:
    board = monaco_with_garages(10)
    state = monaco_race([{"space": "pit-02", "gear": 4, "box": "pit-08", "lap": 2},
                         {"space": "pit-05", "gear": 4, "box": "pit-05", "lap": 2,
                          "pit_wait": True}], board)
    assert [(m.destination, m.box) for m in legal_moves(state, 0, 9)] == [("pit-04", False)]
    assert_engines_agree(state, 9)


def test_garages_are_given_one_per_car_in_grid_order_or_one_per_team() -> None:
    rules = load_ruleset()
    for count, cars in ((10, 6), (10, 10), (3, 8)):
        board = monaco_with_garages(count)
        log: list[ev.Event] = []
        state = new_race(board, rules, cars, 2, Dice(7), log)
        grid = [e.car for e in log if isinstance(e, ev.GridSlot)]
        garages = list(board.graphs.track.pit_lane.garages)  # type: ignore[union-attr]
        given = {c.index: c.box for c in state.cars}
        if count >= cars:
            assert [given[car] for car in grid] == garages[:cars]
        else:
            teams = list(dict.fromkeys(car // 2 for car in grid))
            assert all(given[car] == garages[teams.index(car // 2) % count] for car in grid)
            assert given[0] == given[1]


def test_boxes_stay_one_per_team_by_car_number() -> None:
    state = new_race(monaco(), load_ruleset(), 10, 2, Dice(3), [])
    assert [c.box for c in state.cars] == [f"box-{n // 2 % 5 + 1}" for n in range(10)]


# -- W2: the finishing move rolls too -------------------------------------------------------------

def _finishing(wear: dict[str, int], debris: tuple[str, ...], gear: int = 5) -> RaceState:
    """A car on the ring's last lap, 5 spaces short of the line in lane 0."""
    board = ring_board()
    lane = board.graphs.lanes[board.graphs.lane_order[0]]
    start = lane[-5]
    return race([{"space": start, "gear": gear, "lap": 2, "wear": wear}], board, laps=2,
                debris=debris)


def _played(state: RaceState, roll: int, gear_roll: int, seed: int) -> list[ev.Event]:
    moves = legal_moves(state, 0, roll)
    pick = next(n for n, m in enumerate(moves)
                if m.distance == roll and all(state.board.lane.get(s) == 0 for s in m.route))
    events = play_move(state, 0, moves[pick], Dice(seed), gear_roll=gear_roll)[1]
    assert kernel_after(state, pick, roll, gear_roll, seed)[4] == events
    return events


def test_w2_the_finishing_move_rolls_for_debris_short_of_the_line() -> None:
    board = ring_board()
    lane = board.graphs.lanes[board.graphs.lane_order[0]]
    short, past = lane[-2], lane[1]
    events = _played(_finishing({}, (short, past)), 7, -1, 1)
    rolls = [e for e in events if isinstance(e, ev.DebrisRoll)]
    assert [e.space for e in rolls] == [short]  # the marker past the line is not rolled for
    assert isinstance(events[-1], ev.Finished)
    # On its last suspension WP a lost roll eliminates it before it is classified.
    for seed in range(40):
        events = _played(_finishing({"suspension": 1}, (short,)), 7, -1, seed)
        if any(isinstance(e, ev.DebrisRoll) and e.lost for e in events):
            assert not any(isinstance(e, ev.Finished) for e in events)
            assert any(isinstance(e, ev.Eliminated) for e in events)
            break
    else:
        raise AssertionError("no seed lost the debris roll")


def test_w2_the_finishing_move_rolls_for_its_engine() -> None:
    events = _played(_finishing({}, ()), 7, 20, 2)
    kinds = [type(e) for e in events]
    assert kinds.index(ev.EngineRoll) < kinds.index(ev.Finished)
    assert [e.car for e in events if isinstance(e, ev.EngineRoll)] == [0]
    for seed in range(40):
        events = _played(_finishing({"engine": 1}, ()), 7, 20, seed)
        if any(isinstance(e, ev.EngineRoll) and e.lost for e in events):
            assert not any(isinstance(e, ev.Finished) for e in events)
            break
    else:
        raise AssertionError("no seed lost the engine roll")
    # Not below the top face.
    assert not any(isinstance(e, ev.EngineRoll) for e in _played(_finishing({}, ()), 7, 19, 2))


# -- W3: a blocked car may brake ------------------------------------------------------------------

def test_w3_a_blocked_car_may_brake_short_of_the_block_at_the_braking_price() -> None:
    board = ring_board()
    lanes = [board.graphs.lanes[lane] for lane in board.graphs.lane_order]
    wall = [{"space": lane[10]} for lane in lanes]
    state = race([{"space": lanes[1][5], "wear": {"brakes": 9}}, *wall], board)
    moves = legal_moves(state, 0, 9)
    blocked = [m for m in moves if m.blocked]
    assert {(m.distance, m.blocked, m.brakes, m.tyres) for m in blocked} == {(4, 5, 3, 2)}
    braking = {(m.distance, m.brakes, m.tyres) for m in moves if not m.blocked}
    assert {(3, 6, 0), (2, 7, 0), (1, 8, 0)} <= braking
    assert_engines_agree(state, 9)
    # Without the brakes WP a shorter move is not offered, as for any car; the block still is.
    state = race([{"space": lanes[1][5], "wear": {"brakes": 3}}, *wall], board)
    moves = legal_moves(state, 0, 9)
    assert {m.distance for m in moves} == {4}
    assert_engines_agree(state, 9)


# -- W4: the pit lane waives costs, not limits ----------------------------------------------------

def _gears(state: RaceState) -> list[tuple[int, bool]]:
    options = gear_options(state, 0)
    kernel = kernel_gear_options(state, 0, board_arrays(state.board))
    assert [(o.gear, o.cost == type(o.cost)()) for o in options] == [
        (gear, not any(cost)) for gear, cost, _ in kernel]
    return [(o.gear, o.cost == type(o.cost)()) for o in options]


def test_w4_the_pit_lane_waives_the_downshift_cost_not_its_limits() -> None:
    in_pit = monaco_race([{"space": "pit-06", "gear": 6, "box": "box-1", "lap": 2}])
    assert _gears(in_pit) == [(2, True), (3, True), (4, True), (5, True), (6, True)]
    on_track = monaco_race([{"space": "3-100", "gear": 6}])
    assert [g for g, free in _gears(on_track) if not free] == [2, 3, 4]
    no_gearbox = monaco_race([{"space": "pit-06", "gear": 6, "box": "box-1", "lap": 2,
                               "wear": {"gearbox": 0}}])
    assert _gears(no_gearbox) == [(5, True), (6, True)]
    # After a slow stop the car leaves its box in any gear up to 4th, free.
    waiting = replace(in_pit, cars=(replace(in_pit.cars[0], space="box-1", pit_wait=True),))
    assert _gears(waiting) == [(1, True), (2, True), (3, True), (4, True)]
    assert in_pit.cars[0].status == CarStatus.RACING
