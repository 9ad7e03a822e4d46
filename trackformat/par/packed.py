"""The solo race as the arrays compiled code reads: places, move tables, links, gears, dice.

Compiled code takes no Python objects, so :func:`pack` lays the :class:`~trackformat.par.layout.
Layout` out as numbered arrays, grouped in tuples in the orders :data:`PLACES`, :data:`MOVES`,
:data:`GEARS` and :data:`DICE` name. The values of the solo race are one array of floats
indexed by place, gear, and the WP left of each modelled category (:data:`VALUE_AXES`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from trackformat.par.layout import Layout
from trackformat.par.problem import Kind, Place, SoloRace
from trackformat.sim.core.state import Wear
from trackformat.sim.kernel.moves import board_arrays

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]

GEAR_SLOTS = 7
"""Gears 0 (not yet started, or stalled) to 6. A place where the gear does not matter (a spun
car restarts in its restart gear, a car in its box leaves in any gear up to the cap or in the
quick-stop gear) keeps its values in slot 0."""
VALUE_AXES = ("place", "gear", "tyres", "brakes", "gearbox", "engine")
"""The axes of the values array. The engine axis counts from 0: a car with no engine WP left
is out, and every value there is infinite, so an engine roll reads its loss as one step down."""

CTX_TRACK, CTX_PIT, CTX_SPUN, CTX_WAIT, CTX_NONE = 0, 1, 2, 3, -1
"""What decides a place's gear options: a turn on the track; in the pit lane (downshifts
free); a spun car; a car in its box after a slow stop; no gear chosen (leaving after a quick
stop)."""

PLACES = ("order", "kind", "free", "context", "table", "links", "grid", "space", "lap")
MOVES = ("offsets", "moves", "outcome_base", "box", "in_pit", "overshoot", "destination",
         "next", "exit")
GEARS = ("options", "counts", "used")
DICE = ("faces", "chances", "face_counts", "triggers", "exit_rolls", "exit_chances")
CHANCES = ("engine_loss", "slow", "quick")


@dataclass(frozen=True)
class Packed:
    """The arrays of one solo race (see the module docstring)."""

    shape: tuple[int, ...]
    places: tuple[Ints, ...]
    moves: tuple[Any, ...]
    """The move tables (:data:`MOVES`): the moves themselves packed in 32-bit ints, the rest
    64-bit."""
    gears: tuple[Ints, ...]
    dice: tuple[Ints, Floats, Ints, Ints, Ints, Floats]
    chances: Floats
    refill: Ints
    """1 for each modelled category a pit stop brings back to its starting WP."""
    tops: Ints
    """The starting WP of each modelled category."""
    quick_gear: int
    max_roll: int


def pack(layout: Layout) -> Packed:
    """Lay ``layout`` out as arrays (see the module docstring)."""
    solo = layout.solo
    tyres, brakes, gearbox, engine = solo.top
    shape = (len(layout.places), GEAR_SLOTS, tyres + 1, brakes + 1, gearbox + 1, engine + 1)
    max_roll = layout.moves.max_roll
    return Packed(
        shape=shape,
        places=_places(layout),
        moves=_moves(layout, max_roll),
        gears=_gears(solo, layout),
        dice=_dice(solo),
        chances=np.asarray([float(solo.engine_loss_chance()), *_pit_chances(solo)]),
        refill=np.asarray([int(name in solo.rules.pits.refill)
                           for name in ("tyres", "brakes", "gearbox", "engine")], np.int64),
        tops=np.asarray(solo.top, np.int64),
        quick_gear=solo.rules.pits.quick_gear,
        max_roll=max_roll,
    )


def context(layout: Layout, place: Place) -> int:
    """What decides the gear options of ``place`` (``CTX_*``)."""
    if place.kind == Kind.EXIT:
        return CTX_NONE
    if place.spun:
        return CTX_SPUN
    if place.kind == Kind.WAIT:
        return CTX_WAIT
    return CTX_PIT if layout.solo.board.in_pit(place.space) else CTX_TRACK


def _places(layout: Layout) -> tuple[Ints, ...]:
    number = board_arrays(layout.solo.board).number
    places = layout.places
    links = np.zeros(len(places), np.int64)
    total = 0
    for index, nexts in enumerate(layout.next):
        links[index] = total
        total += len(nexts)
    grids = set(layout.grids)
    return (
        layout.order,
        np.asarray([p.kind for p in places], np.int64),
        np.asarray([p.spun or p.kind != Kind.TURN for p in places], np.int64),
        np.asarray([context(layout, p) for p in places], np.int64),
        np.asarray(layout.table_of, np.int64),
        links,
        np.asarray([index in grids for index in range(len(places))], np.int64),
        np.asarray([number[p.space] for p in places], np.int64),
        np.asarray([p.lap for p in places], np.int64),
    )


def _moves(layout: Layout, max_roll: int) -> tuple[Any, ...]:
    tyres, brakes = layout.solo.top[0], layout.solo.top[1]
    number = board_arrays(layout.solo.board).number
    tables = layout.tables
    offsets = np.zeros((len(tables), tyres + 1, brakes + 1, max_roll + 2), np.int64)
    outcome_base = np.zeros(len(tables), np.int64)
    base = outcomes = 0
    for k, table in enumerate(tables):
        offsets[k] = table.offsets + base
        base += len(table.moves)
        outcome_base[k] = outcomes
        outcomes += len(table.outcomes)
    resolutions = [r for table in layout.resolutions for r in table]
    return (
        offsets,
        np.concatenate([table.moves for table in tables]) if tables else np.zeros(0, np.int32),
        outcome_base,
        np.asarray([r.box for r in resolutions], np.int64),
        np.asarray([r.in_pit for r in resolutions], np.int64),
        np.asarray([r.overshoot for r in resolutions], np.int64),
        np.asarray([number[r.space] for r in resolutions], np.int64),
        np.concatenate(layout.next) if layout.next else np.zeros((0, 2), np.int64),
        np.concatenate(layout.exit) if layout.exit else np.zeros((0, 2), np.int64),
    )


def _gears(solo: SoloRace, layout: Layout) -> tuple[Ints, ...]:
    """Each context's gear options, by gear, tyres, brakes, gearbox and engine WP: (gear, then
    the WP it costs in each modelled category), as the engine's ``gear_options`` gives them."""
    tyres, brakes, gearbox, engine = solo.top
    start = solo.start
    board = solo.board
    box = solo.pole.box or solo.pole.space
    pit = board.pit_lane[0] if board.pit_lane else solo.pole.space
    places = {CTX_TRACK: Place(solo.pole.space, 1, 0, False, 0, Kind.TURN),
              CTX_PIT: Place(pit, 1, 0, False, 0, Kind.TURN),
              CTX_SPUN: Place(solo.pole.space, 1, 0, True, 0, Kind.TURN),
              CTX_WAIT: Place(box, 1, 0, False, 1, Kind.WAIT)}
    options = np.zeros((4, GEAR_SLOTS, tyres + 1, brakes + 1, gearbox + 1, engine + 1, 6, 5),
                       np.int64)
    counts = np.zeros((4, GEAR_SLOTS, tyres + 1, brakes + 1, gearbox + 1, engine + 1), np.int64)
    used = np.zeros((4, GEAR_SLOTS), np.int64)
    for ctx, place in places.items():
        free = ctx in (CTX_SPUN, CTX_WAIT)
        for slot in range(1 if free else GEAR_SLOTS):
            gear = 1 if free else slot  # a car in its box or spun has a gear of 1 or more
            for t in range(tyres + 1):
                for b in range(brakes + 1):
                    for gb in range(gearbox + 1):
                        for e in range(1, engine + 1):
                            wear = Wear(t, b, gb, start.body, e, start.suspension)
                            found = solo.options(place, gear, wear)
                            counts[ctx, slot, t, b, gb, e] = len(found)
                            for k, (taken, cost) in enumerate(found):
                                options[ctx, slot, t, b, gb, e, k] = (
                                    taken, cost.tyres, cost.brakes, cost.gearbox, cost.engine)
                                used[ctx, taken] = 1
    return options, counts, used


def _dice(solo: SoloRace) -> tuple[Ints, Floats, Ints, Ints, Ints, Floats]:
    gears = len(solo.rules.dice.gears)
    width = max(len(solo.faces(g)) for g in range(1, gears + 1))
    faces = np.zeros((GEAR_SLOTS, width), np.int64)
    chances = np.zeros((GEAR_SLOTS, width))
    counts = np.zeros(GEAR_SLOTS, np.int64)
    triggers = np.zeros((GEAR_SLOTS, width), np.int64)
    for gear in range(1, gears + 1):
        distribution = solo.faces(gear)
        counts[gear] = len(distribution)
        for k, (face, chance) in enumerate(distribution):
            faces[gear, k], chances[gear, k] = face, float(chance)
            triggers[gear, k] = solo.triggers(gear, face)
    exits = solo.exit_rolls()
    return (faces, chances, counts, triggers, np.asarray([s for s, _ in exits], np.int64),
            np.asarray([float(c) for _, c in exits]))


def _pit_chances(solo: SoloRace) -> tuple[float, float]:
    """The chances of a slow and of a quick stop."""
    quick = float(solo.black_chance(range(1, solo.rules.pits.quick_max + 1)))
    return 1.0 - quick, quick
