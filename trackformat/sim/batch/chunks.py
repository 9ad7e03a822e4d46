"""A batch cut into chunks: which races each chunk races, with which seeds, and the chunks'
counts merged back in order.

Every way of running a batch (this process, a process pool, a Dask cluster) cuts it here and
merges it here, so they all race the same races and add the same counts in the same order. A
batch of any size is cut without listing its chunks (:class:`ChunkPlan`), so a batch of a
trillion races starts as soon as one of ten, and holds no more.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import overload

from trackformat.sim.batch.stats import DriveStats

MAX_CHUNK = 10
"""Races per chunk at most: small enough for a smooth progress bar and an even share of work
between workers, big enough that sending a chunk's counts back costs nothing."""

MIN_CHUNKS = 64
"""Small batches are cut into up to this many chunks, so that every worker gets some."""

Progress = Callable[[int, int], None]
"""Called with (races done, races in the batch) as chunks complete."""


def race_seed(seed: int, index: int) -> int:
    """The seed of race ``index`` of a batch: a hash of both numbers, the same in every process
    and on every machine (unlike Python's ``hash``)."""
    digest = hashlib.blake2b(f"testdrive:{seed}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


@dataclass(frozen=True)
class Chunk:
    """Races ``start`` to ``stop - 1`` of a batch; ``index`` is its place in the merge order."""

    index: int
    start: int
    stop: int

    @property
    def races(self) -> range:
        return range(self.start, self.stop)


class ChunkPlan(Sequence[Chunk]):
    """How a batch of ``races`` is cut: the one place that decides it, from the number of races
    only, so every way of running the batch runs the same chunks. A chunk is worked out when
    asked for, never listed: ``--races 1000000000000`` once listed a hundred billion chunks
    before its first race, and ran out of memory."""

    def __init__(self, races: int) -> None:
        self.races = races
        self.size = max(1, min(MAX_CHUNK, -(-races // MIN_CHUNKS)))
        self._starts = range(0, races, self.size)

    def __len__(self) -> int:
        return len(self._starts)

    @overload
    def __getitem__(self, index: int) -> Chunk: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Chunk]: ...
    def __getitem__(self, index: int | slice) -> Chunk | Sequence[Chunk]:
        if isinstance(index, slice):
            return [self[number] for number in range(len(self))[index]]
        start = self._starts[index]  # negative indices and IndexError, as a tuple's
        return Chunk(start // self.size, start, min(start + self.size, self.races))


def plan_chunks(races: int) -> tuple[Chunk, ...]:
    """The chunks of a batch of ``races``, listed (:class:`ChunkPlan` lists none): for a batch
    small enough to hold them all."""
    return tuple(ChunkPlan(races))


class ChunkMerger:
    """Chunks' counts added up in chunk order, each chunk exactly once, however they come back.

    Workers finish chunks in any order, and a cluster that loses a worker runs its chunks again,
    so a chunk may come back late, or twice. Early chunks wait until the ones before them are
    in; a chunk already merged or already waiting is ignored. Every way of running a batch
    (this process, a process pool, a Dask cluster) merges through here, so they all add the
    same counts in the same order.
    """

    def __init__(self, chunks: Sequence[Chunk], progress: Progress | None = None) -> None:
        self.chunks = chunks
        """The batch's chunks, in order from race 0 (a :class:`ChunkPlan`: never listed)."""
        self.total = DriveStats()
        """The counts of the chunks merged so far."""
        self.races_done = 0
        self._progress = progress
        self._races = chunks[-1].stop if chunks else 0
        self._next = 0
        """Chunks below this index are merged."""
        self._waiting: dict[int, DriveStats] = {}

    @property
    def waiting(self) -> int:
        """Chunks back early, held until the chunks before them are in."""
        return len(self._waiting)

    @property
    def complete(self) -> bool:
        return self._next == len(self.chunks)

    def missing(self) -> list[int]:
        """Indices of the chunks not merged yet."""
        return list(range(self._next, len(self.chunks)))

    def add(self, chunk: Chunk, stats: DriveStats) -> bool:
        """Take a chunk's counts; False when that chunk was already taken (and is ignored)."""
        if not 0 <= chunk.index < len(self.chunks) or self.chunks[chunk.index] != chunk:
            raise ValueError(f"{chunk} is not a chunk of this batch")
        if chunk.index < self._next or chunk.index in self._waiting:
            return False
        self._waiting[chunk.index] = stats
        while self._next in self._waiting:
            self.total.merge(self._waiting.pop(self._next))
            self.races_done += len(self.chunks[self._next].races)
            self._next += 1
            if self._progress is not None:
                self._progress(self.races_done, self._races)
        return True


__all__ = [
    "MAX_CHUNK",
    "MIN_CHUNKS",
    "Chunk",
    "ChunkMerger",
    "ChunkPlan",
    "Progress",
    "plan_chunks",
    "race_seed",
]
