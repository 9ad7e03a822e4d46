"""Live validation: the validator runs in a worker thread shortly after each edit.

Edits restart a short timer, so a drag validates once when the mouse rests rather than on every
pixel; each run carries a generation number and only the newest run's report is published, so a
slow run finishing late never overwrites a newer one. The UI thread only starts runs and receives
reports; it never waits for one.
"""

from __future__ import annotations

import time

from PySide6.QtCore import QObject, QRunnable, QThreadPool, QTimer, Signal

from trackformat.lint import Report, validate
from trackformat.model import Track

DEFAULT_DELAY_MS = 60


class _Relay(QObject):
    """Carries a report from the worker thread to the UI thread (a queued signal)."""

    done = Signal(object, object, int, float)


class _ValidationJob(QRunnable):
    def __init__(self, track: Track, generation: int, relay: _Relay) -> None:
        super().__init__()
        self.track, self.generation, self.relay = track, generation, relay

    def run(self) -> None:
        started = time.perf_counter()
        report = validate(self.track)
        try:
            done = self.relay.done
            done.emit(report, self.track, self.generation, time.perf_counter() - started)
        except RuntimeError:
            pass  # the window closed while this run was going: nobody wants the report


class ValidationRunner(QObject):
    """Validates the track it is given, off the UI thread, and publishes the newest report."""

    reportReady = Signal(object)
    """The newest :class:`Report`."""
    started = Signal()

    def __init__(self, parent: QObject | None = None, delay_ms: int = DEFAULT_DELAY_MS) -> None:
        super().__init__(parent)
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)
        self._relay = _Relay(self)
        self._relay.done.connect(self._finished)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(delay_ms)
        self._timer.timeout.connect(self._start)
        self._pending: Track | None = None
        self._generation = 0
        self.report: Report | None = None
        self.checked: Track | None = None
        """The track the published report is about."""
        self.last_duration = 0.0
        """Seconds the last published run took in its thread."""

    def schedule(self, track: Track) -> None:
        """Validate ``track`` once edits pause for the delay."""
        self._pending = track
        self._timer.start()

    def run_now(self, track: Track) -> None:
        self._pending = track
        self._timer.stop()
        self._start()

    def busy(self) -> bool:
        return self._timer.isActive() or self._pool.activeThreadCount() > 0

    def _start(self) -> None:
        if self._pending is None:
            return
        self._generation += 1
        job = _ValidationJob(self._pending, self._generation, self._relay)
        self._pending = None
        self.started.emit()
        self._pool.start(job)

    def _finished(self, report: Report, track: Track, generation: int, seconds: float) -> None:
        if generation != self._generation:
            return
        self.report = report
        self.checked = track
        self.last_duration = seconds
        self.reportReady.emit(report)

    def wait(self, msecs: int = 10_000) -> bool:
        """Block until running jobs end (for tests and shutdown)."""
        return self._pool.waitForDone(msecs)
