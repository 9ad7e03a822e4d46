"""How many turns a car still needs to take the flag: the strong driver's sense of the track.

For each lane, a table of the expected number of game turns to the finish from every position,
gear, stops made in the corner, brakes WP and tyres WP left, for a car alone that keeps its lane
and plays each turn as well as it can: it picks the gear whose die gives the best expectation,
then, the die rolled, brakes the spaces that serve it best. Corners are the booklet's: a stop is
the end of a move inside the corner; leaving it one stop short costs a tyres WP per space beyond
it (the last one spins the car, more eliminates it), two stops short eliminates. The table is an
exact dynamic programme over the dice distribution (backwards from the flag, since every move
goes forward), so it knows without any hand-set weight that sixth gear at a two-stop corner is a
disaster, and what a brakes WP is worth at this point of the race.

What it leaves out: other cars (blocking, slipstream, contacts), lane changes (a lane's corners
are as long as that lane makes them), the pit lane, and the wear categories that corners do not
spend; the strong driver weighs those itself, move by move. A downshift's gearbox and engine WP
are priced at fixed costs in turns (:data:`GEARBOX_TURNS`, :data:`ENGINE_TURNS`).

Built once per board, ruleset and race length (about a second for Monaco), and kept on the
board.
"""

from __future__ import annotations

from array import array

import numpy as np

from trackformat.rules import Ruleset
from trackformat.sim.core.board import Board
from trackformat.sim.move.gears import face_distribution

GEARBOX_TURNS = 0.4
"""What a gearbox WP spent on a downshift costs, in turns."""
ENGINE_TURNS = 2.0
"""What an engine WP spent on a downshift costs, in turns."""
SPIN_TURNS = 1.5
"""Turns lost to a spin on top of restarting in first gear."""

INFINITY = 1.0e9


class Outlook:
    """Expected turns to the flag, per lane; see the module docstring.

    ``dnf_turns`` is what an elimination costs, in turns, whenever it comes: the exchange rate
    between speed and risk. It must exceed the turns a whole race takes (some 45 for two laps
    of Monaco), or a sure elimination would look better than a long way home; the strong
    driver takes about three times that.
    """

    def __init__(self, board: Board, rules: Ruleset, laps: int, dnf_turns: float = 60.0) -> None:
        self.board = board
        self.rules = rules
        self.laps = laps
        self.dnf = dnf_turns
        wear = rules.starting_wear(laps)
        self.max_brakes = wear.brakes
        self.max_tyres = wear.tyres
        self.gears = len(rules.dice.gears)
        self.reach = max(max(g) for g in rules.dice.gears)
        net = board.network
        self.stops_of = net.corner_stops
        top = max(net.corner_stops, default=0)
        self.stop_states = top + 1
        self.chances = np.zeros((self.gears, self.reach))
        for gear in range(1, self.gears + 1):
            for face, chance in face_distribution(rules, gear):
                self.chances[gear - 1, face - 1] = float(chance)
        self.flat: list[list[array[float]]] = []
        """flat[lane][phase]: the turns by position, stops, gear - 1, brakes and tyres, as one
        flat array (lookups without numpy's per-call cost); phase 0 is the last lap, phase p
        has p more crossings of the line to make before the last one."""
        self.flat_gears: list[list[array[float]]] = []
        """The same for the turn about to be played, by the gear *taken* instead of the gear
        the car is in (a shift's price not included): the ranking of the gears for a car
        alone, which the driver uses to leave hopeless gears unexamined."""
        for lane, spaces in enumerate(net.lane_spaces):
            corners = [net.corner[spaces[p]] if p in spaces else -1
                       for p in range(net.lane_length[lane])]
            turns, gears = self._lane(corners)
            self.flat.append([array("d", table.ravel().tolist()) for table in turns])
            self.flat_gears.append([array("d", table.ravel().tolist()) for table in gears])
        self.strides = (self.stop_states * self.gears * (self.max_brakes + 1)
                        * (self.max_tyres + 1), self.gears * (self.max_brakes + 1)
                        * (self.max_tyres + 1), (self.max_brakes + 1) * (self.max_tyres + 1),
                        self.max_tyres + 1)

    def turns(self, lane: int, position: int, phase: int, gear: int, stops: int, brakes: int,
              tyres: int) -> float:
        """Expected turns to the flag from a track position (``phase``: crossings of the line
        still to make before the last one; negative when the car has finished)."""
        if phase < 0:
            return 0.0
        phases = self.flat[lane]
        table = phases[phase if phase < len(phases) else len(phases) - 1]
        position_stride, stops_stride, gear_stride, brakes_stride = self.strides
        top_stops, top_brakes, top_tyres = self.stop_states - 1, self.max_brakes, self.max_tyres
        return table[position * position_stride
                     + (stops if stops < top_stops else top_stops) * stops_stride
                     + (gear - 1) * gear_stride
                     + (0 if brakes < 0 else brakes if brakes < top_brakes else top_brakes)
                     * brakes_stride
                     + (0 if tyres < 0 else tyres if tyres < top_tyres else top_tyres)]

    def gear_turns(self, lane: int, position: int, phase: int, stops: int, brakes: int,
                   tyres: int) -> list[float]:
        """Expected turns to the flag by the gear taken for this turn (first gear first), for a
        car alone at a track position; see :attr:`flat_gears`."""
        phases = self.flat_gears[lane]
        table = phases[max(0, min(phase, len(phases) - 1))]
        position_stride, stops_stride, gear_stride, brakes_stride = self.strides
        base = (position * position_stride + min(stops, self.stop_states - 1) * stops_stride
                + max(0, min(brakes, self.max_brakes)) * brakes_stride
                + max(0, min(tyres, self.max_tyres)))
        return [table[base + g * gear_stride] for g in range(self.gears)]

    # The programme ------------------------------------------------------------------------

    def _lane(self, corners: list[int]) -> tuple[list[np.ndarray], list[np.ndarray]]:
        length = len(corners)
        shape = (self.stop_states, self.gears, self.max_brakes + 1, self.max_tyres + 1)
        phases: list[np.ndarray] = []
        by_gear: list[np.ndarray] = []
        following = np.zeros((length + self.reach + 1, *shape))  # beyond the flag: done
        for phase in range(self.laps + 1):
            table = np.full((length + self.reach + 1, *shape), INFINITY)
            taken = np.full((length, *shape), INFINITY)
            table[length:] = following[: self.reach + 1]
            for position in range(length - 1, -1, -1):
                corner = corners[position]
                for stops in range(self.stops_of[corner] + 1 if corner >= 0 else 1):
                    table[position, stops], taken[position, stops] = self._turn(
                        table, corners, position, stops, last=phase == 0)
            # More stops than a corner needs are as good as its stops (a car blocked in it
            # stays there); a straight has none to count.
            for position in range(length):
                corner = corners[position]
                done = self.stops_of[corner] if corner >= 0 else 0
                table[position, done + 1:] = table[position, done]
                taken[position, done + 1:] = taken[position, done]
            phases.append(table[:length])
            by_gear.append(taken)
            following = np.concatenate([table[:length], table[:length]])
        return phases, by_gear

    def _turn(self, table: np.ndarray, corners: list[int], position: int, stops: int,
              last: bool) -> tuple[np.ndarray, np.ndarray]:
        """Expected turns from (position, stops) for every gear, brakes and tyres: the best
        gear, then for each face the best braking; and the same by the gear taken."""
        rules = self.rules
        reach, gears = self.reach, self.gears
        brakes_n, tyres_n = self.max_brakes + 1, self.max_tyres + 1
        ends = np.arange(position + 1, position + reach + 1)
        after, beyond, out, done = self._paths(corners, position, stops, last)
        future = table[ends, after]  # (reach, gears, brakes, tyres)
        tyres = np.arange(tyres_n)
        left = tyres[None, :] - beyond[:, None] * rules.corners.tyres_per_space  # (reach, tyres)
        spin = (left == 0) & (beyond[:, None] > 0) & ~done[:, None]
        crash = (left < 0) | out[:, None]
        index = np.broadcast_to(np.clip(left, 0, None)[:, None, None, :], future.shape)
        value = np.take_along_axis(future, index, axis=3)
        spun = table[ends, after, 0, :, 0] + SPIN_TURNS  # restart in first, no tyres
        value = np.where(spin[:, None, None, :], spun[:, None, :, None], value)
        value = np.where(crash[:, None, None, :], self.dnf - 1.0, value) + 1.0
        # Braking b spaces of face f ends f - b spaces on and spends b WP per space braked.
        value = value.transpose(1, 0, 2, 3)  # (gears, distance, brakes, tyres)
        best = value.copy()
        per_space = rules.movement.brakes_per_space
        for braked in range(1, reach):
            spent = braked * per_space
            if spent >= brakes_n:
                break
            shifted = np.full_like(value, INFINITY)
            shifted[:, braked:, spent:, :] = value[:, : reach - braked, : brakes_n - spent, :]
            np.minimum(best, shifted, out=best)
        expected = np.einsum("gf,gfbt->gbt", self.chances, best)  # by the gear taken
        result = np.full((gears, brakes_n, tyres_n), INFINITY)
        for gear in range(1, gears + 1):
            top = min(gears, gear + rules.shifting.max_up)
            for taken in range(max(1, gear - rules.shifting.max_down), top + 1):
                cost = rules.shifting.downshift_cost(gear - taken) if taken <= gear - 2 else None
                option = expected[taken - 1]
                if cost is not None:
                    option = np.full_like(option, INFINITY)
                    if cost.brakes < brakes_n:
                        option[cost.brakes:] = expected[taken - 1, : brakes_n - cost.brakes]
                    option = option + cost.gearbox * GEARBOX_TURNS + cost.engine * ENGINE_TURNS
                np.minimum(result[gear - 1], option, out=result[gear - 1])
        # An elimination costs dnf turns, whenever it comes: a sure one later is no worse than
        # one now (otherwise the car would rather crash at once than a turn later).
        return np.minimum(result, self.dnf), np.minimum(expected, self.dnf)

    def _paths(self, corners: list[int], position: int, stops: int,
               last: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """For each distance 1..reach from (position, stops) along the lane: the stops made in
        the corner it ends in, the spaces beyond corners left short of their stops, whether
        that eliminates the car (stops missing), whether it has finished (last lap)."""
        length = len(corners)
        reach = self.reach
        after = np.zeros(reach, dtype=np.intp)
        beyond = np.zeros(reach, dtype=np.int64)
        out = np.zeros(reach, dtype=bool)
        done = np.zeros(reach, dtype=bool)
        needed_out = self.rules.corners.eliminated_missing
        counts = self.rules.corners.stop_after_overshoot_counts
        start = corners[position]
        inside, made, stayed = start, stops, True
        exits: list[int] = []  # distance of the first space beyond each corner left short
        missing_most = 0
        for distance in range(1, reach + 1):
            corner = corners[(position + distance) % length]
            if corner != inside:
                if inside >= 0:
                    missing = self.stops_of[inside] - made
                    if missing > 0:
                        exits.append(distance)
                        missing_most = max(missing_most, missing)
                inside, made, stayed = corner, 0, False
            beyond[distance - 1] = sum(distance - first + 1 for first in exits)
            out[distance - 1] = missing_most >= needed_out
            done[distance - 1] = last and position + distance >= length
            if corner >= 0:
                stop = stops + 1 if stayed else 0 if exits and not counts else 1
                after[distance - 1] = min(stop, self.stop_states - 1, self.stops_of[corner])
        return after, beyond, out, done
