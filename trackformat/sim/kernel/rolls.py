"""Each roll's moves from a walk's outcomes, in the readable engine's order, as compiled code.

The second half of pricing (:mod:`~trackformat.sim.kernel.price` does the first, once per
walk): for each roll asked, every outcome short enough for it is a full move, a braking one
(brakes WP per space not covered), a blocked one (the deepest routes, when cars block every
way) or a move in the pit lane; the distinct moves are kept in a table found by a hash of their
key, with the first route that gives them, and sorted by insertion as they come, as
:func:`trackformat.sim.move.legal.collect_moves` sorts them. Apart from the walk's outcomes
because a driver that weighs a gear face by face prices each face only when it needs it.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from trackformat.sim.kernel.jit import borrow, compiled, copy_into, inlined
from trackformat.sim.kernel.price import (
    BY_BLOCKED,
    F_CLASS,
    F_ELIMINATED,
    F_ENTRIES,
    F_OVER_TYRES,
    F_PIT,
    F_ROUTE,
    F_SPIN,
    M_BLOCKED,
    M_BOX,
    M_BRAKES,
    M_DEBRIS,
    M_DEST,
    M_DISTANCE,
    M_ELIMINATED,
    M_ENTRIES,
    M_EXITS,
    M_NEXITS,
    M_ROLL,
    M_ROUTE,
    M_SLIPSTREAM,
    M_SPIN,
    M_TYRES,
    MOVE_COLUMNS,
    NOT_ELIMINATED,
    T_BLOCK_FROM,
    T_BRAKES_LEFT,
    T_BRAKES_PER_SPACE,
    T_CARRIED,
    T_ENTRY_BRAKES,
    T_ENTRY_TYRES,
    T_LEAVING_PIT,
    T_SLIPSTREAM,
    T_TYRES_LEFT,
    Walked,
    outcomes_of,
    table_slots,
)
from trackformat.sim.kernel.route_rows import (
    MAX_DEPTH,
    MAX_EXITS,
    R_AT_BOX,
    R_DEBRIS,
    R_END,
    R_ENTRIES,
    R_EXITS,
    R_NEXITS,
    R_PATH,
    BoardTables,
    Setting,
    WalkSpace,
)

Ints = npt.NDArray[np.int64]

(K_ROLL, K_FIRST, K_CLASS, K_BRAKES, K_TYRES, K_BLOCKED, K_SPIN, K_ELIMINATED, K_DISTANCE,
 K_DEST, K_HASH, K_ORDER) = range(12)
KEPT_COLUMNS = 12
"""A move while pricing: its roll, its route (a row of the walk's table), what it shares
with the moves of routes alike (``K_CLASS``: the same destination, debris, box and overshoots),
what it costs and how it ends (the ``M_*`` columns of the same names), its distance and
destination (for the order), and the hash of its key; ``K_ORDER`` of row n is the row of the
n-th move in the engine's order."""


@inlined
def moves_of(board: BoardTables, setting: Setting, origin: Ints, walk: Ints, shapes: Ints,
           rolls: Ints, terms: Ints, block_brakes: Ints, block_tyres: Ints,
           walk_space: WalkSpace, workspace: tuple[Ints, Ints, Ints, Ints]) -> Ints:
    """Walk the routes (:func:`~trackformat.sim.kernel.walk.walk_routes`) and sort them into
    the moves of each of ``rolls`` (full, braking, blocked, pit), as
    :func:`~trackformat.sim.move.legal.collect_moves` does: one row each, roll by roll, each
    roll's distinct moves in the engine's order with the first route that gives them.
    ``terms`` (``T_*``) are the numbers pricing reads; the walk works in ``walk_space``, pricing
    in ``workspace`` and the walk's hash table (see :mod:`~trackformat.sim.kernel.workspace`)."""
    walked = outcomes_of(board, setting, origin, walk, shapes, terms, walk_space, workspace)
    rows, _ = price_rolls(walked, rolls, terms, block_brakes, block_tyres, workspace[1],
                          np.empty((0, MOVE_COLUMNS), np.int64), 0)
    return rows


@compiled
def price_rolls(walked: Walked, rolls: Ints, terms: Ints, block_brakes: Ints,
                block_tyres: Ints, kept: Ints, out: Ints, used: int) -> tuple[Ints, int]:
    """The moves of each of ``rolls`` (sorted, distinct, none past the walk's and none priced
    before from the same walk) from a walk's :func:`outcomes_of`: one row each, roll by roll,
    each roll's distinct moves in the engine's order with the first route that gives them.
    They are written in ``out`` from row ``used`` on (a bigger table when it is full): the table
    and the rows used come back. ``kept`` is a table to work in (the workspace's)."""
    routes, firsts, outcomes, depths, on_track, table, stamp = walked
    firsts, terms, block_brakes, block_tyres = borrow((firsts, terms, block_brakes, block_tyres))
    if len(kept) < len(rolls) * outcomes:
        kept = np.empty((len(rolls) * outcomes, KEPT_COLUMNS), np.int64)
    mask = table_slots(outcomes) - 1
    total = 0
    for roll in rolls:
        blocked_at = blocked_depth(on_track, roll)
        start = total
        for f in range(outcomes):
            depth = depths[f]
            if depth > roll:
                continue
            is_move, brakes, paid_tyres, blocked, spins, eliminated = outcome_price(
                firsts, f, depth, roll, blocked_at, terms, block_brakes, block_tyres)
            if not is_move:
                continue
            kind = firsts[f, F_CLASS]
            # Each distinct move once (its class, costs, blocking, spin and elimination).
            h = (((((kind * 1000003 + brakes) * 1000003 + paid_tyres) * 1000003 + blocked)
                  * 1000003 + spins) * 1000003 + eliminated)
            h = (h ^ (h >> 29)) & 0x3FFFFFFFFFFFFFFF
            at = h & mask
            seen = False
            while stamp[at] == roll:
                k = table[at]
                if (kept[k, K_HASH] == h and kept[k, K_CLASS] == kind
                        and kept[k, K_BRAKES] == brakes and kept[k, K_TYRES] == paid_tyres
                        and kept[k, K_BLOCKED] == blocked and kept[k, K_SPIN] == spins
                        and kept[k, K_ELIMINATED] == eliminated):
                    seen = True
                    break
                at = (at + 1) & mask
            if seen:
                continue
            table[at] = total
            stamp[at] = roll
            first, dest = firsts[f, F_ROUTE], routes[firsts[f, F_ROUTE], R_END]
            kept[total, K_ROLL], kept[total, K_FIRST], kept[total, K_CLASS] = roll, first, kind
            kept[total, K_BRAKES], kept[total, K_TYRES] = brakes, paid_tyres
            kept[total, K_BLOCKED], kept[total, K_SPIN] = blocked, spins
            kept[total, K_ELIMINATED], kept[total, K_DISTANCE] = eliminated, depth
            kept[total, K_DEST], kept[total, K_HASH] = dest, h
            # Insertion in the engine's order.
            place = total
            while place > start:
                # Before the move there? The moves that do not eliminate the car first, then
                # the longest, the cheapest, by destination, by route.
                b = kept[place - 1, K_ORDER]
                earlier = False
                if (eliminated != NOT_ELIMINATED) != (kept[b, K_ELIMINATED] != NOT_ELIMINATED):
                    earlier = kept[b, K_ELIMINATED] != NOT_ELIMINATED
                elif depth != kept[b, K_DISTANCE]:
                    earlier = depth > kept[b, K_DISTANCE]
                elif brakes + paid_tyres != kept[b, K_BRAKES] + kept[b, K_TYRES]:
                    earlier = brakes + paid_tyres < kept[b, K_BRAKES] + kept[b, K_TYRES]
                elif dest != kept[b, K_DEST]:
                    earlier = dest < kept[b, K_DEST]
                else:
                    other = kept[b, K_FIRST]
                    for i in range(R_PATH, R_PATH + depth):
                        if routes[first, i] != routes[other, i]:
                            earlier = routes[first, i] < routes[other, i]
                            break
                if not earlier:
                    break
                kept[place, K_ORDER] = b
                place -= 1
            kept[place, K_ORDER] = total
            total += 1
    if used + total > len(out):
        grown = np.empty((max(used + total, 2 * len(out)), MOVE_COLUMNS), np.int64)
        for r in range(used):
            copy_into(grown[r], out[r])
        out = grown
    for i in range(total):
        k = kept[i, K_ORDER]
        r = kept[k, K_FIRST]
        row = out[used + i]
        row[M_ROLL], row[M_DEST] = kept[k, K_ROLL], kept[k, K_DEST]
        row[M_BRAKES], row[M_TYRES] = kept[k, K_BRAKES], kept[k, K_TYRES]
        row[M_BLOCKED], row[M_SPIN] = kept[k, K_BLOCKED], kept[k, K_SPIN]
        row[M_ELIMINATED] = kept[k, K_ELIMINATED]
        row[M_DEBRIS], row[M_BOX] = routes[r, R_DEBRIS], routes[r, R_AT_BOX]
        exits = routes[r, R_NEXITS]
        row[M_NEXITS] = exits
        depth = kept[k, K_DISTANCE]
        for e in range(MAX_EXITS):
            if e < exits:
                row[M_EXITS + 3 * e] = routes[r, R_EXITS + 3 * e]
                row[M_EXITS + 3 * e + 1] = depth - routes[r, R_EXITS + 3 * e + 1] + 1
                row[M_EXITS + 3 * e + 2] = routes[r, R_EXITS + 3 * e + 2]
            else:
                row[M_EXITS + 3 * e] = -1
                row[M_EXITS + 3 * e + 1] = -1
                row[M_EXITS + 3 * e + 2] = -1
        row[M_DISTANCE] = depth
        for c in range(depth):
            row[M_ROUTE + c] = routes[r, R_PATH + c]
        for c in range(depth, MAX_DEPTH):
            row[M_ROUTE + c] = -1  # the walk keeps no path past a route's depth
        row[M_ENTRIES] = terms[T_CARRIED] + routes[r, R_ENTRIES]
        row[M_SLIPSTREAM] = terms[T_SLIPSTREAM]
    return out, used + total


@inlined
def blocked_depth(on_track: npt.NDArray[np.bool_], roll: int) -> int:
    """The depth where cars block every way of a walk for ``roll`` (its deepest route on the
    track, when that is short of the roll), or -1 when they do not."""
    deepest = min(roll, MAX_DEPTH)
    while deepest >= 0 and not on_track[deepest]:
        deepest -= 1
    return deepest if 0 <= deepest < roll else -1


@inlined
def outcome_price(firsts: Ints, f: int, depth: int, roll: int, blocked_at: int, terms: Ints,
                  block_brakes: Ints, block_tyres: Ints) -> tuple[bool, int, int, int, int, int]:
    """What outcome ``f`` of a walk (``depth`` spaces, not past ``roll``) is as a move of
    ``roll`` (see ``legal._price``): whether it is one at all (full, braking, blocked or in the
    pit lane), and then its brakes and tyres WP, the spaces left over when blocked, whether it
    spins the car and what eliminates it (``M_*`` columns of the same names). Shared by pricing
    and by the drivers that only ask whether some move of a roll will do."""
    brakes_left, tyres_left = terms[T_BRAKES_LEFT], terms[T_TYRES_LEFT]
    entry_brakes, entry_tyres = terms[T_ENTRY_BRAKES], terms[T_ENTRY_TYRES]
    braking, left_over = 0, -1
    if firsts[f, F_PIT] >= 0:
        if firsts[f, F_PIT] == 0 and not (terms[T_LEAVING_PIT] and depth == roll):
            return False, 0, 0, 0, 0, 0
    elif depth == blocked_at:
        left_over = roll - depth
    elif depth < roll:
        braking = (roll - depth) * terms[T_BRAKES_PER_SPACE]
        if braking > brakes_left:
            return False, 0, 0, 0, 0, 0  # nobody brakes without the WP (entries only add)
    entries = firsts[f, F_ENTRIES]
    eliminated = firsts[f, F_ELIMINATED]
    paid_tyres = min(firsts[f, F_OVER_TYRES] + entries * entry_tyres, tyres_left)
    brakes = braking + entries * entry_brakes
    blocked = 0
    if left_over >= 0:
        blocked = left_over
        if left_over >= terms[T_BLOCK_FROM]:
            if eliminated == NOT_ELIMINATED:
                eliminated = BY_BLOCKED
        else:
            cost_brakes = block_brakes[left_over]
            cost_tyres = block_tyres[left_over]
            brakes += cost_brakes
            if (cost_brakes + entries * entry_brakes > brakes_left
                    or cost_tyres > tyres_left - paid_tyres):
                if eliminated == NOT_ELIMINATED:
                    eliminated = BY_BLOCKED
            else:
                paid_tyres += cost_tyres
    if brakes > brakes_left:
        if left_over < 0:
            return False, 0, 0, 0, 0, 0  # nobody brakes (or pays an entry) without the WP
        brakes = brakes_left
    spins = 1 if firsts[f, F_SPIN] and eliminated == NOT_ELIMINATED else 0
    return True, brakes, paid_tyres, blocked, spins, eliminated
