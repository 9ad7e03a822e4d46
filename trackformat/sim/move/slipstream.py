"""Slipstream: three more spaces for ending a move right behind another fast car.

Conditions: the ruleset plays slipstream; the move covered its whole roll (braking on purpose to
get into a slipstream is not allowed); it ends on the space right behind a car in the same lane;
both cars are in the minimum gear or higher, the follower in the leader's gear or higher. The
extras follow one of the three patterns of the rules (pull out one lane and come back in front of
the car; pull out one lane and go on two spaces; pull out two lanes and go on one space), along
the links, played in full unless the driver brakes, and entering a corner during them costs the
ruleset's corner-entry price. They can chain behind another car. A slipstream move is the whole
move (main route plus extras), priced as one, so overshoots across it are counted once.
"""

from __future__ import annotations

from trackformat.sim.core.state import CarState, CarStatus, RaceState, Wear
from trackformat.sim.move.legal import Move, collect_moves
from trackformat.sim.move.routes import Route, RouteWalk


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


def slipstream_leader(state: RaceState, car: int, move: Move) -> int | None:
    """The car whose slipstream ``move`` ends in, or None when the conditions are not met."""
    rules = state.rules.slipstream
    follower = state.cars[car]
    board = state.board
    if rules is None or move.eliminated is not None or move.box or move.spin:
        return None
    if move.blocked or move.distance != move.roll or board.in_pit(move.destination):
        return None
    ahead = board.ahead.get(move.destination)
    leader = state.occupied(except_car=car).get(ahead) if ahead is not None else None
    if leader is None:
        return None
    lead = state.cars[leader]
    if lead.status != CarStatus.RACING or min(lead.gear, follower.gear) < rules.min_gear:
        return None
    if rules.follower_at_least_leader and follower.gear < lead.gear:
        return None
    return leader


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
