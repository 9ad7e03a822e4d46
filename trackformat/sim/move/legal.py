"""Legal moves of a car for a roll of the die, with what each one costs.

A move covers exactly the roll along a legal route (:mod:`trackformat.sim.move.routes`), or fewer
spaces by braking (brakes WP per space not covered), or as far as the cars allow when they block
every way (the blocking table). Leaving a corner without its stops is an overshoot: tyres WP per
space beyond, a spin on the last tyres WP, elimination when too many stops are missing.

Moves that lead to the same place with the same consequences are listed once, with the first
route in generation order (same lane first, then lanes from the left), so the list is the same on
every run. Moves that eliminate the car are listed too: a player must move, even to his doom.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from trackformat.rules import Ruleset
from trackformat.sim.core.state import CarStatus, Cause, RaceState
from trackformat.sim.move.pricing import moves_of_roll
from trackformat.sim.move.reuse import routes
from trackformat.sim.move.routes import Route, RouteWalk, may_enter_pit
from trackformat.sim.move.value import CornerExit, Move, overshoot_outcome

__all__ = ["CornerExit", "Move", "legal_moves", "legal_moves_by_roll", "may_enter_pit",
           "overshoot_outcome", "super_start_moves"]


def legal_moves(state: RaceState, car: int, roll: int) -> tuple[Move, ...]:
    """Every legal way for ``car`` to play ``roll`` spaces, never empty for a car on the board.

    To weigh every face of a die, :func:`legal_moves_by_roll` is cheaper than one call per face.
    """
    return legal_moves_by_roll(state, car, (roll,))[roll]


def legal_moves_by_roll(state: RaceState, car: int,
                        rolls: Iterable[int]) -> dict[int, tuple[Move, ...]]:
    """:func:`legal_moves` for several rolls at once (say, every face of a gear die).

    The routes are walked once, for the largest roll: the routes of a smaller roll are the
    shorter ones among them, so each roll's moves are sorted out of the same walk.
    """
    wanted = sorted(set(rolls))
    if not wanted:
        return {}
    current = state.cars[car]
    walked = routes(state, current, wanted[-1])
    wear = current.wear
    pricing = (wear.brakes, wear.tyres, current.status == CarStatus.SPUN, _rules_key(state.rules))
    result = {}
    leaving_pit = state.board.in_pit(current.space)
    for roll in wanted:
        key = (roll, *pricing)
        moves = walked.moves.get(key)
        if moves is None:
            moves = moves_of_roll(state.rules, current, leaving_pit, walked, roll)
            if len(walked.moves) >= PRICED_KEPT:
                walked.moves.clear()
            walked.moves[key] = moves
        result[roll] = moves
    return result


def super_start_moves(state: RaceState, car: int, spaces: int) -> tuple[Move, ...]:
    """The moves of a super start: ``spaces`` straight ahead in the car's own lane, "moving
    over one or two lanes if a car is in the way" (FD; FDé: "to avoid a car").

    No gear die is rolled and nothing is chosen freely: with the lane ahead clear, the one move
    is straight on; only a car in the way (or a lane that ends) opens the lane changes of a
    full move, which the straight rule already limits to two. Braking is no part of the leap.
    Should cars block every way, the blocking rule applies as to any move."""
    moves = legal_moves(state, car, spaces)
    board = state.board
    taken = state.occupied(except_car=car)
    space = state.cars[car].space
    for _ in range(spaces):
        ahead = board.ahead.get(space)
        if ahead is None or ahead in taken:
            break
        space = ahead
    else:
        straight = tuple(m for m in moves if m.destination == space and m.distance == spaces)
        if straight:
            return straight[:1]
    full = tuple(m for m in moves if m.distance == spaces and not m.blocked and not m.brakes)
    blocked = tuple(m for m in moves if m.blocked)
    return full or blocked or moves


PRICED_KEPT = 64
"""Move lists kept per walk (by roll, wear and rules): a car alone at a place meets a few rolls
and wear levels again and again; more would only hold memory."""

_RULES_KEYS: dict[int, tuple[Ruleset, tuple[object, ...]]] = {}


def _rules_key(rules: Ruleset) -> tuple[object, ...]:
    """The numbers of ``rules`` that price a move (the ruleset itself is not hashable)."""
    known = _RULES_KEYS.get(id(rules))
    if known is None or known[0] is not rules:
        blocking = rules.blocking
        key = (rules.movement.brakes_per_space, rules.corners.tyres_per_space,
               rules.corners.eliminated_missing, rules.spin_out.respin_max_spaces,
               blocking.eliminated_from,
               tuple((s.spaces, s.cost.brakes, s.cost.tyres) for s in blocking.steps))
        if len(_RULES_KEYS) > 64:
            _RULES_KEYS.clear()
        known = _RULES_KEYS[id(rules)] = (rules, key)
    return known[1]


def collect_moves(walk: RouteWalk, paths: Iterator[Route], roll: int, carried_entries: int = 0,
                  slipstream: int = 0, min_depth: int = 0) -> tuple[Move, ...]:
    """Sort routes into legal moves: full, braking, blocked, pit; price each once.

    ``carried_entries``, ``slipstream`` and ``min_depth`` serve the slipstream extras: corners
    already entered in earlier extras, how many extras the moves include, and the depth the
    extras start after."""
    on_track: list[Route] = []
    in_pit: list[Route] = []
    priced: set[tuple[object, ...]] = set()
    for path in paths:
        if len(path.spaces) < min_depth:
            continue
        # What the price and the consequences of a route depend on; the first route wins.
        outcome = (path.end, len(path.spaces), path.exits, len(path.debris), path.at_box,
                   path.entries)
        if outcome in priced:
            continue
        priced.add(outcome)
        (in_pit if path.in_pit else on_track).append(path)
    deepest = max((len(p.spaces) for p in on_track), default=-1)
    blocked_at = deepest if 0 <= deepest < roll else None
    moves: dict[tuple[object, ...], Move] = {}
    for path in in_pit:
        # A move may end in the pit lane at the box, stuck behind a car (a free wait), or, on
        # the way out, having covered its whole roll; a car turning in must reach its box, and
        # braking to linger in the pit lane is not a move.
        covered = walk.leaving_pit and len(path.spaces) == roll
        if path.at_box or walk.waiting(path) or covered:
            _keep(moves, _price(walk, path, roll, 0, None, carried_entries, slipstream))
    for path in on_track:
        depth = len(path.spaces)
        if depth == roll:
            move = _price(walk, path, roll, 0, None, carried_entries, slipstream)
        elif depth == blocked_at:
            move = _price(walk, path, roll, 0, roll - depth, carried_entries, slipstream)
        else:
            braking = (roll - depth) * walk.rules.movement.brakes_per_space
            move = _price(walk, path, roll, braking, None, carried_entries, slipstream)
        _keep(moves, move)
    return tuple(sorted(moves.values(), key=_order))


def _order(move: Move) -> tuple[object, ...]:
    return (move.eliminated is not None, -move.distance, move.brakes + move.tyres,
            move.destination, move.route)


def _keep(moves: dict[tuple[object, ...], Move], move: Move | None) -> None:
    if move is None:
        return
    key = (move.destination, move.brakes, move.tyres, move.blocked, move.spin, move.eliminated,
           move.overshoots, len(move.debris), move.box)
    moves.setdefault(key, move)


def _price(walk: RouteWalk, path: Route, roll: int, braking: int, left_over: int | None,
           carried_entries: int, slipstream: int) -> Move | None:
    """The move of a route: its WP costs and whether it spins or eliminates the car.

    Returns None for a braking move the car has not the brakes WP for (it cannot brake)."""
    rules, car = walk.rules, walk.car
    depth = len(path.spaces)
    entries = carried_entries + path.entries
    extra_brakes = entries * walk.entry_cost.brakes
    exits = tuple(CornerExit(c, depth - first + 1, missing) for c, first, missing in path.exits)
    over_tyres, spin, eliminated = overshoot_outcome(rules, car, exits)
    tyres_left = car.wear.tyres
    paid_tyres = min(over_tyres + entries * walk.entry_cost.tyres, tyres_left)
    brakes = braking + extra_brakes
    blocked = 0
    if left_over is not None:
        blocked = left_over
        block_cost = rules.blocking.cost(left_over)
        if block_cost is None:
            eliminated = eliminated or Cause.BLOCKED
        else:
            brakes += block_cost.brakes
            if (block_cost.brakes + extra_brakes > car.wear.brakes
                    or block_cost.tyres > tyres_left - paid_tyres):
                eliminated = eliminated or Cause.BLOCKED
            else:
                paid_tyres += block_cost.tyres
    if brakes > car.wear.brakes:
        if left_over is None:
            return None  # nobody brakes (or pays a slipstream's corner entry) without the WP
        brakes = car.wear.brakes
    return Move(start=car.space, route=path.spaces, roll=roll, brakes=brakes, tyres=paid_tyres,
                blocked=blocked, overshoots=exits, spin=spin and eliminated is None,
                eliminated=eliminated, debris=path.debris, box=path.at_box,
                slipstream=slipstream, corner_entries=entries)
