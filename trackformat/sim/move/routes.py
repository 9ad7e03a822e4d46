"""Routes along the links, one space at a time, under the movement rules of the game.

A route follows the links (the printed arrows), never through or onto a car. On a straight it
takes a shortest way: every straight space is reached in as few steps as the free spaces allow
from where the straight stretch began (no weaving to burn off a roll; cars are obstacles, so
going round one is never longer); it changes lanes at most twice and never comes back into a lane
it left unless a car (or debris) was passed in that lane. Leaving a corner without its stops,
the car keeps its lane. The pit lane is single file, entered only when the car's window is open,
and a car only enters its own box. :mod:`trackformat.sim.move.legal` turns routes into priced moves.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, replace

from trackformat.model.track import SpaceKind
from trackformat.sim.core.state import CarState, RaceState, Wear


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
        if path.in_pit and v != self.car.box and self.car.box in board.pit_next.get(u, ()):
            return None  # in the pit lane a car never drives past its place to stop
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

