"""The test-drive panel: race simulated cars on the track in the background, read the report,
paint a heatmap on the board, and replay one race turn by turn.

The batch runs in a worker thread (and, with more than one worker, in worker processes too), so
the window stays usable; Cancel stops it between chunks of races. The numbers are the same as the
command line's `trackformat testdrive` for the same settings. Pin keeps a report, so that after
an edit the corner table shows which corners changed beyond their 95% intervals (the same
comparison as `trackformat testdrive compare`).

With Live on, every edit (once edits pause, as the problems panel waits) drops the batch being
raced and races the edited track again in a worker process (:mod:`editor.panels.live`); the
table, the summary and the heatmap refresh after every chunk of races, marked against the pinned
report if any. A track that cannot be raced is not: the panel says why and waits for the next
edit, with no dialog. An edit also drops a Run batch still racing the track as it was, so that
no figures of an older track are shown once a newer one is being raced.

This module holds the panel's run control and live mode; where its parts sit (settings and Run
on top, the results under them) is in :mod:`editor.panels.testdrive_layout`, the settings form
in :mod:`editor.panels.testdrive_settings`, the batch that runs in the worker thread in
:mod:`editor.panels.testdrive_job`, live mode's worker process in :mod:`editor.panels.live`,
the summary, corner table, pin and heatmap in :mod:`editor.panels.testdrive_results` (the
report's text and table themselves in :mod:`editor.panels.testdrive_report`), and the replay in
:mod:`editor.panels.testdrive_replay`; par, on demand, in :mod:`editor.panels.testdrive_par`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QSize, QThread, QTimer, Signal
from PySide6.QtWidgets import (
    QLabel,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QWidget,
)

from editor import choice
from editor.choice import Answer
from editor.document import TrackDocument
from editor.drive_checks import RACE_ANYWAY, broken_track_warning, race_breaking, why_no_race
from editor.panels.live import LiveDrive
from editor.panels.testdrive_job import DriveJob
from editor.panels.testdrive_layout import PanelLayout
from editor.panels.testdrive_par import ParRow
from editor.panels.testdrive_replay import ReplayControls
from editor.panels.testdrive_results import DriveResults
from editor.panels.testdrive_settings import DriveSettings
from editor.replay import Replay
from editor.validation import DEFAULT_DELAY_MS
from trackformat.lint import validate
from trackformat.rules import RulesetError, ruleset_from_document
from trackformat.sim.batch.compare import Change
from trackformat.sim.batch.testdrive import DriveError, DriveSpec


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

        self.confirm: Callable[[str], bool] = self.ask_race_anyway
        """Asked before racing on a broken track, with the warning; True races anyway."""
        self.settings = DriveSettings(self)
        # The settings' widgets, reachable from the panel as before.
        s = self.settings
        self.bots, self.cars, self.races, self.seed = s.bots, s.cars, s.races, s.seed
        self.ruleset, self.laps, self.workers = s.ruleset, s.laps, s.workers

        self.run_button = QPushButton("Run", self)
        self.run_button.clicked.connect(self.start)
        self.cancel_button = QPushButton("Cancel", self)
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel)
        self.progress = QProgressBar(self)
        self.progress.setFormat("%v of %m races")
        self.status = QLabel("", self)

        self.results = DriveResults(self, self._say, self.heatmapChanged.emit)
        # Its widgets, reachable from the panel as before.
        d = self.results
        self.view, self.corner_table, self.heat = d.view, d.corner_table, d.heat
        self.pin_button, self.unpin_button, self.pin_label = (d.pin_button, d.unpin_button,
                                                              d.pin_label)
        self.par = ParRow(document, s, self.said.emit, self)
        self.replayer = ReplayControls(self, self.replayFrame.emit)
        # Its widgets, reachable from the panel as before.
        r = self.replayer
        self.race_number, self.replay_button, self.slider = (r.race_number, r.replay_button,
                                                             r.slider)
        self.back, self.forward = r.back, r.forward
        self.turn_label, self.events = r.turn_label, r.events
        self.replay_button.clicked.connect(self.load_replay)
        self.panel_layout = PanelLayout(self, s, (self.run_button, self.cancel_button),
                                        self.progress, self.par, self.status, d, r)
        """Where the parts sit: settings and Run on top, the results under them."""
        s.live.toggled.connect(self._live_toggled)
        for setting in (s.live_races, s.seed, s.laps):
            setting.valueChanged.connect(self._live_settings_changed)
        s.ruleset.currentTextChanged.connect(self._live_settings_changed)

    def sizeHint(self) -> QSize:
        """The size that shows every setting, Run, Par and the first corner rows: the dock
        asks it when its tab is raised (:class:`editor.docks.FitOnRaise`)."""
        return QSize(super().sizeHint().width(), self.panel_layout.fit_height())

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
            no_race = why_no_race(self.document.track)
            warning = broken_track_warning(errors, no_race)
            if no_race is not None or not self.confirm(warning):
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

    def ask_race_anyway(self, warning: str) -> bool:
        """The broken-track dialog: Race anyway, or Cancel (the default)."""
        race = Answer(RACE_ANYWAY, "race", QMessageBox.ButtonRole.AcceptRole)
        return choice.ask(self, "Test drive on a broken track", warning, [race],
                          default="cancel", cancelled="cancel", warning=True) == "race"

    def take_settings(self, other: TestDrivePanel) -> None:
        """The settings of the panel of the track open before: opening or starting another
        track keeps the bots, cars, builds, races, seed, rules, team race, laps and workers the
        designer chose."""
        self.settings.take(other.settings)

    def _say(self, text: str) -> None:
        self.status.setText(text)
        self.status.setToolTip(text)  # the line shows two lines of a long message
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
        self.results.show(report)
        self._say(f"{report['races']} races done")
        self.race_number.setMaximum(max(report["races"] - 1, 0))
        self.replayer.set_enabled(True)

    @property
    def report(self) -> dict[str, Any] | None:
        """The report on show (None: no batch has reported yet)."""
        return self.results.report

    @property
    def pinned(self) -> dict[str, Any] | None:
        """The report the next ones are compared with (None: nothing pinned)."""
        return self.results.pinned

    @property
    def changes(self) -> list[Change]:
        """What changed beyond the intervals from the pinned report to the current one."""
        return self.results.changes

    def pin(self) -> None:
        self.results.pin()

    def unpin(self) -> None:
        self.results.unpin()

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
        self.par.shut_down()

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
        track as it was) and race again once edits pause. A replay on show is of the track as
        it was: its cars leave the board."""
        self.replayer.track_changed()
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
        self._spec = self.live_drive.spec
        self.results.show(report)
        self.progress.setRange(0, total)
        self.progress.setValue(done)
        self.race_number.setMaximum(max(done - 1, 0))
        self.replayer.set_enabled(True)
        self._say(self._with_notice(f"live: {done} of {total} races" if done < total
                                    else f"live: {total} races done"))
        self.liveShown.emit(done, total)

    def _live_noticed(self, text: str) -> None:
        self._engine_notice = text
        self._say(f"live: {text}")

    def _live_refused(self, reason: str) -> None:
        self.progress.setValue(0)
        self._say(f"live: not raced: {reason}")

    # Replay ----------------------------------------------------------------------
    def heat_values(self, kind: str) -> dict[str, float]:
        return self.results.heat_values(kind)

    @property
    def replay(self) -> Replay | None:
        """The race on show in the replay (None: none loaded)."""
        return self.replayer.replay

    def load_replay(self) -> bool:
        """Replay the chosen race of the last batch; False when no batch has a report yet."""
        if self._spec is None or self.report is None:
            return False
        rules = ruleset_from_document(self._spec.ruleset, "test drive ruleset")
        self.replayer.load(self.document.track, rules, self._spec)
        return True

    def show_frame(self, index: int) -> None:
        self.replayer.show_frame(index)
