"""A race's corner and space counts read from the kernel's log, in compiled code.

The same reading as :meth:`~trackformat.sim.batch.stats.DriveStats.count_events`, which reads
the engine's event values: a test drive of thousands of races needs only these counts, and
reading them here spares turning every row of the log into an event value. The counts add up
over a chunk of races in two tables: per corner the ``CORNER_COUNTS`` of
:mod:`~trackformat.sim.batch.stats` (entries, overshoots, overshoot spaces, eliminations,
spins, tyres WP), per space its ``SPACE_COUNTS`` (stops, overshoots, eliminations, pit stops).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from trackformat.sim.kernel import price as kp
from trackformat.sim.kernel.jit import compiled, entry
from trackformat.sim.kernel.log import (
    E_BLOCKED,
    E_ELIMINATED,
    E_FINISHED,
    E_GEAR_ROLL,
    E_MOVED,
    E_OVERSHOOT,
    E_PIT_STOP,
    E_SHIFT,
    E_SKIPPED,
    E_SPIN_OUT,
    E_START_ROLL,
    L_ARGS,
    L_CAR,
    L_KIND,
)

Ints = npt.NDArray[np.int64]

CORNER_COUNTS = ("entries", "overshoots", "overshoot_spaces", "eliminations", "spins",
                 "tyre_wp")
ENTRIES, OVERSHOOTS, OVERSHOOT_SPACES, ELIMINATIONS, SPINS, TYRE_WP = range(6)
"""Columns of the corner table (named as the test drive's counts are)."""
SPACE_COUNTS = ("stops", "overshoots", "eliminations", "pit_stops")
STOPS, SPACE_OVERSHOOTS, SPACE_ELIMINATIONS, PIT_STOPS = range(4)
"""Columns of the space table."""

OVERSHOOT_CAUSES = (kp.BY_MISSED_STOPS, kp.BY_OVERSHOOT, kp.BY_SPIN)
"""Eliminations put down to the corner the car last overshot (the cause codes of
:data:`~trackformat.sim.batch.stats.OVERSHOOT_CAUSES`)."""


def count_tables(corners: int, spaces: int) -> tuple[Ints, Ints]:
    """Empty corner and space tables."""
    return np.zeros((corners, 6), np.int64), np.zeros((spaces, len(SPACE_COUNTS)), np.int64)


@entry
def count_log(log: Ints, used: int, cars: int, corner: Ints, crossing: Ints, in_pit: Ints,
              pit_exit_crosses: bool, corner_counts: Ints, space_counts: Ints) -> None:
    """Add the counts of the race in ``log[:used]`` to the tables."""
    overshot = np.full(cars, -1, np.int64)
    """The first corner each car's latest move overshot (-1: none)."""
    tyres = np.zeros(cars, np.int64)
    """Tyres WP each car's latest move cost that are not yet put down to a corner."""
    at = 0
    while at < used:
        row = log[at]
        kind, car = row[L_KIND], row[L_CAR]
        at += 1
        if kind == E_MOVED:
            overshot[car] = -1
            tyres[car] = row[L_ARGS + 4]
            start, destination, length = row[L_ARGS], row[L_ARGS + 1], row[L_ARGS + 6]
            space_counts[destination, STOPS] += 1
            route_at = at
            at += (length + 7) // 8
            finishing = _finishes(log, used, at, car)
            previous_space, previous = start, corner[start]
            for k in range(length):
                space = log[route_at + k // 8, L_ARGS + k % 8]
                if finishing and _crosses_line(crossing, in_pit, pit_exit_crosses,
                                               previous_space, space):
                    break
                here = corner[space]
                if here >= 0 and here != previous:
                    corner_counts[here, ENTRIES] += 1
                previous_space, previous = space, here
        elif kind == E_BLOCKED:
            tyres[car] -= row[L_ARGS + 3]
        elif kind == E_OVERSHOOT:
            which, spaces, space = row[L_ARGS], row[L_ARGS + 1], row[L_ARGS + 3]
            if overshot[car] < 0:
                overshot[car] = which
            corner_counts[which, OVERSHOOTS] += 1
            corner_counts[which, OVERSHOOT_SPACES] += spaces
            owed = tyres[car]
            tyres[car] = 0
            if owed > 0:
                corner_counts[which, TYRE_WP] += owed
            space_counts[space, SPACE_OVERSHOOTS] += 1
        elif kind == E_SPIN_OUT:
            which = overshot[car] if overshot[car] >= 0 else corner[row[L_ARGS]]
            if which >= 0:
                corner_counts[which, SPINS] += 1
        elif kind == E_ELIMINATED:
            cause, space = row[L_ARGS], row[L_ARGS + 1]
            space_counts[space, SPACE_ELIMINATIONS] += 1
            which = -1
            for counted in OVERSHOOT_CAUSES:
                if cause == counted:
                    which = overshot[car]
            if which < 0:
                which = corner[space]
            if which >= 0:
                corner_counts[which, ELIMINATIONS] += 1
        elif kind == E_PIT_STOP:
            space_counts[row[L_ARGS], PIT_STOPS] += 1


@compiled
def _finishes(log: Ints, used: int, at: int, car: int) -> bool:
    """Whether the move whose rows end before ``at`` is its car's last: its car finishes
    before the next move or turn of any car begins (the move's own rolls, and the engine rolls
    of other cars, may come between)."""
    while at < used:
        kind = log[at, L_KIND]
        if kind == E_FINISHED and log[at, L_CAR] == car:
            return True
        if kind in (E_MOVED, E_GEAR_ROLL, E_SHIFT, E_START_ROLL, E_SKIPPED):
            return False
        at += 1
    return False


@compiled
def _crosses_line(crossing: Ints, in_pit: Ints, pit_exit_crosses: bool, space: int,
                  following: int) -> bool:
    """Whether a step crosses the finish line (see
    :func:`~trackformat.sim.batch.stats._crosses_line`)."""
    for v in crossing[space]:
        if v == following:
            return True
    return bool(pit_exit_crosses and in_pit[space] and not in_pit[following])
