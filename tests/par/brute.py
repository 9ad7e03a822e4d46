"""Par by brute force: an independent solution of the solo race, for the tests to hold the
solver to.

Written apart from ``trackformat.par`` and sharing none of its code: it plays the readable
engine's own race (``gear_options``, ``pay_shift``, ``legal_moves``, ``play_move``,
``super_start_moves``) turn by turn as ``Race._play_car`` does, over the whole
:class:`~trackformat.sim.core.state.RaceState` (every wear category, the debris, the laps),
and finds every outcome of the dice by running each step with every sequence of die draws the
step asks for (a draw it has not been given stops the step, which is then run once per face).
Each die's faces count one by one, as printed. No reduction, no table, no order of places:
a memoised expectimax, as slow as it is plain, for small tracks only.

The definition is par's: the least expected number of game turns from pole to the flag over
the policies that are never eliminated (a policy with any chance of elimination is worth
infinitely many turns).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from dataclasses import replace
from typing import TypeVar

from trackformat.model.track import Track
from trackformat.rules import Ruleset
from trackformat.sim import (
    Board,
    CarStatus,
    RaceState,
    gear_options,
    legal_moves,
    pay_shift,
    play_move,
    super_start_moves,
)
from trackformat.sim.core.dice import Dice
from trackformat.sim.race.grid import new_race

T = TypeVar("T")
INFINITE = math.inf


class _Unscripted(Exception):
    """A step asked for one more die draw than it was given."""

    def __init__(self, faces: int) -> None:
        super().__init__(faces)
        self.faces = faces


class _Script:
    """A generator that draws what it is told, then stops the step."""

    def __init__(self, draws: tuple[int, ...]) -> None:
        self.draws = draws
        self.used = 0

    def randrange(self, n: int) -> int:
        if self.used == len(self.draws):
            raise _Unscripted(n)
        self.used += 1
        return self.draws[self.used - 1]


def every_outcome(step: Callable[[_Script], T]) -> list[tuple[float, T]]:
    """Each result of ``step`` with its chance, over every sequence of draws it asks for."""
    found: list[tuple[float, T]] = []
    pending: list[tuple[tuple[int, ...], float]] = [((), 1.0)]
    while pending:
        draws, chance = pending.pop()
        try:
            found.append((chance, step(_Script(draws))))
        except _Unscripted as more:
            pending += [((*draws, face), chance / more.faces) for face in range(more.faces)]
    return found


class BruteForce:
    """The solo race of ``laps`` laps on ``track`` under ``rules``, solved by brute force."""

    def __init__(self, track: Track, rules: Ruleset, laps: int) -> None:
        self.board = Board.of(track)
        self.rules = rules
        self.pole = new_race(self.board, rules, 1, laps, Dice(0), [])
        self.memo: dict[object, float] = {}

    def par(self) -> float:
        """Expected turns from pole: the start roll, then the race. The recursion goes a turn
        deeper for each turn of the race, past Python's usual limit; the limit is raised for
        the solve alone and put back, since the process goes on to other tests (the track
        loader, for one, says a file is nested too deeply at the usual limit)."""
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 20_000))
        try:
            return self._par()
        finally:
            sys.setrecursionlimit(limit)

    def _par(self) -> float:
        state = self.pole.with_car(replace(self.pole.cars[0], started=True))
        total = 0.0
        black = self.rules.dice.black
        for face in black:
            if face in self.rules.start.stall:
                value = 1.0 + self.turn(state)  # the first turn is lost, first gear next
            elif face in self.rules.start.super_start:
                spaces = self.rules.start.super_start_spaces
                value = 1.0 + min((self.after(state, move, None, 1)
                                   for move in super_start_moves(state, 0, spaces)),
                                  default=INFINITE)
            else:
                value = self.turn(state)  # the first turn goes on in first gear
            total += value / len(black)
        return total

    def key(self, state: RaceState) -> object:
        car = state.cars[0]
        return (car.space, car.gear, car.wear, car.lap, car.corner, car.stops, car.status,
                car.pit_stops, car.pit_wait, car.pit_exit, state.debris)

    def turn(self, state: RaceState) -> float:
        """Expected turns from the start of the car's turn, this one included."""
        key = self.key(state)
        known = self.memo.get(key)
        if known is None:
            known = self.memo[key] = 1.0 + self.choose_gear(state)
        return known

    def choose_gear(self, state: RaceState) -> float:
        best = INFINITE
        for option in gear_options(state, 0):
            shifted = pay_shift(state, 0, option, [])
            if shifted.cars[0].status == CarStatus.ELIMINATED:
                continue
            faces = self.rules.faces(option.gear)
            total = 0.0
            for roll in faces:
                moves = legal_moves(shifted, 0, roll)
                total += min(self.after(shifted, move, roll, None) for move in moves) / len(faces)
            best = min(best, total)
        return best

    def after(self, state: RaceState, move: object, roll: int | None,
              gear_after: int | None) -> float:
        """Expected turns left once ``move`` is played (a quick stop's exit still to come)."""
        total = 0.0
        for chance, (after, _) in every_outcome(
                lambda rng: play_move(state, 0, move, rng, gear_roll=roll)):  # type: ignore[arg-type]
            car = after.cars[0]
            if car.status == CarStatus.FINISHED:
                value = 0.0
            elif car.status == CarStatus.ELIMINATED:
                value = INFINITE
            else:
                if gear_after is not None:
                    after = after.with_car(replace(car, gear=gear_after))
                if car.pit_exit:
                    value = min(self.after(after, exit_move, None, None)
                                for exit_move in legal_moves(after, 0, car.pit_exit))
                else:
                    value = self.turn(after)
            if value == INFINITE:
                return INFINITE
            total += chance * value
        return total
