"""Before and between moves: drawing the grid, the opening race state, and the order of play."""

from __future__ import annotations

from collections.abc import Sequence

from trackformat.rules import PoleRoll, Ruleset, TieBreak, WearPoints, check_build
from trackformat.sim.core import events as ev
from trackformat.sim.core.board import Board
from trackformat.sim.core.dice import Rng
from trackformat.sim.core.state import CarState, RaceState, Wear
from trackformat.sim.move.gears import roll_die


class RaceSetupError(ValueError):
    """A race that cannot start on this track (no grid, too few slots, no finish line)."""


def draw_grid(rules: Ruleset, cars: int, rng: Rng,
              log: list[ev.Event]) -> list[int]:
    """Car indices in grid order, pole first, from one black-die roll each.

    Tied cars roll again among themselves (when the ruleset says so) until every place is
    settled; the rerolls only order the tied cars between themselves.
    """
    descending = rules.grid.pole == PoleRoll.HIGHEST

    def settle(group: list[int], round_: int) -> list[int]:
        rolls = {}
        for car in group:
            rolls[car] = roll_die(rng, rules.dice.black)
            log.append(ev.GridRoll(0, car, rolls[car], round_))
        values = sorted(set(rolls.values()), reverse=descending)
        order: list[int] = []
        for value in values:
            tied = [car for car in group if rolls[car] == value]
            if len(tied) > 1 and rules.grid.reroll_ties and round_ < 50:
                order += settle(tied, round_ + 1)
            else:
                order += tied
        return order

    return settle(list(range(cars)), 1)


def starting_lap(board: Board, space: str) -> int:
    """0 for a grid slot behind the finish line (its first crossing starts lap 1), else 1."""
    return 0 if board.progress.get(space, 0) * 2 > board.lap_length else 1


def new_race(board: Board, rules: Ruleset, cars: int, laps: int, rng: Rng,
             log: list[ev.Event], builds: Sequence[WearPoints | None] = ()) -> RaceState:
    """The race on the grid: slots drawn by the black die, every car with its starting WP.

    ``builds`` gives each car its own spread of WP (building your car), None for a car that
    starts with the ruleset's; empty: no builds. With the team race's repairs, each team of two
    gets its pool of repair WP."""
    track = board.graphs.track
    slots = [s for s in track.grid if s in board.lane]
    if cars < 1:
        raise RaceSetupError("a race needs at least one car")
    if not board.graphs.finish:
        raise RaceSetupError("the track has no finish line, so no race can end")
    if board.laneless:
        named = ", ".join(board.laneless[:5]) + (", ..." if len(board.laneless) > 5 else "")
        many = len(board.laneless) > 1
        raise RaceSetupError(
            f"track space{'s' if many else ''} {named} {'are' if many else 'is'} in no lane, and "
            f"cars can move onto {'them' if many else 'it'}: lane changes, slipstreams and "
            "contacts are all read by lane, so every track space needs one (see REF003)")
    if len(slots) < cars:
        raise RaceSetupError(
            f"the track has {len(slots)} grid slots on the circuit; {cars} cars cannot start"
        )
    starting = starting_wear(rules, cars, laps, builds)
    repairs: tuple[int, ...] = ()
    if rules.team_repairs is not None:
        if cars % 2:
            raise RaceSetupError(
                f"the team race's repairs are shared by teams of two cars: {cars} cars do not "
                "make teams of two (race an even number)")
        repairs = (rules.team_repairs.points,) * (cars // 2)
    order = draw_grid(rules, cars, rng, log)
    stands = places_to_stop(board, order)
    placed: list[CarState | None] = [None] * cars
    for position, index in enumerate(order):
        slot = slots[position]
        log.append(ev.GridSlot(0, index, position + 1, slot))
        box = stands.get(index)
        placed[index] = CarState(index=index, space=slot, gear=0, wear=starting[index],
                                 lap=starting_lap(board, slot), box=box)
    return RaceState(board=board, rules=rules, laps=laps,
                     cars=tuple(c for c in placed if c is not None), starting=starting,
                     repairs=repairs)


def starting_wear(rules: Ruleset, cars: int, laps: int,
                  builds: Sequence[WearPoints | None]) -> tuple[Wear, ...]:
    """Each car's starting WP: its build's, or the ruleset's. Raises :class:`RaceSetupError`
    for builds the rules do not allow (a race set up by a program, not a checked line-up)."""
    standard = Wear.of(rules.starting_wear(laps))
    if not builds:
        return (standard,) * cars
    if len(builds) != cars:
        raise RaceSetupError(f"{len(builds)} builds for {cars} cars: give one per car")
    limits = rules.car_build
    starting = []
    for car, build in enumerate(builds):
        if build is None:
            starting.append(standard)
            continue
        if limits is None:
            raise RaceSetupError(f"car {car + 1} has a build, but the {rules.name} rules have "
                                 "no building your car (car_build)")
        problems = check_build(limits, build)
        if problems:
            raise RaceSetupError(f"car {car + 1}'s build " + "; ".join(problems))
        starting.append(Wear.of(build))
    return tuple(starting)


def places_to_stop(board: Board, grid_order: list[int]) -> dict[int, str]:
    """The place where each car stops in the pits: a team box beside the pit lane, or a garage
    in line in it (as GP Online's boards draw them), by car index.

    Boxes go by team, as the printed boards give one per team: cars 0 and 1 take the first box,
    cars 2 and 3 the second, wrapping round when there are fewer boxes than teams. A board with
    no box but garages gives one garage per car when it has a garage for every car (GP Online's
    boards have one per player), the pole sitter the first in driving order and so on down the
    grid; with fewer garages than cars, one per team, the teams in the grid order of their best
    placed car, wrapping round. A board with neither gives no car a place to stop: nobody
    turns into its pit lane.
    """
    pit = board.graphs.track.pit_lane
    if pit is None:
        return {}
    boxes = [b for b in pit.boxes if b in board.kind]
    if boxes:
        return {car: boxes[(car // 2) % len(boxes)] for car in grid_order}
    garages = [g for g in pit.garages if board.in_pit(g)]
    if not garages:
        return {}
    if len(garages) >= len(grid_order):
        return {car: garages[position] for position, car in enumerate(grid_order)}
    teams = list(dict.fromkeys(car // 2 for car in grid_order))
    rank = {team: n for n, team in enumerate(teams)}
    return {car: garages[rank[car // 2] % len(garages)] for car in grid_order}


def _key(state: RaceState, car: CarState) -> tuple[int, ...]:
    board = state.board
    if board.in_pit(car.space):
        position = board.pit_position.get(car.space, 0.0)
        return (car.lap, board.pit_entry_rank, 0, int(position * 2), 0, 0, -car.index)
    inside = -board.inside.get(car.space, 0)
    arrival = -car.arrival
    tie = (inside, arrival) if state.rules.tie_break == TieBreak.INSIDE else (arrival, inside)
    return (car.lap, board.progress.get(car.space, 0), 1, car.gear, *tie, -car.index)


def turn_order(state: RaceState) -> tuple[int, ...]:
    """The cars still on the board in the order they play this game turn.

    Furthest ahead first (laps, then progress along the lap); level cars: the higher gear, then
    the inside line of the current or next corner (or the first arrived, in the basic rules).
    Cars in the pit lane play as if at the pit entry, after the track cars past it.
    """
    racing = [c for c in state.cars if c.on_board]
    return tuple(c.index for c in sorted(racing, key=lambda c: _key(state, c), reverse=True))
