"""The test-drive panel at the editor's own window size (1400 x 900), with the panels where a new
user finds them: raising its tab makes the strip high enough for every setting, Run, Cancel, Par
and the first corner rows, in sight and drawn, and the board keeps a good share of the window;
raising Problems again gives the board its height back, and a height the user gives the strip
is kept."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, QPoint, QPointF, QRect, Qt
from PySide6.QtGui import QMouseEvent, QRegion
from PySide6.QtWidgets import QAbstractScrollArea, QApplication, QTabBar, QWidget

from editor.panels import testdrive as drive_panel
from editor.panels.testdrive_report import SINCE_PINNED

pytestmark = pytest.mark.usefixtures("compiled_kernel")

MONACO = Path(__file__).resolve().parents[2] / "tracks" / "monaco.json"
DEFAULT_SIZE = (1400, 900)
"""The size the editor's window opens at."""
CORNER_ROWS = 5
"""Corner rows that must be in sight (Monaco has ten)."""
BOARD_SHARE = 0.4
"""The least share of the window's height the board keeps with the test drive raised."""


def _panel(window) -> drive_panel.TestDrivePanel:  # type: ignore[no-untyped-def]
    panel = window.testdrive_dock.widget()
    assert isinstance(panel, drive_panel.TestDrivePanel)
    return panel


def _settle(qtbot) -> None:  # type: ignore[no-untyped-def]
    """Let the tab switch, the strip's new height and the repaints happen."""
    qtbot.wait(100)
    QApplication.processEvents()


def _on_window(widget: QWidget, rect: QRect | None = None) -> QRect:
    """``rect`` of ``widget`` (all of it by default) in the window's coordinates."""
    rect = widget.rect() if rect is None else rect
    return QRect(widget.mapTo(widget.window(), rect.topLeft()), rect.size())


def _whole_in_sight(widget: QWidget, panel: drive_panel.TestDrivePanel) -> str:
    """What hides part of ``widget`` from the user ("" when nothing does): hidden, outside the
    window or the dock, or cut by something around it (the viewport of a scroll area)."""
    name = widget.objectName() or type(widget).__name__
    if not widget.isVisible():
        return f"{name} is hidden"
    where = _on_window(widget)
    frames = {"the window": widget.window().rect(),
              "the test drive dock": _on_window(panel.window().testdrive_dock)}
    for frame, rect in frames.items():
        if not rect.contains(where):
            return f"{name} at {where} is not inside {frame} at {rect}"
    # Every widget around it clips it: a scroll area's viewport shows only what is scrolled
    # into it.
    around = widget.parentWidget()
    while around is not None and not around.isWindow():
        if not _on_window(around).contains(where):
            return f"{name} at {where} is cut by {type(around).__name__} at {_on_window(around)}"
        around = around.parentWidget()
    # What paints: a scrolled view's viewport (the view's own region is its frame), and it
    # must not be covered by anything opaque laid over it.
    painted = widget.viewport() if isinstance(widget, QAbstractScrollArea) else widget
    if not QRegion(painted.rect()).subtracted(painted.visibleRegion()).isEmpty():
        return f"{name} is clipped: only {painted.visibleRegion().boundingRect()} shows"
    return ""


def _drawn(window, widget: QWidget) -> bool:  # type: ignore[no-untyped-def]
    """Whether the window's pixels where ``widget`` sits show something (a button's frame and
    its word), not one flat colour."""
    image = window.grab(_on_window(widget)).toImage()
    colours = {image.pixel(x, y) for x in range(image.width()) for y in range(image.height())}
    return len(colours) > 2


def _raise_test_drive(window, qtbot) -> drive_panel.TestDrivePanel:  # type: ignore[no-untyped-def]
    window.resize(*DEFAULT_SIZE)
    assert window.open_path(MONACO)
    _settle(qtbot)
    qtbot.mouseClick(_tab(window, "Test drive"), Qt.MouseButton.LeftButton,
                     pos=_tab_centre(window, "Test drive"))
    _settle(qtbot)
    return _panel(window)


def _tab(window, title: str) -> QWidget:  # type: ignore[no-untyped-def]
    """The tab bar under the bottom strip that holds the tab ``title``."""
    for bar in window.findChildren(QTabBar):
        if bar.isVisible() and any(bar.tabText(i) == title for i in range(bar.count())):
            return bar
    raise AssertionError(f"no tab {title!r} on show")


def _tab_centre(window, title: str) -> QPoint:  # type: ignore[no-untyped-def]
    bar = _tab(window, title)
    index = next(i for i in range(bar.count()) if bar.tabText(i) == title)
    return bar.tabRect(index).center()


def test_the_raised_test_drive_shows_every_setting_run_and_the_corners(  # type: ignore[no-untyped-def]
        window, qtbot) -> None:
    panel = _raise_test_drive(window, qtbot)
    assert (window.width(), window.height()) == DEFAULT_SIZE
    s = panel.settings
    fields: list[QWidget] = [s.bots, s.cars, s.builds, s.team_race, s.races, s.seed,
                             s.ruleset, s.laps, s.workers, s.live, s.live_races]
    buttons: list[QWidget] = [panel.run_button, panel.cancel_button, panel.par.button]
    hidden = [why for part in fields + buttons if (why := _whole_in_sight(part, panel))]
    assert not hidden, hidden
    assert window.view.height() >= BOARD_SHARE * window.height(), "the board keeps its share"
    for button in buttons:
        assert _drawn(window, button), f"{button.text()} is drawn on screen"

    panel.bots.setText("strong")
    panel.races.setValue(4)
    qtbot.mouseClick(panel.run_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not panel.running(), timeout=60_000)
    assert panel.report is not None, panel.status.text()
    _settle(qtbot)

    table = panel.corner_table
    assert table.rowCount() == len(panel.report["corners"]) >= CORNER_ROWS
    assert not table.horizontalScrollBar().isVisible(), "the rates need no side scrolling"
    viewport = _on_window(table.viewport())
    for row in range(CORNER_ROWS):
        cells = [table.visualRect(table.model().index(row, column))
                 for column in range(SINCE_PINNED)]
        on_window = _on_window(table.viewport(), cells[0].united(cells[-1]))
        assert viewport.contains(on_window), f"row {row} at {on_window}, table at {viewport}"
    assert not _whole_in_sight(table, panel)
    summary = panel.view
    assert not _whole_in_sight(summary, panel)
    assert summary.viewport().height() >= 3 * summary.fontMetrics().lineSpacing(), (
        "the summary's first lines show")
    assert window.view.height() >= BOARD_SHARE * window.height()
    tips = [table.horizontalHeaderItem(c).toolTip() for c in range(table.columnCount())]
    assert any(tip.startswith("Tyre WP") for tip in tips), "a short header's tooltip names it"


def test_problems_gives_the_board_its_height_back(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    window.resize(*DEFAULT_SIZE)
    assert window.open_path(MONACO)
    _settle(qtbot)
    at_rest = (window.problems_dock.height(), window.view.height())
    panel = _raise_test_drive(window, qtbot)
    assert window.testdrive_dock.height() > at_rest[0]
    assert not _whole_in_sight(panel.run_button, panel)

    qtbot.mouseClick(_tab(window, "Problems"), Qt.MouseButton.LeftButton,
                     pos=_tab_centre(window, "Problems"))
    _settle(qtbot)
    assert window.problems_dock.isVisible()
    assert (window.problems_dock.height(), window.view.height()) == at_rest


def _drag_strip_top(window, by: int) -> None:  # type: ignore[no-untyped-def]
    """Drag the line between the board and the bottom strip ``by`` pixels down, as the user
    does with the mouse."""
    dock = window.testdrive_dock
    top = _on_window(dock).top()
    board = _on_window(window.view).bottom()
    start = QPointF(dock.geometry().center().x(), (top + board) / 2)
    end = start + QPointF(0, by)
    for kind, at, buttons in (
        (QEvent.Type.MouseButtonPress, start, Qt.MouseButton.LeftButton),
        (QEvent.Type.MouseMove, end, Qt.MouseButton.LeftButton),
        (QEvent.Type.MouseButtonRelease, end, Qt.MouseButton.NoButton),
    ):
        event = QMouseEvent(kind, at, window.mapToGlobal(at), Qt.MouseButton.LeftButton,
                            buttons, Qt.KeyboardModifier.NoModifier)
        QApplication.sendEvent(window, event)
        QApplication.processEvents()  # the window moves the line on a timer of its own


def test_a_height_the_user_gives_the_test_drive_is_kept(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    _raise_test_drive(window, qtbot)
    fitted = window.testdrive_dock.height()
    _drag_strip_top(window, 60)
    _settle(qtbot)
    mine = window.testdrive_dock.height()
    assert mine < fitted - 30, "the drag made the strip lower"

    qtbot.mouseClick(_tab(window, "Problems"), Qt.MouseButton.LeftButton,
                     pos=_tab_centre(window, "Problems"))
    _settle(qtbot)
    assert window.problems_dock.height() < mine, "Problems is low again"
    qtbot.mouseClick(_tab(window, "Test drive"), Qt.MouseButton.LeftButton,
                     pos=_tab_centre(window, "Test drive"))
    _settle(qtbot)
    assert window.testdrive_dock.height() == mine, "the user's height, not the panel's wish"
