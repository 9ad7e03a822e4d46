"""What the test-drive panel shows of a report: a short summary (HTML), and the corner table:
each corner's rates with their 95% intervals and, against a pinned report, the corners an edit
changed beyond those intervals.

The corners are a table rather than text so that a changed corner stands out by colour at a
glance: a rate that rose (more overshoots, spins, eliminations: the corner bites harder) is
tinted warm, one that fell is tinted green, and the last column says what it was and is.
"""

from __future__ import annotations

from html import escape
from typing import Any

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QTableWidget,
    QTableWidgetItem,
    QWidget,
)

from trackformat.sim.batch.compare import (
    Change,
    compare,
    corner_labels,
    percent,
    with_interval,
)

COLUMNS = ("Corner", "Stops", "Entries", "Overshoot", "Mean", "Out", "Spins", "WP",
           "Since pinned")
"""The headers, short where the cells are: the table shows its main columns side by side in
the bottom dock of a 1400 px window; each header's tooltip gives its full name."""
HEADER_TIPS = (
    "Corner, in lap order", "Stops the corner asks for",
    "Entries: times cars moved into the corner",
    "Overshoot: share of entries that overshot it, with its 95% interval (Wilson)",
    "Mean overshoot, in spaces",
    "Out: share of entries that ended in an elimination it caused, with its 95% interval",
    "Spins: share of entries that ended in a spin-out, with its 95% interval",
    "Tyre WP: tyres WP paid for overshooting it",
    "Since pinned: rates that changed beyond both 95% intervals since the pinned report: "
    "before -> after",
)
SAMPLES = ("Sainte Dévote", "3", "999", "88.8% (88.8-88.8)", "8.8", "8.8% (8.8-88.8)",
           "8.8% (8.8-88.8)", "99", "")
"""A usual cell of each column: the table asks for room for these before any report, so that
the first report does not move the panel's columns."""
ROWS_IN_SIGHT = 7
"""Corner rows the table asks the height for (Monaco has ten: the rest scroll)."""
CELL_PADDING = 8
"""Pixels a cell adds to its text's width (the style's margins and the grid line)."""
RATE_COLUMNS = {"overshoots": 3, "eliminations": 5, "spins": 6}
"""The column of each per-corner rate that :func:`compare` can report as changed."""
SINCE_PINNED = len(COLUMNS) - 1

ROSE = QColor(244, 182, 168)
"""A rate that rose beyond its interval since the pinned report: the corner bites harder."""
FELL = QColor(182, 220, 176)
"""A rate that fell beyond its interval: the corner bites less."""


def _rate_cell(corner: dict[str, Any], rate: str) -> str:
    """``12.5% (8.6-17.8)``; a report without intervals gives the rate alone."""
    share = corner.get(rate, 0.0)
    interval = corner.get(f"{rate}_ci")
    return percent(share) if interval is None else with_interval(share, interval)


def _mean(value: Any) -> str:
    return f"{value:.1f}" if isinstance(value, (int, float)) else "-"


class CornerTable(QTableWidget):
    """One row per corner, in lap order; see the module docstring."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(0, len(COLUMNS), parent)
        for column, (title, tip) in enumerate(zip(COLUMNS, HEADER_TIPS, strict=True)):
            item = QTableWidgetItem(title)
            item.setToolTip(tip)
            self.setHorizontalHeaderItem(column, item)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.verticalHeader().setVisible(False)
        # Rows as high as their line, not the style's roomy default: more corners in sight.
        self.verticalHeader().setDefaultSectionSize(self.fontMetrics().lineSpacing() + 8)
        header = self.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        # "Since pinned" takes what the others leave (its cells' tooltips say it whole), and
        # is hidden until a report is pinned.
        header.setSectionResizeMode(SINCE_PINNED, QHeaderView.ResizeMode.Stretch)
        self.setColumnHidden(SINCE_PINNED, True)

    def sizeHint(self) -> QSize:
        """As wide as the columns before "Since pinned" (at least as their usual cells, so the
        first report does not widen it) and its header once shown, and high enough for
        :data:`ROWS_IN_SIGHT` rows."""
        metrics, header = self.fontMetrics(), self.horizontalHeader()
        columns = sum(
            max(header.sectionSize(column), header.sectionSizeHint(column),
                metrics.horizontalAdvance(sample) + CELL_PADDING)
            for column, sample in enumerate(SAMPLES[:SINCE_PINNED])
        )
        since = 0 if self.isColumnHidden(SINCE_PINNED) else header.sectionSizeHint(SINCE_PINNED)
        width = (columns + since + 2 * self.frameWidth()
                 + self.verticalScrollBar().sizeHint().width())
        return QSize(width, self.height_for_rows(ROWS_IN_SIGHT))

    def height_for_rows(self, rows: int) -> int:
        """The height that shows the header and ``rows`` rows with no scrolling."""
        return (self.horizontalHeader().sizeHint().height()
                + rows * self.verticalHeader().defaultSectionSize() + 2 * self.frameWidth())

    def show_report(self, report: dict[str, Any],
                    pinned: dict[str, Any] | None = None) -> list[Change]:
        """Fill the table from ``report``; with a ``pinned`` report, mark the corners whose
        rates changed beyond their intervals. Returns every change (overall ones too) for the
        panel to tell; none when nothing is pinned."""
        changes = compare(pinned, report, strict=False) if pinned is not None else []
        by_corner: dict[str, list[tuple[str, Change]]] = {}
        for change in changes:
            kind, _, rest = change.after.key.partition(":")
            if kind == "corner":
                corner_id, _, what = rest.rpartition(":")
                by_corner.setdefault(corner_id, []).append((what, change))
        corners = report["corners"]
        header = self.horizontalHeader()
        # Sized once when full: sized to its contents as it fills, each cell set would measure
        # the whole column again (tens of ms on Monaco, on every refresh of a live drive).
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.setRowCount(len(corners))
        self._fill(corners, by_corner)
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(SINCE_PINNED, QHeaderView.ResizeMode.Stretch)
        # Empty while nothing is pinned: its room goes to the rates until there is something
        # to say in it.
        self.setColumnHidden(SINCE_PINNED, pinned is None)
        self.updateGeometry()  # wider names than the usual ones: the panel makes room
        return changes

    def _fill(self, corners: list[dict[str, Any]],
              by_corner: dict[str, list[tuple[str, Change]]]) -> None:
        for row, (corner, label) in enumerate(zip(corners, corner_labels(corners),
                                                  strict=True)):
            cells = (label, str(corner["stops"]), str(corner["entries"]),
                     _rate_cell(corner, "overshoot_rate"), _mean(corner.get("mean_overshoot")),
                     _rate_cell(corner, "elimination_rate"), _rate_cell(corner, "spin_rate"),
                     str(corner["tyre_wp"]), "")
            items = [QTableWidgetItem(text) for text in cells]
            for column, item in enumerate(items):
                if column:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight
                                          | Qt.AlignmentFlag.AlignVCenter)
                self.setItem(row, column, item)
            marks = by_corner.get(str(corner["id"]), [])
            if marks:
                self._mark(items, marks)

    @staticmethod
    def _mark(items: list[QTableWidgetItem], marks: list[tuple[str, Change]]) -> None:
        """Tint each changed rate by its direction, bold the corner, say before -> after."""
        said = []
        for what, change in marks:
            rose = change.after.share > change.before.share
            item = items[RATE_COLUMNS[what]]
            item.setBackground(QBrush(ROSE if rose else FELL))
            item.setToolTip(f"{change.text()}, beyond both 95% intervals")
            said.append(f"{what} {percent(change.before.share)} -> "
                        f"{percent(change.after.share)}")
        name = items[0]
        font = QFont(name.font())
        font.setBold(True)
        name.setFont(font)
        since = items[SINCE_PINNED]
        since.setText("; ".join(said))
        since.setToolTip(since.text())  # the column may be too narrow to show it whole
        since.setTextAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        rose_any = any(c.after.share > c.before.share for _, c in marks)
        since.setBackground(QBrush(ROSE if rose_any else FELL))

    def cell(self, row: int, column: int) -> QTableWidgetItem:
        """The item at ``row``, ``column`` (every cell of a shown report has one)."""
        item = self.item(row, column)
        assert item is not None, (row, column)
        return item


def _rate(share: float, interval: list[float] | None) -> str:
    """``12.5% (8.6-17.8)``: a rate and its 95% interval, when the report has one."""
    return percent(share) if interval is None else with_interval(share, interval)


BUILD_COLUMNS = ("Build", "Cars", "Finished", "Finish rate", "Wins")
"""The per-build table's columns: a build's figures over every car it raced."""


def build_label(build: str) -> str:
    """A build as the table shows it: its WP spaced after each comma, so that a long build
    wraps in a narrow column instead of widening the summary."""
    return build.replace(",", ", ")


def builds_html(by_build: dict[str, dict[str, Any]]) -> list[str]:
    """The report's results per build (building your car), a row each in the order first
    given: its cars, how many finished, the finish rate and the share of races it won, with
    their 95% intervals. Nothing when the line-up gave no builds."""
    if not by_build:
        return []
    head = "".join(f"<th>{title}</th>" for title in BUILD_COLUMNS)
    rows = "".join(
        f"<tr><td>{escape(build_label(build))}</td><td>{row['cars']}</td>"
        f"<td>{row['finished']}</td>"
        f"<td>{_rate(row['finish_rate'], row.get('finish_rate_ci'))}</td>"
        f"<td>{row['wins']}, {_rate(row['winner_share'], row.get('winner_share_ci'))}</td>"
        "</tr>"
        for build, row in by_build.items()
    )
    return ["<p>By build:</p>",
            f'<table border="1" cellspacing="0" cellpadding="2"><tr>{head}</tr>{rows}</table>']


def report_html(report: dict[str, Any], changes: list[Change] | None = None) -> str:
    """The report as a small HTML page: summary, DNF causes, winners (the corners are in the
    table below it); with ``changes`` (something is pinned), the overall rates that moved."""
    turns = report["turns"]["per_race"]
    repairs = (f" with team repairs ({report['team_repairs']} WP a team)"
               if report.get("team_repairs") else "")
    parts = [
        f"<h3>{escape(str(report['track']))}: {report['races']} races of {report['cars']} cars, "
        f"{report['laps']} laps ({escape(str(report['ruleset']))}{repairs})</h3>",
        f"<p>Turns per race: mean {turns['mean']}, median {turns['median']}, 90% within "
        f"{turns['p90']}. Cars finishing: "
        f"{_rate(report['finish_rate'], report.get('finish_rate_ci'))}.</p>",
    ]
    if report["dnf"]:
        causes = ", ".join(f"{escape(cause)} {count}" for cause, count in report["dnf"].items())
        parts.append(f"<p>Out of the race: {causes}.</p>")
    winners = ", ".join(
        f"{escape(bot)} {_rate(share, report.get('winner_share_ci', {}).get(bot))}"
        for bot, share in report["winner_share"].items()
    )
    parts.append(f"<p>Wins: {winners}.</p>")
    parts += builds_html(report.get("by_build") or {})
    parts += [f"<p>Note: {escape(note)}.</p>" for note in report.get("notes", [])]
    teams = report.get("teams") or []
    if teams:
        scores = ", ".join(
            f"cars {t['cars'][0]}-{t['cars'][-1]} ({escape('/'.join(t['bots']))}) "
            f"{t['mean_points']} a race"
            for t in teams
        )
        parts.append(f"<p>Team race points: {scores}.</p>")
    if changes is not None:
        overall = [c for c in changes if not c.after.key.startswith("corner:")]
        corners = len(changes) - len(overall)
        if changes:
            moved = ", ".join(escape(c.text()) for c in overall) or "no overall rate"
            parts.append(f"<p><b>Since the pinned report</b> (beyond the 95% intervals): "
                         f"{moved}; {corners} corner rate{'s' if corners != 1 else ''} "
                         "(marked in the table).</p>")
        else:
            parts.append("<p><b>Since the pinned report</b>: nothing changed beyond the 95% "
                         "intervals.</p>")
    return "".join(parts)
