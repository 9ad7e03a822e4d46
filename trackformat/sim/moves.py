"""Legal moves of a car for a roll of the die, with what each one costs.

A move covers exactly the roll along a legal route (:mod:`trackformat.sim.routes`), or fewer
spaces by braking (brakes WP per space not covered), or as far as the cars allow when they block
every way (the blocking table). Leaving a corner without its stops is an overshoot: tyres WP per
space beyond, a spin on the last tyres WP, elimination when too many stops are missing.

Moves that lead to the same place with the same consequences are listed once, with the first
route in generation order (same lane first, then lanes from the left), so the list is the same on
every run. Moves that eliminate the car are listed too: a player must move, even to his doom.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from trackformat.rules import Ruleset
from trackformat.sim.reach import Reached, Walked
from trackformat.sim.reuse import routes
from trackformat.sim.routes import Route, RouteWalk, may_enter_pit
from trackformat.sim.state import CarState, CarStatus, Cause, RaceState, Wear

__all__ = ["CornerExit", "Move", "legal_moves", "legal_moves_by_roll", "may_enter_pit"]


@dataclass(frozen=True, slots=True)
class CornerExit:
    """An overshoot: ``spaces`` ended beyond ``corner`` with ``missing`` stops not made."""

    corner: str
    spaces: int
    missing: int


@dataclass(frozen=True, slots=True)
class Move:
    """One way to play a roll: where the car goes, by which spaces, and what it costs."""

    start: str
    route: tuple[str, ...]
    """The spaces entered, in order (the start is not included): its length is the distance."""
    roll: int
    """The spaces the move had to cover (the die, plus slipstream extras)."""
    brakes: int = 0
    """Brakes WP paid (braking and blocking)."""
    tyres: int = 0
    """Tyres WP paid (overshoot and blocking); capped at what the car has."""
    blocked: int = 0
    """Spaces of the roll left over because cars blocked every way (0 when not blocked)."""
    overshoots: tuple[CornerExit, ...] = ()
    spin: bool = False
    """The car spins out at the end of the move."""
    eliminated: Cause | None = None
    """The move eliminates the car, and why."""
    debris: tuple[str, ...] = ()
    """Debris markers passed or stopped on (one suspension roll each)."""
    box: bool = False
    """The move ends in the car's box: a pit stop."""
    slipstream: int = 0
    """How many slipstream extras the move includes."""
    corner_entries: int = field(default=0, compare=False)
    """Corners entered during slipstream extras (each costs the ruleset's corner-entry cost,
    already counted in :attr:`brakes`)."""

    @property
    def destination(self) -> str:
        return self.route[-1] if self.route else self.start

    @property
    def distance(self) -> int:
        return len(self.route)

    @property
    def cost(self) -> Wear:
        """The WP the move costs."""
        return Wear(tyres=self.tyres, brakes=self.brakes)

    @property
    def overshoot(self) -> int:
        """Spaces beyond corners left without their stops, all corners together."""
        return sum(exit_.spaces for exit_ in self.overshoots)

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
    overshoots: dict[int, Overshot] = {}
    for roll in wanted:
        key = (roll, *pricing)
        moves = walked.moves.get(key)
        if moves is None:
            moves = _moves_of_roll(state, current, walked, roll, overshoots)
            if len(walked.moves) >= PRICED_KEPT:
                walked.moves.clear()
            walked.moves[key] = moves
        result[roll] = moves
    return result


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


def _moves_of_roll(state: RaceState, car: CarState, walked: Walked, roll: int,
                   overshoots: dict[int, Overshot]) -> tuple[Move, ...]:
    """:func:`collect_moves` for the fast walk (no slipstream): the same moves, priced once.

    Only the routes that can make a move are priced: those covering the roll, those the car can
    brake down to, the deepest when every way is blocked, and those into the pit lane."""
    rules = state.rules
    brakes_left, tyres_left = car.wear.brakes, car.wear.tyres
    per_space = rules.movement.brakes_per_space
    leaving_pit = state.board.in_pit(car.space)
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
    moves: list[tuple[tuple[object, ...], Move]] = []
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
        if path.exits:
            priced = overshoots.get(id(path))
            if priced is None:
                priced = overshoots[id(path)] = _overshoot(rules, car, path)
            exits, tyres, spin, eliminated = priced
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
        key = (destination, brakes, tyres, blocked, spin, eliminated, exits, len(path.debris),
               path.at_box)
        if key not in kept:
            kept.add(key)
            # Positional: twice as fast as by keyword, and this is the engine's busiest line.
            move = Move(start, route, roll, brakes, tyres, blocked, exits, spin, eliminated,
                        path.debris, path.at_box)
            moves.append(((eliminated is not None, -depth, brakes + tyres, destination, route),
                          move))
    moves.sort(key=_first)
    return tuple(move for _, move in moves)


def _first(item: tuple[tuple[object, ...], Move]) -> tuple[object, ...]:
    return item[0]


Overshot = tuple[tuple[CornerExit, ...], int, bool, Cause | None]
"""A route's overshoots and what they do to the car: (overshoots, tyres WP paid, spin,
elimination)."""


def overshoot_outcome(
    rules: Ruleset, car: CarState, exits: tuple[CornerExit, ...]
) -> tuple[int, bool, Cause | None]:
    """What leaving corners without their stops costs: (tyres WP owed, whether the car spins,
    why it is eliminated if it is). One reading of the overshoot, spin-out and missed-stop
    rules for every way of walking routes."""
    spaces_beyond = sum(e.spaces for e in exits)
    over_tyres = spaces_beyond * rules.corners.tyres_per_space
    tyres_left = car.wear.tyres
    eliminated: Cause | None = None
    spin = False
    if any(e.missing >= rules.corners.eliminated_missing for e in exits):
        eliminated = Cause.MISSED_STOPS
    elif over_tyres > 0:
        if car.status == CarStatus.SPUN:
            if spaces_beyond <= rules.spin_out.respin_max_spaces:
                spin = True
            else:
                eliminated = Cause.SPIN
        elif over_tyres > tyres_left:
            eliminated = Cause.OVERSHOOT
        elif over_tyres == tyres_left:
            spin = True
    return over_tyres, spin, eliminated


def _overshoot(rules: Ruleset, car: CarState, path: Reached) -> Overshot:
    """The overshoots of a route that leaves corners without their stops."""
    exits = tuple(CornerExit(c, path.depth - first + 1, missing)
                  for c, first, missing in path.exits)
    over_tyres, spin, eliminated = overshoot_outcome(rules, car, exits)
    return exits, min(over_tyres, car.wear.tyres), spin, eliminated


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
