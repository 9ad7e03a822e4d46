"""Par's values as the compiled par driver reads them (:mod:`trackformat.sim.kernel.par`).

A race's par drivers each stop at their own box, and par's values in and before the pit lane
depend on which: each box has its solution (:func:`~trackformat.par.driver.solution_for`, the
very ones the readable driver reads). Compiled code takes arrays, so the solutions are laid
end to end: their places numbered on from one to the next, with a dense index from what a car's
row says (space, lap, stops, spun, pit stops, kind) to its place, per solution.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from trackformat.par.driver import quiet_faces, solution_for
from trackformat.par.problem import Kind
from trackformat.par.solve import Solution
from trackformat.rules import Ruleset
from trackformat.sim.core.board import Board
from trackformat.sim.kernel import par_worth as kworth
from trackformat.sim.kernel.arrays import BoardArrays
from trackformat.sim.kernel.cars import CAR_COLUMNS
from trackformat.sim.kernel.game import TABLES
from trackformat.sim.kernel.log import new_log
from trackformat.sim.kernel.race_rules import T_BLACK

Ints = npt.NDArray[np.int64]

SCRATCH_LOG_ROWS = 1024
"""Rows of the log a move's worth is played into: one move writes a few dozen events."""


def par_tables(board: Board, arrays: BoardArrays, rules: Ruleset, laps: int,
               rule_tables: tuple[Ints, ...], boxes: Sequence[str | None], cars: int,
               race_numbers: int) -> kworth.ParTables:
    """The tables of :mod:`trackformat.sim.kernel.par` for races of ``cars`` cars with par's
    values for a car that stops at each of ``boxes`` (solution ``n`` for ``boxes[n]``: a race
    sets which is each par driver's, :func:`seat`); ``race_numbers``: the length of the race's
    row of numbers (:func:`~trackformat.sim.kernel.race_rules.race_numbers`).

    Raises :class:`~trackformat.par.problem.ParError` when par cannot be solved there."""
    track = board.graphs.track
    solutions = [solution_for(track, rules, laps, box) for box in boxes]
    solo = solutions[0].solo
    faces = quiet_faces(rules)
    numbers = np.zeros(4, np.float64)
    numbers[: 3] = solutions[0].packed.chances
    numbers[kworth.N_PRICED] = faces is not None
    black = np.stack([_one_face(rule_tables[TABLES], rules.dice.black[k])
                      for k in (faces if faces is not None else (0, 0, 0))])
    log, cursor = new_log(SCRATCH_LOG_ROWS)
    return (
        numbers,
        _index(solutions, arrays),
        np.concatenate([s.values for s in solutions]),
        np.concatenate([s.choices for s in solutions]),
        np.concatenate([s.packed.places[2] for s in solutions]),
        _contexts(solutions),
        np.concatenate([s.packed.gears[0] for s in solutions]),
        np.full(cars, -1, np.int64),
        np.array([s.par for s in solutions], np.float64),
        np.array([arrays.number[s.solo.pole.space] for s in solutions], np.int64),
        np.array([solo.needed_stops(name) for name in arrays.names], np.int64),
        np.array([_corner_number(arrays, solo.corner_at(name)) for name in arrays.names],
                 np.int64),
        np.array(solo.top, np.int64),
        black,
        np.zeros((cars, CAR_COLUMNS), np.int64),
        np.zeros(race_numbers, np.int64),
        np.zeros(len(arrays.names), np.int64),
        log,
        cursor,
        np.zeros(1, np.uint64),
        np.zeros(cars, np.int64),
        np.zeros((cars, 2), np.int64),
    )


def seat(tables: kworth.ParTables, boxes: Sequence[str | None],
         stops: Sequence[str | bool | None]) -> None:
    """Give each car its solution for the race about to start: the one of the box it stops
    at (``stops[n]``: car ``n``'s box, or False for a car that is no par driver), which
    ``boxes`` (the tables' boxes, in order) must hold."""
    solution = tables[kworth.P_SOLUTION]
    for car, box in enumerate(stops):
        solution[car] = -1 if box is False else boxes.index(box)


def _one_face(tables: Ints, face: int) -> Ints:
    """The rules' tables with a black die that shows ``face`` alone."""
    changed = tables.copy()
    changed[T_BLACK, :] = 0
    changed[T_BLACK, 0] = face
    changed[T_BLACK, changed.shape[1] - 1] = 1
    return changed


def _corner_number(arrays: BoardArrays, corner: str | None) -> int:
    return -1 if corner is None else arrays.corner_names.index(corner)


def _index(solutions: Sequence[Solution], arrays: BoardArrays) -> Ints:
    """By solution, space, lap, stops, spun, pit stops and kind: the place (numbered across
    the solutions laid end to end), -1 for none."""
    every = [place for s in solutions for place in s.layout.places]
    shape = (len(solutions), len(arrays.names), max(p.lap for p in every) + 1,
             max(p.stops for p in every) + 1, 2, max(p.pit_stops for p in every) + 1,
             len(Kind))
    index = np.full(shape, -1, np.int64)
    offset = 0
    for n, solution in enumerate(solutions):
        for k, p in enumerate(solution.layout.places):
            index[n, arrays.number[p.space], p.lap, p.stops, int(p.spun), p.pit_stops,
                  int(p.kind)] = offset + k
        offset += len(solution.layout.places)
    return index


def _contexts(solutions: Sequence[Solution]) -> Ints:
    """Each place's gear context, counted on from one solution's gear table to the next."""
    parts = []
    offset = 0
    for solution in solutions:
        context = solution.packed.places[3].copy()
        context[context >= 0] += offset
        parts.append(context)
        offset += len(solution.packed.gears[0])
    return np.concatenate(parts)
