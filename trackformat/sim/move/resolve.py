"""Playing a chosen move: paying for it, then everything it sets off.

In the order of the booklets: the move and its costs (braking, blocking, overshoot, spin,
elimination), stops in corners, laps and the finish, a pit stop, then the black-die rolls it
causes: debris passed or stopped on, contacts with the cars the move ends next to or right
behind, and engine rolls after a top result in a high gear. Every roll goes through the race's
one generator, in a fixed order, so a seed replays the race event for event.
"""

from __future__ import annotations

import math
from dataclasses import replace

from trackformat.rules import WEAR_CATEGORIES
from trackformat.sim.core import events as ev
from trackformat.sim.core.dice import Rng
from trackformat.sim.core.state import NO_COST, CarState, CarStatus, Cause, RaceState, Wear
from trackformat.sim.move.gears import GearOption, roll_die, shift
from trackformat.sim.move.legal import Move

__all__ = ["eliminate", "lose_point", "pay_shift", "play_move"]


def eliminate(state: RaceState, index: int, cause: Cause, log: list[ev.Event]) -> RaceState:
    """Take a car out of the race where it stands, leaving debris if the rules say so."""
    car = state.cars[index]
    state = state.with_car(replace(car, status=CarStatus.ELIMINATED, cause=cause))
    log.append(ev.Eliminated(state.turn, index, cause, car.space))
    debris = state.rules.debris
    if debris is not None and debris.on_elimination:
        state = _drop_debris(state, index, car.space, log)
    return state


def _drop_debris(state: RaceState, index: int, space: str, log: list[ev.Event]) -> RaceState:
    if state.board.in_pit(space):
        return state
    log.append(ev.DebrisDropped(state.turn, index, space))
    return state.but(debris=state.debris | {space})


def lose_point(state: RaceState, index: int, category: str, cause: Cause,
               log: list[ev.Event]) -> RaceState:
    """One WP of ``category`` lost; the last one of it eliminates the car."""
    car = state.cars[index]
    left = getattr(car.wear, category) - 1
    state = state.with_car(replace(car, wear=car.wear.with_(**{category: max(left, 0)})))
    debris = state.rules.debris
    if debris is not None and (
        (category == "body" and debris.on_body_loss)
        or (category == "engine" and debris.on_engine_loss)
    ):
        state = _drop_debris(state, index, car.space, log)
    if left <= 0:
        state = eliminate(state, index, cause, log)
    return state


def pay_shift(state: RaceState, index: int, option: GearOption,
              log: list[ev.Event]) -> RaceState:
    """Put the car in its chosen gear and pay for the shift: an engine WP lost on a big
    downshift leaves debris, and the last one eliminates the car."""
    car = state.cars[index]
    if option.gear != car.gear or option.cost != NO_COST:
        log.append(ev.Shift(state.turn, index, car.gear, option.gear, option.cost))
    state = state.with_car(shift(car, option))
    debris = state.rules.debris
    if option.cost.engine and debris is not None and debris.on_engine_loss:
        state = _drop_debris(state, index, car.space, log)
    if option.eliminates:
        state = eliminate(state, index, Cause.SHIFT, log)
    return state


def _stops(state: RaceState, car: CarState, move: Move) -> tuple[str | None, int]:
    """The corner visit and its stops after ``move`` ends (a stop is the end of a move)."""
    board = state.board
    corner = board.corner_of.get(move.destination)
    if corner is None or board.in_pit(move.destination):
        return None, 0
    stayed = car.corner == corner and all(board.corner_of.get(s) == corner for s in move.route)
    if stayed:
        return corner, car.stops + 1
    if move.overshoots and not state.rules.corners.stop_after_overshoot_counts:
        return corner, 0
    return corner, 1


def play_move(state: RaceState, index: int, move: Move, rng: Rng,
              gear_roll: int | None = None) -> tuple[RaceState, list[ev.Event]]:
    """Play ``move`` for car ``index`` and resolve what it sets off.

    ``gear_roll`` is the gear die's result when the move came from it (it may trigger engine
    rolls); None for a super start or a quick stop's exit.
    """
    log: list[ev.Event] = []
    rules, board, turn = state.rules, state.board, state.turn
    car = state.cars[index]
    sequence = state.sequence + 1
    # The move costs only tyres and brakes; no category goes below zero.
    old = car.wear
    wear = Wear(max(old.tyres - move.tyres, 0), max(old.brakes - move.brakes, 0),
                max(old.gearbox, 0), max(old.body, 0), max(old.engine, 0),
                max(old.suspension, 0))
    corner, stops = _stops(state, car, move)
    # Built field by field rather than by dataclasses.replace: twice as fast, every move.
    moved = CarState(index=car.index, space=move.destination, gear=car.gear, wear=wear,
                     lap=car.lap, box=car.box, corner=corner, stops=stops,
                     status=CarStatus.RACING, cause=car.cause, started=car.started,
                     pit_stops=car.pit_stops, pit_wait=False, pit_exit=0, arrival=sequence,
                     place=car.place)
    cars = list(state.cars)
    cars[index] = moved
    state = state.but(sequence=sequence, cars=tuple(cars))
    log.append(ev.Moved(turn, index, move.start, move.destination, move.route, move.roll,
                        move.brakes, move.tyres, move.slipstream))
    if move.blocked:
        log.append(ev.Blocked(turn, index, move.destination, move.blocked,
                              Wear(brakes=move.brakes, tyres=move.tyres)))
    for exit_ in move.overshoots:
        log.append(ev.Overshoot(turn, index, exit_.corner, exit_.spaces, exit_.missing,
                                move.destination))
    if move.eliminated is not None:
        state = eliminate(state, index, move.eliminated, log)
        if move.eliminated == Cause.BLOCKED and rules.blocking.elimination_hits_car_ahead:
            ahead = state.occupied().get(board.ahead.get(move.destination, ""))
            if ahead is not None:
                log.append(ev.CollisionRoll(turn, ahead, index, None, 1,
                                            state.cars[ahead].space))
                state = lose_point(state, ahead, "body", Cause.BODY, log)
        return _engine(state, index, car.gear, gear_roll, rng, log), log

    for position in board.crossings(move.start, move.route):
        current = state.cars[index]
        if current.lap >= state.laps:
            # The last crossing: the move's rolls still come (the debris passed short of the
            # line, then the engine's), and a car they eliminate is not classified.
            short_of_line = set(move.route[:position])
            passed = tuple(s for s in move.debris if s in short_of_line)
            state = _debris_rolls(state, index, passed, rng, log)
            state = _engine(state, index, car.gear, gear_roll, rng, log)
            current = state.cars[index]
            if current.status != CarStatus.RACING:
                return state, log
            place = len(state.finish_order) + 1
            state = state.but(finish_order=(*state.finish_order, index)).with_car(
                replace(current, status=CarStatus.FINISHED, place=place, lap=current.lap + 1)
            )
            log.append(ev.Finished(turn, index, place))
            return state, log
        state = state.with_car(replace(current, lap=current.lap + 1))
        if current.lap >= 1:
            log.append(ev.LapCompleted(turn, index, current.lap))

    if move.spin:
        state = state.with_car(replace(state.cars[index], status=CarStatus.SPUN))
        log.append(ev.SpinOut(turn, index, move.destination))
    if move.box:
        state = _pit_stop(state, index, rng, log)
    state = _debris_rolls(state, index, move.debris, rng, log)
    state = _contacts(state, index, rng, log)
    return _engine(state, index, car.gear, gear_roll, rng, log), log


def _pit_stop(state: RaceState, index: int, rng: Rng,
              log: list[ev.Event]) -> RaceState:
    """Tyres (the categories the rules refill) back to the car's own starting WP, the crew's
    roll, then the team race's repairs."""
    rules = state.rules
    car = state.cars[index]
    start = state.starting_wear(index)
    wear = car.wear.with_(**{name: getattr(start, name) for name in rules.pits.refill})
    roll = roll_die(rng, rules.dice.black)
    quick = roll <= rules.pits.quick_max
    spaces = math.ceil(roll / rules.pits.quick_divisor) if quick else 0
    car = replace(car, wear=wear, pit_stops=car.pit_stops + 1, pit_exit=spaces,
                  pit_wait=not quick, gear=rules.pits.quick_gear if quick else car.gear)
    log.append(ev.PitStop(state.turn, index, car.space, roll, quick, spaces))
    state = state.with_car(car)
    return _team_repairs(state, index, log) if state.repairs else state


def _team_repairs(state: RaceState, index: int, log: list[ev.Event]) -> RaceState:
    """The team's repair WP spent on the stopping car, one at a time, while the pool lasts:
    each on the category with the fewest WP left among those below the car's starting WP (the
    first in the car sheet's order on a tie), so the one nearest to running out is mended
    first (docs/rules.md, the team race's repairs)."""
    team = index // 2
    pool = state.repairs[team]
    car = state.cars[index]
    start = state.starting_wear(index)
    wear = [getattr(car.wear, name) for name in WEAR_CATEGORIES]
    tops = [getattr(start, name) for name in WEAR_CATEGORIES]
    repaired = [0] * len(wear)
    while pool > 0:
        below = [k for k in range(len(wear)) if wear[k] < tops[k]]
        if not below:
            break
        worst = min(below, key=lambda k: wear[k])
        wear[worst] += 1
        repaired[worst] += 1
        pool -= 1
    if not any(repaired):
        return state
    log.append(ev.Repair(state.turn, index, Wear(*repaired), pool))
    repairs = (*state.repairs[:team], pool, *state.repairs[team + 1:])
    return state.but(repairs=repairs).with_car(replace(car, wear=Wear(*wear)))


def _debris_rolls(state: RaceState, index: int, passed: tuple[str, ...], rng: Rng,
                  log: list[ev.Event]) -> RaceState:
    """A roll for each debris marker in ``passed``, while the car is still in the race."""
    rules = state.rules.debris
    if rules is None:
        return state
    for space in passed:
        if not state.cars[index].on_board:
            break
        roll = roll_die(rng, state.rules.dice.black)
        lost = 1 if roll in rules.losing else 0
        log.append(ev.DebrisRoll(state.turn, index, space, roll, lost))
        if lost:
            state = lose_point(state, index, "suspension", Cause.SUSPENSION, log)
    return state


def _contacts(state: RaceState, index: int, rng: Rng,
              log: list[ev.Event]) -> RaceState:
    """Each neighbour rolls once; then the arriving car rolls once per neighbour.

    The neighbours are the cars the move ends "next to or right behind" (:attr:`Board.contacts`):
    a car that ends right in front of another risks nothing, as the booklets word it."""
    car = state.cars[index]
    board, rules = state.board, state.rules
    if not car.on_board or board.in_pit(car.space):
        return state
    taken = state.occupied(except_car=index)
    neighbours = [taken[s] for s in board.contacts.get(car.space, ()) if s in taken]
    black, losing = rules.dice.black, rules.collision.losing
    knocked_out: set[int] = set()
    for other in neighbours:
        roll = roll_die(rng, black)
        lost = 1 if roll in losing else 0
        log.append(ev.CollisionRoll(state.turn, other, index, roll, lost,
                                    state.cars[other].space))
        if lost:
            state = lose_point(state, other, "body", Cause.BODY, log)
            if not state.cars[other].on_board:
                knocked_out.add(other)
    for other in neighbours:
        if not state.cars[index].on_board:
            break
        if rules.collision.eliminating_costs_arriving and other in knocked_out:
            log.append(ev.CollisionRoll(state.turn, index, other, None, 1, car.space))
            state = lose_point(state, index, "body", Cause.BODY, log)
            continue
        roll = roll_die(rng, black)
        lost = 1 if roll in losing else 0
        log.append(ev.CollisionRoll(state.turn, index, other, roll, lost, car.space))
        if lost:
            state = lose_point(state, index, "body", Cause.BODY, log)
    return state


def _engine(state: RaceState, index: int, gear: int, gear_roll: int | None,
            rng: Rng, log: list[ev.Event]) -> RaceState:
    """After a top result in a high gear: the driver, then every car in a high gear, rolls."""
    damage = state.rules.engine_damage
    if damage is None or gear_roll is None:
        return state
    if not any(t.gear == gear and t.face == gear_roll for t in damage.triggers):
        return state
    board = state.board
    rollers = [index] + [
        c.index for c in state.cars
        if c.index != index and c.gear in damage.gears and c.status == CarStatus.RACING
    ]
    for who in rollers:
        car = state.cars[who]
        if not car.on_board or board.in_pit(car.space):
            continue
        roll = roll_die(rng, state.rules.dice.black)
        lost = 1 if roll in damage.losing else 0
        log.append(ev.EngineRoll(state.turn, who, roll, lost, car.space))
        if lost:
            state = lose_point(state, who, "engine", Cause.ENGINE, log)
    return state
