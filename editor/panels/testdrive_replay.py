"""The test drive's replay: one race of the batch, turn by turn, its events listed beside the
board and its cars drawn on it.

Kept apart from the panel, which runs the batches: a replay needs only the batch's spec (the
same race number gives the same race), the track and the rules. Like the settings form, it is
widgets parented to the panel, laid out by :mod:`editor.panels.testdrive_layout`.

A replay is of the track as it was when it was raced: once the track is edited (or an edit
undone) its cars may stand on spaces that moved or are gone, so the panel calls
:meth:`ReplayControls.track_changed`, which takes them off the board and says to replay again.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QLabel,
    QListWidget,
    QPushButton,
    QSlider,
    QSpinBox,
    QWidget,
)

from editor.replay import Frame, Replay, record
from trackformat.model import Track
from trackformat.rules import Ruleset
from trackformat.sim import Board
from trackformat.sim.batch.testdrive import DriveSpec

STALE = ("The track was edited since this race was replayed: press Replay race to race it "
         "again on the track as it is now")
"""What the events list says once an edit has dropped the replay."""


class ReplayControls:
    """The race number, the Replay button, the turn slider with its steps, and the events of
    the turn on show; ``show`` draws a frame on the board (None: takes the cars off)."""

    def __init__(self, parent: QWidget, show: Callable[[Frame | None], None]) -> None:
        self._show = show
        self.replay: Replay | None = None
        """The race on show (None: none loaded yet)."""
        self.race_number = QSpinBox(parent)
        self.race_number.setRange(0, 99_999)
        self.replay_button = QPushButton("Replay race", parent)
        self.slider = QSlider(Qt.Orientation.Horizontal, parent)
        self.slider.valueChanged.connect(self.show_frame)
        self.back = QPushButton("<", parent)
        self.back.clicked.connect(lambda: self.slider.setValue(self.slider.value() - 1))
        self.forward = QPushButton(">", parent)
        self.forward.clicked.connect(lambda: self.slider.setValue(self.slider.value() + 1))
        self.turn_label = QLabel("", parent)
        self.events = QListWidget(parent)
        self.events.setWordWrap(True)  # long lines wrap rather than run off the panel's edge
        self.events.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        for button in (self.back, self.forward):
            button.setMaximumWidth(button.fontMetrics().horizontalAdvance("<") + 28)
        self.set_enabled(False)

    def load(self, track: Track, rules: Ruleset, spec: DriveSpec) -> None:
        """Race the chosen race of ``spec``'s batch again, recording every turn, and show its
        start. ``rules`` are the batch's (its team race's repairs too), and each car starts
        with its build: the same race as the batch raced."""
        names = {c.id: c.name for c in track.corners}
        self.replay = record(Board.of(track), rules, spec.bots, spec.seed,
                             self.race_number.value(), spec.laps, spec.max_turns,
                             corner_names=names, builds=spec.build_points(rules))
        self.slider.setRange(0, len(self.replay.frames) - 1)
        for widget in (self.slider, self.back, self.forward):  # stepped off by an edit
            widget.setEnabled(True)
        self.slider.setValue(0)
        self.show_frame(0)

    def show_frame(self, index: int) -> None:
        """Show turn ``index`` of the race loaded: its events, and its cars on the board."""
        if self.replay is None or not 0 <= index < len(self.replay.frames):
            return
        frame = self.replay.frames[index]
        self.turn_label.setText(f"turn {frame.turn} / {self.replay.frames[-1].turn}")
        self.events.clear()
        self.events.addItems(list(frame.events))
        self._show(frame)

    def track_changed(self) -> None:
        """The track was edited: drop the replay on show, take its cars off the board and say
        so, leaving the race number and Replay race as they were to race it again."""
        if self.replay is None:
            return
        self.replay = None
        self.slider.setRange(0, 0)
        for widget in (self.slider, self.back, self.forward):
            widget.setEnabled(False)
        self.turn_label.setText("")
        self.events.clear()
        self.events.addItem(STALE)
        self._show(None)

    def set_enabled(self, enabled: bool) -> None:
        """Whether a race can be chosen and stepped through (once a batch has a report)."""
        for widget in (self.race_number, self.replay_button, self.slider, self.back,
                       self.forward):
            widget.setEnabled(enabled)
