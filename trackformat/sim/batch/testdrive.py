"""Test drives: many seeded races of bots on one track, counted into one report.

A designer asks "how does this track play?": how long races last, where cars overshoot, crash
and spin, which bot wins. A batch answers it by running races and counting their events
(:mod:`trackformat.sim.batch.stats`), never keeping the races themselves.

The same seed and settings give the same report however the work is spread:

- race ``i`` of a batch is raced with the seed :func:`race_seed` (seed, i), whoever runs it;
- :func:`plan_chunks` alone decides how the races are cut into chunks, from their number only;
- each chunk gives a :class:`~trackformat.sim.batch.stats.DriveStats`, and the chunks' counts are
  merged in chunk order; the counts are exact, so the merge is too.

A chunk needs only the :class:`DriveSpec` (plain JSON-able data: the track and ruleset
documents) and its own :class:`Chunk`, so it can run in this process, in a worker process
(:func:`run_batch` with ``workers``) or on another machine.
"""

from __future__ import annotations

import functools
import hashlib
import json
import multiprocessing
import queue
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from trackformat.collector import collection_deferred, set_aside_survivors, settle
from trackformat.io import track_from_document, track_to_document
from trackformat.model.track import Track
from trackformat.process import one_job_process
from trackformat.rules import (
    BuildError,
    Ruleset,
    WearPoints,
    build_lineup,
    lineup_points,
    ruleset_from_document,
)
from trackformat.sim.batch.engines import KernelSupply, KernelUnavailable, Racer
from trackformat.sim.batch.stats import DriveStats
from trackformat.sim.core.board import Board
from trackformat.sim.core.dice import Dice
from trackformat.sim.drivers.bots import DRIVERS
from trackformat.sim.race.grid import RaceSetupError, new_race
from trackformat.sim.race.runner import Driver, run_race

MAX_CHUNK = 10
"""Races per chunk at most: small enough for a smooth progress bar and an even share of work
between workers, big enough that sending a chunk's counts back costs nothing."""

MIN_CHUNKS = 64
"""Small batches are cut into up to this many chunks, so that every worker gets some."""

Progress = Callable[[int, int], None]
"""Called with (races done, races in the batch) as chunks complete."""


class DriveError(ValueError):
    """A batch that cannot run: an unknown bot, or a race that cannot start on the track."""


def driver_factories() -> dict[str, Callable[[int], Driver]]:
    """Bots by name, each made from a seed: the engine's ``DRIVERS`` registry."""
    return dict(DRIVERS)


def bot_lineup(names: Sequence[str], cars: int) -> tuple[str, ...]:
    """The bot of each car: ``names`` repeated over the cars in order. Raises
    :class:`DriveError` for a bot that does not exist."""
    known = driver_factories()
    listed = f"(bots: {', '.join(sorted(known))})"
    if not names or not all(names):
        raise DriveError(f"a bot name is missing {listed}")
    unknown = [name for name in names if name not in known]
    if unknown:
        raise DriveError(f"unknown bot {unknown[0]!r} {listed}")
    if cars < 1:
        raise DriveError("a test drive needs at least one car")
    return tuple(names[car % len(names)] for car in range(cars))


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


def plan_chunks(races: int) -> tuple[Chunk, ...]:
    """How a batch of ``races`` is cut: the one place that decides it, from the number of races
    only, so every way of running the batch runs the same chunks."""
    size = max(1, min(MAX_CHUNK, -(-races // MIN_CHUNKS)))
    return tuple(
        Chunk(index, start, min(start + size, races))
        for index, start in enumerate(range(0, races, size))
    )


@dataclass(frozen=True)
class DriveSpec:
    """Everything a chunk needs, as plain data that pickles and travels."""

    track: dict[str, Any]
    """The track document (as in a track file)."""
    ruleset: dict[str, Any]
    """The ruleset document."""
    bots: tuple[str, ...]
    """The bot of each car."""
    laps: int
    seed: int
    max_turns: int | None = None
    engine: str = "kernel"
    """Which engine races: ``kernel`` (compiled) or ``reference`` (readable); both give the
    same races, so the same report."""
    builds: tuple[str, ...] = ()
    """The build of each car (building your car), as :func:`~trackformat.rules.build_lineup`
    writes it: a build's name in the ruleset, ``standard``, or ``tyres=8,brakes=4,...``;
    empty: every car starts with the ruleset's WP."""

    @classmethod
    def of(cls, track: Track, rules: Ruleset, bots: tuple[str, ...], seed: int,
           laps: int | None = None, max_turns: int | None = None,
           engine: str = "kernel", builds: tuple[str, ...] = ()) -> DriveSpec:
        """A spec from loaded values (``laps`` defaults to the track's)."""
        return cls(track=track_to_document(track),
                   ruleset=rules.model_dump(mode="json", by_alias=True), bots=bots,
                   laps=laps if laps is not None else track.metadata.laps, seed=seed,
                   max_turns=max_turns, engine=engine, builds=builds)

    def build_points(self, rules: Ruleset) -> tuple[WearPoints | None, ...]:
        """Each car's WP from :attr:`builds` (None: the ruleset's), checked against ``rules``:
        :class:`DriveError` says which car's build is wrong and why."""
        if not self.builds:
            return ()
        if len(self.builds) != len(self.bots):
            raise DriveError(f"{len(self.builds)} builds for {len(self.bots)} cars")
        try:
            build_lineup(self.builds, len(self.builds), rules.car_build, rules.builds,
                         rules.name)
            return lineup_points(self.builds, rules.builds)
        except BuildError as err:
            raise DriveError(str(err)) from None


@dataclass(frozen=True)
class DriveContext:
    """A spec made ready to race: the board built once, the ruleset and bots looked up."""

    spec: DriveSpec
    board: Board
    rules: Ruleset
    factories: dict[str, Callable[[int], Driver]]
    kernel: KernelSupply | None = None
    """Where the compiled kernel's racer comes from, or None when the readable engine races."""
    builds: tuple[WearPoints | None, ...] = ()
    """Each car's build, read from the spec (None: the ruleset's WP; empty: no builds)."""

    @property
    def racer(self) -> Racer | None:
        """The compiled kernel's racer (arrays and the drivers' tables built once), or None
        when the readable engine races: always, or while the kernel compiles."""
        return self.kernel.racer() if self.kernel is not None else None


ENGINES = ("kernel", "reference")
"""The engines a batch can race on: the compiled kernel (the default: the same races, many times
faster) and the readable reference engine."""


def prepare(spec: DriveSpec, cold: str = "compile",
            say: Callable[[str], None] | None = None) -> DriveContext:
    """Build the board and check that the batch can run (raises :class:`DriveError`).

    ``cold`` says what to do when the kernel is to race and is not compiled yet (see
    :data:`~trackformat.sim.batch.engines.COLD_WAYS`): compile it now, or race on the
    reference engine while it compiles; ``say`` tells the user so (a line on stderr by default)."""
    board = Board.of(track_from_document(spec.track, "test drive track"))
    rules = ruleset_from_document(spec.ruleset, "test drive ruleset")
    bot_lineup(spec.bots, len(spec.bots))
    builds = spec.build_points(rules)
    if spec.laps < 1:
        raise DriveError(f"a race needs at least one lap, not {spec.laps}")
    if spec.engine not in ENGINES:
        raise DriveError(f"unknown engine {spec.engine!r}: choose {' or '.join(ENGINES)}")
    try:
        new_race(board, rules, len(spec.bots), spec.laps, Dice(0), [], builds)
    except RaceSetupError as err:
        raise DriveError(str(err)) from None
    kernel = None
    if spec.engine == "kernel":
        try:
            kernel = KernelSupply(board, rules, spec, cold, say)
        except KernelUnavailable as error:
            raise DriveError(str(error)) from None
    return DriveContext(spec, board, rules, driver_factories(), kernel, builds)



def run_chunk(context: DriveContext, chunk: Chunk) -> DriveStats:
    """Race the chunk's races and count them; each race gets fresh bots, so a race depends on
    its seed only, not on the races run before it."""
    spec, stats = context.spec, DriveStats()
    racer = context.racer
    if racer is not None:
        return _run_kernel_chunk(context, racer, chunk)
    if context.kernel is not None:
        context.kernel.races_meanwhile += len(chunk.races)
    with collection_deferred():  # for the whole chunk, not race by race
        for index in chunk.races:
            seed = race_seed(spec.seed, index)
            drivers = [context.factories[name](seed) for name in spec.bots]
            result = run_race(context.board, context.rules, drivers, seed, laps=spec.laps,
                              max_turns=spec.max_turns, builds=context.builds)
            stats.add_race(result, context.board, spec.bots, context.rules.team_points,
                           spec.builds)
    return stats


def _run_kernel_chunk(context: DriveContext, racer: Racer, chunk: Chunk) -> DriveStats:
    """:func:`run_chunk` on the kernel: its corner and space counts are added up in compiled
    code over the chunk, and read into the counts once."""
    spec, stats = context.spec, DriveStats()
    corners, spaces = racer.count_tables()
    with collection_deferred():
        for index in chunk.races:
            result = racer.count(race_seed(spec.seed, index), corners, spaces)
            stats.add_outcome(result, spec.bots, context.rules.team_points, spec.builds)
    stats.add_counts(*racer.read_counts(corners, spaces))
    return stats


_worker_context: DriveContext | None = None
"""The context of a worker process, built once by :func:`_start_worker`."""


def _start_worker(spec: DriveSpec) -> None:
    global _worker_context
    # Ctrl-C is the parent's to handle (it stops the pool); a worker left to it would print
    # its own traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    one_job_process()
    # What the engines have to say (the kernel beyond its limits, not kept), the parent, which
    # prepared the same batch, has said once already.
    _worker_context = prepare(spec, cold="follow", say=_quiet)
    settle()


def _quiet(line: str) -> None:
    """Say nothing."""


def _work(chunk: Chunk) -> DriveStats:
    assert _worker_context is not None, "the worker was not started with a spec"
    return run_chunk(_worker_context, chunk)


class ChunkMerger:
    """Chunks' counts added up in chunk order, each chunk exactly once, however they come back.

    Workers finish chunks in any order, and a cluster that loses a worker runs its chunks again,
    so a chunk may come back late, or twice. Early chunks wait until the ones before them are
    in; a chunk already merged or already waiting is ignored. Every way of running a batch
    (this process, a process pool, a Dask cluster) merges through here, so they all add the
    same counts in the same order.
    """

    def __init__(self, chunks: Sequence[Chunk], progress: Progress | None = None) -> None:
        self.chunks = tuple(chunks)
        self.total = DriveStats()
        """The counts of the chunks merged so far."""
        self.races_done = 0
        self._progress = progress
        self._races = sum(len(chunk.races) for chunk in self.chunks)
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


def _pooled(context: DriveContext, chunks: Sequence[Chunk],
            workers: int) -> Iterator[tuple[Chunk, DriveStats]]:
    """Chunks raced by this process and ``workers - 1`` worker processes, as they complete.

    Workers are spawned (not forked), so each starts clean and rebuilds the board from the spec
    once, which takes a second or so. This process has its board and its kernel ready, so it
    races from the first moment instead of waiting: in chunk order, each chunk no worker has
    taken yet, while the workers take theirs in the same order, so that the chunks come back
    nearly in order (a progress bar moves as the batch does). Whatever the workers finish is
    handed on between two of its own chunks."""
    pool = ProcessPoolExecutor(max_workers=workers - 1,
                               mp_context=multiprocessing.get_context("spawn"),
                               initializer=_start_worker, initargs=(context.spec,))
    finished: queue.SimpleQueue[int] = queue.SimpleQueue()
    try:
        futures: list[Future[DriveStats]] = []
        for index, chunk in enumerate(chunks):
            future = pool.submit(_work, chunk)
            future.add_done_callback(functools.partial(_done, finished, index))
            futures.append(future)
        left = len(chunks)
        for index, chunk in enumerate(chunks):
            if futures[index].cancel():  # no worker has it yet: this process races it
                yield chunk, run_chunk(context, chunk)
                left -= 1
            # What the workers finished, handed on; after the last chunk, the rest as it comes.
            last = index == len(chunks) - 1
            while left and (last or not finished.empty()):
                done = finished.get()
                if not futures[done].cancelled():  # a chunk this process took: not a worker's
                    left -= 1
                    yield chunks[done], futures[done].result()
    except BaseException:
        # Interrupted or failed: the chunks still running are of no use, and waiting for them
        # could take minutes, so the workers are stopped at once.
        _stop_workers(pool)
        raise
    pool.shutdown(wait=True)


def _done(finished: queue.SimpleQueue[int], index: int, _: Future[DriveStats]) -> None:
    """Say that chunk ``index`` is done (or cancelled), from the pool's own thread."""
    finished.put(index)


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """Drop the chunks not started and end the worker processes without waiting for theirs.

    Python 3.14 has ``terminate_workers``; before it, the pool's own table of processes is the
    only way to reach them (taken before ``shutdown``, which forgets it)."""
    terminate = getattr(pool, "terminate_workers", None)
    if callable(terminate):
        terminate()
        return
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()


def run_batch(spec: DriveSpec, races: int, workers: int = 1,
              progress: Progress | None = None,
              context: DriveContext | None = None) -> DriveStats:
    """Run ``races`` races of ``spec`` and return their merged counts.

    ``workers`` > 1 races chunks in this process and ``workers - 1`` others; the result is the
    same. ``context`` reuses an already prepared spec for the work done in this process.
    """
    context = context if context is not None else prepare(spec)
    chunks = plan_chunks(races)
    merger = ChunkMerger(chunks, progress)
    if workers > 1 and len(chunks) > 1:
        results = _pooled(context, chunks, min(workers, len(chunks)))
    else:
        results = ((chunk, run_chunk(context, chunk)) for chunk in chunks)
    for chunk, stats in results:
        merger.add(chunk, stats)
    return merger.total


if __name__ == "__main__":
    # A batch's spec as JSON on stdin, prepared: the kernel's compile in a process of its own
    # (see engines.BackgroundCompile).
    one_job_process()
    set_aside_survivors()
    loaded = json.loads(sys.stdin.read())
    loaded["bots"] = tuple(loaded["bots"])
    loaded["builds"] = tuple(loaded.get("builds", ()))
    prepare(DriveSpec(**loaded))
