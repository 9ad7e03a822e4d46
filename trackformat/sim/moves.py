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

from trackformat.sim.routes import Route, RouteWalk, may_enter_pit
from trackformat.sim.state import CarStatus, Cause, RaceState, Wear

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
    walk = RouteWalk(state, state.cars[car], roll)
    return collect_moves(walk, walk.prefixes(walk.origin(), roll), roll)


def legal_moves_by_roll(state: RaceState, car: int,
                        rolls: Iterable[int]) -> dict[int, tuple[Move, ...]]:
    """:func:`legal_moves` for several rolls at once (say, every face of a gear die).

    The routes are walked once, for the largest roll: the routes of a smaller roll are the
    shorter ones among them, so each roll's moves are sorted out of the same walk.
    """
    wanted = sorted(set(rolls))
    if not wanted:
        return {}
    walk = RouteWalk(state, state.cars[car], wanted[-1])
    paths = list(walk.prefixes(walk.origin(), wanted[-1]))
    result = {}
    for roll in wanted:
        walk.roll = roll
        result[roll] = collect_moves(walk, (p for p in paths if len(p.spaces) <= roll), roll)
    return result


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
