"""Playing a move in the kernel leaves the race as the readable engine leaves it: the same
cars (place, wear, laps, stops, status, pit stop, cause), the same debris, and the same number
of draws from the generator, on random positions with every kind of legal move."""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest

from tests.sim.positions import position
from tests.sim.test_kernel_moves import TRACKS, board
from trackformat.model.track import SpaceKind
from trackformat.rules import load_ruleset
from trackformat.sim import CarStatus, RaceState, legal_moves, play_move
from trackformat.sim.core.dice import Dice
from trackformat.sim.core.events import Event
from trackformat.sim.kernel import race_rules as krr
from trackformat.sim.kernel import resolve as kr
from trackformat.sim.kernel.cars import car_rows
from trackformat.sim.kernel.dice import new_state
from trackformat.sim.kernel.jit import from_python
from trackformat.sim.kernel.log import L_TURN_NOW, L_USED, events_of, new_log
from trackformat.sim.kernel.moves import board_arrays, kernel_move_rows

PRESETS = ("formula-d", "formule-de-basic")


def kernel_after(state: RaceState, pick: int, roll: int, gear_roll: int,
                 seed: int) -> tuple[np.ndarray, set[str], int, int, list[Event]]:
    """The cars, the debris, the moves made, the generator's state and the events after the
    kernel plays the ``pick``-th legal move of car 0."""
    arrays = board_arrays(state.board)
    move = kernel_move_rows(state, 0, [roll])[pick]
    cars = car_rows(state, arrays)
    race = krr.race_numbers(state)
    debris = np.zeros(len(arrays.names), np.int64)
    for space in state.debris:
        debris[arrays.number[space]] = 1
    numbers, tables, triggers = krr.rule_tables(state.rules, state.laps, arrays.pit_exit_crosses)
    dice = new_state(seed)
    log, cursor = new_log()
    cursor[L_TURN_NOW] = state.turn
    play_move = from_python(kr.play_move)
    play_move(cars, race, debris, 0, move, gear_roll, dice, arrays.corner, arrays.in_pit,
              arrays.ahead, arrays.crossing, arrays.contacts, numbers, tables, triggers, log,
              cursor)
    return (cars, {arrays.names[s] for s in np.flatnonzero(debris)}, int(race[0]),
            int(dice[0]), events_of(log, int(cursor[L_USED]), arrays))


@pytest.mark.parametrize("track", TRACKS)
@pytest.mark.parametrize("preset", PRESETS)
def test_the_kernel_plays_a_move_and_writes_its_events_as_the_readable_engine_does(
        track: str, preset: str) -> None:
    rules = load_ruleset(preset)
    rng = random.Random(f"kernel-resolve:{track}:{preset}")
    the_board = board(track)
    arrays = board_arrays(the_board)
    boxes_of = [(p, b) for p in the_board.pit_lane for b in the_board.pit_next.get(p, ())
                if the_board.kind[b] == SpaceKind.BOX]
    rolled = stops = 0
    for n in range(250):
        state = position(the_board, rules, rng)
        # Worn cars, so that contacts, debris and engine rolls eliminate now and then.
        cars = tuple(replace(c, wear=c.wear.with_(
            body=rng.choice((1, 1, 2, c.wear.body)), engine=rng.choice((1, c.wear.engine)),
            suspension=rng.choice((1, c.wear.suspension)))) for c in state.cars)
        state = replace(state, cars=cars, sequence=rng.randint(0, 99))
        roll = rng.randint(1, 30)
        moves = legal_moves(state, 0, roll)
        if n % 5 == 0 and boxes_of:
            # Pit stops are rare among random moves: every fifth position, car 0 stands in
            # the pit lane right before a box, its own.
            space, box = rng.choice(boxes_of)
            if box not in state.occupied(except_car=0):
                state = state.with_car(replace(state.cars[0], space=space, box=box, corner=None,
                                               stops=0, status=CarStatus.RACING))
                roll = rng.randint(1, 4)
                moves = legal_moves(state, 0, roll)
        boxes = [i for i, m in enumerate(moves) if m.box]
        pick = rng.choice(boxes) if boxes else rng.randrange(len(moves))
        stops += bool(boxes)
        gear = state.cars[0].gear
        top = max(rules.faces(gear))
        gear_roll = rng.choice((-1, top, top, rng.choice(rules.faces(gear))))
        seed = rng.randrange(2**32)
        dice = Dice(seed)
        after, written = play_move(state, 0, moves[pick], dice,
                                   gear_roll=None if gear_roll < 0 else gear_roll)
        cars_now, debris_now, sequence, dice_state, events = kernel_after(
            state, pick, roll, gear_roll, seed)
        assert events == written, (track, n)
        assert cars_now.tolist() == car_rows(after, arrays).tolist(), (track, n)
        assert debris_now == set(after.debris), (track, n)
        assert sequence == after.sequence and dice_state == dice.state, (track, n)
        rolled += dice_state != Dice(seed).state
    assert rolled > 50, "the moves should set off plenty of rolls"
    if boxes_of:
        assert stops > 20, "some moves should end in the box"
