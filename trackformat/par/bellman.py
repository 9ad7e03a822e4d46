"""The values of the solo race by backward induction, as compiled code.

The value of a state is the least expected number of game turns left, this one included, over
the policies that are never eliminated (infinite where every policy risks elimination). For a
turn: the best gear option of ``1 + W``, where ``W`` of a gear is the sum over the faces of its
die of the face's chance times the best move of that face; a move's value is that of the state
it leads to, after the engine roll a top face sets off (one engine WP lost at the chance the
black die gives), and after a pit stop at the box: the chance of a slow stop times the value of
waiting in the box, plus the chance of a quick one times the value of leaving at once.

Places are solved in reverse of their forward order (:func:`~trackformat.par.layout.
forward_order`), so every place a move leads to is solved first; within a place, by brakes WP
from none up, since the only moves that stay in a place brake to a standstill and spend them.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from trackformat.sim.kernel.jit import compiled, entry

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]
Choices = npt.NDArray[np.int8]

# The numbers compiled into this module's code are defined here and nowhere else (the Python
# side imports them from here): numba keeps compiled code by the file that defines it, and
# compiles a number read from another module into it, so a change there would leave this
# file's kept code stale.
INFINITE = np.inf
KIND_EXIT = 2
"""``Kind.EXIT``: a car leaving its box at once after a quick stop."""
FINISH = -1
"""The "next place" of a move that finishes the race."""
OUTCOME_MASK = (1 << 16) - 1
PAID_MASK = (1 << 7) - 1
TYRES_SHIFT, BRAKES_SHIFT, SPIN_SHIFT = 16, 23, 30
"""A move packed in one 32-bit int: its outcome (the low 16 bits), the tyres and the brakes WP
it costs (7 bits each: a category holds 99 WP at most), whether it spins the car
(:func:`~trackformat.par.tables.pack_moves`)."""


@compiled
def move_values(values: Floats, moves: Any, links: int, outcome_base: int, row: int,
                gear: int, free: Ints, tyres: int, brakes: int, rolled: bool, chances: Floats,
                refill: Ints, tops: Ints, best: Floats) -> None:
    """Lower ``best[gearbox, engine]`` to the value of the move in row ``row`` of the tables,
    played in ``gear`` by a car with ``tyres`` and ``brakes`` WP and every gearbox and engine
    level; ``rolled``: the gear die showed a face that sets off an engine roll."""
    rows, box, in_pit = moves[1], moves[3], moves[4]
    nexts, exits = moves[7], moves[8]
    packed = rows[row]
    outcome, spin = packed & OUTCOME_MASK, (packed >> SPIN_SHIFT) & 1
    tyres_left = tyres - ((packed >> TYRES_SHIFT) & PAID_MASK)
    brakes_left = brakes - ((packed >> BRAKES_SHIFT) & PAID_MASK)
    after = nexts[links + outcome, spin]
    gearboxes, engines = best.shape[0], best.shape[1]
    if box[outcome_base + outcome]:
        # A stop: the categories the rules refill come back, then the crew's roll decides
        # between waiting a turn in the box and leaving at once.
        quick = exits[links + outcome, spin]
        if refill[0]:
            tyres_left = tops[0]
        if refill[1]:
            brakes_left = tops[1]
        for gb in range(gearboxes):
            kept_gb = tops[2] if refill[2] else gb
            for e in range(1, engines):
                kept_e = tops[3] if refill[3] else e
                value = 0.0
                if chances[1] > 0:
                    value += chances[1] * values[after, 0, tyres_left, brakes_left, kept_gb,
                                                 kept_e]
                if chances[2] > 0:
                    value += chances[2] * values[quick, 0, tyres_left, brakes_left, kept_gb,
                                                 kept_e]
                if value < best[gb, e]:
                    best[gb, e] = value
        return
    roll = rolled and chances[0] > 0 and not in_pit[outcome_base + outcome]
    if after == FINISH:
        # The finishing move still rolls for its engine (ruling W2): losing the last WP then
        # means the car is out, not classified.
        for gb in range(gearboxes):
            for e in range(1, engines):
                value = INFINITE if roll and e == 1 else 0.0
                if value < best[gb, e]:
                    best[gb, e] = value
        return
    slot = 0 if free[after] else gear
    ahead = values[after, slot, tyres_left, brakes_left]
    for gb in range(gearboxes):
        for e in range(1, engines):
            value = ahead[gb, e]
            if roll:
                value = (1.0 - chances[0]) * value + chances[0] * ahead[gb, e - 1]
            if value < best[gb, e]:
                best[gb, e] = value


@compiled
def gear_values(p: int, places: Any, moves: Any, dice: Any, values: Floats, chances: Floats,
                refill: Ints, tops: Ints, gear: int, tyres: int, brakes: int, total: Floats,
                face_best: Floats) -> None:
    """``W`` of ``gear`` at place ``p`` with ``tyres`` and ``brakes`` WP, for every gearbox
    and engine level, into ``total``: over the faces of the gear's die, the face's chance
    times its best move."""
    free, table, links = places[2], places[4], places[5]
    offsets, outcome_base = moves[0], moves[2]
    faces, face_chances, face_counts, triggers = dice[0], dice[1], dice[2], dice[3]
    k = table[p]
    base = outcome_base[k]
    total[:] = 0.0
    for f in range(face_counts[gear]):
        roll = faces[gear, f]
        face_best[:] = INFINITE
        for row in range(offsets[k, tyres, brakes, roll], offsets[k, tyres, brakes, roll + 1]):
            move_values(values, moves, links[p], base, row, gear, free, tyres, brakes,
                        triggers[gear, f] == 1, chances, refill, tops, face_best)
        total += face_chances[gear, f] * face_best


@compiled
def solve_turn(p: int, places: Any, moves: Any, gears: Any, dice: Any, values: Floats,
               choices: Choices, chances: Floats, refill: Ints, tops: Ints,
               turn: Floats) -> None:
    """The values of every gear and WP at turn-starting place ``p``, and the gear option
    that gives each (its number among the options, into ``choices``); ``turn``: scratch for
    ``W``, by gear, tyres, brakes, gearbox and engine."""
    free, context, grid = places[2], places[3], places[6]
    options, counts, used = gears[0], gears[1], gears[2]
    ctx = context[p]
    tyres_top, brakes_top = tops[0], tops[1]
    gearboxes, engines = tops[2] + 1, tops[3] + 1
    best = np.empty((gearboxes, engines))
    face_best = np.empty((gearboxes, engines))
    turn[:] = np.nan
    for b in range(brakes_top + 1):
        for gear in range(1, used.shape[1]):
            if not used[ctx, gear]:
                continue
            for t in range(tyres_top + 1):
                gear_values(p, places, moves, dice, values, chances, refill, tops, gear, t, b,
                            best, face_best)
                for gb in range(gearboxes):
                    for e in range(1, engines):
                        turn[gear, t, b, gb, e] = best[gb, e]
        first_slot, last_slot = (0, 1) if free[p] else (1 - grid[p], values.shape[1])
        for slot in range(first_slot, last_slot):
            for t in range(tyres_top + 1):
                for gb in range(gearboxes):
                    values[p, slot, t, b, gb, 0] = INFINITE
                    for e in range(1, engines):
                        choice, chosen = INFINITE, -1
                        for n in range(counts[ctx, slot, t, b, gb, e]):
                            option = options[ctx, slot, t, b, gb, e, n]
                            w = turn[option[0], t - option[1], b - option[2], gb - option[3],
                                     e - option[4]]
                            if w < choice:
                                choice, chosen = w, n
                        values[p, slot, t, b, gb, e] = 1.0 + choice
                        choices[p, slot, t, b, gb, e] = chosen


@compiled
def solve_exit(p: int, places: Any, moves: Any, dice: Any, values: Floats, chances: Floats,
               refill: Ints, tops: Ints, quick_gear: int) -> None:
    """The values at a place where the car leaves its box at once after a quick stop: the
    expectation over the crew's roll of the best move out (no +1: the turn is the stop's)."""
    free, table, links = places[2], places[4], places[5]
    offsets, outcome_base = moves[0], moves[2]
    exit_rolls, exit_chances = dice[4], dice[5]
    k = table[p]
    base = outcome_base[k]
    gearboxes, engines = tops[2] + 1, tops[3] + 1
    total = np.empty((gearboxes, engines))
    best = np.empty((gearboxes, engines))
    for t in range(tops[0] + 1):
        for b in range(tops[1] + 1):
            total[:] = 0.0
            for n in range(len(exit_rolls)):
                roll = exit_rolls[n]
                best[:] = INFINITE
                for row in range(offsets[k, t, b, roll], offsets[k, t, b, roll + 1]):
                    move_values(values, moves, links[p], base, row, quick_gear, free, t, b,
                                False, chances, refill, tops, best)
                total += exit_chances[n] * best
            for gb in range(gearboxes):
                values[p, 0, t, b, gb, 0] = INFINITE
                for e in range(1, engines):
                    values[p, 0, t, b, gb, e] = total[gb, e]


@entry
def solve_places(places: Any, moves: Any, gears: Any, dice: Any, values: Floats,
                 choices: Choices, chances: Floats, refill: Ints, tops: Ints,
                 quick_gear: int) -> int:
    """Fill ``values`` (and ``choices``: the gear option taken) for every place, last place of
    the forward order first; returns how many states were solved."""
    order, kind = places[0], places[1]
    turn = np.empty((values.shape[1], values.shape[2], values.shape[3], values.shape[4],
                     values.shape[5]))
    solved = 0
    for n in range(len(order) - 1, -1, -1):
        p = order[n]
        if kind[p] == KIND_EXIT:
            solve_exit(p, places, moves, dice, values, chances, refill, tops, quick_gear)
        else:
            solve_turn(p, places, moves, gears, dice, values, choices, chances, refill, tops,
                       turn)
        for slot in range(values.shape[1]):
            for t in range(values.shape[2]):
                for b in range(values.shape[3]):
                    for gb in range(values.shape[4]):
                        for e in range(1, values.shape[5]):
                            if not np.isnan(values[p, slot, t, b, gb, e]):
                                solved += 1
    return solved
