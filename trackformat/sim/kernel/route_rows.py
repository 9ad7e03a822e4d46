"""The rows a walk of the race kernel works on: what a route row holds, column by column, what
a walk is told (its numbers), and the tables it reads and works in.

Kept apart from the walk (:mod:`~trackformat.sim.kernel.walk`) because the pricing, the
slipstream terms, the workspace and the limits read the same columns, while only the walk
follows the links.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from trackformat.sim.kernel.jit import inlined

Ints = npt.NDArray[np.int64]

BoardTables = tuple[Ints, Ints, Ints, Ints, Ints, Ints, Ints, Ints, Ints, Ints]
"""What a walk reads of the board, in this order: ``track_next``, ``pit_next``, ``pit_entry``,
``lane``, ``lane_index``, ``lane_length``, ``corner``, ``corner_stops``, ``in_pit``, ``is_box``
(see :class:`~trackformat.sim.kernel.arrays.BoardArrays`)."""
Setting = tuple[Ints, Ints, Ints, Ints]
"""What a walk reads of the race, in this order: ``occupied`` and ``debris`` (a flag per space:
the other cars, the debris markers), ``passable`` (per lane, the positions of the cars and
debris in it, in its first columns) and ``passable_count`` (how many per lane)."""

WalkSpace = tuple[Ints, Ints, Ints, Ints, Ints]
"""The tables a walk works in, lent by its caller (see :mod:`~trackformat.sim.kernel.workspace`):
its routes, its hash table, its stack, its distances, its queue. The routes table comes back
as the walk's answer: its rows are the caller's to read until it walks again."""

MAX_LEFT = 4
"""Lanes a route may have left and remember (one entry per lane)."""
MAX_EXITS = 8
"""Corners a route may leave without their stops."""

R_END, R_DEPTH, R_CHANGES, R_NLEFT, R_LEFT = 0, 1, 2, 3, 4
R_LOCK = R_LEFT + 2 * MAX_LEFT
R_CORNER, R_STOPS, R_NEXITS, R_ANCHOR, R_ANCHOR_DEPTH = (R_LOCK + 1, R_LOCK + 2, R_LOCK + 3,
                                                         R_LOCK + 4, R_LOCK + 5)
R_IN_PIT, R_AT_BOX, R_DEBRIS, R_ENTRIES = R_LOCK + 6, R_LOCK + 7, R_LOCK + 8, R_LOCK + 9
R_EXITS = R_LOCK + 10
R_PATH = R_EXITS + 3 * MAX_EXITS
"""The spaces entered, in order (-1 beyond the route's depth); not part of the route's key."""
MAX_DEPTH = 48
"""Spaces a route may cover (a sixth-gear roll is at most 30)."""
ROUTE_COLUMNS = R_PATH + MAX_DEPTH

I_MARKS = ROUTE_COLUMNS
"""Columns the walk adds to a route: the lanes left, sorted by lane, each with the first car or
debris after where it was left (what the route's key keeps of them, -1 padded)..."""
I_HASH = I_MARKS + 2 * MAX_LEFT
"""... the hash of the route's key ..."""
I_PARENT = I_HASH + 1
"""... and, for a route waiting on the walk's stack, the row of the route it extends (its path
is copied from there once the route is kept)."""
WALK_ROW = I_PARENT + 1
"""Columns of a row of the walk's route table."""

(W_BASE, W_OWN_LANE, W_LIMITED_UNTIL, W_ENTRIES_FROM, W_ROLL, W_MAY_PIT, W_CAR_BOX,
 W_MAX_CHANGES, W_REPLAY) = range(9)
W_REPLAY_PATH = 9
WALK_COLUMNS = W_REPLAY_PATH + MAX_DEPTH
"""The numbers of a walk: spaces beyond ``W_BASE`` follow the slipstream patterns, from the lane
``W_OWN_LANE``; lane changes are limited only up to ``W_LIMITED_UNTIL``; corners entered from
``W_ENTRIES_FROM`` on are counted (for an ordinary move: -1, -1, :data:`NEVER`, :data:`NEVER`);
then the spaces to walk, whether the car may turn into the pit lane, its box (-1: none), the
lane changes allowed on a straight; and the first ``W_REPLAY`` spaces of every route are those
of a move already walked, listed from ``W_REPLAY_PATH`` on (0: a walk from the origin)."""
NEVER = 1 << 30

ROUTES_PER_SPACE = 16
"""Rows of a walk's route table to begin with, per space of the roll (it doubles when full): a
30-space walk on Monaco keeps some 250 routes."""


@inlined
def copy_used(source: Ints, row: int, target: Ints, into: int) -> None:
    """Copy route ``row`` of ``source`` to row ``into`` of ``target``, the columns before its
    path that are in use: the lanes left beyond the route's count and the corners overshot
    beyond its count hold nothing anyone reads."""
    for c in range(R_LEFT + 2 * source[row, R_NLEFT]):
        target[into, c] = source[row, c]
    for c in range(R_LOCK, R_EXITS + 3 * source[row, R_NEXITS]):
        target[into, c] = source[row, c]
