"""Random race positions for the equivalence tests: a car and other cars and debris near it.

Positions are drawn, not hand-made, so that the fast walk meets what a hand never writes: packs
of cars across every lane, debris in the way, cars in corners with some stops made, spun cars
with their last tyres WP, cars in the pit lane and with their pit window open.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import replace

from trackformat.rules import Ruleset
from trackformat.sim import Board, CarState, CarStatus, RaceState, Wear


def ahead(board: Board, space: str, steps: int) -> list[str]:
    """Spaces reachable from ``space`` in at most ``steps`` moves along the links, nearest first
    (the pit lane included)."""
    seen = {space: 0}
    queue = deque([space])
    while queue:
        u = queue.popleft()
        if seen[u] >= steps:
            continue
        for v in (*board.track_next.get(u, ()), *board.pit_entry.get(u, ()),
                  *board.pit_next.get(u, ())):
            if v not in seen:
                seen[v] = seen[u] + 1
                queue.append(v)
    return sorted(seen, key=lambda s: (seen[s], s))


def position(board: Board, rules: Ruleset, rng: random.Random, cars: int = 10) -> RaceState:
    """A random position for a 2-lap race: car 0 is the one to move, the others mostly within
    reach of it, some debris on the track ahead."""
    spaces = sorted(board.kind)
    track = sorted(board.lane)
    start = Wear.of(rules.starting_wear(2))
    own = rng.choice(spaces if rng.random() < 0.15 else track)
    near = ahead(board, own, rng.choice((8, 16, 30)))
    taken = {own}
    placed = []
    pit = board.graphs.track.pit_lane
    boxes = [*pit.boxes, *pit.garages] if pit else []  # the places to stop, boxes or garages
    for index in range(cars):
        if index == 0:
            space = own
        else:
            pool = near if rng.random() < 0.75 else spaces
            free = [s for s in pool if s not in taken]
            if not free:
                break
            space = rng.choice(free)
        taken.add(space)
        corner = board.corner_of.get(space)
        status = CarStatus.RACING
        if rng.random() < 0.08:
            status = CarStatus.SPUN
        elif rng.random() < 0.05:
            status = rng.choice((CarStatus.FINISHED, CarStatus.ELIMINATED))
        wear = start.with_(tyres=rng.randint(0, start.tyres), brakes=rng.randint(0, start.brakes))
        placed.append(CarState(
            index=index, space=space, gear=rng.randint(1, 6), wear=wear,
            lap=rng.choice((1, 2, 2)), box=rng.choice(boxes) if boxes else None,
            corner=corner if rng.random() < 0.8 else None,
            stops=rng.randint(0, 2) if corner else 0,
            status=status, started=True,
            pit_stops=rng.choice((0, 0, 1)),
        ))
    room = [s for s in near if s in board.lane and s not in taken]
    debris = frozenset(rng.sample(room, k=min(rng.choice((0, 0, 1, 3, 6)), len(room))))
    state = RaceState(board=board, rules=rules, laps=2, cars=tuple(placed), debris=debris)
    mover = state.cars[0]
    if not mover.on_board:
        state = state.with_car(replace(mover, status=CarStatus.RACING))
    return state
