"""The user's hands on the editor: mouse and keys sent to the real window's board and fields,
and what the user reads back (where a space is drawn, the rows the problems panel shows).

Kept apart from the circuit the layout test lays out (:mod:`tests.editor.new_circuit`), so that
another test or script can drive the editor the same way.
"""

from __future__ import annotations

import time

from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QKeySequence, QMouseEvent, QWheelEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractSpinBox, QApplication, QLineEdit, QWidget

Point = tuple[float, float]

LEFT = Qt.MouseButton.LeftButton
MIDDLE = Qt.MouseButton.MiddleButton
NONE = Qt.KeyboardModifier.NoModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier
CTRL = Qt.KeyboardModifier.ControlModifier


# The user's hands ---------------------------------------------------------------------------


class Hand:
    """The mouse and keys on the window's board: every event goes to the real view."""

    def __init__(self, window, pause_ms: int = 0) -> None:  # type: ignore[no-untyped-def]
        self.window = window
        self.pause_ms = pause_ms
        """Time let go by after each click or key (0 in the test; a little in the script, so
        that what the screen shows can be seen)."""
        self.shot_seconds = 0.0
        """Time spent on the screenshots (and waiting for the check before each): not the
        layout's."""
        self.actions: list[str] = []
        """What the user did, one entry per click, drag, wheel turn, key or field typed in;
        a click says what the status bar's snap field showed as the button went down."""

    @property
    def viewport(self) -> QWidget:
        return self.window.view.viewport()  # type: ignore[no-any-return]

    def screen(self, point: Point) -> QPoint:
        return self.window.view.mapFromScene(QPointF(*point))  # type: ignore[no-any-return]

    def _settle(self) -> None:
        QApplication.processEvents()
        if self.pause_ms:
            QTest.qWait(self.pause_ms)

    def _move(self, at: QPoint, buttons: Qt.MouseButton = Qt.MouseButton.NoButton) -> None:
        """The pointer moved to ``at`` over the board (sent to the viewport itself)."""
        viewport = self.viewport
        QApplication.sendEvent(viewport, QMouseEvent(
            QEvent.Type.MouseMove, QPointF(at), QPointF(viewport.mapToGlobal(at)),
            Qt.MouseButton.NoButton, buttons, NONE,
        ))

    def hover(self, point: Point) -> None:
        self._move(self.screen(point))

    def click(self, point: Point, keys: Qt.KeyboardModifier = NONE) -> None:
        at = self.screen(point)
        self._move(at)
        snap = self.window.snap_label.text()
        self.actions.append(f"click {point[0]:.0f},{point[1]:.0f}" + (f" [{snap}]" if snap else ""))
        QTest.mouseClick(self.viewport, LEFT, keys, at)
        self._settle()

    def drag(self, start: Point, end: Point, steps: int = 12) -> None:
        """Press on ``start``, move across the board to ``end`` and let go there."""
        a, b = self.screen(start), self.screen(end)
        self.actions.append(f"drag {start[0]:.0f},{start[1]:.0f} to {end[0]:.0f},{end[1]:.0f}")
        self._move(a)
        QTest.mousePress(self.viewport, LEFT, NONE, a)
        for step in range(1, steps + 1):
            self._move(a + (b - a) * step / steps, LEFT)
        QTest.mouseRelease(self.viewport, LEFT, NONE, b)
        self._settle()

    def pan(self, start: QPoint, end: QPoint) -> None:
        """Drag the board with the middle button, from screen point ``start`` to ``end``."""
        self.actions.append("pan")
        QTest.mousePress(self.viewport, MIDDLE, NONE, start)
        for step in range(1, 9):
            self._move(start + (end - start) * step / 8, MIDDLE)
        QTest.mouseRelease(self.viewport, MIDDLE, NONE, end)
        self._settle()

    def wheel(self, point: Point, notches: int) -> None:
        """Turn the mouse wheel over ``point``: zooms in (or out)."""
        at = self.screen(point)
        self.actions.append(f"wheel {notches:+d}")
        self._move(at)
        event = QWheelEvent(
            QPointF(at), QPointF(self.viewport.mapToGlobal(at)), QPoint(0, 0),
            QPoint(0, 120 * notches), Qt.MouseButton.NoButton, NONE,
            Qt.ScrollPhase.NoScrollPhase, False,
        )
        QApplication.sendEvent(self.viewport, event)
        self._settle()

    def key(self, key: Qt.Key, keys: Qt.KeyboardModifier = NONE) -> None:
        """A key on the board (a tool's shortcut, Enter, a menu shortcut). The window is the
        active one and the board has the keyboard, as after a click on it: a window manager
        gives the window back its focus when a dialog closes, which the offscreen platform (or
        an X server with no window manager) does not."""
        window = self.window
        if QApplication.activeWindow() is not window:
            window.activateWindow()
            QApplication.processEvents()
        window.view.setFocus()
        self.actions.append(f"key {QKeySequence(keys.value | key.value).toString()}")
        QTest.keyClick(window.view, key, keys)
        self._settle()

    def type_into(self, entry: QWidget, text: str) -> None:
        """Click into a field of a panel, select what it holds, type ``text`` and press Enter."""
        target = entry.lineEdit() if isinstance(entry, QAbstractSpinBox) else entry
        assert isinstance(target, QLineEdit)
        self.actions.append(f"type {text}")
        QTest.mouseClick(target, LEFT, NONE, target.rect().center())
        QTest.keyClick(target, Qt.Key.Key_A, CTRL)
        QTest.keyClicks(target, text)
        QTest.keyClick(target, Qt.Key.Key_Return)
        self._settle()

    def tick(self, box: QWidget) -> None:
        self.actions.append(f"tick {box.text()}")  # type: ignore[attr-defined]
        QTest.mouseClick(box, LEFT, NONE, QPoint(8, box.height() // 2))
        self._settle()


# The board, as the user finds things on it ---------------------------------------------------


def centre_of(window, space_id: str) -> Point:  # type: ignore[no-untyped-def]
    """Where a space is drawn on the board."""
    centre = window.scene.space_items[space_id].sceneBoundingRect().center()
    return (centre.x(), centre.y())


def checked(window) -> bool:  # type: ignore[no-untyped-def]
    """Whether the problems panel shows the report of the track as it is now."""
    return bool(
        window.validation.checked is window.document.track
        and window.problems.report is window.validation.report
        and not window.validation.busy()
    )


def wait_for_check(window, timeout: float = 20.0) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not checked(window):
        assert time.monotonic() < deadline, "the problems panel never caught up with the track"
        QTest.qWait(20)


def shown_problems(window) -> list[tuple[str, str, str]]:  # type: ignore[no-untyped-def]
    """The rows the problems panel shows: severity, code, message."""
    panel = window.problems
    rows = []
    for row in range(panel.proxy.rowCount()):
        if panel.view.isRowHidden(row, panel.view.rootIndex()):
            continue
        rows.append(tuple(panel.proxy.index(row, column).data() for column in range(3)))
    return rows  # type: ignore[return-value]
