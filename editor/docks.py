"""The main window's panels: problems, tool options, inspector, history, layers, test drive.

Laid out so that the board keeps most of the window: the panels' column runs the window's full
height on the right, History shares a tab with Layers, and Problems shares the bottom strip with
the test drive, so the window fits a laptop's screen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget, QFrame, QScrollArea, QUndoView, QWidget

from editor.panels.layers import LayersPanel
from editor.panels.problems import ProblemsPanel

if TYPE_CHECKING:
    from editor.mainwindow import MainWindow


def build(window: MainWindow) -> None:
    """Make the window's panels and dock them in their places."""
    right, bottom = Qt.DockWidgetArea.RightDockWidgetArea, Qt.DockWidgetArea.BottomDockWidgetArea
    window.problems = ProblemsPanel(window)
    window.problems.activated.connect(window.go_to)
    window.undo_view = QUndoView(window)
    window.undo_view.setEmptyLabel("Opened")
    window.layers = LayersPanel(window.scene, window)
    window.problems_dock = _dock(window, "Problems", window.problems, bottom)
    # Above the inspector, in the column the panels already take: the board keeps its width.
    # The options scroll rather than grow, so the window still fits a laptop's screen.
    window.options_area = QScrollArea(window)
    window.options_area.setWidgetResizable(True)
    window.options_area.setFrameShape(QFrame.Shape.NoFrame)
    window.options_dock = _dock(window, "Tool options", window.options_area, right)
    window.inspector_dock = _dock(window, "Inspector", QWidget(), right)
    window.history_dock = _dock(window, "History", window.undo_view, right)
    window.layers_dock = _dock(window, "Layers", window.layers, right)
    window.setCorner(Qt.Corner.BottomRightCorner, right)
    window.tabifyDockWidget(window.history_dock, window.layers_dock)
    window.layers_dock.raise_()
    window.testdrive_dock = _dock(window, "Test drive", QWidget(), bottom)
    window.tabifyDockWidget(window.problems_dock, window.testdrive_dock)
    window.problems_dock.raise_()


def _dock(
    window: MainWindow, title: str, widget: QWidget, area: Qt.DockWidgetArea
) -> QDockWidget:
    """A panel docked in ``area``, named after its title so the window's layout can be saved."""
    dock = QDockWidget(title, window)
    dock.setObjectName(title)
    dock.setWidget(widget)
    window.addDockWidget(area, dock)
    return dock
