"""The test drive's batch, run off the UI thread.

The panel owns the thread; this module holds only what runs in it, so the run control (start,
progress, cancel) and the widgets stay apart from the code that must never touch a widget.
"""

from __future__ import annotations

import traceback

from PySide6.QtCore import QObject, Signal

from trackformat.rules import RulesetError
from trackformat.sim.batch.report import batch_report
from trackformat.sim.batch.testdrive import (
    DriveError,
    DriveSpec,
    prepare,
    run_batch,
)


class Cancelled(Exception):
    """Raised from the progress callback to stop a batch."""


class DriveJob(QObject):
    """Runs one batch; lives in a worker thread."""

    progress = Signal(int, int)
    finished = Signal(object)
    """The report (a dict), or None when cancelled."""
    failed = Signal(str)
    notice = Signal(str)
    """What the engines tell the designer: on a cold kernel, that it compiles in a process of
    its own while the reference engine races, and when the kernel takes over."""

    def __init__(self, spec: DriveSpec, races: int, workers: int) -> None:
        super().__init__()
        self.spec, self.races, self.workers = spec, races, workers
        self.cancelled = False

    def run(self) -> None:
        def progress(done: int, total: int) -> None:
            self.progress.emit(done, total)
            if self.cancelled:
                raise Cancelled

        try:
            context = prepare(self.spec, cold="race", say=self._notice)
            stats = run_batch(self.spec, self.races, self.workers, progress, context)
            self.finished.emit(batch_report(stats, context))
        except Cancelled:
            self.finished.emit(None)
        except (DriveError, RulesetError, ValueError) as err:
            self.failed.emit(str(err))
        except Exception as err:  # the engine's fault: said, and the panel free to run again
            traceback.print_exc()
            self.failed.emit(f"the race engine failed: {type(err).__name__}: {err} (a bug: "
                             "please report it with the track)")

    def _notice(self, line: str) -> None:
        self.notice.emit(line.removeprefix("trackformat: "))
