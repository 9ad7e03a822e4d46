"""Playing a chosen move in compiled code: paying for it, then everything it sets off.

The same reading, in the same order and with the same draws of the project's generator, as
:func:`trackformat.sim.move.resolve.play_move`: the move's costs, stops counted, an elimination
(and, in the basic rules, the body WP it costs the car ahead of a blocked car), laps and the
finish, a spin, a pit stop (and the team race's repairs), the debris passed, contacts with the
cars the move ends next to or right behind, and engine rolls after a top result in a high gear.
Each WP of body or engine lost and each elimination may leave debris, as the ruleset says.

The race is a table of cars (:mod:`trackformat.sim.kernel.cars`), a debris flag per space, and
a few numbers; the rules are a row of numbers and a few tables (both in
:mod:`~trackformat.sim.kernel.race_rules`). Every event is written to the race's log
(:mod:`~trackformat.sim.kernel.log`) where the readable engine writes it.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from trackformat.sim.kernel import cars as kc
from trackformat.sim.kernel import price as kp
from trackformat.sim.kernel.dice import State, randrange
from trackformat.sim.kernel.jit import compiled, copy_into
from trackformat.sim.kernel.log import (
    E_BLOCKED,
    E_COLLISION_ROLL,
    E_DEBRIS_DROPPED,
    E_DEBRIS_ROLL,
    E_ELIMINATED,
    E_ENGINE_ROLL,
    E_FINISHED,
    E_LAP_COMPLETED,
    E_MOVED,
    E_OVERSHOOT,
    E_PIT_STOP,
    E_REPAIR,
    E_SPIN_OUT,
    L_ARGS,
    NO_ROLL,
    note,
    note_route,
)
from trackformat.sim.kernel.race_rules import (
    P_COSTS_ARRIVING,
    P_DEBRIS_BODY,
    P_DEBRIS_ELIMINATION,
    P_DEBRIS_ENGINE,
    P_HAS_DEBRIS,
    P_HAS_ENGINE,
    P_HITS_AHEAD,
    P_LAPS,
    P_PIT_EXIT_CROSSES,
    P_QUICK_DIVISOR,
    P_QUICK_GEAR,
    P_QUICK_MAX,
    P_STOP_AFTER_OVERSHOOT,
    P_TEAM_REPAIRS,
    R_FINISHED,
    R_REPAIRS,
    R_SEQUENCE,
    T_BLACK,
    T_CONTACT_LOSING,
    T_DEBRIS_LOSING,
    T_ENGINE_GEARS,
    T_ENGINE_LOSING,
    T_REFILL,
)

Ints = npt.NDArray[np.int64]

@compiled
def _black(dice: State, tables: Ints) -> int:
    """One roll of the black die."""
    faces = tables[T_BLACK]
    return int(faces[randrange(dice, faces[len(faces) - 1])])


@compiled
def _drop_debris(debris: Ints, index: int, space: int, in_pit: Ints, log: Ints,
                 cursor: Ints) -> None:
    if not in_pit[space]:
        debris[space] = 1
        note(log, cursor, E_DEBRIS_DROPPED, index, space, 0, 0, 0)


@compiled
def _eliminate(cars: Ints, index: int, cause: int, debris: Ints, in_pit: Ints,
               numbers: Ints, log: Ints, cursor: Ints) -> None:
    """Take a car out where it stands, leaving debris if the rules say so."""
    cars[index, kc.C_STATUS] = kc.ELIMINATED
    cars[index, kc.C_CAUSE] = cause
    note(log, cursor, E_ELIMINATED, index, cause, cars[index, kc.C_SPACE], 0, 0)
    if numbers[P_HAS_DEBRIS] and numbers[P_DEBRIS_ELIMINATION]:
        _drop_debris(debris, index, cars[index, kc.C_SPACE], in_pit, log, cursor)


@compiled
def _lose_point(cars: Ints, index: int, column: int, cause: int, debris: Ints, in_pit: Ints,
                numbers: Ints, log: Ints, cursor: Ints) -> None:
    """One WP of a category lost; the last one of it eliminates the car."""
    left = cars[index, column] - 1
    cars[index, column] = max(left, 0)
    if numbers[P_HAS_DEBRIS] and (
            (column == kc.C_BODY and numbers[P_DEBRIS_BODY])
            or (column == kc.C_ENGINE and numbers[P_DEBRIS_ENGINE])):
        _drop_debris(debris, index, cars[index, kc.C_SPACE], in_pit, log, cursor)
    if left <= 0:
        _eliminate(cars, index, cause, debris, in_pit, numbers, log, cursor)


@compiled
def _on_board(cars: Ints, index: int) -> bool:
    return bool(cars[index, kc.C_STATUS] <= kc.SPUN)


@compiled
def _car_on(cars: Ints, space: int, except_car: int) -> int:
    """The car on ``space`` still on the board (-1: none)."""
    for other in range(len(cars)):
        if other != except_car and _on_board(cars, other) and cars[other, kc.C_SPACE] == space:
            return other
    return -1


@compiled
def play_move(cars: Ints, race: Ints, debris: Ints, index: int, move: Ints, gear_roll: int,
              dice: State, corner: Ints, in_pit: Ints, ahead: Ints, crossing: Ints,
              contacts: Ints, numbers: Ints, tables: Ints, triggers: Ints, log: Ints,
              cursor: Ints) -> None:
    """Play ``move`` (a row of :mod:`~trackformat.sim.kernel.price`) for car ``index``, in
    place, writing its events; ``gear_roll`` is the gear die's result, or -1 when the move did
    not come from it."""
    car = cars[index]
    gear = car[kc.C_GEAR]
    start = car[kc.C_SPACE]
    distance = move[kp.M_DISTANCE]
    destination = move[kp.M_DEST]
    race[R_SEQUENCE] += 1
    car[kc.C_TYRES] = max(car[kc.C_TYRES] - move[kp.M_TYRES], 0)
    car[kc.C_BRAKES] = max(car[kc.C_BRAKES] - move[kp.M_BRAKES], 0)
    # Stops: a stop is the end of a move inside a corner's limits, counted per visit.
    here = corner[destination]
    if here < 0 or in_pit[destination]:
        car[kc.C_CORNER], car[kc.C_STOPS] = -1, 0
    else:
        stayed = car[kc.C_CORNER] == here
        for i in range(distance):
            if corner[move[kp.M_ROUTE + i]] != here:
                stayed = False
        if stayed:
            car[kc.C_STOPS] += 1
        elif move[kp.M_NEXITS] > 0 and not numbers[P_STOP_AFTER_OVERSHOOT]:
            car[kc.C_STOPS] = 0
        else:
            car[kc.C_STOPS] = 1
        car[kc.C_CORNER] = here
    car[kc.C_SPACE] = destination
    car[kc.C_STATUS] = kc.RACING
    car[kc.C_PIT_WAIT] = 0
    car[kc.C_PIT_EXIT] = 0
    car[kc.C_ARRIVAL] = race[R_SEQUENCE]
    row = note(log, cursor, E_MOVED, index, start, destination, move[kp.M_ROLL],
               move[kp.M_BRAKES])
    row[L_ARGS + 4] = move[kp.M_TYRES]
    row[L_ARGS + 5] = move[kp.M_SLIPSTREAM]
    row[L_ARGS + 6] = distance
    note_route(log, cursor, index, move[kp.M_ROUTE:kp.M_ROUTE + distance])
    if move[kp.M_BLOCKED]:
        note(log, cursor, E_BLOCKED, index, destination, move[kp.M_BLOCKED], move[kp.M_BRAKES],
             move[kp.M_TYRES])
    for e in range(move[kp.M_NEXITS]):
        note(log, cursor, E_OVERSHOOT, index, move[kp.M_EXITS + 3 * e],
             move[kp.M_EXITS + 3 * e + 1], move[kp.M_EXITS + 3 * e + 2], destination)
    if move[kp.M_ELIMINATED] != kp.NOT_ELIMINATED:
        _eliminate(cars, index, move[kp.M_ELIMINATED], debris, in_pit, numbers, log, cursor)
        if move[kp.M_ELIMINATED] == kp.BY_BLOCKED and numbers[P_HITS_AHEAD]:
            front = ahead[destination]
            other = _car_on(cars, front, index) if front >= 0 else -1
            if other >= 0:
                note(log, cursor, E_COLLISION_ROLL, other, index, NO_ROLL, 1,
                     cars[other, kc.C_SPACE])
                _lose_point(cars, other, kc.C_BODY, kc.BY_BODY, debris, in_pit, numbers, log,
                            cursor)
        _engine(cars, index, gear, gear_roll, dice, in_pit, debris, numbers, tables, triggers,
                log, cursor)
        return
    previous = start
    for i in range(distance):
        space = move[kp.M_ROUTE + i]
        crossed = numbers[P_PIT_EXIT_CROSSES] and in_pit[previous] and not in_pit[space]
        for v in crossing[previous]:
            if v == space:
                crossed = True
        previous = space
        if not crossed:
            continue
        if car[kc.C_LAP] >= numbers[P_LAPS]:
            # The last crossing: the move's rolls still come (the debris passed short of the
            # line, the route's first i spaces, then the engine's), and a car they eliminate
            # is not classified.
            if numbers[P_HAS_DEBRIS]:
                _debris_rolls(cars, index, move, i, debris, dice, in_pit, numbers, tables, log,
                              cursor)
            _engine(cars, index, gear, gear_roll, dice, in_pit, debris, numbers, tables,
                    triggers, log, cursor)
            if car[kc.C_STATUS] != kc.RACING:
                return
            race[R_FINISHED] += 1
            car[kc.C_STATUS] = kc.FINISHED
            car[kc.C_PLACE] = race[R_FINISHED]
            car[kc.C_LAP] += 1
            note(log, cursor, E_FINISHED, index, race[R_FINISHED], 0, 0, 0)
            return
        car[kc.C_LAP] += 1
        if car[kc.C_LAP] >= 2:
            note(log, cursor, E_LAP_COMPLETED, index, car[kc.C_LAP] - 1, 0, 0, 0)
    if move[kp.M_SPIN]:
        car[kc.C_STATUS] = kc.SPUN
        note(log, cursor, E_SPIN_OUT, index, destination, 0, 0, 0)
    if move[kp.M_BOX]:
        for k in range(6):
            if tables[T_REFILL, k]:
                car[kc.C_WEAR + k] = car[kc.C_START + k]
        roll = _black(dice, tables)
        quick = roll <= numbers[P_QUICK_MAX]
        car[kc.C_PIT_STOPS] += 1
        car[kc.C_PIT_EXIT] = -(-roll // numbers[P_QUICK_DIVISOR]) if quick else 0
        car[kc.C_PIT_WAIT] = 0 if quick else 1
        if quick:
            car[kc.C_GEAR] = numbers[P_QUICK_GEAR]
        note(log, cursor, E_PIT_STOP, index, destination, roll, 1 if quick else 0,
             car[kc.C_PIT_EXIT])
        if numbers[P_TEAM_REPAIRS]:
            _team_repairs(car, race, index, log, cursor)
    if numbers[P_HAS_DEBRIS]:
        _debris_rolls(cars, index, move, distance, debris, dice, in_pit, numbers, tables, log,
                      cursor)
    _contacts(cars, index, dice, in_pit, contacts, debris, numbers, tables, log, cursor)
    _engine(cars, index, gear, gear_roll, dice, in_pit, debris, numbers, tables, triggers,
            log, cursor)


@compiled
def _team_repairs(car: Ints, race: Ints, index: int, log: Ints, cursor: Ints) -> None:
    """The team's repair WP spent on the stopping car, one at a time, while the pool lasts: each
    on the category with the fewest WP left among those below the car's starting WP, the first
    in the car sheet's order on a tie (the readable engine's ``_team_repairs``)."""
    pool = R_REPAIRS + index // 2
    repaired = np.zeros(6, np.int64)
    while race[pool] > 0:
        worst = -1
        for k in range(6):
            left = car[kc.C_WEAR + k]
            if left < car[kc.C_START + k] and (worst < 0 or left < car[kc.C_WEAR + worst]):
                worst = k
        if worst < 0:
            break
        car[kc.C_WEAR + worst] += 1
        repaired[worst] += 1
        race[pool] -= 1
    if repaired.sum() > 0:
        row = note(log, cursor, E_REPAIR, index, race[pool], 0, 0, 0)
        copy_into(row[L_ARGS + 1:L_ARGS + 7], repaired)


@compiled
def _debris_rolls(cars: Ints, index: int, move: Ints, upto: int, debris: Ints, dice: State,
                  in_pit: Ints, numbers: Ints, tables: Ints, log: Ints, cursor: Ints) -> None:
    """A roll for each debris marker the move passed or stopped on in the first ``upto``
    spaces of its route (those off the pit lane that had one when it was chosen), while the
    car is still in the race."""
    for i in range(upto):
        space = move[kp.M_ROUTE + i]
        if not debris[space] or in_pit[space]:
            continue
        if not _on_board(cars, index):
            break
        roll = _black(dice, tables)
        lost = tables[T_DEBRIS_LOSING, roll]
        note(log, cursor, E_DEBRIS_ROLL, index, space, roll, lost, 0)
        if lost:
            _lose_point(cars, index, kc.C_SUSPENSION, kc.BY_SUSPENSION, debris, in_pit, numbers,
                        log, cursor)


@compiled
def _contacts(cars: Ints, index: int, dice: State, in_pit: Ints, contacts: Ints,
              debris: Ints, numbers: Ints, tables: Ints, log: Ints, cursor: Ints) -> None:
    """Each car the move ends next to or right behind rolls once; then the arriving car rolls
    once per such car (in the basic rules, a contact that eliminated one costs it a body WP
    without a roll)."""
    space = cars[index, kc.C_SPACE]
    if not _on_board(cars, index) or in_pit[space]:
        return
    neighbours = np.full(contacts.shape[1], -1, np.int64)
    count = 0
    for s in contacts[space]:
        if s < 0:
            break
        other = _car_on(cars, s, index)
        if other >= 0:
            neighbours[count] = other
            count += 1
    knocked_out = np.zeros(len(cars), np.int64)
    for k in range(count):
        other = neighbours[k]
        roll = _black(dice, tables)
        lost = tables[T_CONTACT_LOSING, roll]
        note(log, cursor, E_COLLISION_ROLL, other, index, roll, lost, cars[other, kc.C_SPACE])
        if lost:
            _lose_point(cars, other, kc.C_BODY, kc.BY_BODY, debris, in_pit, numbers, log,
                        cursor)
            if not _on_board(cars, other):
                knocked_out[other] = 1
    for k in range(count):
        if not _on_board(cars, index):
            break
        other = neighbours[k]
        if numbers[P_COSTS_ARRIVING] and knocked_out[other]:
            note(log, cursor, E_COLLISION_ROLL, index, other, NO_ROLL, 1, space)
            _lose_point(cars, index, kc.C_BODY, kc.BY_BODY, debris, in_pit, numbers, log,
                        cursor)
            continue
        roll = _black(dice, tables)
        lost = tables[T_CONTACT_LOSING, roll]
        note(log, cursor, E_COLLISION_ROLL, index, other, roll, lost, space)
        if lost:
            _lose_point(cars, index, kc.C_BODY, kc.BY_BODY, debris, in_pit, numbers, log,
                        cursor)


@compiled
def _engine(cars: Ints, index: int, gear: int, gear_roll: int, dice: State, in_pit: Ints,
            debris: Ints, numbers: Ints, tables: Ints, triggers: Ints, log: Ints,
            cursor: Ints) -> None:
    """After a top result in a high gear: the driver, then every car in a high gear, rolls."""
    if not numbers[P_HAS_ENGINE] or gear_roll < 0:
        return
    triggered = False
    for t in range(len(triggers)):
        if triggers[t, 0] == gear and triggers[t, 1] == gear_roll:
            triggered = True
    if not triggered:
        return
    rollers = np.full(len(cars), -1, np.int64)
    rollers[0] = index
    count = 1
    for other in range(len(cars)):
        if (other != index and tables[T_ENGINE_GEARS, cars[other, kc.C_GEAR]]
                and cars[other, kc.C_STATUS] == kc.RACING):
            rollers[count] = other
            count += 1
    for k in range(count):
        who = rollers[k]
        if not _on_board(cars, who) or in_pit[cars[who, kc.C_SPACE]]:
            continue
        roll = _black(dice, tables)
        lost = tables[T_ENGINE_LOSING, roll]
        note(log, cursor, E_ENGINE_ROLL, who, roll, lost, cars[who, kc.C_SPACE], 0)
        if lost:
            _lose_point(cars, who, kc.C_ENGINE, kc.BY_ENGINE, debris, in_pit, numbers, log,
                        cursor)
