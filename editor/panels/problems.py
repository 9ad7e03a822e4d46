"""The problems panel: the newest report's diagnostics, filterable; a row finds its culprit."""

from __future__ import annotations

from PySide6.QtCore import QSortFilterProxyModel, Qt, Signal
from PySide6.QtGui import QAction, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from editor.accept_problem import acceptable
from trackformat.lint import Diagnostic, Report, Severity

COLUMNS = ("Severity", "Code", "Message", "Where")
DIAGNOSTIC = Qt.ItemDataRole.UserRole + 1
SORT_KEY = Qt.ItemDataRole.UserRole + 2


class ProblemsPanel(QWidget):
    """Lists the problems; activating a row emits :attr:`activated` with its diagnostic, and
    *Accept...* (or the row's context menu) :attr:`accept_requested` with a warning's or a
    note's (see :mod:`editor.accept_problem`)."""

    activated = Signal(object)
    accept_requested = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = QStandardItemModel(0, len(COLUMNS), self)
        self.model.setHorizontalHeaderLabels(COLUMNS)
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setFilterKeyColumn(-1)
        self.proxy.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.proxy.setSortRole(SORT_KEY)
        self.view = QTreeView(self)
        self.view.setModel(self.proxy)
        self.view.setRootIsDecorated(False)
        self.view.setAlternatingRowColors(True)
        self.view.setSortingEnabled(True)
        self.view.sortByColumn(0, Qt.SortOrder.AscendingOrder)
        self.view.setUniformRowHeights(True)
        header = self.view.header()
        header.setStretchLastSection(False)
        header.resizeSection(0, 70)
        header.resizeSection(1, 80)
        header.resizeSection(3, 220)
        header.setSectionResizeMode(2, header.ResizeMode.Stretch)
        self.view.activated.connect(self._activated)
        self.view.clicked.connect(self._activated)
        self.severity = QComboBox(self)
        self.severity.addItems(["all", "errors", "warnings", "notes"])
        self.severity.currentIndexChanged.connect(self._refilter)
        self.search = QLineEdit(self)
        self.search.setPlaceholderText("Filter by code, message or element")
        self.search.textChanged.connect(self._refilter)
        self.summary = QLabel("not checked yet", self)
        self.accept_button = QPushButton("Accept...", self)
        self.accept_button.setToolTip(
            "Accept the selected warning or note as the board prints it: the track's ignore "
            "list keeps it, with your reason (an error cannot be accepted)")
        self.accept_button.setEnabled(False)
        self.accept_button.clicked.connect(self._accept_current)
        self.view.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        self.accept_action = QAction("Accept as printed...", self.view)
        self.accept_action.triggered.connect(self._accept_current)
        self.view.addAction(self.accept_action)
        self.view.selectionModel().currentChanged.connect(lambda *_: self._can_accept())
        top = QHBoxLayout()
        top.addWidget(self.severity)
        top.addWidget(self.search, 1)
        top.addWidget(self.summary)
        top.addWidget(self.accept_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addLayout(top)
        layout.addWidget(self.view)
        self.report: Report | None = None

    def show_report(self, report: Report) -> None:
        self.report = report
        self.model.removeRows(0, self.model.rowCount())
        for diagnostic in report.diagnostics:
            elements = diagnostic.location.elements
            where = ", ".join(elements[:4]) or (diagnostic.location.pointer or "")
            if len(elements) > 4:
                where += f" and {len(elements) - 4} more"
            row = [
                QStandardItem(diagnostic.severity.value),
                QStandardItem(diagnostic.code),
                QStandardItem(diagnostic.message),
                QStandardItem(where),
            ]
            for item in row:
                item.setEditable(False)
                item.setData(diagnostic, DIAGNOSTIC)
                item.setToolTip(diagnostic.message)
            # Sorting by severity means by how bad, not alphabetically.
            row[0].setData(diagnostic.severity.rank, SORT_KEY)
            for item in row[1:]:
                item.setData(item.text(), SORT_KEY)
            self.model.appendRow(row)
        self.summary.setText(report.summary())
        self._can_accept()
        self._refilter()

    def current(self) -> Diagnostic | None:
        """The diagnostic of the row the user is on, if any."""
        index = self.view.currentIndex()
        return index.data(DIAGNOSTIC) if index.isValid() else None

    def _can_accept(self) -> None:
        diagnostic = self.current()
        can = diagnostic is not None and acceptable(diagnostic)
        self.accept_button.setEnabled(can)
        self.accept_action.setEnabled(can)

    def _accept_current(self) -> None:
        diagnostic = self.current()
        if diagnostic is not None and acceptable(diagnostic):
            self.accept_requested.emit(diagnostic)

    def rows(self) -> int:
        return self.proxy.rowCount()

    def diagnostic_at(self, row: int) -> Diagnostic:
        return self.proxy.index(row, 0).data(DIAGNOSTIC)  # type: ignore[no-any-return]

    def _refilter(self) -> None:
        wanted = {1: Severity.ERROR, 2: Severity.WARNING, 3: Severity.INFO}.get(
            self.severity.currentIndex()
        )
        text = self.search.text().lower()
        for row in range(self.model.rowCount()):
            diagnostic: Diagnostic = self.model.item(row, 0).data(DIAGNOSTIC)
            haystack = " ".join(
                [
                    diagnostic.code,
                    diagnostic.rule,
                    diagnostic.message,
                    *diagnostic.location.elements,
                ]
            ).lower()
            hide = (wanted is not None and diagnostic.severity != wanted) or (
                text and text not in haystack
            )
            self.view.setRowHidden(
                self.proxy.mapFromSource(self.model.index(row, 0)).row(),
                self.view.rootIndex(),
                bool(hide),
            )

    def _activated(self, index) -> None:  # type: ignore[no-untyped-def]
        diagnostic = index.data(DIAGNOSTIC)
        if diagnostic is not None:
            self.activated.emit(diagnostic)
