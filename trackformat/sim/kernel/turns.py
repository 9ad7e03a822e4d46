"""The game turns of a race in compiled code: the order of play at the start of each game turn,
then each car's turn (its start roll, its gear and shift, its die, its move and slipstream
extras, the move played), as :class:`~trackformat.sim.race.runner.Race` plays them, until every
car is out or home, or the turn limit.

Apart from :mod:`~trackformat.sim.kernel.race`, which makes a batch into arrays and reads a
race's result back in Python: this is the race loop numba compiles, once per mix of drivers
(see :mod:`~trackformat.sim.kernel.drivers`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from trackformat.sim.kernel import ask
from trackformat.sim.kernel import cars as kc
from trackformat.sim.kernel import drivers as kd
from trackformat.sim.kernel import race_rules as krr
from trackformat.sim.kernel import resolve as kr
from trackformat.sim.kernel.dice import State, randrange
from trackformat.sim.kernel.game import (
    AHEAD,
    CONTACTS,
    CORNER,
    CROSSING,
    DIE,
    F_STALL,
    F_SUPER,
    FLAGS,
    G_LIMIT,
    G_PIT_ENTRY_RANK,
    G_SUPER_SPACES,
    G_TIE_INSIDE,
    GAME,
    GEARS,
    IN_PIT,
    INSIDE,
    NUMBERS,
    PIT_HALF,
    PROGRESS,
    SHIFT_COSTS,
    SHIFTING,
    TABLES,
    TRIGGERS,
)
from trackformat.sim.kernel.jit import borrow, copy_into, entry, inlined
from trackformat.sim.kernel.log import (
    E_GEAR_ROLL,
    E_SHIFT,
    E_SKIPPED,
    E_START_ROLL,
    L_ARGS,
    L_TURN_NOW,
    note,
)
from trackformat.sim.kernel.workspace import Workspace

Ints = npt.NDArray[np.int64]


@entry
def play_turns(cars: Ints, race: Ints, debris: Ints, dice: State,
               drivers: tuple, cautious: Any, strong: Any, par: Any,  # type: ignore[type-arg]
               board: tuple[Ints, ...], rules: tuple[Ints, ...], log: Ints, cursor: Ints,
               workspace: Workspace) -> tuple[int, bool]:
    """Play game turns until every car is out or home, or the turn limit. ``cautious``,
    ``strong`` and ``par``: the drivers' tables, or None for a line-up without them, handed
    down as they are (see :mod:`~trackformat.sim.kernel.drivers`)."""
    # Held by the caller until this returns: no step below needs to count references to them
    # (the drivers' tables are borrowed where they are used).
    cars, race, debris, dice, drivers, board, rules, log, cursor, workspace = borrow(
        (cars, race, debris, dice, drivers, board, rules, log, cursor, workspace))
    game = rules[GAME]
    nothing = ask.found_nothing()
    turn = 0
    while True:
        over = True
        for index in range(len(cars)):
            if cars[index, kc.C_STATUS] <= kc.SPUN:
                over = False
        if over or turn >= game[G_LIMIT]:
            break
        turn += 1
        cursor[L_TURN_NOW] = turn
        order = kc.turn_order(cars, board[IN_PIT], board[PROGRESS], board[INSIDE],
                              board[PIT_HALF], game[G_PIT_ENTRY_RANK], game[G_TIE_INSIDE] == 1)
        for index in order:
            if cars[index, kc.C_STATUS] <= kc.SPUN:
                _play_car(cars, race, debris, dice, drivers, cautious, strong, par, index,
                          board, rules, log, cursor, workspace, nothing)
    if not over:
        for index in range(len(cars)):
            if cars[index, kc.C_STATUS] <= kc.SPUN:
                kr._eliminate(cars, index, 9, debris, board[IN_PIT], rules[NUMBERS], log, cursor)
    return turn, over


@inlined
def _play_car(cars: Ints, race: Ints, debris: Ints, dice: State, drivers: tuple,  # type: ignore[type-arg]
              cautious: Any, strong: Any, par: Any, index: int, board: tuple[Ints, ...],
              rules: tuple[Ints, ...], log: Ints,
              cursor: Ints, workspace: Workspace, nothing: ask.Found) -> None:
    """One car's turn, as :meth:`~trackformat.sim.race.runner.Race._play_car` plays it."""
    in_pit, numbers, game, flags = board[IN_PIT], rules[NUMBERS], rules[GAME], rules[FLAGS]
    car = cars[index]
    if not car[kc.C_STARTED]:
        roll = kr._black(dice, rules[TABLES])
        car[kc.C_STARTED] = 1
        outcome = 1 if flags[F_STALL, roll] else 2 if flags[F_SUPER, roll] else 0
        note(log, cursor, E_START_ROLL, index, roll, outcome, 0, 0)
        if outcome == 1:
            note(log, cursor, E_SKIPPED, index, 0, 0, 0, 0)
            return
        if outcome == 2:
            spaces = game[G_SUPER_SPACES]
            every = ask.roll_moves(cars, index, debris, spaces, board, rules, workspace)
            moves = ask.super_start(every, cars, index, spaces, board[AHEAD])
            chosen = kd.choose_move(drivers, cautious, strong, par, moves, spaces, cars, race,
                                    index, debris, board, rules)
            _play(cars, race, debris, dice, index, moves[chosen], -1, board, rules, log, cursor)
            if car[kc.C_STATUS] <= kc.SPUN:
                car[kc.C_GEAR] = 1
            return
    options = kc.gear_option_rows(car, in_pit[car[kc.C_SPACE]] == 1, rules[SHIFTING],
                                  rules[SHIFT_COSTS])
    chosen, found = kd.choose_gear(drivers, cautious, strong, par, options, cars, race, index,
                                   debris, board, rules, workspace, nothing)
    option = options[chosen]
    _pay_shift(cars, index, option, debris, in_pit, numbers, log, cursor)
    if car[kc.C_STATUS] > kc.SPUN:
        return
    faces = rules[GEARS][option[kc.O_GEAR] - 1]
    roll = faces[randrange(dice, faces[DIE])]
    note(log, cursor, E_GEAR_ROLL, index, option[kc.O_GEAR], roll, 0, 0)
    if option[kc.O_COST + kc.C_ENGINE - kc.C_WEAR] == 0:
        # What the driver found still holds: paying the shift changed no wear its moves depend
        # on and dropped no debris (an engine WP can).
        moves = ask.moves_of_roll(found, cars, index, debris, roll, board, rules, workspace)
    else:
        moves = ask.roll_moves(cars, index, debris, roll, board, rules, workspace)
    move = moves[kd.choose_move(drivers, cautious, strong, par, moves, roll, cars, race, index,
                                debris, board, rules)]
    while True:
        extras = ask.slipstream_moves(cars, index, debris, move, board, rules, workspace)
        if len(extras) == 0:
            break
        choice = kd.choose_slipstream(drivers, cautious, strong, par, move, extras, cars, race,
                                      index, debris, board, rules)
        if choice < 0:
            break
        move = extras[choice]
    _play(cars, race, debris, dice, index, move, roll, board, rules, log, cursor)
    spaces = car[kc.C_PIT_EXIT]
    if spaces and car[kc.C_STATUS] <= kc.SPUN:
        moves = ask.roll_moves(cars, index, debris, spaces, board, rules, workspace)
        chosen = kd.choose_move(drivers, cautious, strong, par, moves, spaces, cars, race,
                                index, debris, board, rules)
        _play(cars, race, debris, dice, index, moves[chosen], -1, board, rules, log, cursor)


@inlined
def _pay_shift(cars: Ints, index: int, option: Ints, debris: Ints, in_pit: Ints,
               numbers: Ints, log: Ints, cursor: Ints) -> None:
    """Put the car in its chosen gear and pay for the shift (see
    :func:`~trackformat.sim.move.resolve.pay_shift`)."""
    car = cars[index]
    costly = False
    for k in range(6):
        if option[kc.O_COST + k] != 0:
            costly = True
    if option[kc.O_GEAR] != car[kc.C_GEAR] or costly:
        row = note(log, cursor, E_SHIFT, index, car[kc.C_GEAR], option[kc.O_GEAR], 0, 0)
        copy_into(row[L_ARGS + 2:L_ARGS + 8], option[kc.O_COST:kc.O_COST + 6])
    car[kc.C_GEAR] = option[kc.O_GEAR]
    for k in range(6):
        car[kc.C_WEAR + k] -= option[kc.O_COST + k]
    if (option[kc.O_COST + kc.C_ENGINE - kc.C_WEAR] > 0 and numbers[krr.P_HAS_DEBRIS]
            and numbers[krr.P_DEBRIS_ENGINE]):
        kr._drop_debris(debris, index, car[kc.C_SPACE], in_pit, log, cursor)
    if option[kc.O_ELIMINATES]:
        kr._eliminate(cars, index, 8, debris, in_pit, numbers, log, cursor)


@inlined
def _play(cars: Ints, race: Ints, debris: Ints, dice: State, index: int, move: Ints,
          gear_roll: int, board: tuple[Ints, ...], rules: tuple[Ints, ...], log: Ints,
          cursor: Ints) -> None:
    kr.play_move(cars, race, debris, index, move, gear_roll, dice, board[CORNER], board[IN_PIT],
                 board[AHEAD], board[CROSSING], board[CONTACTS], rules[NUMBERS], rules[TABLES],
                 rules[TRIGGERS], log, cursor)
