"""Pricing the routes of a fast walk (:mod:`trackformat.sim.move.reach`) into the moves of a roll.

Most moves of a roll do not depend on the car beyond how far it may brake: a route that covers
the roll, or brakes down to a shorter one, and leaves no corner short of its stops costs brakes
WP per space braked and nothing else. The walk lists those *plain* routes by length, each list
already in the order of the move list (:meth:`~trackformat.sim.move.reach.Walked.plain`), so their
moves are built straight into place, longest first, without a key, a check for duplicates or a
sort: the walk keeps one route per (end, length, overshoots, debris count) outcome, so two plain
routes never make the same move.

The other routes (into the pit lane, blocked, leaving a corner short of its stops) cost what the
car's tyres, brakes and spin make them cost: they are priced one by one as before and slotted
into the list at their place. A plain move never coincides with one of those (an overshoot lists
its corners, a blocked move its spaces left over, a pit-lane move ends in the pit lane), so the
result is the same tuple, move for move, as pricing every route and sorting
(:func:`priced_one_by_one`, still used for the cases the shortcut does not cover).
"""

from __future__ import annotations

from bisect import bisect_right

from trackformat.rules import Ruleset
from trackformat.sim.core.state import CarState, Cause
from trackformat.sim.move.reach import Reached, Walked
from trackformat.sim.move.value import CornerExit, Move, build_move, overshoot_cost

__all__ = ["moves_of_roll", "priced_one_by_one"]

Ranked = tuple[tuple[object, ...], Move]
"""A move with its place in the order of the list: (not eliminated first, longest first,
cheapest first, destination, route)."""


def moves_of_roll(rules: Ruleset, car: CarState, leaving_pit: bool, walked: Walked,
                  roll: int) -> tuple[Move, ...]:
    """The legal moves of ``car`` for ``roll`` out of the routes of ``walked``, in list order."""
    per_space = rules.movement.brakes_per_space
    brakes_left, tyres_left = car.wear.brakes, car.wear.tyres
    if per_space <= 0 or brakes_left < 0 or tyres_left < 0:
        # Free braking or negative wear: plain moves would not be wear-free; price them all.
        return priced_one_by_one(rules, car, leaving_pit, walked, roll)
    start = car.space
    depths = walked.depths
    within = bisect_right(depths, roll)
    deepest = depths[within - 1] if within else -1
    blocked_at = deepest if 0 <= deepest < roll else -1
    shortest = roll - brakes_left // per_space
    # Braking k spaces costs k * per_space: the car may play the lengths from shortest on.
    lengths = []
    for k in range(within - 1, -1, -1):
        depth = depths[k]
        if depth < shortest:
            break
        if depth != blocked_at:
            lengths.append(depth)
    extra: list[Ranked] = []
    kept: set[tuple[object, ...]] = set()
    for path in walked.pit:
        depth = path.depth
        if depth <= roll and (path.at_box or path.waiting or (leaving_pit and depth == roll)):
            # Pit-lane moves are not braked: two of different lengths may coincide.
            ranked = _price(rules, car, start, walked, path, roll, -1, 0)
            key = _consequences(ranked[1])
            if key not in kept:
                kept.add(key)
                extra.append(ranked)
    if blocked_at >= 0:
        extra += [_price(rules, car, start, walked, path, roll, roll - blocked_at, 0)
                  for path in walked.by_depth[blocked_at]]
    overshooting = walked.overshooting
    for depth in lengths:
        if depth in overshooting:
            braking = (roll - depth) * per_space
            extra += [_price(rules, car, start, walked, path, roll, -1, braking)
                      for path in overshooting[depth]]
    moves: list[Move] = []
    if not extra:
        for depth in lengths:
            braking = (roll - depth) * per_space
            moves += [build_move(start, route, roll, braking, 0, 0, (), False, None, debris, box)
                      for route, debris, box in walked.plain(depth)]
        return tuple(moves)
    # The priced moves go in among the plain ones of their length (the list is longest first),
    # the eliminating ones after them all (no plain move eliminates).
    among: dict[int, list[Ranked]] = {}
    last: list[Ranked] = []
    for ranked in extra:
        if ranked[0][0]:
            last.append(ranked)
        else:
            among.setdefault(len(ranked[1].route), []).append(ranked)
    playable = set(lengths)
    for depth in sorted(playable.union(among), reverse=True):
        braking = (roll - depth) * per_space
        plain = walked.plain(depth) if depth in playable else []
        others = among.get(depth)
        if others is None:
            moves += [build_move(start, route, roll, braking, 0, 0, (), False, None, debris, box)
                      for route, debris, box in plain]
            continue
        others += [((False, -depth, braking, route[-1] if route else start, route),
                    build_move(start, route, roll, braking, 0, 0, (), False, None, debris, box))
                   for route, debris, box in plain]
        others.sort(key=_first)
        moves += [move for _, move in others]
    if last:
        last.sort(key=_first)
        moves += [move for _, move in last]
    return tuple(moves)


def _consequences(move: Move) -> tuple[object, ...]:
    """What makes two moves the same move (the first route of each is listed)."""
    return (move.destination, move.brakes, move.tyres, move.blocked, move.spin, move.eliminated,
            move.overshoots, len(move.debris), move.box)


def _price(rules: Ruleset, car: CarState, start: str, walked: Walked, path: Reached, roll: int,
           left_over: int, braking: int) -> Ranked:
    """The move of one route for ``car``, ranked. ``left_over`` >= 0 for a blocked move."""
    brakes_left, tyres_left = car.wear.brakes, car.wear.tyres
    if path.exits:
        known = walked.exits.get(id(path))
        if known is None:
            exits = tuple(CornerExit(c, path.depth - first + 1, missing)
                          for c, first, missing in path.exits)
            known = walked.exits[id(path)] = (exits, sum(e.spaces for e in exits),
                                              max(e.missing for e in exits))
        exits = known[0]
        over_tyres, spin, eliminated = overshoot_cost(rules, car, known[1], known[2])
        tyres = min(over_tyres, tyres_left)
    else:
        exits, tyres, spin, eliminated = (), min(0, tyres_left), False, None
    brakes = braking
    blocked = 0
    if left_over >= 0:
        blocked = left_over
        block_cost = rules.blocking.cost(left_over)
        if block_cost is None:
            eliminated = eliminated or Cause.BLOCKED
        else:
            brakes += block_cost.brakes
            if block_cost.brakes > brakes_left or block_cost.tyres > tyres_left - tyres:
                eliminated = eliminated or Cause.BLOCKED
            else:
                tyres += block_cost.tyres
        brakes = min(brakes, brakes_left)
    spin = spin and eliminated is None
    route = path.route
    destination = route[-1] if route else start
    move = build_move(start, route, roll, brakes, tyres, blocked, exits, spin, eliminated,
                      path.debris, path.at_box)
    return (eliminated is not None, -path.depth, brakes + tyres, destination, route), move


def priced_one_by_one(rules: Ruleset, car: CarState, leaving_pit: bool, walked: Walked,
                      roll: int) -> tuple[Move, ...]:
    """Every route that can make a move priced for this car, and the first of each
    :func:`_consequences` kept: those covering the roll, those the car can brake down to, the
    deepest when every way is blocked, and those into the pit lane. The plain reading that
    :func:`moves_of_roll` shortcuts."""
    brakes_left = car.wear.brakes
    per_space = rules.movement.brakes_per_space
    deepest = max((d for d in walked.depths if d <= roll), default=-1)
    blocked_at = deepest if 0 <= deepest < roll else -1
    candidates: list[Reached]
    if per_space > 0:
        # Moves of different lengths never coincide (they brake differently), so the routes can
        # be taken length by length; within a length, in walk order as in collect_moves.
        shortest = roll - brakes_left // per_space
        candidates = [*walked.pit]
        for depth in walked.depths:
            if depth == blocked_at or shortest <= depth <= roll:
                candidates += walked.by_depth[depth]
    else:
        candidates = [p for p in walked.paths if p.in_pit] + [
            p for p in walked.paths if not p.in_pit]
    start = car.space
    kept: set[tuple[object, ...]] = set()
    moves: list[Ranked] = []
    for path in candidates:
        depth = path.depth
        if depth > roll:
            continue
        left_over = -1
        braking = 0
        if path.in_pit:
            if not (path.at_box or path.waiting or (leaving_pit and depth == roll)):
                continue
        elif depth == blocked_at:
            left_over = roll - depth
        elif depth != roll:
            braking = (roll - depth) * per_space
            if braking > brakes_left:
                continue  # nobody brakes without the WP
        ranked = _price(rules, car, start, walked, path, roll, left_over, braking)
        key = _consequences(ranked[1])
        if key not in kept:
            kept.add(key)
            moves.append(ranked)
    moves.sort(key=_first)
    return tuple(move for _, move in moves)


def _first(item: Ranked) -> tuple[object, ...]:
    return item[0]
