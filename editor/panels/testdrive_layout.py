"""Where the test-drive panel's parts sit: laid out wide and short, for the strip under the board.

At the editor's default size (1400 x 900) the bottom dock is about a thousand pixels wide, and
raised it is given a third of the window's height (:class:`editor.docks.FitOnRaise` asks the
panel's :meth:`PanelLayout.fit_height`), so the panel is two bands rather than columns of forms:

- on top, the settings as a grid of label/field pairs, four to a row (three rows where a form of
  one pair a row took ten), and beside them Run, Cancel and the progress bar, Par, and the
  status line;
- under them, the results: the summary over the replay on the left, and the corner table on the
  right, as wide as its columns so that its rates never scroll sideways, with Pin and the heatmap
  under it.

The summary, the table and the events list give up height first when the dock is lower than
that; lower than their least, the panel scrolls as a whole, so it asks no height of the window:
Problems, which shares the strip, stays low, and the window fits a 1366 x 768 screen.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLayout,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from editor.panels.testdrive_par import ParRow
from editor.panels.testdrive_replay import ReplayControls
from editor.panels.testdrive_results import DriveResults
from editor.panels.testdrive_settings import DriveSettings

LINE_MARGIN = 4
"""Pixels a text view leaves above its first line and below its last (its document's margin)."""
STATUS_LINES = 2
"""Lines of the status line in sight: the rest of a long message is in its tooltip and in the
window's status bar, and never pushes the results down."""
SUMMARY_LINES, EVENTS_LINES = 6, 3
"""Lines of the summary and of the replay's events the panel asks the height for: the summary's
title and first figures, a turn's first events (the rest scroll). The two share the left
column's height in this proportion."""


class PanelLayout:
    """The panel's layout, made on ``panel`` from its parts; see the module docstring.

    ``buttons`` are Run and Cancel, ``progress`` the batch's bar, ``par`` the Par row, and
    ``status`` the line that says what the panel does."""

    def __init__(self, panel: QWidget, settings: DriveSettings,
                 buttons: tuple[QPushButton, QPushButton], progress: QProgressBar, par: ParRow,
                 status: QLabel, results: DriveResults, replay: ReplayControls) -> None:
        self.results = results
        self.area = QScrollArea(panel)
        """The panel's parts, scrolled as one only when the dock is made lower than their
        least: the panel asks no height of the window's layout, and Problems, which shares
        the strip, keeps its own low height."""
        self.area.setWidgetResizable(True)
        self.area.setFrameShape(QFrame.Shape.NoFrame)
        content = Content(self.area)
        status.setWordWrap(True)
        status.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        status.setMaximumHeight(STATUS_LINES * status.fontMetrics().lineSpacing())
        run_row = QHBoxLayout()
        for button in buttons:
            # As narrow as their words: the bar beside them takes the rest.
            button.setMinimumWidth(button.fontMetrics().horizontalAdvance(button.text()) + 24)
            run_row.addWidget(button)
        run_row.addWidget(progress, 1)
        controls = QVBoxLayout()
        controls.addLayout(run_row)
        controls.addWidget(par)
        controls.addWidget(status)
        controls.addStretch(1)
        self.top = QHBoxLayout()
        """The settings and the controls: the band that must show whole."""
        self.top.addLayout(settings_grid(settings, content), 0)
        self.top.addLayout(controls, 1)  # the grid takes what it asks, the controls the rest

        self.events = replay.events
        # Both scroll, so they give up height first, down to two lines each.
        for lines in (results.view, replay.events):
            lines.setMinimumHeight(2 * lines.fontMetrics().lineSpacing() + 2 * lines.frameWidth())
        self.replay = replay_rows(replay, content)
        self.summary = QVBoxLayout()
        """The summary over the replay: its race, its turn, and the turn's events."""
        self.summary.addWidget(results.view, SUMMARY_LINES)
        self.summary.addLayout(self.replay)
        self.summary.addWidget(replay.events, EVENTS_LINES)
        corners = QVBoxLayout()
        corners.addWidget(results.corner_table, 1)
        pin_row = QHBoxLayout()
        for part in (results.pin_button, results.unpin_button):
            pin_row.addWidget(part)
        pin_row.addWidget(results.pin_label, 1)
        pin_row.addWidget(QLabel("Heatmap", content))
        pin_row.addWidget(results.heat)
        corners.addLayout(pin_row)
        self.bottom = QHBoxLayout()
        """The results: the table takes the width of its columns, the summary the rest."""
        self.bottom.addLayout(self.summary, 1)
        self.bottom.addLayout(corners, 0)

        self.layout = QVBoxLayout(content)
        self.layout.addLayout(self.top)
        self.layout.addLayout(self.bottom, 1)
        self.area.setWidget(content)
        outer = QVBoxLayout(panel)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(self.area)

    def fit_height(self) -> int:
        """The panel's height with everything in sight: the top band whole, and under it the
        higher of the corner table's first rows (:data:`ROWS_IN_SIGHT`) with Pin, and the
        summary's and the events' first lines with the replay's controls."""
        results = self.results
        corners = (results.corner_table.sizeHint().height() + _spacing(self.bottom)
                   + max(results.pin_button.sizeHint().height(),
                         results.heat.sizeHint().height()))
        summary = (_lines_height(results.view, SUMMARY_LINES) + self.replay.sizeHint().height()
                   + _lines_height(self.events, EVENTS_LINES) + 2 * _spacing(self.summary))
        margins = self.layout.contentsMargins()
        return (margins.top() + margins.bottom() + self.top.sizeHint().height()
                + _spacing(self.layout) + max(corners, summary))


class Content(QWidget):
    """The panel's parts in their scroll area, which makes them as high as the dock and scrolls
    only below their least height. The wrapped lines (the status, a wrong build, Par) make the
    layout's height depend on its width, and the scroll area would then make it as high as it
    likes, scrolling at any height the user gives the dock: its least height it is."""

    def heightForWidth(self, width: int) -> int:
        return self.minimumSizeHint().height()


def settings_grid(settings: DriveSettings, parent: QWidget) -> QGridLayout:
    """The settings as label/field pairs, four to a row, the line-up first; the problem with
    the builds (if any) on a row of its own under them. ``parent`` holds the labels."""
    s = settings
    grid = QGridLayout()
    rows: tuple[tuple[tuple[str, QWidget], ...], ...] = (
        (("Bots", s.bots), ("Cars", s.cars), ("Builds", s.builds), ("Team race", s.team_race)),
        (("Races", s.races), ("Seed", s.seed), ("Rules", s.ruleset), ("Laps", s.laps)),
    )
    for row, pairs in zip((0, 2), rows, strict=True):
        for pair, (text, field) in enumerate(pairs):
            _pair(grid, parent, row, 2 * pair, text, field)
    grid.addWidget(s.build_problem, 1, 1, 1, 7)  # under the line-up it speaks of
    _pair(grid, parent, 3, 0, "Workers", s.workers)
    live = QHBoxLayout()
    live.addWidget(s.live)
    live.addWidget(s.live_races)
    live.addStretch(1)
    _pair(grid, parent, 3, 2, "Live", s.live, live, span=5)
    for column in (1, 5):  # the text fields (bots, builds, rules) take the spare width
        grid.setColumnStretch(column, 1)
    grid.setRowStretch(4, 1)  # a taller band leaves the rows at the top
    return grid


def replay_rows(replay: ReplayControls, parent: QWidget) -> QVBoxLayout:
    """The replay's controls on two rows (the race and its turn; the turn slider), so that the
    slider keeps a usable length in the narrow column beside the corner table."""
    r = replay
    race = QHBoxLayout()
    race.addWidget(QLabel("Race", parent))
    race.addWidget(r.race_number)
    race.addWidget(r.replay_button)
    race.addWidget(r.turn_label, 1)
    turns = QHBoxLayout()
    turns.addWidget(r.back)
    turns.addWidget(r.slider, 1)
    turns.addWidget(r.forward)
    rows = QVBoxLayout()
    rows.addLayout(race)
    rows.addLayout(turns)
    return rows


def _pair(grid: QGridLayout, parent: QWidget, row: int, column: int, text: str,
          field: QWidget, layout: QLayout | None = None, span: int = 1) -> None:
    """``text``'s label at ``column`` and its field (or ``layout``, holding the field) beside
    it; the label names the field for screen readers and Alt-keys."""
    label = QLabel(text, parent)
    label.setBuddy(field)
    grid.addWidget(label, row, column)
    if layout is None:
        grid.addWidget(field, row, column + 1, 1, span)
    else:
        grid.addLayout(layout, row, column + 1, 1, span)


def _lines_height(view: QAbstractScrollArea, lines: int) -> int:
    """The height that shows ``lines`` lines of text in ``view``, frame and margins too."""
    return (lines * view.fontMetrics().lineSpacing() + 2 * view.frameWidth()
            + 2 * LINE_MARGIN)


def _spacing(layout: QLayout) -> int:
    """The layout's spacing between items (the style's, when the layout leaves it unset)."""
    return max(layout.spacing(), 0)
