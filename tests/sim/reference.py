"""The route walk and move list exactly as the engine first had them, kept as the reference.

The engine was rewritten for speed (trackformat.sim.reach and the new collection in moves.py);
the equivalence tests compare its legal moves, and its slipstream moves, with this
straightforward walker on many random positions. Do not optimise this file: its value is that it
is the plain, readable reading of the rules that the fast engine must agree with.
"""

# ruff: noqa
# mypy: ignore-errors

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace

from trackformat.model.track import SpaceKind
from trackformat.sim.moves import CornerExit, Move
from trackformat.sim.slipstream import slipstream_leader
from trackformat.sim.state import CarState, CarStatus, Cause, RaceState, Wear


@dataclass(frozen=True, slots=True)
class Route:
    """A route being built, with what the rules need to know about it so far."""

    spaces: tuple[str, ...]
    """The spaces entered so far (the start excluded)."""
    end: str
    """The space the route has reached."""
    changes: int = 0
    """Lane changes made from straight spaces."""
    left: tuple[tuple[int, int], ...] = ()
    """Lanes left so far: (lane, position in that lane where it was left)."""
    lock: int | None = None
    """Lane the car must keep after an overshoot."""
    corner: str | None = None
    stops: int = 0
    exits: tuple[tuple[str, int, int], ...] = ()
    """Corners left without their stops: (corner, depth of first space beyond, missing)."""
    anchor: tuple[str, int] | None = None
    """Where the route's current straight stretch began: (space, depth). Straight spaces are
    measured from there, so a corner taken on its longer outside line does not count against
    the straight after it."""
    in_pit: bool = False
    at_box: bool = False
    debris: tuple[str, ...] = ()
    entries: int = 0
    """Corners entered since :attr:`RouteWalk.count_entries_from` (for slipstream)."""


class RouteWalk:
    """Everything fixed while generating the moves of one car for one roll."""

    def __init__(self, state: RaceState, car: CarState, roll: int) -> None:
        self.state = state
        self.board = state.board
        self.rules = state.rules
        self.car = car
        self.roll = roll
        self.occupied = set(state.occupied(except_car=car.index))
        self.debris = state.debris
        self.leaving_pit = self.board.in_pit(car.space)
        self.may_pit = may_enter_pit(state, car)
        self.max_changes = self.rules.movement.max_lane_changes_on_straight
        self.count_entries_from = 1 << 30
        """Corners entered from this depth on are counted (the slipstream extras)."""
        self.limited_until = 1 << 30
        """Lane changes up to this depth are limited and checked for weaving; the slipstream
        extras after it follow their own patterns instead."""
        self.entry_cost = Wear()
        self.passable: dict[int, list[int]] = {}
        for space_id in (*self.occupied, *self.debris):
            lane = self.board.lane.get(space_id)
            if lane is not None:
                self.passable.setdefault(lane, []).append(self.board.lane_index[space_id])
        self._distances: dict[str, dict[str, int]] = {}
        self._passable_after: dict[tuple[int, int], int] = {}

    def distances(self, anchor: str) -> dict[str, int]:
        """Fewest steps from ``anchor`` to each free straight space ahead of it, over straight
        spaces only (cars are not passable, so going round one is never "longer")."""
        known = self._distances.get(anchor)
        if known is not None:
            return known
        board = self.board
        dist = {anchor: 0}
        queue = deque([anchor])
        while queue:
            u = queue.popleft()
            if dist[u] >= self.roll:
                continue
            for v in board.track_next.get(u, ()):
                if v not in dist and v not in self.occupied and v not in board.corner_of:
                    dist[v] = dist[u] + 1
                    queue.append(v)
        self._distances[anchor] = dist
        return dist

    def origin(self) -> Route:
        start = self.car.space
        corner = self.board.corner_of.get(start)
        stops = self.car.stops if corner is not None and corner == self.car.corner else 0
        in_pit = self.board.in_pit(start)
        anchor = None if in_pit or corner is not None else (start, 0)
        return Route(spaces=(), end=start, corner=corner, stops=stops, in_pit=in_pit,
                     anchor=anchor)

    def successors(self, path: Route) -> tuple[str, ...]:
        if path.in_pit:
            return self.board.pit_next.get(path.end, ())
        nexts = self.board.track_next.get(path.end, ())
        if self.may_pit:
            nexts = nexts + self.board.pit_entry.get(path.end, ())
        return nexts

    def step(self, path: Route, v: str) -> Route | None:
        """``path`` extended by one space, or None when the rules forbid that step."""
        if v in self.occupied:
            return None
        board = self.board
        u = path.end
        depth = len(path.spaces) + 1
        if board.in_pit(v):
            if not path.in_pit and not self.may_pit:
                return None
            if board.kind[v] == SpaceKind.BOX and v != self.car.box:
                return None
            return replace(path, spaces=(*path.spaces, v), end=v, in_pit=True, anchor=None,
                           at_box=v == self.car.box, corner=None, stops=0)
        corner_u, corner_v = board.corner_of.get(u), board.corner_of.get(v)
        if path.in_pit:
            debris = (*path.debris, v) if v in self.debris else path.debris
            return replace(path, spaces=(*path.spaces, v), end=v, in_pit=False, corner=corner_v,
                           stops=0, anchor=None if corner_v else (v, depth), debris=debris)
        lane_u, lane_v = board.lane.get(u, -1), board.lane.get(v, -1)
        if path.lock is not None and lane_v != path.lock:
            return None
        anchor = path.anchor
        if corner_v is not None:
            anchor = None
        elif anchor is None:
            anchor = (v, depth)
        elif (depth <= self.limited_until
              and self.distances(anchor[0]).get(v) != depth - anchor[1]):
            return None  # a longer way to a straight space than its shortest
        changes, left = path.changes, path.left
        if lane_u != lane_v and u not in board.corner_of and depth <= self.limited_until:
            # Only straights limit lane changes and forbid weaving; corners follow the arrows.
            left = (*(d for d in left if d[0] != lane_u), (lane_u, board.lane_index.get(u, 0)))
            changes += 1
            if changes > self.max_changes:
                return None
            departed = [index for lane, index in path.left if lane == lane_v]
            back_at = board.lane_index.get(v, 0)
            if departed and not self._passed(lane_v, departed[-1], back_at):
                return None
        corner, stops, exits, lock = path.corner, path.stops, path.exits, path.lock
        entries = path.entries
        if corner_u is not None and corner_v != corner_u:
            made = stops if corner == corner_u else 0
            needed = board.corner_stops.get(corner_u, 0)
            if made < needed:
                if lane_v != lane_u:
                    return None  # an overshooting car keeps the lane it leaves the corner in
                exits = (*exits, (corner_u, depth, needed - made))
                lock = lane_u
        if corner_v != corner_u:
            corner, stops = corner_v, 0
            if corner_v is not None and depth >= self.count_entries_from:
                entries += 1
        debris = (*path.debris, v) if v in self.debris else path.debris
        return Route(spaces=(*path.spaces, v), end=v, changes=changes, left=left, lock=lock,
                     corner=corner, stops=stops, exits=exits, anchor=anchor, in_pit=False,
                     at_box=False, debris=debris, entries=entries)

    def _passed(self, lane: int, left_at: int, back_at: int) -> bool:
        """Whether a car or debris stands in ``lane`` between where it was left and rejoined."""
        return any(
            self.board.between_in_lane(lane, left_at, back_at, index)
            for index in self.passable.get(lane, ())
        )

    def prefixes(self, path: Route, remaining: int) -> Iterator[Route]:
        """Every legal route from ``path`` of at most ``remaining`` more spaces, depth first.

        Two routes that reach the same space in the same number of steps with the same facts
        that matter to the rules (lane changes, lanes left and what stands in them, corner and
        stops, overshoots, debris count) have the same futures: only the first is followed.
        """
        seen: set[tuple[object, ...]] = set()
        stack = [(path, remaining)]
        while stack:
            current, left = stack.pop()
            key = self._key(current)
            if key in seen:
                continue
            seen.add(key)
            yield current
            if left == 0 or current.at_box:
                continue
            children = []
            for v in self.successors(current):
                nxt = self.step(current, v)
                if nxt is not None:
                    children.append((nxt, left - 1))
            stack.extend(reversed(children))

    def _key(self, path: Route) -> tuple[object, ...]:
        markers = tuple(
            (lane, self._next_passable(lane, index)) for lane, index in sorted(path.left)
        )
        return (path.end, len(path.spaces), path.changes, markers, path.lock, path.corner,
                path.stops, path.exits, path.anchor, path.in_pit, path.at_box,
                len(path.debris), path.entries)

    def _next_passable(self, lane: int, after: int) -> int:
        """Lane position of the first car or debris ahead of ``after`` in ``lane`` (-1: none).

        Where a route left a lane matters to the weaving rule only through this: the route may
        come back once it has passed that car or debris."""
        known = self._passable_after.get((lane, after))
        if known is not None:
            return known
        positions = self.passable.get(lane)
        found = -1
        if positions:
            length = self.board.lane_length.get(lane, 0) or 1
            found = min(positions, key=lambda p: (p - after - 1) % length)
        self._passable_after[(lane, after)] = found
        return found

    def waiting(self, path: Route) -> bool:
        """Whether a car in the pit lane is stuck behind another car (a free wait)."""
        return any(
            v in self.occupied for v in self.board.pit_next.get(path.end, ())
            if self.board.kind.get(v) != SpaceKind.BOX or v == self.car.box
        )

def may_enter_pit(state: RaceState, car: CarState) -> bool:
    """Whether the car may turn into the pit lane on this move (its window is open)."""
    board = state.board
    if car.box is None or not board.pit_entry or board.in_pit(car.space):
        return False
    window = state.rules.pits.window(state.laps)
    if window is None or car.pit_stops >= window.max_stops:
        return False
    laps_done = car.lap if board.pit_exit_crosses else car.lap - 1
    return laps_done in window.after_laps



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


def _patterns(extra: int) -> list[tuple[int, ...]]:
    """Lane offsets from the follower's lane, space by space, of the allowed patterns."""
    shapes: list[tuple[int, ...]] = []
    for side in (-1, 1):
        shapes.append((side,) * extra)
        shapes += [(side,) * k + (0,) * (extra - k) for k in range(1, extra)]
        if extra >= 2:
            shapes.append((side,) + (2 * side,) * (extra - 1))
    return shapes


class _SlipWalk(RouteWalk):
    def __init__(self, state: RaceState, car: CarState, move: Move, extra: int) -> None:
        super().__init__(state, car, move.roll + extra)
        self.base = move.distance
        self.own_lane = self.board.lane.get(move.destination, -1)
        self.shapes = _patterns(extra)
        self.limited_until = move.roll - extra * move.slipstream
        self.count_entries_from = self.base + 1

    def step(self, path: Route, v: str) -> Route | None:
        depth = len(path.spaces) + 1
        if depth > self.base:
            if self.board.in_pit(v):
                return None
            lanes = [self.board.lane.get(s, -99) for s in path.spaces[self.base:]]
            offsets = tuple(lane - self.own_lane for lane in (*lanes, self.board.lane.get(v, -99)))
            if not any(shape[: len(offsets)] == offsets for shape in self.shapes):
                return None
        return super().step(path, v)


def slipstream_moves(state: RaceState, car: int, move: Move) -> tuple[Move, ...]:
    """The moves that add the slipstream extras to ``move`` (empty when it gives none).

    ``state`` is the race before ``move`` is played; each returned move replaces ``move`` and
    may itself be offered a new slipstream.
    """
    rules = state.rules.slipstream
    if rules is None or slipstream_leader(state, car, move) is None:
        return ()
    walk = _SlipWalk(state, state.cars[car], move, rules.extra_spaces)
    walk.entry_cost = Wear.of(rules.corner_entry_cost)
    path: Route | None = walk.origin()
    for space in move.route:
        path = walk.step(path, space) if path is not None else None
    if path is None:
        return ()
    return collect_moves(walk, walk.prefixes(path, rules.extra_spaces), walk.roll,
                    carried_entries=move.corner_entries, slipstream=move.slipstream + 1,
                    min_depth=walk.base + 1)
