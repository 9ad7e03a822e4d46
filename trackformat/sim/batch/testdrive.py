"""Test drives: many seeded races of bots on one track, counted into one report.

A designer asks "how does this track play?": how long races last, where cars overshoot, crash
and spin, which bot wins. A batch answers it by running races and counting their events
(:mod:`trackformat.sim.batch.stats`), never keeping the races themselves.

The same seed and settings give the same report however the work is spread:

- race ``i`` of a batch is raced with the seed :func:`~trackformat.sim.batch.chunks.race_seed`
  (seed, i), whoever runs it;
- :class:`~trackformat.sim.batch.chunks.ChunkPlan` alone decides how the races are cut into
  chunks, from their number only, working each chunk out when it is asked for (a batch of a
  trillion races starts at once, and holds no more than a batch of ten);
- each chunk gives a :class:`~trackformat.sim.batch.stats.DriveStats`, and the chunks' counts are
  merged in chunk order; the counts are exact, so the merge is too.

A chunk needs only the :class:`DriveSpec` (plain JSON-able data: the track and ruleset
documents) and its own :class:`Chunk`, so it can run in this process, in a worker process
(:func:`run_batch` with ``workers``) or on another machine. How a batch is cut into chunks and
merged back is :mod:`~trackformat.sim.batch.chunks`'s; its names are imported from here too.
"""

from __future__ import annotations

import functools
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
from trackformat.sim.batch.chunks import MAX_CHUNK as MAX_CHUNK
from trackformat.sim.batch.chunks import MIN_CHUNKS as MIN_CHUNKS
from trackformat.sim.batch.chunks import Chunk as Chunk
from trackformat.sim.batch.chunks import ChunkMerger as ChunkMerger
from trackformat.sim.batch.chunks import ChunkPlan as ChunkPlan
from trackformat.sim.batch.chunks import Progress as Progress
from trackformat.sim.batch.chunks import plan_chunks as plan_chunks
from trackformat.sim.batch.chunks import race_seed as race_seed
from trackformat.sim.batch.engines import KernelSupply, KernelUnavailable, Racer
from trackformat.sim.batch.racelog import MAX_LAPS
from trackformat.sim.batch.stats import DriveStats
from trackformat.sim.core.board import Board
from trackformat.sim.core.dice import Dice
from trackformat.sim.drivers.bots import DRIVERS
from trackformat.sim.race.grid import RaceSetupError, new_race
from trackformat.sim.race.runner import Driver, run_race

POOL_AHEAD = 4
"""Chunks handed to a process pool ahead of this process's own, per worker process: more than a
worker takes while this process races one chunk, so none waits for work; few, so that a batch
of any size holds a handful of them."""


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
           engine: str | None = None, builds: tuple[str, ...] = ()) -> DriveSpec:
        """A spec from loaded values (``laps`` defaults to the track's; ``engine`` to
        :func:`default_engine`'s)."""
        engine = engine or default_engine(bots)
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


def default_engine(bots: tuple[str, ...]) -> str:
    """The engine a line-up races on unless told: the compiled kernel, or the reference engine
    when a bot is one the kernel does not race (see
    :data:`~trackformat.sim.drivers.bots.COMPILED_DRIVERS`)."""
    from trackformat.sim.drivers.bots import COMPILED_DRIVERS

    return "kernel" if set(bots) <= COMPILED_DRIVERS else "reference"
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
    if spec.laps > MAX_LAPS:
        raise DriveError(f"a race has at most {MAX_LAPS} laps, as a track file, not {spec.laps}")
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
    handed: dict[int, Future[DriveStats]] = {}
    """Chunks handed to the pool and not handed on yet, by index: a few, whatever the batch."""
    queued = 0
    """Chunks below this index have been handed to the pool."""
    try:
        for index, chunk in enumerate(chunks):
            while queued < min(index + POOL_AHEAD * (workers - 1), len(chunks)):
                future = pool.submit(_work, chunks[queued])
                future.add_done_callback(functools.partial(_done, finished, queued))
                handed[queued] = future
                queued += 1
            mine = handed.get(index)
            if mine is not None and mine.cancel():  # no worker has it yet: this process races it
                del handed[index]
                yield chunk, run_chunk(context, chunk)
            # What the workers finished, handed on; after the last chunk, the rest as it comes.
            last = index == len(chunks) - 1
            while handed and (last or not finished.empty()):
                done = finished.get()
                if done in handed:  # not a chunk this process took
                    yield chunks[done], handed.pop(done).result()
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
    chunks = ChunkPlan(races)
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
