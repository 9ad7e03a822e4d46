"""The solo race played forward under the policy par finds, turn by turn, as compiled code.

From the states of the start, the chance of being in each state of the policy's graph
(:func:`~trackformat.par.policy.policy_graph`) at the start of each turn is carried forward
along its transitions, and what happens on the way is counted: when the car finishes, where it
starts its turns, which gear it takes where on the last lap, and what it pays.

Besides the chance of each state, a few *clean* chances ride along: the chance of being there
without having paid a tyres WP yet, a brakes WP, and so on
(:data:`~trackformat.par.policy.CLEAN`); what is left of each at the flag is the chance of
never having paid it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from trackformat.sim.kernel.jit import compiled, entry

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]

# Defined here rather than imported, as in :mod:`~trackformat.par.policy` (numba keeps compiled
# code by the file that defines it); ``tests/par/test_compiled.py`` holds them equal.
FINISH = -1
"""The target of a transition to the flag."""
WIDTH = 8
"""Chances carried per state: the total, then the clean ones
(:data:`~trackformat.par.policy.CLEAN`)."""


@compiled
def carry(chances: Floats, row: int, source: Floats, scale: float, paid: int) -> None:
    """Add ``source`` times ``scale`` to row ``row`` of ``chances``, the clean chances of the
    categories in ``paid`` (bit ``c`` for chance ``c``) left out."""
    for c in range(WIDTH):
        if not (paid >> c) & 1:
            chances[row, c] += source[c] * scale


@entry
def play_forward(graph: Any, place_of: Ints, space: Ints, last_lap: Ints,
                 first_chances: Floats, second_chances: Floats, max_turns: int,
                 finished: Floats, turn_starts: Floats, plan: Floats, arrivals: Floats,
                 paid: Floats, clean_left: Floats) -> int:
    """Carry the chances forward over the policy's graph (``graph``: its transitions, as
    :func:`~trackformat.par.policy.policy_graph` returns them; ``place_of``: the place of each
    of its states), from ``first_chances`` at turn 1 and ``second_chances`` joining at turn 2
    (after a stall or a super start), by state of the graph; count into the arrays given (see
    the module docstring). Returns the turns played (more than ``max_turns``: the policy did not
    finish, which is a bug)."""
    first, targets, chances, paids, corners, visits, gear_of = (graph[1], graph[2], graph[3],
                                                                graph[4], graph[5], graph[6],
                                                                graph[7])
    states = len(first) - 1
    now = first_chances.copy()
    turn = 1
    live = True
    while live and turn <= max_turns:
        later = np.zeros((states, WIDTH))
        if turn == 1:
            later += second_chances
        live = False
        for i in range(states):
            total = now[i, 0]
            if total == 0.0:
                continue
            p = place_of[i]
            here = space[p]
            turn_starts[here] += total
            paid += total * visits[i]
            if last_lap[p]:
                plan[here, gear_of[i]] += total
            for j in range(first[i], first[i + 1]):
                if last_lap[p] and corners[j] >= 0:
                    arrivals[here, gear_of[i], corners[j]] += total * chances[j]
                if targets[j] == FINISH:
                    finished[turn] += total * chances[j]
                    for c in range(WIDTH):
                        if not (paids[j] >> c) & 1:
                            clean_left[c] += now[i, c] * chances[j]
                else:
                    carry(later, targets[j], now[i], chances[j], paids[j])
                    live = True
        now = later
        turn += 1
    return turn - 1 if not live else max_turns + 1
