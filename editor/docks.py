"""The main window's panels: problems, tool options, inspector, history, layers, test drive.

Laid out so that the board keeps most of the window: the panels' column runs the window's full
height on the right, History shares a tab with Layers, and Problems shares the bottom strip with
the test drive, so the window fits a laptop's screen.

The strip is low while Problems is on show; raising the Test drive tab makes it as high as the
test drive's settings, buttons and first corner rows need (:class:`FitOnRaise`), up to a share
of the window that leaves the board most of it, and raising Problems gives the board its height
back.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtWidgets import QDockWidget, QFrame, QScrollArea, QUndoView, QWidget

from editor import accept_problem
from editor.panels.layers import LayersPanel
from editor.panels.problems import ProblemsPanel

if TYPE_CHECKING:
    from editor.mainwindow import MainWindow

ResizeDocks = Callable[[Sequence[QDockWidget], Sequence[int], Qt.Orientation], None]
"""QMainWindow.resizeDocks: sets the height (or width) of the dock area a dock is in."""
MAX_SHARE = 0.45
"""The most of the window's height a strip raised by :class:`FitOnRaise` takes: the board, the
menus and the status bar keep the rest."""


def build(window: MainWindow) -> None:
    """Make the window's panels and dock them in their places."""
    right, bottom = Qt.DockWidgetArea.RightDockWidgetArea, Qt.DockWidgetArea.BottomDockWidgetArea
    window.problems = ProblemsPanel(window)
    window.problems.activated.connect(window.go_to)
    # The document at the time of asking: opening a file gives the window another one.
    window.problems.accept_requested.connect(
        lambda diagnostic: accept_problem.ask_and_accept(window, window.document, diagnostic))
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
    FitOnRaise(window.testdrive_dock, window.resizeDocks, bottom)


def _dock(
    window: MainWindow, title: str, widget: QWidget, area: Qt.DockWidgetArea
) -> QDockWidget:
    """A panel docked in ``area``, named after its title so the window's layout can be saved."""
    dock = QDockWidget(title, window)
    dock.setObjectName(title)
    dock.setWidget(widget)
    window.addDockWidget(area, dock)
    return dock


class FitOnRaise(QObject):
    """Makes a tabbed dock in the top or bottom strip high enough for its widget's size hint
    when its tab is raised, and gives the strip back the height it had when another tab is
    raised: the board is large again as soon as the dock is not in use.

    The strip grows only when lower than the widget asks, and never past :data:`MAX_SHARE` of
    the window. A height the user gives the strip is kept: one given while this tab is up comes
    back with the tab (rather than the widget's wish), one given while another tab is up is
    what that tab gets back. Takes the dock, the main window's ``resizeDocks`` and the area the
    dock starts in; follows the dock when it is moved, and leaves it alone floating or in a
    side column."""

    def __init__(self, dock: QDockWidget, resize_docks: ResizeDocks,
                 area: Qt.DockWidgetArea) -> None:
        super().__init__(dock)
        self.dock, self._resize_docks, self._area = dock, resize_docks, area
        self._before: int | None = None
        """The strip's height when the tab was raised, given back when another tab is raised
        (None: the tab is not up, or was raised where this does not manage it)."""
        self._shown = 0
        """The dock's height once raised: another height when it is lowered is the user's."""
        self._own: int | None = None
        """The height the user gave this tab (None: none, its widget's wish is used)."""
        self._tabs = 0
        """How much higher the strip is than the dock (its tab bar), learnt on the first fit."""
        self._up = False
        """Whether the tab is raised: a tab behind another is moved off the window, not
        hidden, so isVisible() cannot tell."""
        dock.visibilityChanged.connect(self._visibility_changed)
        dock.dockLocationChanged.connect(self._moved)

    def _visibility_changed(self, visible: bool) -> None:
        self._up = visible
        # After the tab switch is done: the dock area is being laid out when this is said.
        QTimer.singleShot(0, self, self._raised if visible else self._lowered)

    def _moved(self, area: Qt.DockWidgetArea) -> None:
        self._area, self._before, self._own = area, None, None

    def _managed(self) -> bool:
        """Whether the dock sits in the top or bottom strip of a window on show."""
        window = self.dock.parentWidget()
        return (window is not None and window.isVisible() and not self.dock.isFloating()
                and self._area in (Qt.DockWidgetArea.BottomDockWidgetArea,
                                   Qt.DockWidgetArea.TopDockWidgetArea))

    def _raised(self) -> None:
        if not self._up or not self._managed():
            return
        have = self.dock.height()
        window = self.dock.parentWidget()
        assert window is not None
        most = int(MAX_SHARE * window.height()) - self._tabs
        want = self._own if self._own is not None else max(
            have, min(self.dock.sizeHint().height(), most))
        self._before = have
        self._shown = self._set(want) if want != have else have

    def _lowered(self) -> None:
        if self._before is None or self._up or not self._managed():
            return
        last = self.dock.height()  # a lowered tab keeps the size it was last shown at
        if last != self._shown:
            self._own = last  # the user's height for this tab
        if last != self._before:
            self._set(self._before)
        self._before = None

    def _set(self, height: int) -> int:
        """Make the dock ``height`` high (the strip as much higher as its tab bar) at once;
        returns the height it got (the window's other panels may not leave that much)."""
        window = self.dock.parentWidget()
        assert window is not None
        layout, tabs = window.layout(), self._tabs
        for _ in range(2):  # the second time with the tab bar's height learnt
            self._resize_docks([self.dock], [height + tabs], Qt.Orientation.Vertical)
            if layout is not None:
                layout.activate()
            if not self._up:
                break  # another tab is up: nothing to measure, the strip is as asked
            got = self.dock.height()
            if got == height:
                self._tabs = tabs  # learnt only from a height the strip really took
                break
            tabs = max(0, tabs + height - got)
        return self.dock.height()
