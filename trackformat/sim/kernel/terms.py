"""What one question asks of the walk and of pricing: the walk's numbers (``W_*``) and pricing's
terms (``T_*``) for a car's ordinary moves and for the slipstream extras after a move, built
from what the car brings and what the rules say (:mod:`~trackformat.sim.kernel.ask` and
:mod:`~trackformat.sim.kernel.moves` ask through them).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from trackformat.sim.kernel.jit import inlined
from trackformat.sim.kernel.price import (
    M_DEST,
    M_DISTANCE,
    M_ENTRIES,
    M_ROLL,
    M_ROUTE,
    M_SLIPSTREAM,
    T_BLOCK_FROM,
    T_BRAKES_LEFT,
    T_BRAKES_PER_SPACE,
    T_CAR_BOX,
    T_CARRIED,
    T_ELIMINATED_MISSING,
    T_ENTRY_BRAKES,
    T_ENTRY_TYRES,
    T_LEAVING_PIT,
    T_MIN_DEPTH,
    T_RESPIN_MAX,
    T_SLIPSTREAM,
    T_SPUN,
    T_TYRES_LEFT,
    T_TYRES_PER_SPACE,
    TERMS,
)
from trackformat.sim.kernel.route_rows import (
    NEVER,
    R_IN_PIT,
    W_BASE,
    W_CAR_BOX,
    W_ENTRIES_FROM,
    W_LIMITED_UNTIL,
    W_MAX_CHANGES,
    W_MAY_PIT,
    W_OWN_LANE,
    W_REPLAY,
    W_REPLAY_PATH,
    W_ROLL,
    WALK_COLUMNS,
)

Ints = npt.NDArray[np.int64]


@inlined
def ordinary_walk(origin: Ints, rolls: Ints, may_pit: bool, car_box: int, max_changes: int,
                  brakes_left: int, tyres_left: int, spun: bool, brakes_per_space: int,
                  tyres_per_space: int, eliminated_missing: int, respin_max: int,
                  block_from: int) -> tuple[Ints, Ints]:
    """The walk numbers (``W_*``) and pricing terms (``T_*``) of a car's moves for each of
    ``rolls`` (sorted, distinct) from ``origin`` (see
    :func:`~trackformat.sim.kernel.moves.legal_move_rows`): the routes are walked once, for the
    largest roll; a smaller roll's routes are the shorter ones among them (as in
    :func:`~trackformat.sim.move.legal.legal_moves_by_roll`)."""
    walk = np.empty(WALK_COLUMNS, np.int64)
    walk[W_BASE], walk[W_OWN_LANE] = -1, -1
    walk[W_LIMITED_UNTIL], walk[W_ENTRIES_FROM] = NEVER, NEVER
    walk[W_ROLL], walk[W_MAY_PIT], walk[W_CAR_BOX] = rolls[-1], may_pit, car_box
    walk[W_MAX_CHANGES], walk[W_REPLAY] = max_changes, 0
    terms = np.zeros(TERMS, np.int64)
    terms[T_BRAKES_LEFT], terms[T_TYRES_LEFT], terms[T_SPUN] = brakes_left, tyres_left, spun
    terms[T_BRAKES_PER_SPACE], terms[T_TYRES_PER_SPACE] = brakes_per_space, tyres_per_space
    terms[T_ELIMINATED_MISSING], terms[T_RESPIN_MAX] = eliminated_missing, respin_max
    terms[T_BLOCK_FROM], terms[T_LEAVING_PIT] = block_from, origin[R_IN_PIT] == 1
    terms[T_CAR_BOX] = car_box
    return walk, terms


@inlined
def slipstream_walk(origin: Ints, lane: Ints, move: Ints, extra_spaces: int,
                    entry_brakes: int, entry_tyres: int, may_pit: bool, car_box: int,
                    max_changes: int, brakes_left: int, tyres_left: int, spun: bool,
                    brakes_per_space: int, tyres_per_space: int, eliminated_missing: int,
                    respin_max: int, block_from: int) -> tuple[Ints, Ints, Ints]:
    """The walk numbers, pricing terms and the one roll of the slipstream extras after
    ``move`` (see :func:`~trackformat.sim.kernel.moves.slipstream_rows`): the walk replays the
    move's route, then spreads out from its end under the slipstream's patterns."""
    distance = move[M_DISTANCE]
    roll = np.empty(1, np.int64)
    roll[0] = move[M_ROLL] + extra_spaces
    walk, terms = ordinary_walk(origin, roll, may_pit, car_box, max_changes, brakes_left,
                                tyres_left, spun, brakes_per_space, tyres_per_space,
                                eliminated_missing, respin_max, block_from)
    walk[W_BASE] = distance
    walk[W_OWN_LANE] = lane[move[M_DEST]]
    walk[W_LIMITED_UNTIL] = move[M_ROLL] - extra_spaces * move[M_SLIPSTREAM]
    walk[W_ENTRIES_FROM] = distance + 1
    walk[W_REPLAY] = distance
    for d in range(distance):
        walk[W_REPLAY_PATH + d] = move[M_ROUTE + d]
    terms[T_MIN_DEPTH] = distance + 1
    terms[T_CARRIED] = move[M_ENTRIES]
    terms[T_ENTRY_BRAKES], terms[T_ENTRY_TYRES] = entry_brakes, entry_tyres
    terms[T_SLIPSTREAM] = move[M_SLIPSTREAM] + 1
    return walk, terms, roll
