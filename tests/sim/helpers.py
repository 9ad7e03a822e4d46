"""Building race states by hand for the engine's tests, and a die that rolls what it is told."""

from __future__ import annotations

import random
from functools import cache
from typing import Any

from tests.factories import ring
from trackformat.model import Track
from trackformat.rules import Ruleset, load_ruleset
from trackformat.sim import Board, CarState, Move, RaceState, Wear


@cache
def ring_board(lanes: int = 3, per_lane: int = 40) -> Board:
    """The board of the factory ring (3 lanes: corner "north" on 8-11 with 1 stop, a single
    arrow on 7; corner "south" on 22-26 with 2 stops, a single arrow on 21; pit entry from
    3-35, boxes box-1 after pit-1 and box-2 after pit-3, pit exit onto 3-3)."""
    return Board.of(ring(lanes=lanes, per_lane=per_lane))


@cache
def rules(name: str = "formula-d") -> Ruleset:
    return load_ruleset(name)


def race(
    cars: list[dict[str, Any]] | list[str],
    board: Board | Track | None = None,
    ruleset: Ruleset | None = None,
    laps: int = 2,
    debris: tuple[str, ...] = (),
) -> RaceState:
    """A race with cars placed by hand. Each car is a space id or a dict of CarState fields
    (``space`` required; gear 3, lap 1, started, starting WP unless given; ``wear`` may be a
    dict of the categories to change)."""
    board = board if isinstance(board, Board) else (
        Board.of(board) if board is not None else ring_board())
    ruleset = ruleset or rules()
    start = Wear.of(ruleset.starting_wear(laps))
    placed = []
    for index, spec in enumerate(cars):
        fields: dict[str, Any] = {"space": spec} if isinstance(spec, str) else dict(spec)
        wear = fields.pop("wear", {})
        fields.setdefault("gear", 3)
        fields.setdefault("lap", 1)
        fields.setdefault("started", True)
        placed.append(CarState(index=index, wear=start.with_(**wear), **fields))
    return RaceState(board=board, rules=ruleset, laps=laps, cars=tuple(placed),
                     debris=frozenset(debris))


def table(moves: tuple[Move, ...]) -> set[tuple[str, int, int]]:
    """Moves as (destination, brakes WP, tyres WP), the way the tests pin them."""
    return {(m.destination, m.brakes, m.tyres) for m in moves}


def full(moves: tuple[Move, ...]) -> set[str]:
    """Destinations of the moves that cover the whole roll without braking."""
    return {m.destination for m in moves if m.distance == m.roll}


class Rolls(random.Random):
    """A generator whose every die roll is scripted: give the results wanted, in order.

    Works for the black die (faces 1-20), whose result is its face's position plus one."""

    def __init__(self, *results: int) -> None:
        super().__init__(0)
        self.results = list(results)

    def randrange(self, *args: Any, **kwargs: Any) -> int:
        if not self.results:
            raise AssertionError("a die was rolled more times than the test scripted")
        return self.results.pop(0) - 1
