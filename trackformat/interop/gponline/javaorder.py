"""The order in which GP Online's Java collections hand out their members.

GP Online keeps a node's moves in a ``java.util.HashSet`` and its nodes in a ``HashMap`` keyed
by id, and its track builder walks them in that order: which curve is met first, which node
becomes the centre of a curve's exit, which lane a node joins when two lanes are at the same
distance. A faithful check of the builder has to walk them in the same order, or it would
accept a file the game refuses (or the other way round) on a tie.

Java's hash table iterates bucket by bucket, and within a bucket in the order the members were
put in (a resize splits each bucket keeping that order). The bucket is the key's hash, spread
(``h ^ (h >>> 16)``), masked by the table's size, which starts at 16 and doubles whenever the
members outnumber three quarters of it. A node hashes to its id plus one, an ``Integer`` to
itself. Buckets that grow to 8 members in a table of 64 or more become trees in Java, which
iterate differently; move sets hold a handful of nodes and ids are distinct integers, so that
never happens on a track.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

FIRST_CAPACITY = 16
"""Size of a new ``HashSet`` or ``HashMap`` table."""


def java_int(value: int) -> int:
    """``value`` wrapped to a Java ``int``, as Java's arithmetic does."""
    return (value + 2**31) % 2**32 - 2**31


def node_hash(node_id: int) -> int:
    """The hash of a GP Online node: its id plus one, in Java ``int`` arithmetic."""
    return java_int(node_id + 1)


def integer_hash(value: int) -> int:
    """The hash of a Java ``Integer``: the value itself."""
    return value


class JavaHashSet:
    """A set of ids that iterates as a ``java.util.HashSet`` (or a ``HashMap``'s keys) does
    when the same ids are added and removed in the same order."""

    def __init__(self, *, nodes: bool = True) -> None:
        """A set of node ids (hashed as GP Online's nodes), or of ``Integer`` keys."""
        self._hash = node_hash if nodes else integer_hash
        self._capacity = FIRST_CAPACITY
        self._added: dict[int, int] = {}
        self._counter = itertools.count()
        self._order: list[int] | None = None

    def add(self, member: int) -> None:
        """Put ``member`` in, at the end of its bucket (an id already in keeps its place)."""
        if member in self._added:
            return
        self._added[member] = next(self._counter)
        while len(self._added) > self._capacity * 3 // 4:
            self._capacity *= 2
        self._order = None

    def discard(self, member: int) -> None:
        """Take ``member`` out; the table keeps its size, as Java's does."""
        if self._added.pop(member, None) is not None:
            self._order = None

    def __contains__(self, member: object) -> bool:
        return member in self._added

    def __len__(self) -> int:
        return len(self._added)

    def __iter__(self) -> Iterator[int]:
        if self._order is None:
            mask = self._capacity - 1

            def place(member: int) -> tuple[int, int]:
                h = self._hash(member) & 0xFFFFFFFF
                return ((h ^ (h >> 16)) & mask, self._added[member])

            self._order = sorted(self._added, key=place)
        return iter(self._order)
