"""File > Trace board picture...: a board picture traced into a draft track, in the editor.

The tracer (:mod:`trackformat.trace`) does in seconds what takes hours by hand, and guesses
on the way; the editor is where the designer checks those guesses. So the draft replaces the
open track as one undoable step (Undo gives the old track back whole), with the picture under
it, and the guesses are put in front of the designer:

- the weak spaces (low confidence) are selected, and the status bar names them;
- the problems panel lists the tracer's own notes (``TRACE001`` to ``TRACE008``: weak runs of
  spaces, corners whose stops were not read, guessed lane changes) beside the validator's, with
  their marks on the board, for as long as the traced step is in the undo history.

A trace takes seconds to tens of seconds, so it runs in a thread of its own with a progress
dialog; Cancel stops it at the end of the stage it is in, and the track stays as it was. A
picture that cannot be traced is said in a message naming it, and the track stays as it was.
The image libraries are imported in that thread, when first used: the editor starts and works
without them.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QObject, Qt, QThread, Signal
from PySide6.QtGui import QUndoCommand
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QMessageBox,
    QProgressDialog,
    QPushButton,
    QSpinBox,
    QWidget,
)

from editor.document import TrackDocument
from trackformat.lint import Diagnostic, Report

if TYPE_CHECKING:
    from editor.panels.problems import ProblemsPanel
    from editor.scene.board_scene import BoardScene
    from editor.validation import ValidationRunner
    from editor.view import BoardView
    from trackformat.trace import TraceResult

PICTURE_FILTER = "Pictures (*.png *.jpg *.jpeg *.bmp *.tif *.tiff *.webp);;All files (*)"
LANES = (2, 4, 3)
"""The lanes offered (fewest, most) and the default: the printed boards have 2 to 4."""
MEASURED = 3
"""The space length box's lowest value, shown as "measured from the picture" (the tracer's
own measure; a space shorter than 4 px cannot be traced)."""
TRACED, CANCELLED, FAILED = "traced", "cancelled", "failed"
"""How a trace ended (:attr:`TraceRun.ended`)."""
NAMED_WEAK = 8
"""Most weak spaces the status bar names (all are selected)."""


@dataclass(frozen=True)
class TraceRequest:
    """What to trace: the picture, its lanes, and its space length in pixels (None: the
    tracer measures it)."""

    picture: Path
    lanes: int = LANES[2]
    space_length: float | None = None


@dataclass(frozen=True)
class TraceParts:
    """The parts of the editor a trace works with: the document it replaces the track of, the
    problems panel and the board it shows the tracer's notes in, the view it fits to the draft,
    a parent for its dialogs and the status bar's line."""

    parent: QWidget
    document: TrackDocument
    validation: ValidationRunner
    problems: ProblemsPanel
    scene: BoardScene
    view: BoardView
    say: Callable[[str], None]
    start_folder: str = ""
    """Where the picture dialog opens ("" for the current folder)."""


class TraceDialog(QDialog):
    """The picture to trace, its number of lanes and, if the tracer should not measure it, the
    length of a space."""

    def __init__(self, parent: QWidget | None = None, start_folder: str = "") -> None:
        super().__init__(parent)
        self.setWindowTitle("Trace board picture")
        self.start_folder = start_folder
        self.picture = QLineEdit()
        self.picture.setPlaceholderText("a scan or photo of a printed board")
        self.picture.setMinimumWidth(360)  # room for a folder and a file name
        browse = QPushButton("Browse...")
        browse.clicked.connect(lambda _checked=False: self._browse())
        row = QHBoxLayout()
        row.addWidget(self.picture, 1)
        row.addWidget(browse)
        self.lanes = QSpinBox()
        self.lanes.setRange(LANES[0], LANES[1])
        self.lanes.setValue(LANES[2])
        self.lanes.setToolTip("How many lanes the circuit has (the tracer counts spaces, not "
                              "lanes)")
        self.space_length = QSpinBox()
        self.space_length.setRange(MEASURED, 2000)
        self.space_length.setSpecialValueText("measured from the picture")
        self.space_length.setSuffix(" px")
        self.space_length.setValue(MEASURED)
        self.space_length.setToolTip("The length of a space in the picture's pixels, when the "
                                     "tracer's own measure goes wrong")
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Trace")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.picture.textChanged.connect(self._allow)
        form = QFormLayout(self)
        form.addRow("Picture", row)
        form.addRow("Lanes", self.lanes)
        form.addRow("Space length", self.space_length)
        form.addRow(self.buttons)
        self._allow()

    def _allow(self) -> None:
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setEnabled(bool(self.picture.text().strip()))

    def _browse(self) -> None:
        name, _ = QFileDialog.getOpenFileName(self, "Board picture to trace",
                                              self.picture.text() or self.start_folder,
                                              PICTURE_FILTER)
        if name:
            self.picture.setText(name)

    def request(self) -> TraceRequest:
        """What the dialog holds now."""
        length = self.space_length.value()
        return TraceRequest(Path(self.picture.text().strip()).expanduser(), self.lanes.value(),
                            None if length == MEASURED else float(length))


class _Cancelled(Exception):
    """Raised from the tracer's progress callback to stop it (it comes out unchanged)."""


class _TraceThread(QThread):
    """Runs the tracer; says how far it got, and what came of it, through queued signals."""

    progressed = Signal(float, str)
    traced = Signal(object)
    failed = Signal(str)

    def __init__(self, request: TraceRequest, image_name: str) -> None:
        super().__init__()
        self.request, self.image_name = request, image_name
        self._cancel = threading.Event()

    def cancel(self) -> None:
        self._cancel.set()

    def _progress(self, share: float, stage: str) -> None:
        if self._cancel.is_set():
            raise _Cancelled
        self.progressed.emit(share, stage)

    def run(self) -> None:
        picture = self.request.picture
        try:
            from trackformat.trace import TraceError, trace_picture
        except ImportError as err:
            self.failed.emit(f"tracing needs the image libraries ({err.name or err}): install "
                             'them with pip install "formula-d-trackkit[trace]"')
            return
        try:
            result = trace_picture(picture, self.request.lanes,
                                   space_length=self.request.space_length,
                                   image_name=self.image_name, progress=self._progress)
        except _Cancelled:
            return
        except TraceError as err:
            self.failed.emit(str(err))
        except (OSError, MemoryError) as err:
            why = getattr(err, "strerror", None) or str(err) or type(err).__name__
            self.failed.emit(f"{picture}: cannot be traced: {why}")
        except Exception as err:  # said to the designer: a thread's traceback reaches nobody
            self.failed.emit(f"{picture}: the tracer failed on it ({type(err).__name__}: "
                             f"{err}); please report it with the picture")
        else:
            self.traced.emit(result)


class _Threads(QObject):
    """Keeps each trace's thread until it has ended, even when its window is gone (a thread
    object deleted while it runs takes the program down), and stops them when the program
    quits."""

    def __init__(self) -> None:
        super().__init__()
        self.running: set[_TraceThread] = set()
        app = QCoreApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self.stop_all)

    def keep(self, thread: _TraceThread) -> None:
        self.running.add(thread)
        thread.finished.connect(self._ended)  # queued: delivered in the UI thread

    def _ended(self) -> None:
        thread = self.sender()
        if isinstance(thread, _TraceThread):
            thread.wait()  # "finished" is sent just before the thread's very end
            self.running.discard(thread)

    def stop_all(self) -> None:
        for thread in list(self.running):
            thread.cancel()
            thread.wait()
        self.running.clear()


_threads: _Threads | None = None


def _keeper() -> _Threads:
    global _threads
    if _threads is None:
        _threads = _Threads()
    return _threads


class TraceRun(QObject):
    """One trace, from the progress dialog to the draft on the board (see the module)."""

    ended = Signal(str)
    """:data:`TRACED`, :data:`CANCELLED` or :data:`FAILED`, once."""

    def __init__(self, parts: TraceParts, request: TraceRequest) -> None:
        super().__init__(parts.document)  # a trace belongs to the track it would replace
        self.parts, self.request = parts, request
        self.outcome = ""
        self.message: QMessageBox | None = None
        """The failure's message box (deleted once the designer closes it)."""
        name = request.picture.name
        self.progress = QProgressDialog(f"Tracing {name}...", "Cancel", 0, 100, parts.parent)
        self.progress.setWindowTitle("Trace board picture")
        self.progress.setWindowModality(Qt.WindowModality.WindowModal)
        self.progress.setMinimumDuration(0)
        self.progress.setAutoReset(False)
        self.progress.setAutoClose(False)
        self.progress.canceled.connect(self.cancel)
        self.worker = _TraceThread(request, picture_name(request.picture))
        self.worker.progressed.connect(self._progressed)
        self.worker.traced.connect(self._traced)
        self.worker.failed.connect(self._failed)

    def start(self) -> None:
        _keeper().keep(self.worker)
        self.worker.start()
        self.progress.setValue(0)
        self.progress.show()

    def cancel(self) -> None:
        """Stop waiting for the trace (it stops at the end of its stage) and leave the track."""
        if self.outcome:
            return
        self.worker.cancel()
        self._end(CANCELLED, f"Tracing {self.request.picture.name} cancelled: the track is "
                             "unchanged")

    def _end(self, outcome: str, said: str) -> None:
        self.outcome = outcome
        self.progress.canceled.disconnect(self.cancel)
        self.progress.close()
        self.progress.deleteLater()
        self.parts.say(said)
        self.ended.emit(outcome)

    def _progressed(self, share: float, stage: str) -> None:
        if not self.outcome:
            self.progress.setLabelText(f"Tracing {self.request.picture.name}: {stage}...")
            self.progress.setValue(round(100 * share))

    def _failed(self, text: str) -> None:
        if self.outcome:
            return
        self._end(FAILED, f"Cannot trace: {text}")
        box = QMessageBox(QMessageBox.Icon.Warning, "Cannot trace the board picture",
                          f"{text}.\n\nThe open track is unchanged.",
                          QMessageBox.StandardButton.Ok, self.parts.parent)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.message = box
        box.open()

    def _traced(self, result: TraceResult) -> None:
        if self.outcome:
            return
        parts, picture = self.parts, self.request.picture
        document = parts.document
        if result.track == document.track:
            self._end(TRACED, f"Traced {picture.name}: the draft is the open track already")
            return
        kept_file = document.path
        # A new track: Save asks where, so the draft never overwrites the old track's file
        # (Undo brings the file back with the old track).
        if not document.edit(f"Trace {picture.name}", lambda _track: result.track,
                             new_track=True):
            self._failed(f"{picture}: the draft could not replace the open track")
            return
        stack = document.undo_stack
        TraceNotes(parts, stack.command(stack.index() - 1), tuple(result.diagnostics))
        weak = result.weak_spaces()
        document.set_selection(weak)
        parts.view.fit()
        track = document.track
        named = ", ".join(weak[:NAMED_WEAK]) + (" ..." if len(weak) > NAMED_WEAK else "")
        self._end(TRACED,
                  f"Traced {picture.name}: {len(track.spaces)} spaces in {len(track.lanes)} "
                  f"lanes, {len(track.corners)} corners. "
                  + (f"{len(weak)} weak space{'s' * (len(weak) != 1)} selected ({named}). "
                     if weak else "")
                  + "Problems lists what to check; Undo puts the old track back"
                  + (f"; Save asks where to write the draft ({kept_file.name} is kept)"
                     if kept_file is not None else ""))


class TraceNotes(QObject):
    """The tracer's notes, shown in the problems panel and on the board beside each of the
    validator's reports, while the traced step is in the undo history (undone, they go), for
    the elements still on the track."""

    def __init__(self, parts: TraceParts, command: QUndoCommand,
                 diagnostics: tuple[Diagnostic, ...]) -> None:
        super().__init__(parts.document)  # gone with the document
        self.parts, self.command, self.diagnostics = parts, command, diagnostics
        self.index = parts.document.undo_stack.index() - 1
        parts.validation.reportReady.connect(self._report)

    def live(self) -> bool:
        """Whether the traced step is done and still in the undo history."""
        stack = self.parts.document.undo_stack
        return stack.index() > self.index and stack.command(self.index) is self.command

    def _report(self, report: Report) -> None:
        if not self.live():
            return
        ids = self.parts.document.element_ids()
        notes = tuple(d for d in self.diagnostics
                      if not d.location.elements or any(e in ids for e in d.location.elements))
        if notes:
            merged = dataclasses.replace(report, diagnostics=(*report.diagnostics, *notes))
            self.parts.problems.show_report(merged)
            self.parts.scene.show_problems(merged)


def picture_name(picture: Path) -> str:
    """How the draft names its picture: in full, as an unsaved track does (the draft's
    document is detached from any file, see :meth:`TraceRun._traced`; saving makes the name
    relative to the track's file)."""
    return picture.expanduser().resolve().as_posix()


def ask_trace(parent: QWidget | None, start_folder: str = "") -> TraceRequest | None:
    """Ask what to trace; None when the designer cancels."""
    dialog = TraceDialog(parent, start_folder)
    return dialog.request() if dialog.exec() == QDialog.DialogCode.Accepted else None


def trace_board_picture(parts: TraceParts, request: TraceRequest | None = None
                        ) -> TraceRun | None:
    """Trace ``request`` (asked for when not given) into a draft that replaces the track of
    ``parts.document`` when the trace ends; None when the designer cancels the question."""
    request = request or ask_trace(parts.parent, parts.start_folder)
    if request is None:
        return None
    run = TraceRun(parts, request)
    run.start()
    return run
