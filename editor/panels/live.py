"""The live test drive's run control: one worker process (see :mod:`editor.panels.live_worker`
for what it does and why it is a process), requests sent to it, its answers taken in on the UI
thread.

The UI thread never waits for the process: a request is put on a queue (a feeder thread writes
it to the pipe, so a big track never blocks the window while the process is busy racing), and
the answers are read, while a batch runs, by a timer every :data:`POLL_MS` that takes only what
has already arrived. Each request gets a new generation number, and so does a cancel: an answer
of an older generation (a chunk that was in flight when the designer edited again) is dropped
on arrival, so a report of an older track never reaches the panel once a newer one started.

The process is started when live mode is switched on and ended (killed: it holds nothing worth
saving) when it is switched off, when its panel goes or when the window closes.
"""

from __future__ import annotations

import multiprocessing
import queue
from multiprocessing.process import BaseProcess
from multiprocessing.queues import Queue
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from editor.panels.live_worker import CANCEL, STOP, LiveRefused, LiveReport, LiveRequest, serve
from trackformat.sim.batch.testdrive import DriveSpec

POLL_MS = 20
"""How often the answers are looked for while a batch runs: a report waits at most this long,
and a look that finds nothing costs nothing."""


class LiveDrive(QObject):
    """See the module docstring."""

    reported = Signal(object, int, int)
    """(report, races done, races in the batch) of the newest request, after each chunk."""
    refused = Signal(str)
    """Why the newest request's track was not raced (or why the batch stopped)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._context = multiprocessing.get_context("spawn")
        self._process: BaseProcess | None = None
        self._requests: Queue[Any] | None = None
        self._answers: Queue[Any] | None = None
        self._generation = 0
        self._running = False
        self.spec: DriveSpec | None = None
        """What the newest request races (None before the first)."""
        self.dropped = 0
        """Answers of older requests dropped on arrival (a cancelled batch's last chunk)."""
        self._poll = QTimer(self)
        self._poll.setInterval(POLL_MS)
        self._poll.timeout.connect(self._collect)

    def start_process(self) -> None:
        """Start the worker process now, if it is not running, so that its imports are done by
        the time the first request comes."""
        if self._process is not None and self._process.is_alive():
            return
        self._forget_process()
        self._requests, self._answers = self._context.Queue(), self._context.Queue()
        self._process = self._context.Process(
            target=serve, args=(self._requests, self._answers), daemon=True,
            name="live test drive",
        )
        self._process.start()

    def run(self, spec: DriveSpec, races: int) -> None:
        """Race ``races`` races of ``spec``, dropping whatever was being raced."""
        self.start_process()
        assert self._requests is not None
        self._generation += 1
        self.spec = spec
        self._requests.put(LiveRequest(self._generation, spec, races))
        self._running = True
        self._poll.start()

    def cancel(self) -> None:
        """Drop the batch being raced: nothing it sends from now on is shown."""
        self._generation += 1
        if self._running and self._requests is not None:
            self._requests.put(CANCEL)
        self._running = False

    @property
    def process(self) -> BaseProcess | None:
        """The worker process (None before it starts and once closed)."""
        return self._process

    def running(self) -> bool:
        """Whether a batch is being raced (started, not finished, refused or cancelled)."""
        return self._running

    def close(self) -> None:
        """End the worker process, at once."""
        self.cancel()
        self._poll.stop()
        if self._requests is not None:
            self._requests.put(STOP)
        if self._process is not None:
            self._process.terminate()  # a batch checks for a stop only between chunks
            self._process.join(2)
        self._forget_process()

    def _forget_process(self) -> None:
        for channel in (self._requests, self._answers):
            if channel is not None:
                channel.close()
                channel.cancel_join_thread()  # nobody will read what is left in it
        self._requests = self._answers = None
        self._process = None

    def _collect(self) -> None:
        """Take in the answers that have arrived; say so if the process died."""
        answers = self._answers
        if answers is None:
            self._poll.stop()
            return
        while True:
            try:
                answer = answers.get_nowait()
            except (queue.Empty, OSError, EOFError):
                break
            if answer.generation != self._generation:
                self.dropped += 1
                continue
            if isinstance(answer, LiveRefused):
                self._running = False
                self.refused.emit(answer.reason)
            elif isinstance(answer, LiveReport):
                self._running = answer.done < answer.total
                self.reported.emit(answer.report, answer.done, answer.total)
        process = self._process
        if self._running and (process is None or not process.is_alive()):
            code = process.exitcode if process is not None else None
            self._running = False
            self._forget_process()
            self.refused.emit(f"the racing process stopped (exit code {code}); the next edit "
                              "starts it again")
        if not self._running:
            self._poll.stop()
