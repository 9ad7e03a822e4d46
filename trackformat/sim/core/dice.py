"""The project's own random generator: every die of a race, and the random driver's choices.

A race must come out the same from the same seed in the readable engine and in the compiled
kernel, so the generator is defined here, in a few lines of integer arithmetic that both can
run, rather than borrowed from Python's :mod:`random` (whose algorithm the kernel would have to
copy from CPython's internals):

- the state is one 64-bit integer, stepped by SplitMix64 (Steele, Lea and Flood, "Fast
  splittable pseudorandom number generators", 2014): add a constant, then mix the bits;
- a draw below ``n`` rejects the top sliver of the 64-bit range that ``n`` does not divide
  evenly, so every face of a die is exactly as likely as the others;
- a seed is an int (taken modulo 2**64) or a string (the first 8 bytes of its BLAKE2b digest,
  the same on every machine and in every process, unlike Python's ``hash``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Protocol, TypeVar

T = TypeVar("T")

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
"""SplitMix64's increment (2**64 divided by the golden ratio, odd)."""
MIX1 = 0xBF58476D1CE4E5B9
MIX2 = 0x94D049BB133111EB


class Rng(Protocol):
    """What the engine asks of a generator: a whole number drawn uniformly below ``n``.

    :class:`Dice` is the one races use; tests may script the dice with any object that has
    this method."""

    def randrange(self, n: int) -> int:
        """A whole number from 0 to ``n - 1``, each equally likely."""
        ...


def seed_state(seed: int | str) -> int:
    """The generator's starting state for ``seed``."""
    if isinstance(seed, str):
        return int.from_bytes(hashlib.blake2b(seed.encode("utf-8"), digest_size=8).digest(),
                              "little")
    return seed & MASK


def next_state(state: int) -> tuple[int, int]:
    """One SplitMix64 step: (the new state, the 64-bit output)."""
    state = (state + GOLDEN) & MASK
    z = state
    z = ((z ^ (z >> 30)) * MIX1) & MASK
    z = ((z ^ (z >> 27)) * MIX2) & MASK
    return state, z ^ (z >> 31)


class Dice:
    """The race's generator (see the module docstring); the same seed, the same draws."""

    __slots__ = ("state",)

    def __init__(self, seed: int | str = 0) -> None:
        self.state = seed_state(seed)

    def next64(self) -> int:
        """The next 64-bit output."""
        self.state, out = next_state(self.state)
        return out

    def randrange(self, n: int) -> int:
        """A whole number from 0 to ``n - 1``, each exactly equally likely."""
        if not 0 < n <= MASK:
            raise ValueError(f"cannot draw below {n}")
        limit = (1 << 64) - (1 << 64) % n
        while True:
            out = self.next64()
            if out < limit:
                return out % n

    def choice(self, options: Sequence[T]) -> T:
        """One of ``options``, each equally likely."""
        return options[self.randrange(len(options))]
