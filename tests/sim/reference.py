"""The route walk and move list as the engine first had them, kept as the reference.

The engine was rewritten for speed (trackformat.sim.move.reach and the new collection in moves.py);
the equivalence tests compare its legal moves with the original straightforward walker on many
random positions. That walker still lives in the engine (trackformat.sim.move.routes,
moves.collect_moves), which keeps using it for slipstream extras (so those need no comparison:
tests/sim/test_slipstream.py pins them); here are the original entry points that drove it for
every move. Do not route these
through the fast engine: their value is that they are the plain reading of the rules that the
fast engine must agree with. The recorded races under tests/sim/data pin the behaviour too.
"""

from __future__ import annotations

from collections.abc import Iterable

from trackformat.sim.core.state import RaceState
from trackformat.sim.move.legal import Move, collect_moves
from trackformat.sim.move.routes import RouteWalk


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
