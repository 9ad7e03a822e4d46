"""The test drive's results: the summary, the corner table marked against a pinned report, and
the heatmap painted from the report.

Kept apart from the panel, which runs the batches (a Run batch, or live mode's) and hands each
report here as it comes. Like the settings form, it is widgets parented to the panel; where they
sit is :mod:`editor.panels.testdrive_layout`'s to say.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtWidgets import (
    QComboBox,
    QLabel,
    QPushButton,
    QTextBrowser,
    QWidget,
)

from editor.panels.testdrive_report import CornerTable, report_html
from trackformat.sim.batch.compare import Change, ReportError

HEAT_KINDS = ("none", "overshoots", "eliminations", "stops")
"""What the heatmap can paint, per space: nothing, or one of the report's space counts."""


class DriveResults:
    """The report on show and the one pinned; ``say`` tells the user what went wrong, ``paint``
    paints the heatmap's values per space id (empty: none)."""

    def __init__(self, parent: QWidget, say: Callable[[str], None],
                 paint: Callable[[dict[str, float]], None]) -> None:
        self._say, self._paint = say, paint
        self.report: dict[str, Any] | None = None
        """The report on show (None: no batch has reported yet)."""
        self.pinned: dict[str, Any] | None = None
        """The report the next ones are compared with (None: nothing pinned)."""
        self.changes: list[Change] = []
        """What changed beyond the intervals from the pinned report to the current one."""
        self.view = QTextBrowser(parent)
        # It scrolls, so it gives up height first: a short dock still shows the rest.
        self.view.setMinimumHeight(2 * self.view.fontMetrics().lineSpacing())
        self.corner_table = CornerTable(parent)
        self.pin_button = QPushButton("Pin", parent)
        self.pin_button.setToolTip(
            "Keep this report: after the next test drive, the corners that changed beyond "
            "their 95% intervals are marked, with the rate before -> after"
        )
        self.pin_button.setEnabled(False)
        self.pin_button.clicked.connect(self.pin)
        self.unpin_button = QPushButton("Unpin", parent)
        self.unpin_button.setEnabled(False)
        self.unpin_button.clicked.connect(self.unpin)
        self.pin_label = QLabel("", parent)
        self.heat = QComboBox(parent)
        self.heat.addItems(HEAT_KINDS)
        self.heat.currentTextChanged.connect(self._heat_changed)

    def show(self, report: dict[str, Any]) -> None:
        """Show ``report``: the summary, the corner table and the heatmap."""
        self.report = report
        self._show_report()
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

    def heat_values(self, kind: str) -> dict[str, float]:
        """The report's count of ``kind`` (one of :data:`HEAT_KINDS`) per space id, where it is
        not zero."""
        if self.report is None or kind == "none":
            return {}
        return {
            space: float(counts[kind])
            for space, counts in self.report["spaces"].items()
            if counts.get(kind)
        }

    def _heat_changed(self, kind: str) -> None:
        self._paint(self.heat_values(kind))
