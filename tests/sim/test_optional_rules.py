"""Two optional rules of Formula D in both engines: building your car (rule 44: a car's own
starting WP, and its own tyres back at the pits) and the team race's repairs (rule 45: 4 WP a
team of two, spent at its pit stops). docs/rules.md states each rule and the ruling on repairs.

Every stop is played by the readable engine and by the compiled kernel, which must leave the
same cars, the same team pools and the same events."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from tests.sim.helpers import ring_board
from tests.sim.test_pit_rules import monaco, monaco_race
from trackformat.rules import Ruleset, WearPoints, load_ruleset
from trackformat.sim import RaceSetupError, RaceState, Wear, legal_moves, new_race, play_move
from trackformat.sim import events as ev
from trackformat.sim.core.dice import Dice
from trackformat.sim.drivers.bots import DRIVERS
from trackformat.sim.kernel import cars as kc
from trackformat.sim.kernel import race_rules as krr
from trackformat.sim.kernel import resolve as kr
from trackformat.sim.kernel.cars import car_rows
from trackformat.sim.kernel.dice import new_state
from trackformat.sim.kernel.jit import from_python
from trackformat.sim.kernel.log import L_TURN_NOW, L_USED, events_of, new_log
from trackformat.sim.kernel.moves import board_arrays, kernel_move_rows
from trackformat.sim.kernel.race import KernelRacer
from trackformat.sim.race.runner import run_race

TYRES_10 = WearPoints(tyres=10, brakes=2, gearbox=2, body=2, engine=2, suspension=2)
TYRES_2 = WearPoints(tyres=2, brakes=7, gearbox=3, body=3, engine=3, suspension=2)
TYRES_14 = WearPoints(tyres=14, brakes=1, gearbox=1, body=1, engine=1, suspension=2)
STANDARD = Wear(tyres=6, brakes=3, gearbox=3, body=3, engine=3, suspension=2)


def stop(state: RaceState, car: int, roll: int = 4,
         seed: int = 5) -> tuple[RaceState, list[ev.Event]]:
    """Car ``car`` plays its move into its box in both engines, which must agree: the cars, the
    team pools, the events. The readable engine's race after the stop, and its events."""
    moves = legal_moves(state, car, roll)
    pick = next(n for n, m in enumerate(moves) if m.box)
    after, events = play_move(state, car, moves[pick], Dice(seed))
    arrays = board_arrays(state.board)
    cars, race = car_rows(state, arrays), krr.race_numbers(state)
    numbers, tables, triggers = krr.rule_tables(state.rules, state.laps, arrays.pit_exit_crosses)
    log, cursor = new_log()
    cursor[L_TURN_NOW] = state.turn
    from_python(kr.play_move)(
        cars, race, np.zeros(len(arrays.names), np.int64), car,
        kernel_move_rows(state, car, [roll])[pick], -1, new_state(seed), arrays.corner,
        arrays.in_pit, arrays.ahead, arrays.crossing, arrays.contacts, numbers, tables,
        triggers, log, cursor)
    assert events_of(log, int(cursor[L_USED]), arrays) == events
    assert cars.tolist() == car_rows(after, arrays).tolist()
    assert race.tolist() == krr.race_numbers(after).tolist()
    return after, events


# -- rule 44: building your car ------------------------------------------------------------------

def test_a_built_car_starts_with_its_own_wp() -> None:
    rules = load_ruleset("formula-d")
    state = new_race(monaco(), rules, 4, 2, Dice(1), [], [TYRES_10, None, TYRES_14, None])
    assert [c.wear for c in state.cars] == [Wear.of(TYRES_10), STANDARD, Wear.of(TYRES_14),
                                            STANDARD]
    assert state.starting_wear(2) == Wear.of(TYRES_14)
    rows = car_rows(state, board_arrays(state.board))
    assert rows[2, kc.C_START:kc.C_START + 6].tolist() == [14, 1, 1, 1, 1, 2]
    assert rows[2, kc.C_WEAR:kc.C_WEAR + 6].tolist() == [14, 1, 1, 1, 1, 2]
    # No builds: every car the ruleset's, as before the rule.
    plain = new_race(monaco(), rules, 2, 2, Dice(1), [])
    assert plain.starting == (STANDARD, STANDARD)


def test_a_build_the_rules_do_not_allow_is_refused_at_the_start() -> None:
    rules = load_ruleset("formula-d")
    wild = WearPoints(tyres=15, brakes=1, gearbox=1, body=1, engine=1, suspension=1)
    with pytest.raises(RaceSetupError, match="car 2's build gives tyres 15: tyres take 1 to 14"):
        new_race(monaco(), rules, 2, 2, Dice(1), [], [None, wild])
    with pytest.raises(RaceSetupError, match="1 builds for 2 cars"):
        new_race(monaco(), rules, 2, 2, Dice(1), [], [TYRES_10])
    with pytest.raises(RaceSetupError, match="the formule-de-basic rules have no building"):
        new_race(monaco(), load_ruleset("formule-de-basic"), 2, 2, Dice(1), [], [TYRES_10, None])


def _built(state: RaceState, *builds: WearPoints | None) -> RaceState:
    """``state`` with each car's starting WP its build's (None: the ruleset's)."""
    return replace(state, starting=tuple(STANDARD if b is None else Wear.of(b) for b in builds))


def test_a_built_car_refills_its_own_tyres_at_the_pits() -> None:
    for build, tyres in ((TYRES_10, 10), (TYRES_2, 2), (None, 6)):
        state = _built(monaco_race([{"space": "pit-01", "gear": 4, "box": "box-1", "lap": 2,
                                     "wear": {"tyres": 1, "brakes": 1}}]), build)
        after, events = stop(state, 0)
        assert after.cars[0].wear.tyres == tyres, build
        assert after.cars[0].wear.brakes == 1, "a stop refills the tyres only"
        assert [type(e) for e in events] == [ev.Moved, ev.PitStop]


def test_a_built_car_has_its_own_tyres_in_mind_when_it_thinks_of_stopping() -> None:
    # The cautious driver wants its box when half its tyres are gone: half of its own.
    board = ring_board()
    state = _built(new_race(board, load_ruleset("formula-d"), 2, 2, Dice(1), []),
                   TYRES_10, None)
    # At the ring's pit entry with its window open (its pit exit crosses the line: lap 1 is
    # the first lap's end), five tyres left of ten.
    state = state.with_car(replace(state.cars[0], space="3-35", gear=3, lap=1, started=True,
                                   wear=Wear.of(TYRES_10).with_(tyres=5)))
    state = state.with_car(replace(state.cars[1], space="1-20", started=True))
    moves = legal_moves(state, 0, 3)
    assert any(m.box for m in moves) and not all(m.box for m in moves)
    assert DRIVERS["cautious"](0).choose_move(state, 0, 3, moves).box
    own = replace(state, starting=(STANDARD, STANDARD))
    assert not DRIVERS["cautious"](0).choose_move(own, 0, 3, legal_moves(own, 0, 3)).box


# -- rule 45: the team race's repairs -----------------------------------------------------------

def _team_race() -> Ruleset:
    return load_ruleset("formula-d").with_team_repairs()


def _in_the_pit_lane(car: int, wear: dict[str, int], pools: tuple[int, ...]) -> RaceState:
    """Four cars of two teams on Monaco, car ``car`` in the pit lane a few spaces short of its
    team's box with ``wear`` changed, the others out on the track; the teams' pools as given."""
    cars: list[dict[str, object]] = [{"space": s, "gear": 4, "lap": 2}
                                     for s in ("1-050", "1-060", "1-070", "1-080")]
    cars[car] = {"space": "pit-01" if car < 2 else "pit-04", "gear": 4,
                 "box": "box-1" if car < 2 else "box-2", "lap": 2, "wear": wear}
    state = monaco_race(cars)
    return replace(state, rules=_team_race(), repairs=pools)


def test_a_team_shares_its_4_repair_wp_between_its_two_cars() -> None:
    rules = _team_race()
    assert new_race(monaco(), rules, 4, 2, Dice(1), []).repairs == (4, 4)
    # Car 1 stops needing one body WP: the team has 3 left for car 2.
    first, events = stop(_in_the_pit_lane(0, {"tyres": 0, "body": 2}, (4, 4)), 0)
    assert events[-1] == ev.Repair(0, 0, Wear(body=1), 3)
    assert first.repairs == (3, 4) and first.cars[0].wear == STANDARD
    # Car 2 needs six; it gets the three left (its last WP first), and its team has none after.
    second, events = stop(_in_the_pit_lane(1, {"brakes": 0, "body": 1, "engine": 2},
                                           first.repairs), 1)
    assert events[-1] == ev.Repair(0, 1, Wear(brakes=2, body=1), 0)
    assert second.repairs == (0, 4)
    # With the pool empty a stop mends nothing and says nothing of repairs.
    third, events = stop(_in_the_pit_lane(0, {"body": 1}, second.repairs), 0)
    assert not [e for e in events if isinstance(e, ev.Repair)]
    assert third.cars[0].wear.body == 1 and third.repairs == (0, 4)
    # The other team's pool is its own.
    fourth, events = stop(_in_the_pit_lane(2, {"body": 1}, second.repairs), 2)
    assert events[-1] == ev.Repair(0, 2, Wear(body=2), 2) and fourth.repairs == (0, 2)


def test_repairs_mend_the_category_with_fewest_wp_left_first() -> None:
    # Brakes at 0 first; then brakes, gearbox and body level at 1, taken in the car sheet's
    # order: four WP, the car's last ones first, and the engine, at 2 of 3, waits.
    after, events = stop(_in_the_pit_lane(0, {"brakes": 0, "body": 1, "engine": 2,
                                              "gearbox": 1}, (4, 4)), 0)
    assert events[-1] == ev.Repair(0, 0, Wear(brakes=2, gearbox=1, body=1), 0)
    assert after.cars[0].wear == STANDARD.with_(brakes=2, gearbox=2, body=2, engine=2)
    # Brakes 0 and body 1: brakes to 1, then to 2 (level with the body at 1, the brakes come
    # first), the body to 2, and the last WP to the brakes again.
    after, events = stop(_in_the_pit_lane(0, {"brakes": 0, "body": 1}, (4, 4)), 0)
    assert events[-1] == ev.Repair(0, 0, Wear(brakes=3, body=1), 0)


def test_repairs_never_mend_a_car_above_its_own_starting_wp() -> None:
    # A car built with one brakes WP has nothing to mend there; its body, built at 1 and still
    # at 1, neither: the pool stays whole.
    state = _built(_in_the_pit_lane(0, {}, (4, 4)), TYRES_14, None, None, None)
    state = state.with_car(replace(state.cars[0], wear=Wear.of(TYRES_14).with_(tyres=3)))
    after, events = stop(state, 0)
    assert after.cars[0].wear == Wear.of(TYRES_14) and after.repairs == (4, 4)
    assert [type(e) for e in events] == [ev.Moved, ev.PitStop]


def test_the_team_race_needs_an_even_number_of_cars() -> None:
    with pytest.raises(RaceSetupError, match="5 cars do not make teams of two"):
        new_race(monaco(), _team_race(), 5, 2, Dice(1), [])
    assert new_race(monaco(), load_ruleset("formula-d"), 5, 2, Dice(1), []).repairs == ()


# -- whole races, both engines -------------------------------------------------------------------

@pytest.mark.usefixtures("compiled_kernel")
def test_races_with_builds_and_team_repairs_are_the_same_in_both_engines() -> None:
    # Three laps (two stops each), cars short of tyres, and the strong driver with more tyres
    # and fewer brakes than its tables count.
    board, rules = ring_board(), _team_race()
    builds = [TYRES_14, TYRES_2, None, TYRES_2]
    bots = ["strong", "cautious", "random", "strong"]
    racer = KernelRacer(board, rules, bots, 3, builds=builds)
    stops = repairs = 0
    for seed in range(6):
        expected = run_race(board, rules, [DRIVERS[b](seed) for b in bots], seed, laps=3,
                            builds=builds)
        got = racer.race(seed)
        assert got.events == expected.events, seed
        assert got.final == expected.final, seed
        assert got.final.repairs == expected.final.repairs, seed
        stops += sum(isinstance(e, ev.PitStop) for e in expected.events)
        repairs += sum(isinstance(e, ev.Repair) for e in expected.events)
    assert stops >= 3 and repairs >= 2, "the races should stop and mend now and then"
