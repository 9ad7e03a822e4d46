"""Gears and dice: which gears a car may choose, what shifting costs, and what each die gives.

Dice are first-class chance outcomes, as in OpenSpiel: :func:`face_distribution` lists each
result of a gear die with its exact probability, so a bot can weigh its options exactly
(``legal_moves`` for each face) instead of sampling.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

from trackformat.rules import Ruleset
from trackformat.sim.core.dice import Rng
from trackformat.sim.core.state import NO_COST, CarState, CarStatus, RaceState, Wear


@dataclass(frozen=True, slots=True)
class GearOption:
    """A gear the car may take this turn and what the shift costs."""

    gear: int
    cost: Wear = NO_COST
    eliminates: bool = False
    """The shift costs the car its last engine WP, which eliminates it."""


def faces(rules: Ruleset, gear: int) -> tuple[int, ...]:
    """The faces of the die of ``gear``, as printed (repeated values repeated)."""
    return rules.faces(gear)


def face_distribution(rules: Ruleset, gear: int) -> tuple[tuple[int, Fraction], ...]:
    """Each distinct result of the die of ``gear`` with its exact probability, lowest first."""
    counts = Counter(rules.faces(gear))
    total = sum(counts.values())
    return tuple((value, Fraction(n, total)) for value, n in sorted(counts.items()))


def roll_die(rng: Rng, die: tuple[int, ...] | list[int]) -> int:
    """One roll of a die: a face drawn uniformly with the race's generator."""
    return die[rng.randrange(len(die))]


def gear_options(state: RaceState, car: int) -> tuple[GearOption, ...]:
    """The gears ``car`` may choose this turn, lowest first, with their cost.

    Up one gear at a time; down as far as the ruleset allows, paying for drops of two or more,
    one at a time once the gearbox WP are spent. A car that has not started or that stalled
    takes first; a spun car restarts in the ruleset's restart gear. In the pit lane shifting
    down is free, within the same limits (no 6th to 1st; one gear at a time with no gearbox WP
    left). After a slow stop the car leaves its box in any gear up to the ruleset's cap, free:
    it stood in its box for a turn, so it has no gear to drop from (as a quick stop puts it in
    4th).
    """
    current = state.cars[car]
    rules = state.rules
    if current.status == CarStatus.SPUN:
        return (GearOption(rules.spin_out.restart_gear),)
    if current.gear == 0:
        return (GearOption(1),)
    top = min(current.gear + rules.shifting.max_up, len(rules.dice.gears))
    if current.pit_wait:
        return tuple(GearOption(g) for g in range(1, rules.pits.slow_max_gear + 1))
    free = state.board.in_pit(current.space)
    options = []
    for gear in range(1, top + 1):
        drop = current.gear - gear
        if drop > rules.shifting.max_down:
            continue
        if current.wear.gearbox == 0 and drop > rules.shifting.max_down_without_gearbox:
            continue
        if free:  # the pit lane waives the cost of shifting down, not its limits
            options.append(GearOption(gear))
            continue
        cost = Wear.of(rules.shifting.downshift_cost(drop)) if drop >= 2 else NO_COST
        if not current.wear.covers(cost):
            continue
        eliminates = cost.engine > 0 and current.wear.engine == cost.engine
        options.append(GearOption(gear, cost, eliminates))
    return tuple(options)


def shift(car: CarState, option: GearOption) -> CarState:
    """The car in its new gear, its shifting cost paid (elimination is the caller's job)."""
    # Built field by field rather than by dataclasses.replace: twice as fast, every turn.
    return CarState(index=car.index, space=car.space, gear=option.gear,
                    wear=car.wear.minus(option.cost), lap=car.lap, box=car.box,
                    corner=car.corner, stops=car.stops, status=car.status, cause=car.cause,
                    started=car.started, pit_stops=car.pit_stops, pit_wait=car.pit_wait,
                    pit_exit=car.pit_exit, arrival=car.arrival, place=car.place)
