"""The project's generator (:mod:`trackformat.sim.core.dice`) as compiled code.

The state lives in a one-element ``uint64`` array, so compiled code can step it in place; every
constant is a ``uint64`` so that no step strays into signed or floating-point arithmetic. The
draws are the readable engine's, draw for draw (tests/sim/test_dice.py compares them).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from trackformat.sim.core.dice import GOLDEN, MASK, MIX1, MIX2, seed_state
from trackformat.sim.kernel.jit import compiled, entry

State = npt.NDArray[np.uint64]

_GOLDEN = np.uint64(GOLDEN)
_MIX1 = np.uint64(MIX1)
_MIX2 = np.uint64(MIX2)
_MASK = np.uint64(MASK)
_S30, _S27, _S31 = np.uint64(30), np.uint64(27), np.uint64(31)


def new_state(seed: int | str) -> State:
    """A generator state for ``seed``, as :class:`~trackformat.sim.core.dice.Dice` starts."""
    return np.array([seed_state(seed)], dtype=np.uint64)


@compiled
def next64(state: State) -> np.uint64:
    """Step the state; the next 64-bit output."""
    s: np.uint64 = state[0] + _GOLDEN
    state[0] = s
    z: np.uint64 = (s ^ (s >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    out: np.uint64 = z ^ (z >> _S31)
    return out


@compiled
def randrange(state: State, n: int) -> int:
    """A whole number from 0 to ``n - 1``, each exactly equally likely (``n`` >= 1)."""
    m = np.uint64(n)
    spare = (_MASK - m + np.uint64(1)) % m  # 2**64 mod n: the top values that would bias
    highest = _MASK - spare
    while True:
        out = next64(state)
        if out <= highest:
            return np.int64(out % m)  # type: ignore[return-value]


@entry
def draws(state: State, sizes: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """One :func:`randrange` per size, in order (for the tests)."""
    result = np.empty(len(sizes), np.int64)
    for i in range(len(sizes)):
        result[i] = randrange(state, sizes[i])
    return result
