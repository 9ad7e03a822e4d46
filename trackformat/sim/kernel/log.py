"""The race's events as rows of ints, written by compiled code and read back as event values.

The kernel writes every event the readable engine would write (:mod:`trackformat.sim.core.events`),
in the same order, as one row of :data:`LOG_COLUMNS` ints: its kind (``E_*``), the game turn,
the car, and up to eight numbers. A move's route does not fit in a row: its spaces follow the
``Moved`` row, eight to a row, in rows of the kind :data:`E_ROUTE`. :func:`events_of` turns the
rows back into the engine's event values, so a kernel race can be compared with a readable one
event for event, replayed in the editor, or counted by the batch statistics.

The log is one preallocated table for a whole race; a race that would write past its end stops
with :class:`OverflowError`, and the caller races it again with a table twice as long.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from trackformat.sim.core import events as ev
from trackformat.sim.core.state import Wear
from trackformat.sim.kernel.arrays import BoardArrays
from trackformat.sim.kernel.cars import CAUSES
from trackformat.sim.kernel.jit import compiled

Ints = npt.NDArray[np.int64]

(E_START_ROLL, E_SKIPPED, E_SHIFT, E_GEAR_ROLL, E_MOVED, E_ROUTE, E_BLOCKED, E_OVERSHOOT,
 E_SPIN_OUT, E_DEBRIS_ROLL, E_DEBRIS_DROPPED, E_COLLISION_ROLL, E_ENGINE_ROLL, E_ELIMINATED,
 E_LAP_COMPLETED, E_FINISHED, E_PIT_STOP, E_REPAIR) = range(18)
"""Event kinds; :data:`E_ROUTE` rows carry the spaces of the ``Moved`` row before them."""

L_KIND, L_TURN, L_CAR, L_ARGS = 0, 1, 2, 3
LOG_COLUMNS = L_ARGS + 8

L_TURN_NOW, L_USED = 0, 1
CURSOR_COLUMNS = 2
"""The log's cursor: the game turn being played, and the rows written so far."""

OUTCOMES = ("normal", "stall", "super")
"""Start roll outcomes by code."""
NO_ROLL = -1
"""A collision roll with no die (the loss was automatic)."""


def new_log(rows: int = 4096) -> tuple[Ints, Ints]:
    """An empty log of ``rows`` rows and its cursor."""
    return np.zeros((rows, LOG_COLUMNS), np.int64), np.zeros(CURSOR_COLUMNS, np.int64)


@compiled
def note(log: Ints, cursor: Ints, kind: int, car: int, a: int, b: int, c: int, d: int) -> Ints:
    """Write an event of ``kind`` for ``car`` with up to four numbers; its row, for more."""
    used = cursor[L_USED]
    if used >= len(log):
        raise OverflowError("the race's event log is full")
    row = log[used]
    row[:] = 0
    row[L_KIND] = kind
    row[L_TURN] = cursor[L_TURN_NOW]
    row[L_CAR] = car
    row[L_ARGS] = a
    row[L_ARGS + 1] = b
    row[L_ARGS + 2] = c
    row[L_ARGS + 3] = d
    cursor[L_USED] = used + 1
    return row  # type: ignore[no-any-return]


@compiled
def note_route(log: Ints, cursor: Ints, car: int, spaces: Ints) -> None:
    """The spaces of a move, eight to a row, after its ``Moved`` row."""
    for first in range(0, len(spaces), 8):
        row = note(log, cursor, E_ROUTE, car, 0, 0, 0, 0)
        for k in range(min(8, len(spaces) - first)):
            row[L_ARGS + k] = spaces[first + k]


def events_of(log: Ints, used: int, arrays: BoardArrays) -> list[ev.Event]:
    """The rows ``log[:used]`` as the engine's event values, in order."""
    names, corners = arrays.names, arrays.corner_names
    rows = log[:used].tolist()
    found: list[ev.Event] = []
    at = 0
    while at < len(rows):
        kind, turn, car, *a = rows[at]
        at += 1
        if kind == E_MOVED:
            length = a[6]
            route: list[str] = []
            while len(route) < length:
                take = min(8, length - len(route))
                route.extend(names[s] for s in rows[at][L_ARGS:L_ARGS + take])
                at += 1
            found.append(ev.Moved(turn, car, names[a[0]], names[a[1]], tuple(route), a[2], a[3],
                                  a[4], a[5]))
        elif kind == E_START_ROLL:
            found.append(ev.StartRoll(turn, car, a[0], OUTCOMES[a[1]]))
        elif kind == E_SKIPPED:
            found.append(ev.Skipped(turn, car, "stall"))
        elif kind == E_SHIFT:
            found.append(ev.Shift(turn, car, a[0], a[1], Wear(*a[2:8])))
        elif kind == E_GEAR_ROLL:
            found.append(ev.GearRoll(turn, car, a[0], a[1]))
        elif kind == E_BLOCKED:
            found.append(ev.Blocked(turn, car, names[a[0]], a[1], Wear(brakes=a[2], tyres=a[3])))
        elif kind == E_OVERSHOOT:
            found.append(ev.Overshoot(turn, car, corners[a[0]], a[1], a[2], names[a[3]]))
        elif kind == E_SPIN_OUT:
            found.append(ev.SpinOut(turn, car, names[a[0]]))
        elif kind == E_DEBRIS_ROLL:
            found.append(ev.DebrisRoll(turn, car, names[a[0]], a[1], a[2]))
        elif kind == E_DEBRIS_DROPPED:
            found.append(ev.DebrisDropped(turn, car, names[a[0]]))
        elif kind == E_COLLISION_ROLL:
            found.append(ev.CollisionRoll(turn, car, a[0], None if a[1] == NO_ROLL else a[1],
                                          a[2], names[a[3]]))
        elif kind == E_ENGINE_ROLL:
            found.append(ev.EngineRoll(turn, car, a[0], a[1], names[a[2]]))
        elif kind == E_ELIMINATED:
            cause = CAUSES[a[0]]
            assert cause is not None
            found.append(ev.Eliminated(turn, car, cause, names[a[1]]))
        elif kind == E_LAP_COMPLETED:
            found.append(ev.LapCompleted(turn, car, a[0]))
        elif kind == E_FINISHED:
            found.append(ev.Finished(turn, car, a[0]))
        elif kind == E_PIT_STOP:
            found.append(ev.PitStop(turn, car, names[a[0]], a[1], bool(a[2]), a[3]))
        elif kind == E_REPAIR:
            found.append(ev.Repair(turn, car, Wear(*a[1:7]), a[0]))
        else:
            raise ValueError(f"unknown event kind {kind} in the kernel's log")
    return found
