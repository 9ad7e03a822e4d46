"""Legal moves through corners: arrows, stops, overshoots, missed stops, spins.

The ring's corner "north" covers spaces 8-11 of every lane and demands 1 stop; the space before
it (7) carries a single straight-ahead arrow. Corner "south" covers 22-26 and demands 2 stops."""

from __future__ import annotations

from typing import Any

from tests.factories import drop_links, edit, ring
from tests.sim.helpers import full, race, table
from trackformat.sim import Board, CarStatus, Cause, CornerExit, legal_moves


def test_a_single_arrow_allows_straight_ahead_only() -> None:
    state = race(["1-6"])
    assert full(legal_moves(state, 0, 2)) == {"1-8", "2-8"}


def test_inside_a_corner_only_the_arrows_are_followed() -> None:
    def straight_only(doc: dict[str, Any]) -> None:
        drop_links(doc, {(f"{a}-{k}", f"{b}-{k + 1}") for k in range(8, 11)
                         for a in (1, 2, 3) for b in (1, 2, 3) if a != b})

    state = race(["1-8"], board=Board.of(edit(ring(), straight_only)))
    assert table(legal_moves(state, 0, 3)) == {
        ("1-11", 0, 0), ("1-10", 1, 0), ("1-9", 2, 0), ("1-8", 3, 0)
    }


def test_lane_changes_in_corners_are_not_limited_by_the_straight_rule() -> None:
    # 1-8 to 3-10 changes two lanes inside the corner; then 3-11 and a stop.
    state = race([{"space": "1-8", "corner": "north", "stops": 1}])
    assert "3-11" in full(legal_moves(state, 0, 3))


def test_overshoot_costs_a_tyre_per_space_and_keeps_the_lane() -> None:
    state = race([{"space": "1-9", "corner": "north", "stops": 0}])
    moves = legal_moves(state, 0, 5)
    assert table(moves) == {
        ("1-14", 0, 3), ("2-14", 0, 3), ("3-14", 0, 3),  # three spaces beyond the corner
        ("1-13", 1, 2), ("2-13", 1, 2), ("3-13", 1, 2),  # braking one space saves a tyre
        ("1-12", 2, 1), ("2-12", 2, 1), ("3-12", 2, 1),
        ("1-11", 3, 0), ("2-11", 3, 0), ("3-11", 3, 0),  # braking into the corner: a stop
    }
    for move in moves:
        beyond = [s for s in move.route if int(s.split("-")[1]) >= 12]
        assert len({s.split("-")[0] for s in beyond}) <= 1, "lane kept after the corner"
    deep = next(m for m in moves if m.destination == "1-14")
    assert deep.overshoots == (CornerExit("north", 3, 1),)


def test_leaving_a_corner_with_its_stops_costs_nothing() -> None:
    state = race([{"space": "1-9", "corner": "north", "stops": 1}])
    assert {m.tyres for m in legal_moves(state, 0, 5)} == {0}


def test_an_overshooting_car_cannot_go_round_a_car_in_its_lane() -> None:
    # From the corner's last space, the car leaves in lane 1 and must stay there: blocked
    # behind the car on 1-14 with 3 spaces left, it pays 3 brakes WP, and 2 tyres WP for the
    # two spaces it ended beyond the corner.
    state = race([{"space": "1-11", "corner": "north", "stops": 0}, "1-14"])
    [move] = legal_moves(state, 0, 5)
    assert (move.destination, move.blocked, move.brakes, move.tyres) == ("1-13", 3, 3, 2)


def test_a_car_that_can_get_round_inside_the_corner_is_not_blocked() -> None:
    state = race([{"space": "1-10", "corner": "north", "stops": 0}, "1-13"])
    moves = legal_moves(state, 0, 5)
    assert "2-15" in full(moves)
    assert ("1-12", 3, 1) in table(moves), "stopping behind the car is braking, not a block"
    assert {m.blocked for m in moves} == {0}


def test_a_two_stop_corner_without_a_stop_eliminates() -> None:
    state = race(["2-20"])
    moves = legal_moves(state, 0, 8)
    through = [m for m in moves if m.overshoots]
    assert through and {m.eliminated for m in through} == {Cause.MISSED_STOPS}
    assert {m.destination for m in moves if m.eliminated is None} == {
        "1-26", "2-26", "3-26", "1-25", "2-25", "3-25"
    }


def test_a_three_stop_corner_with_one_stop_eliminates_and_with_two_costs_tyres() -> None:
    def three_stops(doc: dict[str, Any]) -> None:
        next(c for c in doc["corners"] if c["id"] == "south")["stops"] = 3

    board = Board.of(edit(ring(), three_stops))
    one = race([{"space": "2-25", "corner": "south", "stops": 1}], board=board)
    leaving = [m for m in legal_moves(one, 0, 4) if m.overshoots]
    assert leaving and {m.eliminated for m in leaving} == {Cause.MISSED_STOPS}
    two = race([{"space": "2-25", "corner": "south", "stops": 2}], board=board)
    assert table(legal_moves(two, 0, 3)) >= {("2-28", 0, 2)}
    assert {m.eliminated for m in legal_moves(two, 0, 3)} == {None}


def test_losing_the_last_tyres_spins_and_more_than_the_last_eliminates() -> None:
    state = race([{"space": "1-10", "corner": "north", "wear": {"tyres": 2}}])
    by_distance = {m.destination: m for m in legal_moves(state, 0, 4)}
    assert by_distance["1-13"].spin and by_distance["1-13"].tyres == 2
    assert by_distance["1-14"].eliminated == Cause.OVERSHOOT
    assert not by_distance["1-12"].spin and by_distance["1-12"].eliminated is None


def test_on_its_restart_turn_a_spun_car_spins_again_on_one_space_and_is_out_beyond() -> None:
    spun = {"space": "1-10", "corner": "north", "status": CarStatus.SPUN, "gear": 1,
            "wear": {"tyres": 0}}
    by_destination = {m.destination: m for m in legal_moves(race([spun]), 0, 2)}
    assert by_destination["1-12"].spin and by_destination["1-12"].eliminated is None
    spun["space"] = "1-11"
    by_destination = {m.destination: m for m in legal_moves(race([spun]), 0, 2)}
    assert by_destination["1-13"].eliminated == Cause.SPIN


def test_an_overshoot_into_the_next_corner_does_not_make_a_stop_there() -> None:
    from tests.sim.helpers import Rolls
    from trackformat.sim import play_move

    state = race([{"space": "1-9", "corner": "north", "stops": 0, "gear": 6,
                   "wear": {"tyres": 20}}])
    move = next(m for m in legal_moves(state, 0, 14) if m.destination == "1-23")
    assert move.overshoots and move.eliminated is None
    after, _ = play_move(state, 0, move, Rolls())
    assert (after.cars[0].corner, after.cars[0].stops) == ("south", 0)
