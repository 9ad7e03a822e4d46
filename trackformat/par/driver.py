"""The par driver: par's policy for a car alone, par's values of where its moves lead among
other cars, and the strong driver's choice where those values say nothing.

Par (:mod:`trackformat.par.solve`) gives the expected turns left for a car alone in any state
it reaches. The driver reads them, decision by decision (docs/par.md, "The par driver"):

- **Par is solved once** per track, ruleset, laps and box (a car may stop only at its team's
  box, and the values in and before the pit lane depend on which), from every slot of the
  grid, and shared by every par driver of the process (:func:`solution_for`).
- **A gear, alone** (no other car and no debris marker within reach of the moves the car may
  make this turn, nor beside where they end): the gear par's policy takes
  (:meth:`~trackformat.par.solve.Solution.gear_of`).
- **A gear, among other cars**: each option is worth the expectation, over the faces of its
  die, of the best move of each face, the moves being those the other cars leave; the least
  is taken, the first of the engine's order on a tie (par's own rule, so that a gear alone
  weighed this way is par's).
- **A move** is worth the expected value of where it leads (:class:`MoveWorth`); the least is
  played, the first of the engine's order on a tie.
- **A slipstream** is taken when one of the longer moves is worth less than the move.
- **The strong driver decides** where par says nothing: a decision one of whose moves leads to
  a state par has not solved (more WP than the ruleset's car, a place no car alone reaches
  from the grid), or all of whose options risk elimination (every value infinite).

The compiled kernel races it too, race for race (:mod:`trackformat.sim.kernel.par`).
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TypeVar

from trackformat.model.track import Track
from trackformat.par.problem import ParError, SoloRace
from trackformat.par.solve import Solution, solve_race
from trackformat.par.store import cache_key
from trackformat.rules import Ruleset
from trackformat.sim.core.board import Board
from trackformat.sim.core.events import CollisionRoll, DebrisRoll, EngineRoll
from trackformat.sim.core.state import CarState, CarStatus, RaceState
from trackformat.sim.drivers.strong import BODY_TURNS, SUSPENSION_TURNS, StrongDriver
from trackformat.sim.kernel.limits import kernel_limit
from trackformat.sim.kernel.moves import board_arrays
from trackformat.sim.move.gears import GearOption, face_distribution, shift
from trackformat.sim.move.legal import Move, legal_moves_by_roll
from trackformat.sim.move.resolve import play_move

T = TypeVar("T")

SOLUTIONS_KEPT = 12
"""Solutions kept by :func:`solution_for`: one per box of a board with a garage for each of
ten cars (GP Online's), and a few more; two laps of Monaco take about 80 MB."""

_solutions: OrderedDict[tuple[str, str | None], Solution] = OrderedDict()


def solution_for(track: Track, rules: Ruleset, laps: int, box: str | None) -> Solution:
    """Par's values of ``track`` under ``rules`` for ``laps`` laps, for a car that stops at
    ``box``, solved from every grid slot; kept for the next ask of the same (by content, as
    :func:`~trackformat.par.store.cache_key` names them). Raises
    :class:`~trackformat.par.problem.ParError` for a race par cannot solve."""
    key = (cache_key(track, rules, laps), box)
    known = _solutions.get(key)
    if known is not None:
        _solutions.move_to_end(key)
        return known
    solo = SoloRace(track, rules, laps, box)
    solved = solve_race(solo, solo.grid_places())
    # The move tables are the solve's alone: a driver reads the values and the gear choices.
    known = Solution(solved.solo, solved.layout, replace(solved.packed, moves=()),
                     solved.values, solved.choices, solved.figures)
    _solutions[key] = known
    while len(_solutions) > SOLUTIONS_KEPT:
        _solutions.popitem(last=False)
    return known


def par_driver_problem(track: Track, rules: Ruleset, laps: int) -> str:
    """Why par drivers cannot race ``laps`` laps of ``track`` under ``rules`` (par cannot be
    solved there: the message of the :class:`~trackformat.par.problem.ParError` a solve would
    raise), found without solving; empty when they can."""
    try:
        solo = SoloRace(track, rules, laps)
    except ParError as err:
        return str(err)
    beyond = kernel_limit(board_arrays(solo.board), rules)
    return f"par asks the compiled engine for every move, and {beyond}" if beyond else ""


class _Faces:
    """The black die showing one face every time it is rolled: the engine plays a move with
    it to show where the move leads, and what it rolls for."""

    def __init__(self, index: int) -> None:
        self.index = index

    def randrange(self, n: int) -> int:
        return self.index


class MoveWorth:
    """What the moves of one decision are worth: the expected turns left after each.

    The engine plays the move (``play_move``) on a copy of the race with the black die showing
    a face that costs nothing; where the car ends is read in par's values, and what the move
    rolled for is weighed by its chances: an engine roll loses an engine WP at the black die's
    chance (its last: the car is out), a pit stop is slow or quick at theirs (both are
    played). Par knows nothing of body and suspension WP: each contact and debris roll the car
    makes adds what the strong driver prices it at (the chance of losing a WP times its worth
    in turns, all the race for the last). None where the move leads to a state par has not
    solved."""

    def __init__(self, solution: Solution, strong: StrongDriver, state: RaceState, car: int,
                 die: int | None, after_gear: int | None, faces: tuple[int, int, int]) -> None:
        self.solution = solution
        self.state = state
        self.car = car
        self.die = die
        """The gear die's roll (engine rolls), None for a super start or a quick stop's exit."""
        self.after_gear = after_gear
        """The gear a super start leaves the car in."""
        self.quiet, self.slow, self.quick = faces
        self.engine_loss, self.slow_chance, self.quick_chance = (
            float(c) for c in solution.packed.chances)
        rules, wear = state.rules, state.cars[car].wear
        black = len(rules.dice.black)
        self.contact = len(rules.collision.losing) / black * strong.wp_turns(wear.body,
                                                                             BODY_TURNS)
        self.debris = 0.0
        if rules.debris is not None:
            self.debris = len(rules.debris.losing) / black * strong.wp_turns(
                wear.suspension, SUSPENSION_TURNS)

    def worth(self, move: Move) -> float | None:
        """The expected turns left once ``move`` is played (see the class docstring)."""
        if move.eliminated is not None:
            return math.inf
        if not move.box:
            return self._played(move, self.quiet)
        value = 0.0
        for chance, face in ((self.slow_chance, self.slow), (self.quick_chance, self.quick)):
            if chance > 0:
                played = self._played(move, face)
                if played is None:
                    return None
                value += chance * played
        return value

    def _played(self, move: Move, face: int) -> float | None:
        after, events = play_move(self.state, self.car, move, _Faces(face), gear_roll=self.die)
        moved = after.cars[self.car]
        if self.after_gear is not None and moved.status in (CarStatus.RACING, CarStatus.SPUN):
            moved = replace(moved, gear=self.after_gear)
        value = self.solution.value_of(moved)
        if value is None:
            return None
        rolls = [e for e in events if e.car == self.car]
        if self.engine_loss > 0 and any(isinstance(e, EngineRoll) for e in rolls):
            value = (1.0 - self.engine_loss) * value + self.engine_loss * self._lose_engine(moved)
        contacts = sum(1 for e in rolls if isinstance(e, CollisionRoll) and e.roll is not None)
        debris = sum(1 for e in rolls if isinstance(e, DebrisRoll))
        if contacts:
            value += contacts * self.contact
        if debris:
            value += debris * self.debris
        return value

    def _lose_engine(self, car: CarState) -> float:
        """The value of ``car`` one engine WP down (the last one: out, even at the flag)."""
        if car.wear.engine <= 1:
            return math.inf
        if car.status == CarStatus.FINISHED:
            return 0.0
        lower = self.solution.value_of(replace(car, wear=car.wear.with_(
            engine=car.wear.engine - 1)))
        return math.inf if lower is None else lower


def quiet_faces(rules: Ruleset) -> tuple[int, int, int] | None:
    """Positions on the black die of a face that costs nothing (no contact, debris or engine
    loss), of one that also makes a slow pit stop and of one that makes a quick one (any,
    when the rules have no such stop); None when the die has no such faces."""
    losing = set(rules.collision.losing)
    losing |= set(rules.debris.losing) if rules.debris is not None else set()
    losing |= set(rules.engine_damage.losing) if rules.engine_damage is not None else set()
    black = rules.dice.black
    quiet = [n for n, face in enumerate(black) if face not in losing]
    slow = [n for n in quiet if black[n] > rules.pits.quick_max]
    quick = [n for n in quiet if black[n] <= rules.pits.quick_max]
    needs_slow = any(face > rules.pits.quick_max for face in black)
    needs_quick = any(face <= rules.pits.quick_max for face in black)
    if not quiet or (needs_slow and not slow) or (needs_quick and not quick):
        return None
    return quiet[0], (slow or quiet)[0], (quick or quiet)[0]


def within_reach(board: Board, space: str, spaces: int) -> frozenset[str]:
    """The spaces a move of at most ``spaces`` from ``space`` may pass or end on, and those
    beside where it may end (the contacts): where another car or a debris marker would make
    the car's moves, or their worth, differ from a car alone's. Kept on the board."""
    key = ("par reach", space, spaces)
    known = board.network.cache.get(key)
    if isinstance(known, frozenset):
        return known
    found = {space}
    edge = [space]
    for _ in range(spaces):
        # Each space once per step, however many spaces of the step before lead to it.
        edge = list(dict.fromkeys(n for s in edge for n in (*board.track_next.get(s, ()),
                                                             *board.pit_entry.get(s, ()),
                                                             *board.pit_next.get(s, ()))
                                  if n not in found))
        found.update(edge)
    near = frozenset(found.union(*(board.contacts.get(s, ()) for s in found)))
    board.network.cache[key] = near
    return near


class ParDriver:
    """See the module docstring. ``seed`` is accepted for the driver registry and handed to
    the strong driver it falls back on (which has no randomness)."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.strong = StrongDriver(seed)
        self.decisions = 0
        """Decisions taken (gears of more than one option, moves, slipstreams)."""
        self.fallbacks = 0
        """Of those, the ones the strong driver took."""
        self._solved: tuple[Board, Ruleset, int, str | None, Solution] | None = None
        self._planned: dict[int, tuple[tuple[Move, ...], Move]] = {}
        self._die: dict[int, int] = {}

    def start_race(self, seed: int, car: int) -> None:
        """Nothing to reseed: the par driver has no randomness."""
        self.strong.start_race(seed, car)
        self._planned = {}

    def solution(self, state: RaceState, car: int) -> Solution:
        """Par's values for ``car`` in this race (solved on first ask, then kept)."""
        board, rules, laps, box = state.board, state.rules, state.laps, state.cars[car].box
        known = self._solved
        if known is not None and known[0] is board and known[1] is rules and (
                known[2] == laps and known[3] == box):
            return known[4]
        key = ("par driver", id(rules), laps, box)
        kept = board.network.cache.get(key)
        if isinstance(kept, tuple) and kept[0] is rules:
            solution: Solution = kept[1]
        else:
            solution = solution_for(board.graphs.track, rules, laps, box)
            board.network.cache[key] = (rules, solution)
        self._solved = (board, rules, laps, box, solution)
        return solution

    # Decisions ----------------------------------------------------------------------------

    def choose_gear(self, state: RaceState, car: int,
                    options: Sequence[GearOption]) -> GearOption:
        self._planned = {}
        if len(options) == 1:
            return options[0]
        self.decisions += 1
        solution = self.solution(state, car)
        reach = max(max(state.rules.faces(option.gear)) for option in options)
        if self._alone(state, car, reach):
            gear = solution.gear_of(state.cars[car])
            chosen = next((o for o in options if o.gear == gear and not o.eliminates), None)
            if chosen is not None:
                return chosen
        else:
            worths = self._gear_worths(solution, state, car, options)
            if worths is not None and min(worths) < math.inf:
                return options[worths.index(min(worths))]
        # A plan is of a gear par chose: the strong driver's gear may roll the same faces.
        self._planned = {}
        self.fallbacks += 1
        return self.strong.choose_gear(state, car, _kept(options, lambda o: not o.eliminates))

    def choose_move(self, state: RaceState, car: int, roll: int,
                    moves: Sequence[Move]) -> Move:
        self._die[car] = roll
        planned = self._planned.get(roll)
        if planned is not None and planned[0] is moves:
            return planned[1]
        self.decisions += 1
        current = state.cars[car]
        # A quick stop's exit and a super start move without a gear die (no engine roll); a
        # super start leaves the car in first gear.
        starting = current.gear == 0
        pricing = self._pricing(state, car, None if current.pit_exit or starting else roll,
                                1 if starting else None)
        best = _least(pricing, moves) if pricing is not None else None
        if best is not None:
            return moves[best[0]]
        self.fallbacks += 1
        return self.strong.choose_move(state, car, roll,
                                       _kept(moves, lambda m: m.eliminated is None))

    def choose_slipstream(self, state: RaceState, car: int, move: Move,
                          options: Sequence[Move]) -> Move | None:
        self.decisions += 1
        pricing = self._pricing(state, car, self._die.get(car, move.roll), None)
        best = _least(pricing, (move, *options)) if pricing is not None else None
        if best is not None:
            return None if best[0] == 0 else options[best[0] - 1]
        self.fallbacks += 1
        safe = tuple(m for m in options if m.eliminated is None)
        return self.strong.choose_slipstream(state, car, move, safe) if safe else None

    # Weighing -----------------------------------------------------------------------------

    def _pricing(self, state: RaceState, car: int, die: int | None,
                 after_gear: int | None) -> MoveWorth | None:
        faces = quiet_faces(state.rules)
        if faces is None:
            return None
        self.strong.outlook(state)  # sets what an elimination costs it, for the WP prices
        return MoveWorth(self.solution(state, car), self.strong, state, car, die, after_gear,
                         faces)

    def _alone(self, state: RaceState, car: int, spaces: int) -> bool:
        """Whether nothing but the car lies within reach of its moves this turn."""
        others = {c.space for c in state.cars if c.index != car and c.on_board}
        if not others and not state.debris:
            return True
        near = within_reach(state.board, state.cars[car].space, spaces)
        return near.isdisjoint(others) and near.isdisjoint(state.debris)

    def _gear_worths(self, solution: Solution, state: RaceState, car: int,
                     options: Sequence[GearOption]) -> list[float] | None:
        """Each option's expected turns over its die (infinite for a shift that eliminates),
        the best move of each face planned for :meth:`choose_move`; None where a move leads
        where par has not solved."""
        current = state.cars[car]
        worths: list[float] = []
        plans: list[dict[int, tuple[tuple[Move, ...], Move]]] = []
        for option in options:
            plan: dict[int, tuple[tuple[Move, ...], Move]] = {}
            plans.append(plan)
            if option.eliminates:
                worths.append(math.inf)
                continue
            shifted = state.with_car(shift(current, option))
            distribution = face_distribution(state.rules, option.gear)
            by_roll = legal_moves_by_roll(shifted, car, [face for face, _ in distribution])
            total = 0.0
            for face, chance in distribution:
                pricing = self._pricing(shifted, car, face, None)
                moves = by_roll[face]
                best = _least(pricing, moves, finite=False) if pricing is not None else None
                if best is None:
                    return None
                if best[1] < math.inf:  # else the move is the strong driver's (choose_move)
                    plan[face] = (moves, moves[best[0]])
                total += float(chance) * best[1]
            worths.append(total)
        self._planned = plans[worths.index(min(worths))]
        return worths


def _kept(options: Sequence[T], keep: Callable[[T], bool]) -> Sequence[T]:
    """The options ``keep`` keeps, if any; else all of them. The strong driver is asked only
    among the options that do not put the car out at once, where some do not: par's values
    give up on a car only when every way on risks elimination, and a risk beats a certainty."""
    kept = tuple(option for option in options if keep(option))
    return kept if kept else options


def _least(pricing: MoveWorth, moves: Sequence[Move],
           finite: bool = True) -> tuple[int, float] | None:
    """The position of the move of least worth (the first on a tie) and its worth; None when
    one leads where par has not solved, or (``finite``) when every one is infinite."""
    best, position = math.inf, 0
    for n, move in enumerate(moves):
        value = pricing.worth(move)
        if value is None:
            return None
        if value < best:
            best, position = value, n
    if finite and best == math.inf:
        return None
    return position, best
