"""The policy par finds, as a graph of the states it reaches from pole, as compiled code.

The backward induction (:mod:`~trackformat.par.bellman`) gives each state its value and the gear
option that reaches it; the policy takes that option, then for each face the first move, in the
engine's order, with the least value (compared as the solver compares them, so the choice is
the one the values were computed with). :func:`policy_graph` follows it from the states of the
start and lists, for each state it reaches, where the turn leads with what chance, and what is
paid on the way: a few hundred thousand states for two laps of Monaco, each met on many turns,
so that :mod:`~trackformat.par.forward` can play the race turn by turn without choosing again.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from trackformat.sim.kernel.jit import compiled, entry

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]

# The numbers of :mod:`~trackformat.par.bellman` this module's compiled code reads, defined
# again here rather than imported (numba keeps compiled code by the file that defines it, and
# would keep it after a number changed in another file); ``tests/par/test_compiled.py`` holds
# them equal.
INFINITE = np.inf
FINISH = -1
OUTCOME_MASK = (1 << 16) - 1
PAID_MASK = (1 << 7) - 1
TYRES_SHIFT, BRAKES_SHIFT, SPIN_SHIFT = 16, 23, 30

CLEAN = ("tyres", "brakes", "gearbox", "engine", "overshoot", "spin", "pit_stop")
"""What a path may not have paid yet: the chances carried besides the total (see
:mod:`~trackformat.par.forward`)."""
C_TYRES, C_BRAKES, C_GEARBOX, C_ENGINE, C_OVERSHOOT, C_SPIN, C_STOP = range(1, 8)
COUNTED = ("tyres", "brakes", "gearbox", "engine", "overshoot", "spin", "pit_stop",
           "quick_stop", "slow_stop", "engine_before_last_lap")
"""Expected WP paid (the first four) and expected number of each event (the rest; the last:
engine WP lost before the last lap, each of which leaves debris a later lap may pass)."""
TRANSITION = ("target", "chance", "paid", "corner")
"""What the graph keeps of each way a turn can go: the state it leads to (:data:`FINISH`
for the flag), its chance, the categories paid on the way (bit ``c`` for clean chance
``c``), and the corner the move enters from outside it (-1 if none)."""


@compiled
def move_value(values: Floats, moves: Any, link: int, base: int, row: int, gear: int,
               free: Ints, tyres: int, brakes: int, gearbox: int, engine: int, rolled: bool,
               chances: Floats, refill: Ints, tops: Ints) -> float:
    """The value of the move in row ``row`` for one gearbox and engine level: the same
    arithmetic as :func:`~trackformat.par.bellman.move_values`, which gave the values."""
    rows, box, in_pit, nexts, exits = moves[1], moves[3], moves[4], moves[7], moves[8]
    packed = rows[row]
    outcome, spin = packed & OUTCOME_MASK, (packed >> SPIN_SHIFT) & 1
    tyres_left = tyres - ((packed >> TYRES_SHIFT) & PAID_MASK)
    brakes_left = brakes - ((packed >> BRAKES_SHIFT) & PAID_MASK)
    after = nexts[link + outcome, spin]
    if box[base + outcome]:
        quick = exits[link + outcome, spin]
        tyres_left = tops[0] if refill[0] else tyres_left
        brakes_left = tops[1] if refill[1] else brakes_left
        gearbox = tops[2] if refill[2] else gearbox
        engine = tops[3] if refill[3] else engine
        stop = 0.0
        if chances[1] > 0:
            stop += chances[1] * values[after, 0, tyres_left, brakes_left, gearbox, engine]
        if chances[2] > 0:
            stop += chances[2] * values[quick, 0, tyres_left, brakes_left, gearbox, engine]
        return stop
    roll = rolled and chances[0] > 0 and not in_pit[base + outcome]
    if after == FINISH:
        return INFINITE if roll and engine == 1 else 0.0
    slot = 0 if free[after] else gear
    value: float = values[after, slot, tyres_left, brakes_left, gearbox, engine]
    if roll:
        lost = values[after, slot, tyres_left, brakes_left, gearbox, engine - 1]
        value = (1.0 - chances[0]) * value + chances[0] * lost
    return value


@compiled
def best_row(values: Floats, moves: Any, link: int, base: int, k: int, roll: int, gear: int,
             free: Ints, tyres: int, brakes: int, gearbox: int, engine: int, rolled: bool,
             chances: Floats, refill: Ints, tops: Ints) -> tuple[int, float]:
    """The move the policy plays for ``roll`` (the first with the least value) and its
    value; -1 when no move is left."""
    offsets = moves[0]
    chosen, best = -1, INFINITE
    for row in range(offsets[k, tyres, brakes, roll], offsets[k, tyres, brakes, roll + 1]):
        value = move_value(values, moves, link, base, row, gear, free, tyres, brakes, gearbox,
                           engine, rolled, chances, refill, tops)
        if chosen < 0 or value < best:
            chosen, best = row, value
    return chosen, best


@compiled
def pay(per_visit: Floats, counted: int, chance: float, amount: int, clean: int) -> int:
    """Count ``amount`` WP (or events) paid with ``chance``; the bit that ends the clean
    chance ``clean`` if anything was paid, else 0."""
    if amount <= 0:
        return 0
    per_visit[counted] += chance * amount
    return 1 << clean


@compiled
def flat(shape: Ints, p: int, slot: int, t: int, b: int, gb: int, e: int) -> int:
    """The number of a state in the values array (C order)."""
    number: int = ((((p * shape[1] + slot) * shape[2] + t) * shape[3] + b) * shape[4]
                   + gb) * shape[5] + e
    return number


@compiled
def unflat(shape: Ints, state: int) -> tuple[int, int, int, int, int, int]:
    """The place, gear slot and WP of state number ``state``."""
    e = state % shape[5]
    state //= shape[5]
    gb = state % shape[4]
    state //= shape[4]
    b = state % shape[3]
    state //= shape[3]
    t = state % shape[2]
    state //= shape[2]
    return state // shape[1], state % shape[1], t, b, gb, e


@compiled
def link(graph: Any, state: int, chance: float, paid: int, corner: int) -> None:
    """Add a transition to the graph's growing lists (``graph``: the states by number, the
    transitions' four columns as lists)."""
    index_of, states, targets, chances, paids, corners = graph
    if state == FINISH:
        target = FINISH
    else:
        target = index_of[state]
        if target < 0:
            target = index_of[state] = len(states)
            states.append(state)
    targets.append(target)
    chances.append(chance)
    paids.append(paid)
    corners.append(corner)


@compiled
def expand(state: int, graph: Any, places: Any, moves: Any, gears: Any, dice: Any,
           values: Floats, choices: Any, chances: Floats, refill: Ints, tops: Ints,
           quick_gear: int, laps: int, corner_of: Ints, per_visit: Floats) -> int:
    """List the ways the turn of state ``state`` goes under the policy, and what a visit pays
    on average (into ``per_visit``); returns the gear taken."""
    kind, free, context, table, links = places[1], places[2], places[3], places[4], places[5]
    space, lap = places[7], places[8]
    rows, outcome_base, box = moves[1], moves[2], moves[3]
    in_pit, overshoot, destination, nexts, exits = moves[4], moves[5], moves[6], moves[7], \
        moves[8]
    faces, face_chances, face_counts, triggers = dice[0], dice[1], dice[2], dice[3]
    exit_rolls, exit_chances = dice[4], dice[5]
    shape = np.asarray(values.shape, np.int64)
    p, slot, t, b, gb, e = unflat(shape, state)
    here = space[p]
    k = table[p]
    base = outcome_base[k]
    option = gears[0][context[p], slot, t, b, gb, e, choices[p, slot, t, b, gb, e]]
    gear: int = option[0]
    shift = (pay(per_visit, 0, 1.0, option[1], C_TYRES)
             | pay(per_visit, 1, 1.0, option[2], C_BRAKES)
             | pay(per_visit, 2, 1.0, option[3], C_GEARBOX)
             | pay(per_visit, 3, 1.0, option[4], C_ENGINE))
    if lap[p] < laps:
        per_visit[9] += option[4]
    t1, b1, gb1, e1 = t - option[1], b - option[2], gb - option[3], e - option[4]
    for f in range(face_counts[gear]):
        rolled = triggers[gear, f] == 1
        row, _ = best_row(values, moves, links[p], base, k, faces[gear, f], gear, free, t1, b1,
                          gb1, e1, rolled, chances, refill, tops)
        packed = rows[row]
        outcome, spin = packed & OUTCOME_MASK, (packed >> SPIN_SHIFT) & 1
        tyres_paid = (packed >> TYRES_SHIFT) & PAID_MASK
        brakes_paid = (packed >> BRAKES_SHIFT) & PAID_MASK
        scale = face_chances[gear, f]
        paid = (shift | pay(per_visit, 0, scale, tyres_paid, C_TYRES)
                | pay(per_visit, 1, scale, brakes_paid, C_BRAKES)
                | pay(per_visit, 4, scale, overshoot[base + outcome], C_OVERSHOOT)
                | pay(per_visit, 5, scale, spin, C_SPIN))
        into = corner_of[destination[base + outcome]]
        if into == corner_of[here] or kind[p] != 0:
            into = -1
        t2, b2 = t1 - tyres_paid, b1 - brakes_paid
        after = nexts[links[p] + outcome, spin]
        if box[base + outcome]:
            paid |= pay(per_visit, 6, scale, 1, C_STOP)
            t2 = tops[0] if refill[0] else t2
            b2 = tops[1] if refill[1] else b2
            gb2 = tops[2] if refill[2] else gb1
            e2 = tops[3] if refill[3] else e1
            if chances[1] > 0:
                per_visit[8] += scale * chances[1]
                link(graph, flat(shape, after, 0, t2, b2, gb2, e2), scale * chances[1], paid,
                     into)
            if chances[2] <= 0:
                continue
            per_visit[7] += scale * chances[2]
            quick = exits[links[p] + outcome, spin]
            qk = table[quick]
            for x in range(len(exit_rolls)):
                left = scale * chances[2] * exit_chances[x]
                row2, _ = best_row(values, moves, links[quick], outcome_base[qk], qk,
                                   exit_rolls[x], quick_gear, free, t2, b2, gb2, e2, False,
                                   chances, refill, tops)
                packed2 = rows[row2]
                outcome2, spin2 = packed2 & OUTCOME_MASK, (packed2 >> SPIN_SHIFT) & 1
                tyres2 = (packed2 >> TYRES_SHIFT) & PAID_MASK
                brakes2 = (packed2 >> BRAKES_SHIFT) & PAID_MASK
                paid2 = (paid | pay(per_visit, 0, left, tyres2, C_TYRES)
                         | pay(per_visit, 1, left, brakes2, C_BRAKES)
                         | pay(per_visit, 4, left, overshoot[outcome_base[qk] + outcome2],
                               C_OVERSHOOT)
                         | pay(per_visit, 5, left, spin2, C_SPIN))
                gone = nexts[links[quick] + outcome2, spin2]
                if gone != FINISH:
                    gone = flat(shape, gone, 0 if free[gone] else quick_gear, t2 - tyres2,
                                b2 - brakes2, gb2, e2)
                link(graph, gone, left, paid2, into)
            continue
        roll = rolled and chances[0] > 0 and not in_pit[base + outcome]
        kept = scale * (1.0 - chances[0]) if roll else scale
        lost = scale * chances[0]
        slot2 = 0 if after == FINISH or free[after] else gear
        link(graph, FINISH if after == FINISH else flat(shape, after, slot2, t2, b2, gb1, e1),
             kept, paid, into)
        if roll:
            lost_paid = paid | pay(per_visit, 3, lost, 1, C_ENGINE)
            if lap[p] < laps and after != FINISH:
                per_visit[9] += lost  # the last crossing leaves no lap to pass the debris
            link(graph, FINISH if after == FINISH else flat(shape, after, slot2, t2, b2, gb1,
                                                            e1 - 1), lost, lost_paid, into)
    return gear


@entry
def policy_graph(places: Any, moves: Any, gears: Any, dice: Any, values: Floats,
                 choices: Any, chances: Floats, refill: Ints, tops: Ints, quick_gear: int,
                 laps: int, corner_of: Ints, starts: Ints, counted: int
                 ) -> tuple[Ints, Ints, Ints, Floats, Ints, Ints, Floats, Ints]:
    """Follow the policy from the states ``starts``: every state it reaches (their numbers in
    the values array, the starts first, in order), the first transition of each (and one past
    the last), the transitions' columns (:data:`TRANSITION`), what a visit of each state pays
    on average (``counted`` columns, :data:`COUNTED`), and the gear it takes."""
    index_of = np.full(values.size, -1, np.int64)
    states = [0 for _ in range(0)]  # typed lists, empty: compiled code knows their type
    targets = [0 for _ in range(0)]
    paths = [0.0 for _ in range(0)]
    paids = [0 for _ in range(0)]
    corners = [0 for _ in range(0)]
    for start in starts:
        state = int(start)
        if index_of[state] < 0:
            index_of[state] = len(states)
            states.append(state)
    graph = (index_of, states, targets, paths, paids, corners)
    first = [0 for _ in range(0)]
    per_visit = [np.zeros(counted) for _ in range(0)]
    gear_of = [0 for _ in range(0)]
    n = 0
    while n < len(states):
        first.append(len(targets))
        paid = np.zeros(counted)
        gear_of.append(expand(states[n], graph, places, moves, gears, dice, values, choices,
                              chances, refill, tops, quick_gear, laps, corner_of, paid))
        per_visit.append(paid)
        n += 1
    first.append(len(targets))
    visits = np.zeros((n, counted))
    for i in range(n):
        visits[i] = per_visit[i]
    return (np.asarray(states), np.asarray(first), np.asarray(targets), np.asarray(paths),
            np.asarray(paids), np.asarray(corners), visits, np.asarray(gear_of))
