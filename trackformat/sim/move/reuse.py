"""Walks of routes kept and reused: most of a race is cars alone on their stretch of track.

The routes of a car depend on where it stands (space, corner and stops made, pit window, box)
and on the cars and debris near enough to matter; not on its gear, its wear or the rest of the
field. Two reuses follow.

A car *alone*, with no car and no debris in the walk's *region* (every space a route of that
length could enter or look at), has exactly the routes it would have on an empty track. Those
are walked once per board and place and kept. Why the region is enough, question by question:

- whether a space is taken, or has debris: only spaces reachable from the start in at most
  ``reach`` + 1 links are asked about (the + 1 for a pit-lane car stuck behind another);
- the shortest way to a straight space: a car farther than the space itself cannot lengthen
  it, so again only spaces within ``reach`` links count;
- coming back into a lane left before, past a car or debris: that asks about the lane positions
  between where the route left and where it comes back. The region holds, in each lane, every
  position between the first and the last one within reach, so those are inside it as long as
  the route came back *ahead* of where it left; a walk where it did not (a track with links
  going backwards) is not kept;
- which routes share their futures: this compares, per lane, the first car or debris ahead of
  where a route left the lane. With nothing in the region, that is the same thing (or nothing)
  for every route, just as on an empty track.

And the last few walks are kept with their exact position (same cars, same debris): a driver
weighing every gear walks the same position several times in one turn, and the race asks again
for the roll it rolled. A walk made for a longer roll serves every shorter one, since the routes
of a roll are the shorter routes of a longer roll.

Walks where cars or debris are near are not kept beyond that: measured over batches of races,
the same cars and debris around the same place hardly ever came back.
"""

from __future__ import annotations

import contextlib

from trackformat.sim.core.board import Network
from trackformat.sim.core.state import CarState, RaceState
from trackformat.sim.move.reach import FREE_REACH, Walked, walk
from trackformat.sim.move.routes import may_enter_pit

KEPT_WALKS = 8192
"""Car-free walks kept per board (the oldest go first): a board has a few thousand places
(space, stops made, pit window, box; some 5,500 on Monaco, found over a few hundred races), and
this bounds the memory to a few hundred MB at worst. Fewer would drop walks a long test drive
keeps needing again."""

RECENT = 8
"""Walks kept with their exact position, for the several looks a driver takes in one turn."""

NEVER = 1 << 30

DEPTHS = (4, 8, 12, 20, 30, FREE_REACH)
"""How deep a car-free walk goes: the next of these at or above the roll asked for (the longest
faces of the Formula D dice), so that one walk serves the rolls of a gear and those below."""


def routes(state: RaceState, car: CarState, reach: int) -> Walked:
    """The walk of ``car``'s routes up to ``reach`` spaces, reused when it is known."""
    net = state.board.network
    last = net.cache.get("last")
    if isinstance(last, tuple) and last[0] is state and last[1] is car and last[2] >= reach:
        # The very same race state asked again (a driver going through a die face by face):
        # states are immutable, and the last one is held here, so it is the same position.
        # What was asked then bounds what the answer holds for: a car-free walk may go deeper
        # than the region it was trusted for.
        walked: Walked = last[3]
        return walked
    walked = _routes(state, car, reach)
    net.cache["last"] = (state, car, reach, walked)
    return walked


def _routes(state: RaceState, car: CarState, reach: int) -> Walked:
    net = state.board.network
    number = net.number
    occupied = frozenset(number[c.space] for c in state.cars
                         if c.index != car.index and c.on_board)
    debris = _debris(net, state.debris)
    may_pit = may_enter_pit(state, car)
    start = number[car.space]
    corner = net.corner[start]
    stops = car.stops if corner >= 0 and car.corner == net.corner_names[corner] else 0
    box = -1
    if car.box is not None and (may_pit or net.in_pit[start]):
        box = number.get(car.box, -1)
    place = (start, corner, stops, may_pit, box,
             state.rules.movement.max_lane_changes_on_straight)
    if reach > FREE_REACH:
        return Walked(reach, walk(state, car, reach, occupied, debris, may_pit, box, []))
    need = _need(net, start)
    inside_occupied = frozenset(o for o in occupied if need.get(o, NEVER) <= reach)
    inside_debris = frozenset(o for o in debris if need.get(o, NEVER) <= reach)
    if not inside_occupied and not inside_debris:
        alone = _alone(state, car, place, reach)
        if alone is not None:
            return alone
    exact = (place, occupied, debris)
    recent: list[tuple[object, Walked]] = net.cache.setdefault(  # type: ignore[assignment]
        "recent", [])
    for key, known in recent:
        if key == exact and known.reach >= reach:
            return known
    walked = Walked(reach, walk(state, car, reach, occupied, debris, may_pit, box, []))
    recent.append((exact, walked))
    if len(recent) > RECENT:
        del recent[0]
    return walked


def _alone(state: RaceState, car: CarState, place: tuple[int, ...], reach: int) -> Walked | None:
    """The walk of a car with no car and no debris in its region: the car-free walk of its
    place, walked once per board (to the next of :data:`DEPTHS`) and kept. None when the track
    is one where that cannot be trusted (see :func:`_ahead`)."""
    net = state.board.network
    key = ("alone", place)
    known: Walked | None = net.walks.get(key)  # type: ignore[assignment]
    if known is not None and known.reach >= reach:
        return known
    depth = next((d for d in DEPTHS if d >= reach), reach)
    comebacks: list[tuple[int, int, int]] = []
    start, _corner, _stops, may_pit, box, _changes = place
    known = Walked(depth, walk(state, car, depth, frozenset(), frozenset(), bool(may_pit), box,
                               comebacks))
    if not _ahead(net, start, comebacks):
        return None
    alone = net.walks
    if key not in alone and len(alone) >= KEPT_WALKS:
        # Another thread may take it first: no harm, the dict stays bounded.
        with contextlib.suppress(KeyError, RuntimeError, StopIteration):
            del alone[next(iter(alone))]
    alone[key] = known
    return known


def _debris(net: Network, debris: frozenset[str]) -> frozenset[int]:
    """The debris as space numbers (remembered for the last set, which rarely changes)."""
    known = net.cache.get("debris")
    if isinstance(known, tuple) and known[0] is debris:
        numbers: frozenset[int] = known[1]
        return numbers
    numbers = frozenset(net.number[s] for s in debris if s in net.number)
    net.cache["debris"] = (debris, numbers)
    return numbers


def _ahead(net: Network, start: int, comebacks: list[tuple[int, int, int]]) -> bool:
    """Whether every route that came back into a lane came back ahead of where it left it, in
    the lane order of the region of ``start``."""
    origin = _origins(net, start)
    for lane, left_at, back_at in comebacks:
        length = net.lane_length[lane]
        if (back_at - origin[lane]) % length <= (left_at - origin[lane]) % length:
            return False
    return True


def _origins(net: Network, start: int) -> dict[int, int]:
    _need(net, start)
    origins: dict[int, int] = net.cache[("origins", start)]  # type: ignore[assignment]
    return origins


def _need(net: Network, start: int) -> dict[int, int]:
    """For each space, the shortest reach whose region (see the module docstring) holds it."""
    known = net.cache.get(("need", start))
    if known is not None:
        return known  # type: ignore[return-value]
    steps = {start: 0}
    frontier = [start]
    for depth in range(1, FREE_REACH + 2):
        nxt = []
        for u in frontier:
            for v in net.links[u]:
                if v not in steps:
                    steps[v] = depth
                    nxt.append(v)
        frontier = nxt
    need = {s: max(d - 1, 0) for s, d in steps.items()}
    origins: dict[int, int] = {}
    by_lane: dict[int, list[tuple[int, int]]] = {}
    for s, n in need.items():
        if net.lane[s] >= 0:
            by_lane.setdefault(net.lane[s], []).append((net.lane_index[s], n))
    for lane, found in by_lane.items():
        length = net.lane_length[lane]
        positions = sorted({p for p, _ in found})
        # The lane order starts after the widest gap between positions within reach.
        gaps = [((positions[(k + 1) % len(positions)] - p) % length or length, k)
                for k, p in enumerate(positions)]
        _, widest = max(gaps)
        origin = positions[(widest + 1) % len(positions)]
        origins[lane] = origin
        # A position is in the region of a reach once positions within that reach lie on both
        # sides of it (or on it).
        at = sorted(((p - origin) % length, n) for p, n in found)
        before: list[int] = []
        lowest = NEVER
        for _, n in at:
            lowest = min(lowest, n)
            before.append(lowest)
        after = [0] * len(at)
        lowest = NEVER
        for k in range(len(at) - 1, -1, -1):
            lowest = min(lowest, at[k][1])
            after[k] = lowest
        k = 0
        for offset in range(at[-1][0] + 1):
            while k < len(at) - 1 and at[k + 1][0] <= offset:
                k += 1  # at[k] is the last position at or behind this one
            n = max(before[k], after[k] if at[k][0] == offset else after[k + 1])
            space = net.lane_spaces[lane].get((origin + offset) % length)
            if space is not None and n < need.get(space, NEVER):
                need[space] = n
    net.cache[("need", start)] = need
    net.cache[("origins", start)] = origins
    return need
