"""The test-drive panel: race simulated cars on the track in the background, read the report,
paint a heatmap on the board, and replay one race turn by turn.

The batch runs in a worker thread (and, with more than one worker, in worker processes), so the
window stays usable; Cancel stops it between chunks of races. The numbers are the same as the
command line's `trackformat testdrive` for the same settings. Pin keeps a report, so that after
an edit the corner table shows which corners changed beyond their 95% intervals (the same
comparison as `trackformat testdrive compare`).

With Live on, every edit (once edits pause, as the problems panel waits) drops the batch being
raced and races the edited track again in a worker process (:mod:`editor.panels.live`); the
table, the summary and the heatmap refresh after every chunk of races, marked against the pinned
report if any. A track that cannot be raced is not: the panel says why and waits for the next
edit, with no dialog. An edit also drops a Run batch still racing the track as it was, so that
no figures of an older track are shown once a newer one is being raced.

This module lays the panel out and holds its run control, pinning, heatmap and replay; the
settings form is in :mod:`editor.panels.testdrive_settings`, the batch that runs in the worker
thread in :mod:`editor.panels.testdrive_job`, live mode's worker process in
:mod:`editor.panels.live`, and the report's text and corner table in
:mod:`editor.panels.testdrive_report`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt, QThread, QTimer, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QSlider,
    QSpinBox,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from editor.document import TrackDocument
from editor.drive_checks import broken_track_warning, race_breaking
from editor.panels.live import LiveDrive
from editor.panels.testdrive_job import DriveJob
from editor.panels.testdrive_report import CornerTable, report_html
from editor.panels.testdrive_settings import DriveSettings
from editor.replay import Replay, record
from editor.validation import DEFAULT_DELAY_MS
from trackformat.lint import validate
from trackformat.rules import RulesetError
from trackformat.sim import Board
from trackformat.sim.batch.compare import Change, ReportError
from trackformat.sim.batch.testdrive import DriveError, DriveSpec

HEAT_KINDS = ("none", "overshoots", "eliminations", "stops")


class TestDrivePanel(QWidget):
    """See the module docstring."""

    heatmapChanged = Signal(object)
    """Values per space id to paint (empty: none)."""
    replayFrame = Signal(object)
    """The replay frame to draw (None: hide the cars)."""
    said = Signal(str)
    """What the panel says of the batch (also shown in the window's status bar: the panel's
    own line can be scrolled out of sight on a small screen)."""
    liveShown = Signal(int, int)
    """(races done, races in the batch): a live report is on show, table and heatmap."""

    def __init__(self, document: TrackDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.report: dict[str, Any] | None = None
        self.pinned: dict[str, Any] | None = None
        """The report the next ones are compared with (None: nothing pinned)."""
        self.changes: list[Change] = []
        """What changed beyond the intervals from the pinned report to the current one."""
        self.replay: Replay | None = None
        self._thread: QThread | None = None
        self._job: DriveJob | None = None
        self._spec: DriveSpec | None = None
        self._drop_run = False
        """An edit came while a Run batch was racing: its report, if it still comes, is of
        the track as it was, and is not shown."""
        self._engine_notice = ""
        """What the engines last said of the Run batch (the kernel compiling meanwhile)."""
        self.live_drive: LiveDrive | None = None
        """Live mode's worker process (None while Live is off)."""
        self._live_timer = QTimer(self)
        self._live_timer.setSingleShot(True)
        self._live_timer.setInterval(DEFAULT_DELAY_MS)
        self._live_timer.timeout.connect(self._race_live)
        document.trackChanged.connect(self._track_edited)

        self.confirm: Callable[[str], bool] = self._ask
        """Asked before racing on a broken track, with the warning; True races anyway."""
        self.settings = DriveSettings(self)
        # The settings' widgets, reachable from the panel as before.
        s = self.settings
        self.bots, self.cars, self.races, self.seed = s.bots, s.cars, s.races, s.seed
        self.ruleset, self.laps, self.workers = s.ruleset, s.laps, s.workers
        form = s.form

        self.run_button = QPushButton("Run", self)
        self.run_button.clicked.connect(self.start)
        self.cancel_button = QPushButton("Cancel", self)
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel)
        self.progress = QProgressBar(self)
        self.progress.setFormat("%v of %m races")
        buttons = QHBoxLayout()
        buttons.addWidget(self.run_button)
        buttons.addWidget(self.cancel_button)
        form.addRow(self.progress)

        self.view = QTextBrowser(self)
        self.corner_table = CornerTable(self)
        self.pin_button = QPushButton("Pin", self)
        self.pin_button.setToolTip(
            "Keep this report: after the next test drive, the corners that changed beyond "
            "their 95% intervals are marked, with the rate before -> after"
        )
        self.pin_button.setEnabled(False)
        self.pin_button.clicked.connect(self.pin)
        self.unpin_button = QPushButton("Unpin", self)
        self.unpin_button.setEnabled(False)
        self.unpin_button.clicked.connect(self.unpin)
        self.pin_label = QLabel("", self)
        self.heat = QComboBox(self)
        self.heat.addItems(HEAT_KINDS)
        self.heat.currentTextChanged.connect(self._heat_changed)

        self.race_number = QSpinBox(self)
        self.race_number.setRange(0, 99_999)
        self.replay_button = QPushButton("Replay race", self)
        self.replay_button.clicked.connect(self.load_replay)
        self.slider = QSlider(Qt.Orientation.Horizontal, self)
        self.slider.valueChanged.connect(self.show_frame)
        self.back = QPushButton("<", self)
        self.back.clicked.connect(lambda: self.slider.setValue(self.slider.value() - 1))
        self.forward = QPushButton(">", self)
        self.forward.clicked.connect(lambda: self.slider.setValue(self.slider.value() + 1))
        self.turn_label = QLabel("", self)
        self.events = QListWidget(self)
        self.events.setWordWrap(True)  # long lines wrap rather than run off the panel's edge
        self.events.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        replay_row = QHBoxLayout()
        replay_widgets: tuple[QWidget, ...] = (
            QLabel("Race"),
            self.race_number,
            self.replay_button,
            self.back,
            self.slider,
            self.forward,
            self.turn_label,
        )
        for part in replay_widgets:
            replay_row.addWidget(part, 1 if part is self.slider else 0)
        for button in (self.back, self.forward):
            button.setMaximumWidth(button.fontMetrics().horizontalAdvance("<") + 28)

        # Three columns: settings, the report, the replay, so the board keeps its height.
        self.status = QLabel("", self)
        self.status.setWordWrap(True)
        settings_widget = QWidget(self)
        settings = QVBoxLayout(settings_widget)
        settings.setContentsMargins(0, 0, 0, 0)
        settings.addLayout(form)
        settings.addLayout(buttons)
        settings.addWidget(self.status)
        settings.addStretch(1)
        # Scrolled rather than tall: the panel's height is the board's to give, not the form's.
        settings_scroll = QScrollArea(self)
        settings_scroll.setWidget(settings_widget)
        settings_scroll.setWidgetResizable(True)
        settings_scroll.setFrameShape(QFrame.Shape.NoFrame)
        middle = QVBoxLayout()
        middle.addWidget(self.view, 1)
        corners = QVBoxLayout()  # a column of its own: the dock is wide and short
        corners.addWidget(self.corner_table, 1)
        pin_row = QHBoxLayout()
        pin_row.addWidget(self.pin_button)
        pin_row.addWidget(self.unpin_button)
        pin_row.addWidget(self.pin_label, 1)
        corners.addLayout(pin_row)
        heat_row = QHBoxLayout()
        heat_row.addWidget(QLabel("Heatmap"))
        heat_row.addWidget(self.heat, 1)
        middle.addLayout(heat_row)
        replay = QVBoxLayout()
        replay.addLayout(replay_row)
        replay.addWidget(self.events, 1)
        layout = QHBoxLayout(self)
        layout.addWidget(settings_scroll, 2)
        layout.addLayout(middle, 3)
        layout.addLayout(corners, 5)
        layout.addLayout(replay, 3)
        self._set_replay_enabled(False)
        s.live.toggled.connect(self._live_toggled)
        for setting in (s.live_races, s.seed, s.laps):
            setting.valueChanged.connect(self._live_settings_changed)
        s.ruleset.currentTextChanged.connect(self._live_settings_changed)

    # Running ---------------------------------------------------------------------------------

    def start(self) -> bool:
        """Start a batch with the panel's settings; False (and a message) when they are wrong."""
        if self._thread is not None:
            return False
        if self.live_drive is not None:
            self.live_drive.cancel()  # one batch at a time; the next edit races live again
            self._live_timer.stop()
        errors = race_breaking(validate(self.document.track))
        if errors:
            warning = broken_track_warning(errors)
            if not self.confirm(warning):
                self._say(warning.replace(", or race anyway?", "."))
                return False
        try:
            spec = self.settings.spec(self.document.track)
        except (DriveError, RulesetError, ValueError) as err:
            self._say(str(err))
            return False
        self._spec = spec
        self._drop_run = False
        self._job = DriveJob(spec, self.races.value(), self.workers.value())
        self._thread = QThread(self)
        self._job.moveToThread(self._thread)
        self._thread.started.connect(self._job.run)
        self._job.progress.connect(self._progress)
        self._job.finished.connect(self._finished)
        self._job.failed.connect(self._failed)
        self._job.notice.connect(self._engines_said)
        self._engine_notice = ""
        self.progress.setRange(0, self.races.value())
        self.progress.setValue(0)
        self.run_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self._say("racing...")
        self._thread.start()
        return True

    def _ask(self, warning: str) -> bool:
        answer = QMessageBox.warning(
            self,
            "Test drive on a broken track",
            warning,
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Cancel,
        )
        return answer == QMessageBox.StandardButton.Yes

    def take_settings(self, other: TestDrivePanel) -> None:
        """The settings of the panel of the track open before: opening or starting another
        track keeps the bots, cars, races, seed, rules, laps and workers the designer chose."""
        self.settings.take(other.settings)

    def _say(self, text: str) -> None:
        self.status.setText(text)
        self.said.emit(f"Test drive: {text}")

    def cancel(self) -> None:
        if self._job is not None:
            self._job.cancelled = True
            self._say("cancelling...")

    def running(self) -> bool:
        return self._thread is not None

    def _progress(self, done: int, total: int) -> None:
        if self._drop_run:
            return  # a Run batch of the track as it was: live mode's progress shows now
        self.progress.setValue(done)
        self._say(self._with_notice(f"{done} of {total} races"))

    def _with_notice(self, text: str) -> str:
        """``text`` for the status line, with what the engines last said of the batch."""
        return f"{text}; {self._engine_notice}" if self._engine_notice else text

    def _engines_said(self, text: str) -> None:
        self._engine_notice = text
        self._say(text)

    def _stop_thread(self) -> None:
        if self._thread is not None:
            self._thread.quit()
            self._thread.wait()
            self._thread.deleteLater()
        self._thread, self._job = None, None
        self.run_button.setEnabled(True)
        self.cancel_button.setEnabled(False)

    def _finished(self, report: dict[str, Any] | None) -> None:
        self._stop_thread()
        if self._drop_run:  # the track was edited since: live mode races it again
            self._drop_run = False
            return
        if report is None:
            self._say("cancelled")
            return
        self.report = report
        self._show_report()
        self._say(f"{report['races']} races done")
        self.race_number.setMaximum(max(report["races"] - 1, 0))
        self._set_replay_enabled(True)
        self._heat_changed(self.heat.currentText())

    def _show_report(self) -> None:
        """The summary and the corner table, marked against the pinned report if any."""
        if self.report is None:
            return
        try:
            self.changes = self.corner_table.show_report(self.report, self.pinned)
        except ReportError as err:  # a pin from a report this version cannot read
            self.changes = []
            self.corner_table.show_report(self.report)
            self._say(f"the pinned report cannot be compared: {err}")
        self.view.setHtml(report_html(self.report, self.changes if self.pinned else None))
        self.pin_button.setEnabled(True)

    def pin(self) -> None:
        """Keep the current report: the next test drives are compared with it."""
        if self.report is None:
            return
        self.pinned = self.report
        self.unpin_button.setEnabled(True)
        self.pin_label.setText(f"pinned: {self.report['races']} races")
        self.pin_label.setToolTip("The next test drive marks the corners that changed beyond "
                                  "the 95% intervals of this report")
        self._show_report()

    def unpin(self) -> None:
        """Forget the pinned report and its marks."""
        self.pinned = None
        self.unpin_button.setEnabled(False)
        self.pin_label.setText("")
        self._show_report()

    def _failed(self, message: str) -> None:
        self._stop_thread()
        self._say(message)

    def shut_down(self) -> None:
        """Stop every batch and the live worker process: the panel is going (another track
        was opened, or the window closes)."""
        self._live_timer.stop()
        if self._thread is not None:
            self.cancel()
            self._stop_thread()
        if self.live_drive is not None:
            self.live_drive.close()

    # Live ------------------------------------------------------------------------------------

    def _live_toggled(self, on: bool) -> None:
        if on:
            if self.live_drive is None:
                self.live_drive = LiveDrive(self)
                self.live_drive.reported.connect(self._live_reported)
                self.live_drive.refused.connect(self._live_refused)
                self.live_drive.noticed.connect(self._live_noticed)
            try:
                self.live_drive.start_process()
            except OSError as err:
                self._say(f"live: cannot start a process to race in: {err}")
                return
            self._live_timer.start()  # the track as it is now, then after every edit
            self._say("live: starting...")
            return
        self._live_timer.stop()
        if self.live_drive is not None:
            self.live_drive.close()
            self.live_drive.deleteLater()
            self.live_drive = None
        self._say("live off")

    def _track_edited(self, _old: object, _new: object) -> None:
        """An edit, undo or redo: with Live on, drop what is being raced now (it is of the
        track as it was) and race again once edits pause."""
        if not self.settings.live.isChecked():
            return
        if self.live_drive is not None:
            self.live_drive.cancel()
        if self._thread is not None:
            self._drop_run = True
            self.cancel()
        self._live_timer.start()

    def _live_settings_changed(self) -> None:
        """A live setting changed: race again with it."""
        if self.settings.live.isChecked():
            if self.live_drive is not None:
                self.live_drive.cancel()
            self._live_timer.start()

    def _race_live(self) -> None:
        if self.live_drive is None or (self._thread is not None and not self._drop_run):
            return  # Live is off, or a Run batch started since the edit races this track
        try:
            spec = self.settings.live_spec(self.document.track)
        except (DriveError, RulesetError, ValueError) as err:
            self._say(f"live: not raced: {err}")
            return
        races = self.settings.live_races.value()
        try:
            self.live_drive.run(spec, races)
        except OSError as err:
            self._say(f"live: cannot start a process to race in: {err}")
            return
        self.progress.setRange(0, races)
        self.progress.setValue(0)
        self._engine_notice = ""
        self._say(f"live: racing {races} races...")

    def _live_reported(self, report: dict[str, Any], done: int, total: int) -> None:
        """A chunk more of the live batch: the table, summary and heatmap show it at once."""
        assert self.live_drive is not None
        self.report = report
        self._spec = self.live_drive.spec
        self._show_report()
        self.progress.setRange(0, total)
        self.progress.setValue(done)
        self.race_number.setMaximum(max(done - 1, 0))
        self._set_replay_enabled(True)
        self._heat_changed(self.heat.currentText())
        self._say(self._with_notice(f"live: {done} of {total} races" if done < total
                                    else f"live: {total} races done"))
        self.liveShown.emit(done, total)

    def _live_noticed(self, text: str) -> None:
        self._engine_notice = text
        self._say(f"live: {text}")

    def _live_refused(self, reason: str) -> None:
        self.progress.setValue(0)
        self._say(f"live: not raced: {reason}")

    # Heatmap and replay ----------------------------------------------------------------------

    def heat_values(self, kind: str) -> dict[str, float]:
        if self.report is None or kind == "none":
            return {}
        return {
            space: float(counts[kind])
            for space, counts in self.report["spaces"].items()
            if counts.get(kind)
        }

    def _heat_changed(self, kind: str) -> None:
        self.heatmapChanged.emit(self.heat_values(kind))

    def load_replay(self) -> bool:
        if self._spec is None or self.report is None:
            return False
        spec = self._spec
        board = Board.of(self.document.track)
        rules = self.settings.rules()
        names = {c.id: c.name for c in self.document.track.corners}
        self.replay = record(
            board,
            rules,
            spec.bots,
            spec.seed,
            self.race_number.value(),
            spec.laps,
            spec.max_turns,
            corner_names=names,
        )
        self.slider.setRange(0, len(self.replay.frames) - 1)
        self.slider.setValue(0)
        self.show_frame(0)
        return True

    def show_frame(self, index: int) -> None:
        if self.replay is None or not 0 <= index < len(self.replay.frames):
            return
        frame = self.replay.frames[index]
        self.turn_label.setText(f"turn {frame.turn} / {self.replay.frames[-1].turn}")
        self.events.clear()
        self.events.addItems(list(frame.events))
        self.replayFrame.emit(frame)

    def _set_replay_enabled(self, enabled: bool) -> None:
        for widget in (self.race_number, self.replay_button, self.slider, self.back, self.forward):
            widget.setEnabled(enabled)
