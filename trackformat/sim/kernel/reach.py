"""Where a car's move may end, told without walking its routes: every space reachable by exactly
``d`` steps along the board's links, for each ``d`` up to a depth, with how a route there stands
with the corners it passed.

The routes a move walks (:mod:`~trackformat.sim.kernel.walk`) follow the same links under more
rules (no car in the way, shortest ways on straights, limited lane changes): every route's end
is among these, never the other way round. So what holds for every end here holds for every
move, and a driver may rule out a gear from a few dozen spaces before it walks the hundreds of
routes of its die (see :func:`~trackformat.sim.kernel.cautious.gear`).

An end is a state, ``space * STANDINGS + standing``:

- :data:`IN_START_CORNER`: every space so far in the corner the car started in;
- :data:`CLEAN`: out of it, and out of every corner left with its stops made;
- :data:`SHORT`: it left a corner short of its stops (the walk records an overshoot).

The standing follows the walk's own account of stops: leaving the corner it started in, a car
has made the stops it had there; leaving a corner it entered during the move, none. The pit
lane counts no corner.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from trackformat.sim.kernel import cars as kc
from trackformat.sim.kernel.game import (
    CORNER,
    CORNER_STOPS,
    IN_PIT,
    PIT_ENTRY,
    PIT_NEXT,
    TRACK_NEXT,
)
from trackformat.sim.kernel.jit import compiled

Ints = npt.NDArray[np.int64]

IN_START_CORNER, CLEAN, SHORT = range(3)
STANDINGS = 3
MAX_ENDS = 128
"""States kept per depth; a depth with more is marked unknown (a count of -1)."""


@compiled
def reach(car: Ints, depth: int, board: tuple[Ints, ...]) -> tuple[Ints, Ints]:
    """The ends of the routes of ``car`` (its row) of 0 to ``depth`` spaces: row ``d`` of the
    first array holds the states of the routes of ``d`` spaces, the second how many (-1: more
    than :data:`MAX_ENDS`, unknown, and so every depth after it)."""
    track_next, pit_next, pit_entry = board[TRACK_NEXT], board[PIT_NEXT], board[PIT_ENTRY]
    corner, corner_stops, in_pit = board[CORNER], board[CORNER_STOPS], board[IN_PIT]
    ends = np.empty((depth + 1, MAX_ENDS), np.int64)
    counts = np.full(depth + 1, -1, np.int64)
    start = car[kc.C_SPACE]
    here = corner[start]
    # The stops the car has made in the corner it starts in, as the walk counts them.
    made = car[kc.C_STOPS] if here >= 0 and car[kc.C_CORNER] == here else 0
    first = IN_START_CORNER if here >= 0 and not in_pit[start] else CLEAN
    ends[0, 0] = start * STANDINGS + first
    counts[0] = 1
    # The depth a state was last met at, plus one (bytes: the whole table is cleared per call).
    seen = np.zeros(len(corner) * STANDINGS, np.uint8)
    nexts = np.empty(track_next.shape[1] + pit_entry.shape[1] + pit_next.shape[1], np.int64)
    for d in range(1, depth + 1):
        count = 0
        for e in range(counts[d - 1]):
            u = ends[d - 1, e] // STANDINGS
            standing = ends[d - 1, e] % STANDINGS
            ways = 0
            if in_pit[u]:
                for k in range(pit_next.shape[1]):
                    if pit_next[u, k] >= 0:
                        nexts[ways] = pit_next[u, k]
                        ways += 1
            else:
                for k in range(track_next.shape[1]):
                    if track_next[u, k] >= 0:
                        nexts[ways] = track_next[u, k]
                        ways += 1
                for k in range(pit_entry.shape[1]):
                    if pit_entry[u, k] >= 0:
                        nexts[ways] = pit_entry[u, k]
                        ways += 1
            for w in range(ways):
                v = nexts[w]
                now = standing
                if in_pit[v]:
                    if now == IN_START_CORNER:
                        now = CLEAN
                elif not in_pit[u] and corner[u] >= 0 and corner[v] != corner[u]:
                    stops = made if now == IN_START_CORNER else 0
                    if corner_stops[corner[u]] > stops:
                        now = SHORT
                    elif now == IN_START_CORNER:
                        now = CLEAN
                state = v * STANDINGS + now
                if seen[state] == d + 1:
                    continue
                seen[state] = d + 1
                if count == MAX_ENDS:
                    return ends, counts  # this depth and the ones after it unknown
                ends[d, count] = state
                count += 1
        counts[d] = count
    return ends, counts
