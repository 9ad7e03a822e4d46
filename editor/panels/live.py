"""The live test drive's run control: worker processes (see :mod:`editor.panels.live_worker`
for what one does and why it is a process), requests sent to them, their answers taken in on
the UI thread.

A newer edit must drop the batch being raced at once, and its own figures must come soon after
it. A race cannot be stopped halfway, and the first race on an edited track is the slowest (on
Monaco today, about 2 s), so waiting for the race in progress would about double the time to
the first figures. Instead, the process racing an outdated track is killed (it holds nothing
worth saving), and the request goes to a spare process started beforehand, its imports already
done; a new spare is started once the new batch's first figures are in, so that starting it
does not slow them down. Live mode so keeps two processes while it is on: the one racing (or
idle once its batch is done, and then given the next request itself) and the spare.

The UI thread never waits for a process: a request is put on a queue (a feeder thread writes it
to the pipe), and the answers are read, while a batch runs, by a timer every :data:`POLL_MS`
that takes only what has already arrived. Each request gets a new generation number, and so
does a cancel: an answer of an older generation is dropped on arrival, so a report of an older
track never reaches the panel once a newer one started.
"""

from __future__ import annotations

import multiprocessing
import queue
from dataclasses import dataclass
from multiprocessing.process import BaseProcess
from multiprocessing.queues import Queue
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from editor.panels.live_worker import LiveNotice, LiveRefused, LiveReport, LiveRequest, serve
from trackformat.sim.batch.testdrive import DriveSpec

POLL_MS = 20
"""How often the answers are looked for while a batch runs: a report waits at most this long,
and a look that finds nothing costs nothing."""


@dataclass
class _Worker:
    """A worker process and its two queues (requests to it, answers from it)."""

    process: BaseProcess
    requests: Queue[Any]
    answers: Queue[Any]

    @classmethod
    def start(cls) -> _Worker:
        # Spawned, not forked: a fork of a process running Qt threads is not safe.
        context = multiprocessing.get_context("spawn")
        requests: Queue[Any] = context.Queue()
        answers: Queue[Any] = context.Queue()
        process = context.Process(target=serve, args=(requests, answers), daemon=True,
                                  name="live test drive")
        process.start()
        return cls(process, requests, answers)

    def end(self, wait: float = 0.0) -> None:
        """Kill the process (a batch looks for a stop only between chunks) and let go of its
        queues. Waits up to ``wait`` seconds for it to be gone: an edit does not wait (the
        system takes tens of ms to tear a process down, a stall the designer would feel), and
        the process is reaped when the next one starts."""
        self.process.terminate()
        if wait:
            self.process.join(wait)
        for channel in (self.requests, self.answers):
            channel.close()
            channel.cancel_join_thread()  # nobody will read what is left in it


class LiveDrive(QObject):
    """See the module docstring."""

    reported = Signal(object, int, int)
    """(report, races done, races in the batch) of the newest request, after each chunk."""
    refused = Signal(str)
    """Why the newest request's track was not raced (or why its batch stopped)."""
    noticed = Signal(str)
    """What the engines say while the newest request races (the kernel compiling)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._worker: _Worker | None = None
        """The process given the newest request (idle once its batch ended)."""
        self._spare: _Worker | None = None
        """A process started ahead, idle, for the next request."""
        self._generation = 0
        self._running = False
        self._first_in = False
        self.spec: DriveSpec | None = None
        """What the newest request races (None before the first)."""
        self.dropped = 0
        """Answers of older requests dropped on arrival."""
        self._poll = QTimer(self)
        self._poll.setInterval(POLL_MS)
        self._poll.timeout.connect(self._collect)

    def start_process(self) -> None:
        """Start a process now, if there is none, so that its imports are done by the time
        the first request comes. Raises OSError when no process can be started."""
        if self._worker is None and self._spare is None:
            self._spare = _Worker.start()

    def run(self, spec: DriveSpec, races: int) -> None:
        """Race ``races`` races of ``spec``, dropping whatever was being raced. Raises OSError
        when no process can be started."""
        self.cancel()
        # The process that raced the last batch (idle now) if any, else the spare, else a new
        # one; a process found dead is let go.
        idle, spare = (w if w is not None and self._alive(w) else self._end(w)
                       for w in (self._worker, self._spare))
        if idle is None:
            idle, spare = spare, None
        worker = idle if idle is not None else _Worker.start()
        self._worker, self._spare = worker, spare
        self._generation += 1
        self.spec = spec
        worker.requests.put(LiveRequest(self._generation, spec, races))
        self._running, self._first_in = True, False
        self._poll.start()

    def cancel(self) -> None:
        """Drop the batch being raced, at once: its process is killed, and nothing it sent
        is shown."""
        self._generation += 1
        if self._running and self._worker is not None:
            self._worker.end()
            self._worker = None
        self._running = False

    def running(self) -> bool:
        """Whether a batch is being raced (started, not finished, refused or cancelled)."""
        return self._running

    def processes(self) -> list[BaseProcess]:
        """The worker processes in use (the one given the newest request, and the spare)."""
        return [w.process for w in (self._worker, self._spare) if w is not None]

    def close(self) -> None:
        """End every worker process, at once."""
        self.cancel()
        self._poll.stop()
        for worker in (self._worker, self._spare):
            if worker is not None:
                worker.end(wait=2.0)
        self._worker = self._spare = None

    @staticmethod
    def _alive(worker: _Worker) -> bool:
        return worker.process.is_alive()

    @staticmethod
    def _end(worker: _Worker | None) -> None:
        if worker is not None:
            worker.end()

    def _collect(self) -> None:
        """Take in the answers that have arrived; say so if the process died."""
        worker = self._worker
        if worker is None:
            self._poll.stop()
            return
        while self._running and self._worker is worker:
            try:
                answer = worker.answers.get_nowait()
            except (queue.Empty, OSError, EOFError):
                break
            if answer.generation != self._generation:
                self.dropped += 1
                continue
            if isinstance(answer, LiveRefused):
                self._running = False
                self.refused.emit(answer.reason)
            elif isinstance(answer, LiveNotice):
                self.noticed.emit(answer.text)
            elif isinstance(answer, LiveReport):
                self._running = answer.done < answer.total
                self.reported.emit(answer.report, answer.done, answer.total)
                if not self._first_in:
                    self._first_in = True
                    self._start_spare()
        if self._running and self._worker is worker and not self._alive(worker):
            self._running = False
            self._worker = None
            code = worker.process.exitcode
            worker.end()
            self.refused.emit(f"the racing process stopped (exit code {code}); the next edit "
                              "starts another")
        if not self._running:
            self._poll.stop()

    def _start_spare(self) -> None:
        if self._spare is None or not self._alive(self._spare):
            self._end(self._spare)
            try:
                self._spare = _Worker.start()
            except OSError:
                self._spare = None  # the next request starts a process of its own
