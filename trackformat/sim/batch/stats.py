"""What a batch of test drives counted, as plain counts and sums that merge exactly.

A batch is run in chunks, on one core, on several, or (later) on other machines; each chunk
gives a :class:`DriveStats` and the chunks are added together. Everything kept is an integer
count or sum, and the race lengths are kept as a histogram of whole turns, so adding chunks in
any grouping gives exactly the statistics of one run over all the races: means, medians and
percentiles are only computed at the end, from the merged counts. Nothing here keeps a race.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, Protocol

from trackformat.sim.core import events as ev
from trackformat.sim.core.board import Board
from trackformat.sim.core.state import CarStatus, Cause
from trackformat.sim.race.runner import CarResult, RaceResult

OVERSHOOT_CAUSES = frozenset({Cause.OVERSHOOT, Cause.MISSED_STOPS, Cause.SPIN})
"""Eliminations that a corner's overshoot caused: counted against that corner, wherever the car
ended up."""

CORNER_COUNTS = ("entries", "overshoots", "overshoot_spaces", "eliminations", "spins", "tyre_wp")
"""What is counted for each corner (see :meth:`DriveStats.add_race`)."""

SPACE_COUNTS = ("stops", "overshoots", "eliminations", "pit_stops")
"""What is counted for each space: moves ended there, overshoots ended there, cars out there,
pit stops made there (at a box or a garage)."""


class Outcome(Protocol):
    """How a race ended, as :meth:`DriveStats.add_outcome` reads it: a
    :class:`~trackformat.sim.race.runner.RaceResult`, or the race kernel's lighter outcome."""

    @property
    def turns(self) -> int: ...
    @property
    def completed(self) -> bool: ...
    @property
    def finish_order(self) -> tuple[int, ...]: ...
    @property
    def cars(self) -> tuple[CarResult, ...]: ...


@dataclass
class DriveStats:
    """Counts over some races of one batch; ``a.merge(b)`` adds ``b``'s races to ``a``'s.

    Every field is an ``int`` or a :class:`~collections.Counter`, which is what makes the merge
    generic and exact.
    """

    races: int = 0
    completed: int = 0
    """Races that ended by themselves (not stopped by the runner's turn limit)."""
    cars: int = 0
    """Cars raced, over all races."""
    finished: int = 0
    """Cars that crossed the line for the last time."""
    no_winner: int = 0
    """Races in which no car finished."""
    turns: Counter[int] = field(default_factory=Counter)
    """Histogram of game turns per race: turns -> races."""
    dnf: Counter[str] = field(default_factory=Counter)
    """Cars out of the race, by cause."""
    wins: Counter[str] = field(default_factory=Counter)
    """Races won, by bot name."""
    bot_cars: Counter[str] = field(default_factory=Counter)
    """Cars raced, by bot name."""
    bot_finished: Counter[str] = field(default_factory=Counter)
    """Cars that finished, by bot name."""
    corners: Counter[tuple[str, str]] = field(default_factory=Counter)
    """(corner id, one of :data:`CORNER_COUNTS`) -> count."""
    spaces: Counter[tuple[str, str]] = field(default_factory=Counter)
    """(space id, one of :data:`SPACE_COUNTS`) -> count."""
    team_points: Counter[int] = field(default_factory=Counter)
    """Team race points over all races, by team (cars 2k and 2k + 1 are team k)."""
    team_wins: Counter[int] = field(default_factory=Counter)
    """Races each team won on points (ties shared by none)."""
    build_cars: Counter[str] = field(default_factory=Counter)
    """Cars raced, by build (building your car; none counted when the line-up gives no
    builds)."""
    build_finished: Counter[str] = field(default_factory=Counter)
    """Cars that finished, by build."""
    build_wins: Counter[str] = field(default_factory=Counter)
    """Races won, by the winner's build."""

    def merge(self, other: DriveStats) -> DriveStats:
        """Add ``other``'s counts to these (in place) and return ``self``."""
        for item in fields(self):
            mine: Any = getattr(self, item.name)
            theirs: Any = getattr(other, item.name)
            if isinstance(mine, Counter):
                mine.update(theirs)
            else:
                setattr(self, item.name, mine + theirs)
        return self

    def add_race(self, result: RaceResult, board: Board, bots: Sequence[str],
                 team_points: Sequence[int] = (), builds: Sequence[str] = ()) -> None:
        """Count one race on ``board``; ``bots[car]`` names the bot that drove each car,
        ``team_points`` is the team race's scale by place (empty: no team race), and
        ``builds[car]`` each car's build (empty: no builds)."""
        self.add_outcome(result, bots, team_points, builds)
        self.count_events(result.events, board)

    def add_outcome(self, result: Outcome, bots: Sequence[str],
                    team_points: Sequence[int] = (), builds: Sequence[str] = ()) -> None:
        """Count how one race ended (its length, each car's end, the winner, the teams'
        points), not what happened in it (:meth:`count_events`)."""
        if team_points:
            race_points: Counter[int] = Counter({car.car // 2: 0 for car in result.cars})
            for place, finisher in enumerate(result.finish_order):
                if place < len(team_points):
                    race_points[finisher // 2] += team_points[place]
            self.team_points.update(race_points)
            best = max(race_points.values(), default=0)
            leaders = [team for team, points in race_points.items() if points == best]
            if best > 0 and len(leaders) == 1:
                self.team_wins[leaders[0]] += 1
        self.races += 1
        self.completed += 1 if result.completed else 0
        self.turns[result.turns] += 1
        for car in result.cars:
            bot = bots[car.car]
            self.cars += 1
            self.bot_cars[bot] += 1
            if builds:
                self.build_cars[builds[car.car]] += 1
            if car.status == CarStatus.FINISHED:
                self.finished += 1
                self.bot_finished[bot] += 1
                if builds:
                    self.build_finished[builds[car.car]] += 1
            elif car.cause is not None:
                self.dnf[car.cause.value] += 1
        if result.finish_order:
            self.wins[bots[result.finish_order[0]]] += 1
            if builds:
                self.build_wins[builds[result.finish_order[0]]] += 1
        else:
            self.no_winner += 1

    def add_counts(self, corners: Mapping[tuple[str, str], int],
                   spaces: Mapping[tuple[str, str], int]) -> None:
        """Corner and space counts of races counted elsewhere (the race kernel reads them from
        its own log), keyed as :attr:`corners` and :attr:`spaces` are; counts of 0 are not
        kept, as :meth:`count_events` keeps none."""
        self.corners.update({key: n for key, n in corners.items() if n})
        self.spaces.update({key: n for key, n in spaces.items() if n})

    def count_events(self, events: Sequence[ev.Event], board: Board) -> None:
        """Corner and space counts from a race's events.

        A move's events come in a fixed order (Moved, Blocked, Overshoot..., then Eliminated,
        SpinOut or Finished), so the corner a car overshot is known when its elimination or spin
        comes. A move that overshoots two corners is put down to the first: its tyres WP (less
        what blocking cost), and the spin or elimination that follows. A car's race ends on the
        line, so the corners its finishing move runs into past the line are not entered.
        """
        corners, spaces, corner_of = self.corners, self.spaces, board.corner_of
        overshot: dict[int, str] = {}
        """Car -> the first corner its latest move overshot (cleared by its next move)."""
        tyres: dict[int, int] = {}
        """Car -> tyres WP its latest move cost that are not yet put down to a corner."""
        for position, event in enumerate(events):
            if isinstance(event, ev.Moved):
                overshot.pop(event.car, None)
                tyres[event.car] = event.tyres
                spaces[event.destination, "stops"] += 1
                finishing = _finishes(events, position)
                previous_space, previous = event.start, corner_of.get(event.start)
                for space in event.route:
                    if finishing and _crosses_line(board, previous_space, space):
                        break
                    corner = corner_of.get(space)
                    if corner is not None and corner != previous:
                        corners[corner, "entries"] += 1
                    previous_space, previous = space, corner
            elif isinstance(event, ev.Blocked):
                tyres[event.car] = tyres.get(event.car, 0) - event.cost.tyres
            elif isinstance(event, ev.Overshoot):
                overshot.setdefault(event.car, event.corner)
                corners[event.corner, "overshoots"] += 1
                corners[event.corner, "overshoot_spaces"] += event.spaces
                owed = tyres.pop(event.car, 0)
                if owed > 0:
                    corners[event.corner, "tyre_wp"] += owed
                spaces[event.space, "overshoots"] += 1
            elif isinstance(event, ev.SpinOut):
                corner = overshot.get(event.car) or corner_of.get(event.space)
                if corner is not None:
                    corners[corner, "spins"] += 1
            elif isinstance(event, ev.PitStop):
                spaces[event.box, "pit_stops"] += 1
            elif isinstance(event, ev.Eliminated):
                spaces[event.space, "eliminations"] += 1
                corner = (overshot.get(event.car) if event.cause in OVERSHOOT_CAUSES
                          else None) or corner_of.get(event.space)
                if corner is not None:
                    corners[corner, "eliminations"] += 1


def _finishes(events: Sequence[ev.Event], position: int) -> bool:
    """Whether the move at ``position`` is its car's last: its car finishes before the next
    move or turn of any car begins (the move's own rolls, and the engine rolls of other cars,
    may come between)."""
    car = events[position].car
    for event in events[position + 1:]:
        if isinstance(event, ev.Finished) and event.car == car:
            return True
        if isinstance(event, _MOVE_STARTS):
            return False
    return False


_MOVE_STARTS = (ev.Moved, ev.GearRoll, ev.Shift, ev.StartRoll, ev.Skipped)
"""Events that begin a move or a turn: none comes between a move and its car finishing."""


def _crosses_line(board: Board, space: str, following: str) -> bool:
    """Whether a step crosses the finish line: a crossing link, or leaving a pit lane that
    bypasses the line (the engine's rule for counting laps)."""
    return (space, following) in board.crossing or (
        board.pit_exit_crosses and board.in_pit(space) and not board.in_pit(following))


def mean(histogram: Mapping[int, int]) -> float | None:
    """The mean value of a histogram (value -> count); None when it is empty."""
    count = sum(histogram.values())
    if not count:
        return None
    return sum(value * n for value, n in histogram.items()) / count


def _nth(histogram: Mapping[int, int], rank: int) -> int:
    """The ``rank``-th smallest value (from 1) of a non-empty histogram."""
    seen = 0
    for value in sorted(histogram):
        seen += histogram[value]
        if seen >= rank:
            return value
    return max(histogram)


def percentile(histogram: Mapping[int, int], share: float) -> int | None:
    """The smallest value with at least ``share`` (0-1] of the counts at or below it (the
    nearest-rank percentile); None when the histogram is empty."""
    count = sum(histogram.values())
    if not count:
        return None
    return _nth(histogram, max(1, math.ceil(share * count - 1e-9)))


def median(histogram: Mapping[int, int]) -> float | None:
    """The median of a histogram: the middle value, or the mean of the two middle ones."""
    count = sum(histogram.values())
    if not count:
        return None
    return (_nth(histogram, (count + 1) // 2) + _nth(histogram, count // 2 + 1)) / 2


Z95 = 1.959963984540054
"""The standard normal quantile of 97.5%: a two-sided 95% interval."""


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default), as (low, high).

    Chosen over the textbook ``p +- z*sqrt(p(1-p)/n)`` because test drives give rates of 0%
    and 100% and corners entered a few times only: there that interval shrinks to nothing or
    runs past 0 and 1, while Wilson's stays inside [0, 1] and keeps its width. No trials at all
    tell nothing: (0, 1).
    """
    if trials <= 0:
        return 0.0, 1.0
    share = min(max(successes / trials, 0.0), 1.0)
    z2 = z * z
    scale = 1 + z2 / trials
    centre = (share + z2 / (2 * trials)) / scale
    half = z / scale * math.sqrt(share * (1 - share) / trials + z2 / (4 * trials * trials))
    return max(0.0, centre - half), min(1.0, centre + half)
