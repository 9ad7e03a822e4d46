# distributed annotates only part of its API (Client, as_completed): calling it is fine here.
# mypy: disable-error-code="no-untyped-call"
"""Test drives on a Dask cluster: the same batch, raced by workers on other machines.

A batch on a cluster gives the same report, to the byte, as in one process: the chunks are
:func:`~trackformat.sim.batch.testdrive.plan_chunks`'s, each chunk races its own seeded races, and
the chunks' counts are merged in chunk order, each exactly once, by the same
:class:`~trackformat.sim.batch.testdrive.ChunkMerger` as the local process pool's.

How the work travels, and why:

- the :class:`~trackformat.sim.batch.testdrive.DriveSpec` (the track and ruleset documents, a few
  hundred kB for a real track) goes to each worker once, in a worker plugin registered for
  the batch; the scheduler hands the plugin to workers that join or restart mid-batch too. A
  task carries only the batch's name and its :class:`~trackformat.sim.batch.testdrive.Chunk`;
- each worker thread builds the board once per batch and keeps it (the board's scratch caches
  are not made to be shared between threads, so threads do not share one);
- at most a window of chunks (a few per worker thread) is out on the cluster at once, so a
  worker finishing a chunk finds the next one already queued; results are merged as they
  arrive and dropped, and the few that come back before an earlier chunk wait for it, up to a
  bound (:data:`HELD_PER_WINDOW`): the client's memory stays flat whatever the batch's size;
- a worker lost mid-batch loses the chunks it was racing (and the results it still held):
  Dask runs them again elsewhere, and the merger takes each chunk once.

Workers must run the same code as the client, or the same seed could give another report;
each task checks a fingerprint of the package's source against the client's and fails with a
message saying so. Needs the ``cluster`` extra (``pip install ".[cluster]"``); docs/scale.md
says how to start a cluster.
"""

from __future__ import annotations

import hashlib
import threading
import time
import uuid
from collections.abc import Iterator, Sequence
from concurrent.futures import CancelledError
from functools import cache
from pathlib import Path
from typing import Any

from distributed import Client, Future, as_completed
from distributed.comm.addressing import get_address_host_port
from distributed.diagnostics.plugin import WorkerPlugin
from distributed.scheduler import KilledWorker

import trackformat
from trackformat.sim.batch.stats import DriveStats
from trackformat.sim.batch.testdrive import (
    Chunk,
    ChunkMerger,
    ChunkPlan,
    DriveContext,
    DriveSpec,
    Progress,
    prepare,
    run_chunk,
)

CONNECT_TIMEOUT = 10.0
"""Seconds to reach the scheduler, and then to see at least one worker, before giving up."""

WINDOW_PER_THREAD = 3
"""Chunks out on the cluster at once, per worker thread: enough that a worker finishing a chunk
finds the next one already queued, few enough that a lost worker takes little work with it."""

RESIZE_EVERY = 5.0
"""Seconds between two looks at the cluster's size during a batch."""

HELD_PER_WINDOW = 4
"""Chunks back early (waiting for an earlier one before they can be merged) that the client
keeps, per chunk of the window, before it stops sending more: room enough that a slow chunk
does not leave the other workers idle, a bound on the client's memory all the same."""


class ClusterError(RuntimeError):
    """A batch that cannot run on the cluster: the scheduler cannot be reached, it has no
    workers, the workers run other code, or they keep dying."""


def code_fingerprint() -> str:
    """A hash of the package's Python source: equal on two machines when they race alike."""
    return _fingerprint_of(Path(trackformat.__file__).resolve().parent)


@cache
def _fingerprint_of(package: Path) -> str:
    digest = hashlib.blake2b(digest_size=12)
    for path in sorted(package.rglob("*.py")):
        digest.update(path.relative_to(package).as_posix().encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()


# -- on a worker --------------------------------------------------------------------------------

_specs: dict[str, DriveSpec] = {}
"""Batch name -> its spec, on a worker: put there by :class:`SpecPlugin`."""

_contexts: dict[tuple[str, int], DriveContext] = {}
"""(batch name, thread id) -> the spec prepared by that worker thread."""

_lock = threading.Lock()

_boards_built = 0
"""Specs prepared (boards built) by this process since it started."""


class SpecPlugin(WorkerPlugin):
    """Puts a batch's spec on every worker of the cluster, and takes it (and the boards built
    from it) away when the batch is over."""

    def __init__(self, batch: str, spec: DriveSpec) -> None:
        self.batch = batch
        self.spec = spec

    def setup(self, worker: Any) -> None:
        with _lock:
            _specs[self.batch] = self.spec

    def teardown(self, worker: Any) -> None:
        with _lock:
            _specs.pop(self.batch, None)
            for key in [key for key in _contexts if key[0] == self.batch]:
                del _contexts[key]


def _context(batch: str) -> DriveContext:
    """This thread's prepared spec of ``batch``, built on its first chunk."""
    global _boards_built
    key = (batch, threading.get_ident())
    with _lock:
        context = _contexts.get(key)
        spec = _specs.get(batch)
    if context is not None:
        return context
    if spec is None:
        raise ClusterError(f"this worker was not given the spec of batch {batch}")
    context = prepare(spec)
    with _lock:
        _boards_built += 1
        if batch in _specs:  # not when the batch ended while this chunk was being prepared
            _contexts[key] = context
    return context


def worker_report() -> dict[str, int]:
    """What this worker holds: boards built since it started, and the batches whose spec it
    has now (0 between batches). Ask every worker with ``client.run(worker_report)``."""
    with _lock:
        return {"boards_built": _boards_built, "batches": len(_specs)}


def race_chunk(batch: str, chunk: Chunk, fingerprint: str) -> DriveStats:
    """A task: race one chunk of ``batch`` on this worker."""
    if code_fingerprint() != fingerprint:
        raise ClusterError(
            f"a worker runs other trackformat code than the client (fingerprint "
            f"{code_fingerprint()}, not {fingerprint}): install the same checkout on every "
            "machine of the cluster")
    return run_chunk(_context(batch), chunk)


# -- on the client ------------------------------------------------------------------------------


def connect(address: str, timeout: float | None = None) -> Client:
    """A client of the scheduler at ``address`` that has at least one worker; raises
    :class:`ClusterError` saying what is wrong within about twice ``timeout`` seconds
    (default :data:`CONNECT_TIMEOUT`)."""
    timeout = CONNECT_TIMEOUT if timeout is None else timeout
    _check_address(address)
    try:
        client = Client(address, timeout=timeout, set_as_default=False)
    except (OSError, ValueError, TypeError) as err:
        raise ClusterError(f"cannot reach a Dask scheduler at {address!r}: {err}") from None
    try:
        client.wait_for_workers(1, timeout=timeout)
    except (OSError, TimeoutError):
        client.close()
        raise ClusterError(
            f"the Dask scheduler at {address} has no workers after {timeout:g} s; start some "
            f"with `dask worker {address}`") from None
    return client


def _check_address(address: str) -> None:
    """Refuse an address that names no host and port before a client is made of it: Dask's
    client, given one, leaves a half-made client behind that hangs the interpreter's exit."""
    try:
        host, port = get_address_host_port(address)
    except ValueError as err:
        problem = str(err)
    else:
        if host and 0 < port < 65536:
            return
        problem = "no host" if not host else f"port {port} is out of range"
    raise ClusterError(f"{address!r} is not the address of a Dask scheduler ({problem}); "
                       "give tcp://HOST:PORT, e.g. tcp://scheduler-host:8786")


def disconnect(client: Client) -> None:
    """Close the client (the cluster and its workers go on, ready for the next batch)."""
    client.close()


def cluster_size(client: Client) -> tuple[int, int]:
    """(workers, worker threads) of the cluster now."""
    threads = client.nthreads()
    return len(threads), sum(threads.values())


def run_on_cluster(client: Client, spec: DriveSpec, races: int,
                   progress: Progress | None = None, window: int | None = None) -> DriveStats:
    """Run ``races`` races of ``spec`` on the cluster of ``client`` and return their merged
    counts: the same as :func:`~trackformat.sim.batch.testdrive.run_batch` gives.

    ``window`` is how many chunks may be out on the cluster at once (default: a few per worker
    thread, looked at again every :data:`RESIZE_EVERY` seconds, so workers started during the
    batch get work too); the client holds at most ``window * (1 + HELD_PER_WINDOW)`` chunks'
    results. Raises :class:`ClusterError` when the cluster cannot finish the batch.
    """
    chunks = ChunkPlan(races)  # worked out as they are sent, never listed
    batch = f"trackformat-testdrive-{uuid.uuid4().hex}"
    merger = ChunkMerger(chunks, progress)
    try:
        client.register_plugin(SpecPlugin(batch, spec), name=batch)
    except Exception as err:  # the workers' own error, passed on by the scheduler
        raise ClusterError(f"the workers cannot take the batch ({err}): install the project on "
                           "every machine of the cluster (pip install \".[cluster]\")") from None
    running: dict[str, tuple[Chunk, Future[DriveStats]]] = {}
    try:
        for chunk, stats in _windowed(client, batch, chunks, merger, running, window):
            merger.add(chunk, stats)
    finally:
        _tidy(client, batch, [future for _, future in running.values()])
    if not merger.complete:  # pragma: no cover - as_completed gives back every future
        raise ClusterError(f"chunks {merger.missing()} never came back from the cluster")
    return merger.total


def _windowed(client: Client, batch: str, chunks: Sequence[Chunk], merger: ChunkMerger,
              running: dict[str, tuple[Chunk, Future[DriveStats]]],
              window: int | None) -> Iterator[tuple[Chunk, DriveStats]]:
    """Chunks' results as they complete, keeping at most ``window`` chunks out on the cluster
    (``running`` holds those) and at most ``window * HELD_PER_WINDOW`` back and not merged."""
    fingerprint = code_fingerprint()
    queued = iter(chunks)
    done: as_completed = as_completed(loop=client.loop)
    size, sized_at = window or 0, -RESIZE_EVERY

    def top_up() -> None:
        nonlocal size, sized_at
        if window is None and time.monotonic() - sized_at >= RESIZE_EVERY:
            size, sized_at = max(2, WINDOW_PER_THREAD * cluster_size(client)[1]), time.monotonic()
        while len(running) < size and merger.waiting < size * HELD_PER_WINDOW:
            chunk = next(queued, None)
            if chunk is None:
                return
            key = f"{batch}-{chunk.index}"
            future = client.submit(race_chunk, batch, chunk, fingerprint, key=key)
            running[key] = (chunk, future)
            done.add(future)

    top_up()
    for future in done:
        chunk, _ = running.pop(future.key)
        stats = _result(future)
        future.release()
        yield chunk, stats
        top_up()


def _tidy(client: Client, batch: str, unfinished: list[Future[DriveStats]]) -> None:
    """Cancel the chunks still in flight and take the spec off the workers; best effort, as
    the scheduler may be the reason the batch stopped."""
    try:
        if unfinished:
            client.cancel(unfinished)
        client.unregister_worker_plugin(batch)
    except Exception:  # nothing more can be done about a scheduler that is gone
        pass


def _result(future: Future[DriveStats]) -> DriveStats:
    """A chunk's counts, or a :class:`ClusterError` saying why the cluster could not give them
    (an error raised by the engine itself goes on as it is)."""
    try:
        stats = future.result()
    except ClusterError:
        raise
    except CancelledError:
        raise ClusterError("the scheduler cancelled the batch (was it stopped?)") from None
    except ImportError as err:
        raise ClusterError(f"a worker cannot load trackformat ({err}): install the project "
                           "on every machine of the cluster (pip install \".[cluster]\")") from None
    except KilledWorker as err:
        raise ClusterError(f"workers died again and again racing a chunk: {err}") from None
    if not isinstance(stats, DriveStats):
        raise ClusterError(f"a worker sent back {type(stats).__name__}, not a chunk's counts")
    return stats
