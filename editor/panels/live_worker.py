"""What a live test drive's worker process does: race the track it is sent, a chunk at a time,
and send back a report after every chunk. No Qt here: this runs in a process of its own.

Why a process and not a thread: the race engine is CPU-bound Python, and a thread running it
takes the interpreter lock from the UI thread every few milliseconds, so everything the UI does
in Python (drawing a drag, the Problems tab's own checking thread) runs at a fraction of its
speed and now and then waits much longer. Measured on Monaco with ``benchmarks/editor_speed.py``
("live test drive", 2 cores that other work kept busy, four runs): with the races in a
``QThread`` the UI thread's 10 ms timer saw gaps of 190 to 370 ms; with the same races in a
worker process, gaps of 27 to 33 ms at most (a refresh of the table and heatmap; 14 ms when
idle). Panning drew 130 to 150 frames/s with the thread against 190 to 230 with the process in
three runs, and as many in the fourth (the process still takes a core from a busy machine). The
processes are started when live mode is switched on, not on every edit, so their imports are
paid once (see :mod:`editor.panels.live` for how the editor uses them).

How a request is raced:

- Before racing, the track is validated; a track whose errors change where cars can go (the
  errors that make the panel's Run ask first), or on which no race can start, is refused with
  a short reason, and nothing is raced.
- Races are run in chunks of consecutive race numbers. The first chunk is one race, so that
  the first figures come as soon as one race is done; later chunks double while a chunk takes
  less than :data:`CHUNK_SECONDS`, so the reports come a few times a second whatever the
  engine's speed. Race ``i`` is always raced with the batch's seed for ``i`` and the counts
  merge exactly, so the last report is the report of a batch run in one go with the same spec
  and races (``run_batch``), however the chunks were cut.
- Between chunks the process looks for a newer message (a newer request, or a stop), and for
  its editor having gone away.

Everything the process sends carries the generation of the request it answers, so that the
editor can drop an answer to a request it no longer wants.
"""

from __future__ import annotations

import multiprocessing
import queue
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from editor.drive_checks import race_breaking
from trackformat.io import track_from_document
from trackformat.lint import validate
from trackformat.rules import RulesetError
from trackformat.sim.batch.report import batch_report
from trackformat.sim.batch.stats import DriveStats
from trackformat.sim.batch.testdrive import (
    Chunk,
    DriveError,
    DriveSpec,
    prepare,
    run_chunk,
)

CHUNK_SECONDS = 0.25
"""A chunk grows (doubling) while the last one took less than this: reports come a few times a
second, and a newer message waits for no more than about this long (or one race, if a race is
longer)."""

STOP = "stop"
"""Message to the process: end."""
IDLE_CHECK_SECONDS = 1.0
"""How often an idle process checks that the editor is still there."""


@dataclass(frozen=True)
class LiveRequest:
    """Race ``races`` races of ``spec``; answers carry ``generation``."""

    generation: int
    spec: DriveSpec
    races: int


@dataclass(frozen=True)
class LiveReport:
    """The report of the first ``done`` races of a request's ``total``."""

    generation: int
    done: int
    total: int
    report: dict[str, Any]


@dataclass(frozen=True)
class LiveRefused:
    """The request's track cannot be raced (or the batch failed): ``reason`` says why."""

    generation: int
    reason: str


@dataclass(frozen=True)
class LiveNotice:
    """What the engines tell the designer while a request races: on a cold kernel, that it
    compiles in a process of its own while the reference engine races, and when it takes over."""

    generation: int
    text: str


Message = LiveRequest | str
Answer = LiveReport | LiveRefused | LiveNotice


class Inbox(Protocol):
    """Where the process's messages come from (a multiprocessing queue; a plain one in tests)."""

    def get(self, block: bool = True, timeout: float | None = None) -> Any: ...

    def get_nowait(self) -> Any: ...


class Outbox(Protocol):
    """Where the process's answers go."""

    def put(self, obj: Any, block: bool = True, timeout: float | None = None) -> None: ...


def serve(inbox: Inbox, outbox: Outbox) -> None:
    """The process's loop: race each request until a newer message comes, until told to stop
    or until the editor is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the editor's to handle
    message: Message | None = None
    while True:
        if message is None:
            try:
                message = inbox.get(timeout=IDLE_CHECK_SECONDS)
            except queue.Empty:
                if _editor_gone():
                    return
                continue
        if message == STOP:
            return
        message = race(message, inbox, outbox.put) if isinstance(message, LiveRequest) else None


def _editor_gone() -> bool:
    """Whether the process that started this one has ended (killed, crashed): then nobody
    will ever read an answer or send a stop."""
    parent = multiprocessing.parent_process()
    return parent is not None and not parent.is_alive()


def refusal(spec: DriveSpec) -> str | None:
    """Why ``spec``'s track cannot be raced live, or None. Errors that change where cars can
    go make the figures meaningless, so they refuse the track (Run asks first instead)."""
    errors = race_breaking(validate(track_from_document(spec.track, "live track")))
    if not errors:
        return None
    codes = ", ".join(sorted({d.code for d in errors}))
    many = len(errors) != 1
    return (f"{len(errors)} error{'s' if many else ''} change{'' if many else 's'} where cars "
            f"can go ({codes}); see Problems")


def race(request: LiveRequest, inbox: Inbox, send: Callable[[Answer], None],
         ) -> Message | None:
    """Race ``request``, sending a :class:`LiveReport` after each chunk. Returns the message
    that interrupted it (to be handled next), or None when the batch ran to its end or was
    refused. Whatever goes wrong is sent as a :class:`LiveRefused`: the process must outlive a
    track that breaks the engine, ready for the next edit."""
    try:
        return _race(request, inbox, send)
    except (DriveError, RulesetError, ValueError) as err:
        send(LiveRefused(request.generation, str(err)))
    except Exception as err:  # said to the designer: the process must not die of it
        send(LiveRefused(request.generation, f"the race engine failed: {type(err).__name__}: "
                                             f"{err}"))
    return None


def _race(request: LiveRequest, inbox: Inbox, send: Callable[[Answer], None],
          ) -> Message | None:
    reason = refusal(request.spec)
    if reason is not None:
        send(LiveRefused(request.generation, reason))
        return None
    def say(line: str) -> None:
        send(LiveNotice(request.generation, line.removeprefix("trackformat: ")))

    context = prepare(request.spec, cold="race", say=say)
    stats, size, index, done = DriveStats(), 1, 0, 0
    while done < request.races:
        newer = _newest(inbox)
        if newer is not None:
            return newer
        chunk = Chunk(index, done, min(done + size, request.races))
        started = time.perf_counter()
        stats.merge(run_chunk(context, chunk))
        seconds = time.perf_counter() - started
        index, done = index + 1, chunk.stop
        send(LiveReport(request.generation, done, request.races, batch_report(stats, context)))
        size = next_size(size, seconds)
    return None


def next_size(size: int, seconds: float) -> int:
    """The next chunk's races: twice the last while it took less than :data:`CHUNK_SECONDS`."""
    return size * 2 if seconds < CHUNK_SECONDS else size


def _newest(inbox: Inbox) -> Message | None:
    """The last of the messages waiting, if any (the ones before it are out of date); a stop
    when the editor is gone."""
    if _editor_gone():
        return STOP
    newest: Message | None = None
    while True:
        try:
            newest = inbox.get_nowait()
        except queue.Empty:
            return newest
