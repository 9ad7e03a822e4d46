"""Legal moves on straights: exact sets, like perft counts in chess.

The ring's straight from space 27 to 39 has links straight ahead and diagonally into the next
lane from every space; lanes are numbered 1 (left) to 3."""

from __future__ import annotations

import itertools

from tests.factories import drop_links, edit, ring
from tests.sim.helpers import full, race, table
from trackformat.sim import Board, Cause, legal_moves


def test_a_free_straight_gives_every_lane_and_every_braking_option() -> None:
    state = race(["2-28"])
    assert table(legal_moves(state, 0, 2)) == {
        ("1-30", 0, 0), ("2-30", 0, 0), ("3-30", 0, 0),  # the whole roll
        ("1-29", 1, 0), ("2-29", 1, 0), ("3-29", 1, 0),  # braking one space: 1 brakes WP
        ("2-28", 2, 0),                                  # braking both: 2 brakes WP
    }


def test_routes_follow_links_one_space_at_a_time() -> None:
    state = race(["1-28"])
    for move in legal_moves(state, 0, 3):
        path = (move.start, *move.route)
        assert all(state.board.graphs.circuit.has_edge(a, b) for a, b in itertools.pairwise(path))
        assert move.distance == len(move.route) <= 3


def test_at_most_two_lane_changes_on_a_straight() -> None:
    board = Board.of(ring(lanes=4))
    state = race(["1-28"], board=board)
    assert full(legal_moves(state, 0, 3)) == {"1-31", "2-31", "3-31"}
    assert "4-31" not in full(legal_moves(state, 0, 5)), "lane 4 is three lane changes away"


def test_braking_is_limited_by_the_brakes_wear_points_left() -> None:
    state = race([{"space": "2-28", "wear": {"brakes": 1}}])
    assert {m.distance for m in legal_moves(state, 0, 4)} == {4, 3}


def test_a_car_is_never_passed_through_nor_landed_on() -> None:
    state = race(["2-28", "2-30"])
    moves = legal_moves(state, 0, 2)
    assert table(moves) == {
        ("1-30", 0, 0), ("3-30", 0, 0),
        ("1-29", 1, 0), ("2-29", 1, 0), ("3-29", 1, 0),
        ("2-28", 2, 0),
    }
    assert all("2-30" not in m.route for m in moves)


def test_going_round_a_car_may_come_back_into_its_lane() -> None:
    state = race(["2-28", "2-30"])
    around = {m.destination: m.route for m in legal_moves(state, 0, 4) if m.distance == 4}
    assert set(around) == {"1-32", "2-32", "3-32"}
    # Routes come in generation order: own lane first, then lanes from the left.
    assert around["2-32"] == ("2-29", "1-30", "1-31", "2-32")


def test_no_weaving_back_into_a_lane_without_passing_a_car() -> None:
    # Without the link straight ahead, lane 1 is only rejoined by leaving it and coming back.
    track = edit(ring(), lambda doc: drop_links(doc, {("1-28", "1-29")}))
    state = race(["1-28"], board=Board.of(track))
    assert full(legal_moves(state, 0, 2)) == {"2-30", "3-30"}
    # With a car to overtake in lane 1, coming back in front of it is allowed.
    state = race(["1-28", "1-29"], board=Board.of(track))
    assert full(legal_moves(state, 0, 2)) == {"1-30", "2-30", "3-30"}


def test_a_space_is_never_reached_by_a_longer_route_than_its_shortest() -> None:
    # A shortcut link 1-30 -> 1-32 makes 1-32 two spaces away from 1-29: a move may not
    # take three spaces to get there to burn off its roll.
    track = edit(ring(), lambda doc: doc["links"].append({"from": "1-30", "to": "1-32"}))
    state = race(["1-29"], board=Board.of(track))
    moves = legal_moves(state, 0, 3)
    assert "1-32" not in full(moves)
    assert ("1-32", 1, 0) in table(moves), "it is reached in two spaces by braking one"
    assert "1-33" in full(moves)


def test_blocked_by_a_wall_of_cars_pays_the_blocking_table() -> None:
    wall = ["1-29", "2-29", "3-29"]
    assert table(legal_moves(race(["2-28", *wall]), 0, 2)) == {("2-28", 2, 0)}
    [five] = legal_moves(race(["2-28", *wall]), 0, 5)
    assert (five.destination, five.blocked, five.brakes, five.tyres) == ("2-28", 5, 3, 2)
    assert five.eliminated is None
    [seven] = legal_moves(race([{"space": "2-28", "gear": 4}, *wall]), 0, 7)
    assert seven.eliminated == Cause.BLOCKED


def test_blocked_after_some_spaces_moves_as_far_as_possible() -> None:
    state = race(["2-28", "1-30", "2-30", "3-30"])
    moves = legal_moves(state, 0, 4)
    assert table(moves) == {("1-29", 3, 0), ("2-29", 3, 0), ("3-29", 3, 0)}
    assert {m.blocked for m in moves} == {3}


def test_a_block_the_car_cannot_pay_for_eliminates_it() -> None:
    state = race([{"space": "2-28", "wear": {"brakes": 1}}, "1-29", "2-29", "3-29"])
    [move] = legal_moves(state, 0, 2)
    assert move.eliminated == Cause.BLOCKED


def test_debris_can_be_avoided_by_changing_lanes() -> None:
    state = race(["2-28"], debris=("2-30",))
    to_lane_2 = [m for m in legal_moves(state, 0, 3) if m.destination == "2-31"]
    assert {len(m.debris) for m in to_lane_2} == {0, 1}
    clean = next(m for m in to_lane_2 if not m.debris)
    assert "2-30" not in clean.route
