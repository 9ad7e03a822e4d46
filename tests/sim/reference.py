"""The route walk and move list as the engine first had them, kept as the reference.

The engine was rewritten for speed (trackformat.sim.reach and the new collection in moves.py);
the equivalence tests compare its legal moves, and its slipstream moves, with the original
straightforward walker on many random positions. That walker still lives in the engine
(trackformat.sim.routes, moves.collect_moves, the slipstream walk), which uses it for slipstream
extras; here are the original entry points that drove it for every move. Do not route these
through the fast engine: their value is that they are the plain reading of the rules that the
fast engine must agree with. The recorded races under tests/sim/data pin the behaviour too.
"""

from __future__ import annotations

from collections.abc import Iterable

from trackformat.sim.moves import Move, collect_moves
from trackformat.sim.routes import Route, RouteWalk
from trackformat.sim.slipstream import _SlipWalk, slipstream_leader
from trackformat.sim.state import RaceState, Wear


def legal_moves(state: RaceState, car: int, roll: int) -> tuple[Move, ...]:
    """Every legal way for ``car`` to play ``roll`` spaces, never empty for a car on the board.

    To weigh every face of a die, :func:`legal_moves_by_roll` is cheaper than one call per face.
    """
    walk = RouteWalk(state, state.cars[car], roll)
    return collect_moves(walk, walk.prefixes(walk.origin(), roll), roll)


def legal_moves_by_roll(
    state: RaceState, car: int, rolls: Iterable[int]
) -> dict[int, tuple[Move, ...]]:
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
    return collect_moves(
        walk,
        walk.prefixes(path, rules.extra_spaces),
        walk.roll,
        carried_entries=move.corner_entries,
        slipstream=move.slipstream + 1,
        min_depth=walk.base + 1,
    )
