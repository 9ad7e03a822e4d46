"""The working memory of the move walk and its pricing, kept from one question to the next.

Every question a race asks of the kernel (a car's moves for a roll, for every face of its gears,
its slipstream extras) walks routes and prices them in tables the size of the board and of the
roll. Allocated and freed on each question, those tables cost some 15% of a race of random
drivers (measured with perf: malloc, free and numba's bookkeeping of each array). A racer
therefore makes one workspace (:func:`new_workspace`) and every question borrows it: each table
is written before it is read, and a question that needs more than the workspace holds (a walk
of more than :data:`ROUTES` routes) makes bigger tables of its own.

A workspace serves one question at a time: each :class:`~trackformat.sim.kernel.race.KernelRacer`
has its own, as it has its own event log. The moves a question answers are never in the
workspace: they are the caller's to keep.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from trackformat.sim.kernel.price import FIRST_COLUMNS
from trackformat.sim.kernel.rolls import KEPT_COLUMNS
from trackformat.sim.kernel.route_rows import (
    MAX_DEPTH,
    ROUTE_COLUMNS,
    ROUTES_PER_SPACE,
    WALK_ROW,
    WalkSpace,
)

Ints = npt.NDArray[np.int64]
PriceSpace = tuple[Ints, Ints, Ints, Ints]
"""Pricing's tables (see :func:`~trackformat.sim.kernel.price.outcomes_of` and
:func:`~trackformat.sim.kernel.rolls.price_rolls`): the routes that open an outcome, the moves
in the making, the stamps of its hash table (the walk's, reused), the depths of its outcomes."""
AskSpace = tuple[Ints, Ints, Ints, Ints]
"""What a question reads of the race (see :func:`~trackformat.sim.kernel.ask.moves_after`):
the spaces taken, per lane how many cars and debris and where, the car's route of no space."""
Workspace = tuple[WalkSpace, PriceSpace, AskSpace]

ROUTES = ROUTES_PER_SPACE * (MAX_DEPTH + 1)
"""Routes the workspace holds: as many as a walk of the longest roll starts with."""
HASH_SLOTS = 4096
"""Slots of the workspace's hash table: as many as pricing's two of a walk of :data:`ROUTES`
routes (at most 2,048 each), and more than the walk's."""
KEPT_ROWS = 4096
"""Moves in the making the workspace holds (the rolls asked, times the outcomes of the walk)."""


def new_workspace(spaces: int, lanes: int, fan: int, cars: int) -> Workspace:
    """A workspace for a board of ``spaces`` spaces and ``lanes`` lanes whose spaces have at most
    ``fan`` ways on (track and pit entries, or pit lane), for a race of ``cars`` cars (and
    debris markers on any number of spaces)."""
    walk_space = (np.empty((ROUTES, WALK_ROW), np.int64), np.empty(HASH_SLOTS, np.int64),
                  np.empty(((MAX_DEPTH + 2) * fan + 1, WALK_ROW), np.int64),
                  np.empty((4, spaces + 1), np.int64), np.empty(spaces + fan, np.int64))
    price_space = (np.empty((ROUTES, FIRST_COLUMNS), np.int64),
                   np.empty((KEPT_ROWS, KEPT_COLUMNS), np.int64),
                   np.empty(HASH_SLOTS // 2, np.int64), np.empty(ROUTES, np.int64))
    ask_space = (np.empty(spaces, np.int64), np.empty(max(lanes, 1), np.int64),
                 np.empty((max(lanes, 1), cars + spaces + 1), np.int64),
                 np.empty(ROUTE_COLUMNS, np.int64))
    return walk_space, price_space, ask_space
