"""The simple drivers: they choose among their options and the cautious one finishes races."""

from __future__ import annotations

from tests.sim.helpers import race, ring_board, rules
from trackformat.sim import CarStatus, CautiousDriver, gear_options, legal_moves, run_race


def test_the_cautious_driver_picks_a_gear_whose_every_face_is_safe() -> None:
    # Three spaces before a one-stop corner of four spaces, in third gear (4 to 8): every face
    # of third, and of second (2 to 4), has a move that costs nothing or keeps the reserves;
    # fourth (7 to 12) would overshoot the corner.
    state = race([{"space": "1-4", "gear": 3}])
    option = CautiousDriver().choose_gear(state, 0, gear_options(state, 0))
    assert option.gear == 3
    assert CautiousDriver().choose_gear(
        race([{"space": "1-30", "gear": 3}]), 0, gear_options(race(["1-30"]), 0)
    ).gear == 4, "on a long straight it shifts up"


def test_the_cautious_driver_takes_the_cheapest_then_the_longest_move() -> None:
    state = race([{"space": "1-9", "corner": "north", "stops": 0}])
    moves = legal_moves(state, 0, 3)
    choice = CautiousDriver().choose_move(state, 0, 3, moves)
    assert (choice.destination, choice.brakes, choice.tyres) == ("1-11", 1, 0)


def test_cautious_drivers_finish_their_races() -> None:
    for preset in ("formula-d", "formule-de-basic"):
        for seed in range(3):
            result = run_race(ring_board(), rules(preset), [CautiousDriver() for _ in range(4)],
                              seed)
            assert result.completed
            assert [c.status for c in result.cars] == [CarStatus.FINISHED] * 4, (preset, seed)
            assert sorted(result.finish_order) == [0, 1, 2, 3]


def test_the_cautious_driver_keeps_room_to_slow_down_before_a_corner() -> None:
    # On an 80-space ring, "north" (1 stop) ends on 11. From 1-73 there are 18 spaces to its
    # end: every face of fifth (up to 20) still fits by braking 2 of the 3 brakes WP (one kept
    # in reserve). From 1-74, 17 spaces are not enough.
    board = ring_board(per_lane=80)
    state = race([{"space": "1-50", "gear": 6}], board=board)
    driver = CautiousDriver()
    [room] = [m for m in legal_moves(state, 0, 23) if m.destination == "1-73"]
    [tight] = [m for m in legal_moves(state, 0, 24) if m.destination == "1-74"]
    assert driver.safe(state, 0, room)
    assert not driver.safe(state, 0, tight)
