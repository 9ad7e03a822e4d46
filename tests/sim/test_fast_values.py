"""The engine's shortcuts for building values give the very values the plain way gives."""

from __future__ import annotations

from dataclasses import fields, replace

import pytest

from tests.sim.helpers import ring_board, rules
from trackformat.sim import CarState, Cause, CornerExit, Move, RaceState, Wear, gear_options, shift
from trackformat.sim.move.value import build_move


def test_a_move_built_slot_by_slot_equals_the_same_move_built_the_plain_way() -> None:
    exits = (CornerExit("south", 2, 1),)
    for args in [("3-1", ("3-2", "3-3"), 2, 0, 0, 0, (), False, None, (), False),
                 ("1-7", ("1-8",), 4, 3, 2, 3, exits, True, Cause.OVERSHOOT, ("1-8",), True)]:
        fast, plain = build_move(*args), Move(*args)
        assert fast == plain
        assert hash(fast) == hash(plain)
        assert repr(fast) == repr(plain)
        assert [getattr(fast, f.name) for f in fields(Move)] == [
            getattr(plain, f.name) for f in fields(Move)]


def test_a_race_state_changed_by_but_equals_dataclasses_replace() -> None:
    car = CarState(index=0, space="1-3", gear=2, wear=Wear(tyres=6, brakes=3), lap=1)
    state = RaceState(board=ring_board(), rules=rules(), laps=2, cars=(car,))
    changed = state.but(turn=4, debris=frozenset({"2-5"}))
    assert changed == replace(state, turn=4, debris=frozenset({"2-5"}))
    assert changed.board is state.board and changed.rules is state.rules
    assert state.turn == 0 and state.debris == frozenset()  # the original is untouched
    with pytest.raises(TypeError, match="no field"):
        state.but(turns=4)


def test_a_shift_changes_the_gear_and_pays_its_cost_and_nothing_else() -> None:
    car = CarState(index=0, space="1-3", gear=5, wear=Wear(tyres=6, brakes=3, gearbox=3,
                                                           engine=3), lap=1, started=True)
    state = RaceState(board=ring_board(), rules=rules(), laps=2, cars=(car,))
    options = gear_options(state, 0)
    for option in options:
        paid = Wear(**{f.name: getattr(car.wear, f.name) - getattr(option.cost, f.name)
                       for f in fields(Wear)})
        assert shift(car, option) == replace(car, gear=option.gear, wear=paid)
    assert any(o.cost != Wear() for o in options), "a downshift that costs WP is among them"
