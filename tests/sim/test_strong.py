"""The strong driver: it beats the simple drivers, and its sense of the track is sound."""

from __future__ import annotations

import random
from collections import Counter

from tests.sim.helpers import race, ring_board, rules
from tests.sim.positions import position
from trackformat.sim import (
    DRIVERS,
    CarStatus,
    RandomDriver,
    gear_options,
    legal_moves,
    run_race,
)
from trackformat.sim.drivers.outlook import Outlook
from trackformat.sim.drivers.strong import StrongDriver


def test_the_strong_driver_wins_clearly_against_random_and_cautious_drivers() -> None:
    # Two of each on the ring, seats rotated from race to race so no driver keeps the pole.
    lineup = ["strong", "strong", "cautious", "cautious", "random", "random"]
    wins: Counter[str] = Counter()
    places: dict[str, list[int]] = {"strong": [], "cautious": []}
    for seed in range(24):
        seats = lineup[seed % 6:] + lineup[: seed % 6]
        drivers = [DRIVERS[name](seed * 10 + n) for n, name in enumerate(seats)]
        result = run_race(ring_board(), rules(), drivers, seed)
        assert result.completed
        wins[seats[result.finish_order[0]]] += 1
        for car in result.cars:
            if seats[car.car] in places:
                places[seats[car.car]].append(car.place or len(seats))
    assert wins["strong"] >= 18, wins
    assert wins["strong"] > 3 * (wins["cautious"] + wins["random"]), wins
    assert sum(places["strong"]) < sum(places["cautious"]) - 48, places


def test_the_strong_driver_finishes_its_races_in_a_full_field() -> None:
    results = [run_race(ring_board(), rules(), [StrongDriver() for _ in range(6)], seed)
               for seed in range(4)]
    statuses = Counter(car.status for result in results for car in result.cars)
    assert statuses[CarStatus.FINISHED] >= 22, statuses


def test_a_seed_replays_a_race_of_strong_drivers() -> None:
    def play() -> tuple[object, ...]:
        drivers = [DRIVERS["strong"](1), DRIVERS["random"](2), DRIVERS["cautious"](3)]
        return run_race(ring_board(), rules(), drivers, seed=11).events

    assert play() == play()


def test_every_driver_of_the_registry_races() -> None:
    assert set(DRIVERS) >= {"random", "cautious", "strong"}
    # One lap: the par driver solves its par first, which two laps of the ring make a matter
    # of seconds rather than one (tests/par races it further).
    result = run_race(ring_board(), rules(), [DRIVERS[name](7) for name in sorted(DRIVERS)],
                      seed=3, laps=1)
    assert result.completed


def test_the_outlook_knows_a_corner_needs_a_slow_gear_and_a_straight_a_fast_one() -> None:
    # The ring: "north" (1 stop) on spaces 8-11, "south" (2 stops) on 22-26, 40 per lane.
    outlook = Outlook(ring_board(), rules(), laps=2)
    lane, last_lap, full = 0, 0, (3, 6)

    def turns(position: int, gear: int, stops: int = 0) -> float:
        return outlook.turns(lane, position, last_lap, gear, stops, *full)

    # Three spaces before the two-stop corner, taking fifth or sixth cannot stop in it: an
    # elimination; fourth very likely overshoots; second and third are the gears.
    taken = outlook.gear_turns(lane, 19, last_lap, 0, *full)
    assert taken[4] == taken[5] == outlook.dnf
    assert max(taken[1], taken[2]) < taken[3] < taken[4]
    # In sixth there, the car still has its way out (a costly downshift), so it is not lost.
    assert turns(19, 6) < 10
    # Coming out of "south" onto the home straight, a high gear is the quicker one.
    assert turns(27, 5) < turns(27, 2)
    # Further on is better, and a stop already made in a corner is worth having.
    assert turns(30, 4) < turns(28, 4)
    assert turns(23, 2, stops=1) < turns(23, 2, stops=0)
    # Worn tyres and brakes cost time (less room to brake or overshoot).
    assert outlook.turns(lane, 19, last_lap, 3, 0, 0, 1) > turns(19, 3)
    # Stops beyond what a corner needs (a car blocked in it) change nothing, and cost nothing.
    assert turns(9, 2, stops=3) == turns(9, 2, stops=1) < 20
    # A first lap still has the whole of the second to come.
    assert outlook.turns(lane, 19, 1, 3, 0, *full) > turns(19, 3) + 3


def test_the_strong_driver_slows_for_a_corner_and_speeds_up_on_a_straight() -> None:
    driver = StrongDriver()
    # Four spaces before "south" (two stops) in fourth: 7-12 would overshoot it, so it drops.
    before = race([{"space": "2-18", "gear": 4}])
    assert driver.choose_gear(before, 0, gear_options(before, 0)).gear <= 3
    straight = race([{"space": "2-27", "gear": 3, "corner": None}])
    assert driver.choose_gear(straight, 0, gear_options(straight, 0)).gear == 4


def test_the_strong_driver_never_takes_an_elimination_it_can_avoid() -> None:
    rng = random.Random(5)
    driver = StrongDriver()
    checked = 0
    for _ in range(150):
        state = position(ring_board(), rules(), rng, cars=5)
        roll = rng.randint(1, 20)
        moves = legal_moves(state, 0, roll)
        choice = driver.choose_move(state, 0, roll, moves)
        if any(m.eliminated is None for m in moves):
            assert choice.eliminated is None
            checked += 1
        if any(m.eliminated is None and not m.spin for m in moves):
            assert not choice.spin or choice.eliminated is None
    assert checked > 100


def test_random_drivers_lose_to_the_strong_one_even_when_they_start_in_front() -> None:
    # The strong car starts last of four on the grid in most of these races.
    wins = 0
    for seed in range(6):
        drivers = [RandomDriver(seed), RandomDriver(seed + 1), RandomDriver(seed + 2),
                   StrongDriver()]
        result = run_race(ring_board(), rules(), drivers, seed)
        wins += result.finish_order[:1] == (3,)
    assert wins >= 5
