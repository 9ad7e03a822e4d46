"""The strong driver: chooses its gear by the exact odds of the die, and its move by their worth.

Every decision is valued in *turns still needed to take the flag*, read from the
:class:`~trackformat.sim.drivers.outlook.Outlook` of the board (a single-car dynamic programme
over the dice: position, gear, stops made, brakes and tyres WP left), plus what the outlook
cannot see from its lane: the cars and debris around the move's end.

- A move is worth minus the turns still needed from where it ends, in the gear the car is in,
  with the stops it will have made and the WP it will have left; an elimination costs
  ``dnf_turns``; a spin, first gear and no tyres; each contact and each debris marker, the odds of
  losing a body or suspension WP times what that WP is worth (all of it when it is the last).
- A gear is worth the expectation over the faces of its die (:func:`face_distribution`, with
  :func:`legal_moves_by_roll` for the moves of each face) of the best move of each face, minus
  the shift's price and the engine rolls a top gear risks.
- The box is worth the turns from the pit exit with new tyres (the car's own starting tyres:
  a built car's may differ), plus the time a stop costs.

The outlook's tables count brakes and tyres up to the ruleset's starting WP: a built car with
more (up to 14 tyres, 7 brakes) reads there as having that many, which errs on the careful
side, and one with fewer reads its own, within the tables.
- A slipstream is taken when the longer move is worth more.

It has no randomness: ties go to the first option, and a seed replays a race exactly.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from fractions import Fraction

from trackformat.rules import Ruleset
from trackformat.sim.core.board import Board
from trackformat.sim.core.state import CarState, RaceState
from trackformat.sim.drivers.outlook import GEARBOX_TURNS, SPIN_TURNS, Outlook
from trackformat.sim.move.gears import GearOption, face_distribution, shift
from trackformat.sim.move.legal import Move, legal_moves_by_roll

PIT_TURNS = 1.0
"""Turns a pit stop costs on top of the pit lane's length (a slow stop waits a turn; a quick one
moves on at once)."""
BODY_TURNS = 1.5
"""What a body WP is worth while it is not the last one, in turns."""
SUSPENSION_TURNS = 1.5
"""Same for a suspension WP."""
ENGINE_TURNS = 2.0
"""Same for an engine WP (lost to the engine rolls of a top result in fifth or sixth)."""


class StrongDriver:
    """See the module docstring. ``dnf_turns`` sets how much time the driver would give up to
    avoid an elimination; ``seed`` is accepted for the driver registry and not used."""

    def __init__(self, seed: int = 0, dnf_turns: float | None = None, margin: float = 2.0,
                 looks: int = 3) -> None:
        self.seed = seed
        self.dnf_turns = dnf_turns
        """What an elimination costs, in turns; None: three times a rough race length (laps
        times the mean lane length over 8 spaces a turn), at least 40."""
        self.dnf = dnf_turns if dnf_turns is not None else 60.0
        self.margin = margin
        """Gears rated this many turns worse than the best by the outlook are not weighed."""
        self.looks = looks
        """Most gears weighed move by move in one turn."""
        self._outlook: tuple[Board | None, Ruleset | None, int, Outlook | None] = (
            None, None, 0, None)
        self._planned: dict[int, tuple[tuple[Move, ...], Move]] = {}

    def start_race(self, seed: int, car: int) -> None:
        """Nothing to reseed: the strong driver has no randomness."""
        self._planned = {}

    # Decisions ----------------------------------------------------------------------------

    def choose_gear(self, state: RaceState, car: int,
                    options: Sequence[GearOption]) -> GearOption:
        self._planned = {}
        if len(options) == 1:
            return options[0]
        outlook = self.outlook(state)
        current = state.cars[car]
        best: tuple[float, GearOption] | None = None
        plans: dict[GearOption, dict[int, tuple[tuple[Move, ...], Move]]] = {}
        expected, looks = self._worth_a_look(state, car, options, outlook)
        # Highest gear first: its walk is the longest, and the lower gears reuse it. When the
        # gears looked at fall short of what the outlook expected for a car alone (cars in the
        # way), the others are weighed too.
        for batch in (looks, [o for o in options if o not in looks]):
            for option in sorted(batch, key=lambda o: -o.gear):
                if option.eliminates:
                    value = -self.dnf
                else:
                    shifted = state.with_car(shift(current, option))
                    value, plans[option] = self._gear_value(shifted, car, option, outlook)
                if best is None or value > best[0] or (
                        value == best[0] and option.gear < best[1].gear):
                    best = (value, option)
            assert best is not None
            if best[0] >= -expected - self.margin:
                break
        assert best is not None
        self._planned = plans.get(best[1], {})
        return best[1]

    def choose_move(self, state: RaceState, car: int, roll: int,
                    moves: Sequence[Move]) -> Move:
        planned = self._planned.get(roll)
        if planned is not None and planned[0] is moves:
            return planned[1]
        look = _Look(self, state, car, self.outlook(state))
        values = look.values(moves, state.cars[car].gear)
        return moves[max(range(len(moves)), key=values.__getitem__)]  # the first of the best

    def choose_slipstream(self, state: RaceState, car: int, move: Move,
                          options: Sequence[Move]) -> Move | None:
        look = _Look(self, state, car, self.outlook(state))
        gear = state.cars[car].gear
        best = max(options, key=lambda m: look.value(m, gear))
        return best if look.value(best, gear) > look.value(move, gear) else None

    def _worth_a_look(self, state: RaceState, car: int, options: Sequence[GearOption],
                      outlook: Outlook) -> tuple[float, list[GearOption]]:
        """The turns the outlook expects for a car alone, and the gears worth weighing move by
        move first: those it rates within :attr:`margin` turns of its best (at most
        :attr:`looks` of them). Weighing a gear means every move of every face; a gear the
        outlook rates turns worse (sixth at a hairpin) is not worth it unless the others
        disappoint. In the pit lane, every gear."""
        board = state.board
        current = state.cars[car]
        if current.space not in board.lane:
            return self.dnf, list(options)
        lane, position = board.lane[current.space], board.lane_index[current.space]
        stops = current.stops if current.corner else 0
        rated = []
        for option in options:
            cost = option.cost
            by_gear = outlook.gear_turns(lane, position, state.laps - current.lap, stops,
                                         current.wear.brakes - cost.brakes, current.wear.tyres)
            turns = by_gear[option.gear - 1] + cost.gearbox * GEARBOX_TURNS + cost.engine * (
                self.wp_turns(current.wear.engine, ENGINE_TURNS))
            rated.append((turns, option.gear, option))
        rated.sort(key=lambda item: (item[0], item[1]))
        best = rated[0][0]
        return best, [option for turns, _, option in rated[: self.looks]
                      if turns <= best + self.margin]

    # Values -------------------------------------------------------------------------------

    def _gear_value(self, state: RaceState, car: int, option: GearOption, outlook: Outlook
                    ) -> tuple[float, dict[int, tuple[tuple[Move, ...], Move]]]:
        """Expected worth of a gear over its die, and the best move of each face."""
        rules = state.rules
        distribution = face_distribution(rules, option.gear)
        by_roll = legal_moves_by_roll(state, car, [face for face, _ in distribution])
        look = _Look(self, state, car, outlook)
        total = 0.0
        plan: dict[int, tuple[tuple[Move, ...], Move]] = {}
        for face, chance in distribution:
            moves = by_roll[face]
            best_value, best_move = -self.dnf * 2, moves[0]
            for move, value in zip(moves, look.values(moves, option.gear), strict=True):
                if value > best_value:
                    best_value, best_move = value, move
            plan[face] = (moves, best_move)
            total += float(chance) * best_value
        current = state.cars[car]
        cost = option.cost
        total -= cost.gearbox * GEARBOX_TURNS + cost.engine * self.wp_turns(current.wear.engine,
                                                                          ENGINE_TURNS)
        total -= self._engine_risk(rules, current, option.gear)
        return total, plan

    def _engine_risk(self, rules: Ruleset, car: CarState, gear: int) -> float:
        """Expected cost of the engine roll a top result in a high gear sets off."""
        damage = rules.engine_damage
        if damage is None:
            return 0.0
        faces = rules.faces(gear)
        top = sum(1 for f in faces if any(t.gear == gear and t.face == f for t in damage.triggers))
        if not top:
            return 0.0
        lose = Fraction(len(damage.losing), len(rules.dice.black))
        return float(Fraction(top, len(faces)) * lose) * self.wp_turns(car.wear.engine,
                                                                       ENGINE_TURNS)

    def wp_turns(self, left: int, worth: float) -> float:
        """What losing one WP of a kind costs: all the race when it is the last one."""
        return self.dnf if left <= 1 else worth

    def move_value(self, state: RaceState, car: int, move: Move, gear: int,
                   outlook: Outlook) -> float:
        """Minus the turns still needed after ``move`` played in ``gear``, risks included."""
        return _Look(self, state, car, outlook).value(move, gear)

    def outlook(self, state: RaceState) -> Outlook:
        """The board's outlook for this race's rules and length, built once and kept on the
        board (shared by every strong driver of a batch)."""
        board, rules, laps, known = self._outlook
        if known is not None and board is state.board and rules is state.rules and (
                laps == state.laps):
            return known
        board = state.board
        if self.dnf_turns is None:
            lanes = board.lane_length.values()
            self.dnf = max(40.0, 3.0 * state.laps * sum(lanes) / max(len(lanes), 1) / 8.0)
        cache = board.network.cache
        key = ("outlook", state.rules.model_dump_json(), state.laps, self.dnf)
        outlook = cache.get(key)
        if not isinstance(outlook, Outlook):
            outlook = Outlook(board, state.rules, state.laps, self.dnf)
            cache[key] = outlook
        self._outlook = (board, state.rules, state.laps, outlook)
        return outlook


class _Look:
    """What one decision looks at, gathered once: the car, the cars around it, the outlook.

    :meth:`values` runs over a few hundred moves per gear choice, so what does not depend on
    the move is looked up here once (the board's tables, the car's wear, corner and laps left,
    the outlook's tables), what depends only on where a move ends is kept by destination, and
    the outlook is read in place. It computes exactly what the plain reading would: the same
    floats added in the same order (the outlook's own lookup, :meth:`Outlook.turns`, is a table
    read)."""

    def __init__(self, driver: StrongDriver, state: RaceState, car: int,
                 outlook: Outlook) -> None:
        board, rules = state.board, state.rules
        self.driver = driver
        self.state = state
        self.board = board
        self.outlook = outlook
        self.current = current = state.cars[car]
        self.taken = {c.space for c in state.cars if c.index != car and c.on_board}
        wear = current.wear
        contact = len(rules.collision.losing) / len(rules.dice.black)
        self.contact_risk = contact * driver.wp_turns(wear.body, BODY_TURNS)
        self.debris_risk = 0.0
        if rules.debris is not None:
            lose = len(rules.debris.losing) / len(rules.dice.black)
            self.debris_risk = lose * driver.wp_turns(wear.suspension, SUSPENSION_TURNS)
        self.restart_gear = rules.spin_out.restart_gear
        self.new_tyres = state.starting_wear(car).tyres  # the car's own (its build's)
        self.pit_gear = rules.pits.quick_gear
        self.counts_after_overshoot = rules.corners.stop_after_overshoot_counts
        self.places: dict[str, tuple[int, list[array[float]], str | None, float]] = {}
        """By destination on the track: (offset of its position in the outlook's tables, those
        tables by phase, its corner, the risk of contacts there)."""

    def value(self, move: Move, gear: int) -> float:
        """Minus the turns still needed after ``move`` played in ``gear``, risks included."""
        return self.values((move,), gear)[0]

    def values(self, moves: Sequence[Move], gear: int) -> list[float]:
        """:meth:`value` of each of ``moves``, in order."""
        board, current, driver = self.board, self.current, self.driver
        places = self.places
        crossing_ends, pit_spaces = board.crossing_ends, board.pit_spaces
        pit_exit_crosses = board.pit_exit_crosses
        start_in_pit = current.space in pit_spaces
        corner_of = board.corner_of
        laps_left = self.state.laps - current.lap
        brakes0, tyres0 = current.wear.brakes, current.wear.tyres
        car_corner, car_stops = current.corner, current.stops
        counts = self.counts_after_overshoot
        debris_risk, restart_gear = self.debris_risk, self.restart_gear
        _, stops_stride, gear_stride, brakes_stride = self.outlook.strides
        top_stops = self.outlook.stop_states - 1
        top_brakes, top_tyres = self.outlook.max_brakes, self.outlook.max_tyres
        found = []
        for move in moves:
            if move.eliminated is not None:
                found.append(-driver.dnf - 1.0)  # a sure elimination later still leaves a chance
                continue
            route = move.route
            brakes = brakes0 - move.brakes
            tyres = tyres0 - move.tyres
            destination = route[-1] if route else move.start
            if crossing_ends.isdisjoint(route) and not (pit_exit_crosses and (
                    start_in_pit or not pit_spaces.isdisjoint(route))):
                phase = laps_left  # no crossing: the common case (see Board.crossings)
            else:
                phase = laps_left - len(board.crossings(move.start, route))
            if phase < 0:
                found.append(0.0)  # the flag: nothing after it matters
                continue
            if destination in pit_spaces:
                found.append(self._in_pit(move, gear, phase, brakes, tyres))
                continue
            place = places.get(destination)
            if place is None:
                place = self._place(destination)
            offset, phases, corner, contacts = place
            # The stops made in the corner the move ends in (a stop ends a move in it).
            if corner is None:
                stops = 0
            elif car_corner == corner and _all_in(corner_of, route, corner):
                stops = car_stops + 1
            elif move.overshoots and not counts:
                stops = 0
            else:
                stops = 1
            # Outlook.turns, read in place (a spun car restarts in its gear with no tyres).
            table = phases[phase if phase < len(phases) else len(phases) - 1]
            turns = table[offset
                          + (stops if stops < top_stops else top_stops) * stops_stride
                          + ((restart_gear if move.spin else gear) - 1) * gear_stride
                          + (0 if brakes < 0 else brakes if brakes < top_brakes else top_brakes)
                          * brakes_stride
                          + (0 if move.spin or tyres < 0 else tyres if tyres < top_tyres
                             else top_tyres)]
            if move.spin:
                turns = turns + SPIN_TURNS
            found.append(-(turns + contacts + len(move.debris) * debris_risk))
        return found

    def _place(self, destination: str) -> tuple[int, list[array[float]], str | None, float]:
        """What a destination on the track brings to the value of a move ending there."""
        board = self.board
        taken = self.taken
        contacts = self.contact_risk * sum(
            1 for s in board.contacts.get(destination, ()) if s in taken)
        place = self.places[destination] = (
            board.lane_index[destination] * self.outlook.strides[0],
            self.outlook.flat[board.lane[destination]], board.corner_of.get(destination),
            contacts)
        return place

    def _in_pit(self, move: Move, gear: int, phase: int, brakes: int, tyres: int) -> float:
        """The value of a move that ends in the pit lane: the turns from the pit exit."""
        board = self.board
        exit_space = board.pit_exit_target
        if exit_space is None or exit_space not in board.lane:
            return -self.driver.dnf
        if move.box:
            tyres = max(tyres, self.new_tyres)
        if board.pit_exit_crosses:
            phase -= 1
        return -(self.outlook.turns(board.lane[exit_space], board.lane_index[exit_space],
                                    phase, min(gear, self.pit_gear), 0, brakes, tyres)
                 + PIT_TURNS)


def _all_in(corner_of: dict[str, str], route: tuple[str, ...], corner: str) -> bool:
    """Whether every space of ``route`` lies in ``corner`` (true of no space at all)."""
    return not route or {*map(corner_of.get, route)} == {corner}
