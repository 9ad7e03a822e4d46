"""The board view never zooms out past "fit the board" (the wheel, the keys, a problem naming
the whole lap) nor in past a board pixel 16 screen pixels wide; and a fitted board stays fitted,
with no minimap over it, as the window is resized."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QPointF, QRectF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication

from editor.view import MAX_SCALE
from tests.factories import edit, ring
from trackformat.io import save_track

SLACK = 3.0
"""Screen pixels a fit may leave round the board (Qt's fitInView leaves 2)."""


def _wheel(window, notches: int) -> None:  # type: ignore[no-untyped-def]
    """Turn the mouse wheel over the middle of the board, one notch at a time."""
    viewport = window.view.viewport()
    where = QPointF(viewport.rect().center())
    for _ in range(abs(notches)):
        event = QWheelEvent(
            where, QPointF(viewport.mapToGlobal(where.toPoint())), QPoint(0, 0),
            QPoint(0, 120 if notches > 0 else -120), Qt.MouseButton.NoButton,
            Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False,
        )
        QApplication.sendEvent(viewport, event)


def _shown(window) -> QRectF:  # type: ignore[no-untyped-def]
    """The part of the board the view shows, in board pixels."""
    view = window.view
    return view.mapToScene(view.viewport().rect()).boundingRect()


def _board_on_screen(window) -> QRectF:  # type: ignore[no-untyped-def]
    view = window.view
    return view.mapFromScene(window.scene.board_rect()).boundingRect().toRectF()


def _fitted(window) -> bool:  # type: ignore[no-untyped-def]
    """Whether the whole board is in view and fills it from edge to edge one way at least:
    what "fit the board" shows, neither less of the board nor a smaller board."""
    board, viewport = _board_on_screen(window), window.view.viewport().rect()
    inside = QRectF(viewport).adjusted(-1, -1, 1, 1).contains(board)
    fills = (board.width() >= viewport.width() - 2 * SLACK
             or board.height() >= viewport.height() - 2 * SLACK)
    return inside and fills


def test_the_wheel_zooms_out_as_far_as_the_whole_board_and_no_further(
    window, ring_file: Path
) -> None:  # type: ignore[no-untyped-def]
    window.open_path(ring_file)
    window.view.fit()
    _wheel(window, 4)
    assert not _fitted(window), "zoomed in: part of the board is out of view"
    _wheel(window, -30)
    assert _fitted(window), (_board_on_screen(window), window.view.viewport().rect())
    board, shown = window.scene.board_rect(), _shown(window)
    assert shown.width() <= board.width() * 1.01 or shown.height() <= board.height() * 1.01
    assert not window.minimap.isVisible(), "the whole board in view: no minimap over it"
    window.view.zoom(-5)  # View > Zoom out (Ctrl+-) stops there too
    assert _fitted(window)


def test_the_wheel_zooms_in_no_closer_than_a_board_pixel_16_screen_pixels_wide(
    window, ring_file: Path
) -> None:  # type: ignore[no-untyped-def]
    window.open_path(ring_file)
    window.view.fit()
    _wheel(window, 60)
    assert MAX_SCALE == 16.0
    assert window.view.scale_factor() == pytest.approx(MAX_SCALE)
    shown, viewport = _shown(window), window.view.viewport().rect()
    assert shown.width() >= viewport.width() / 16.0 - 1, "a board pixel 16 screen pixels wide"


def test_a_problem_naming_the_whole_lap_shows_the_board_fitted(
    window, tmp_path: Path, qtbot
) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "no-corners.json"
    save_track(edit(ring(), lambda d: d.update(corners=[])), path)  # PATH004: the whole lap
    window.open_path(path)
    qtbot.waitUntil(lambda: window.problems.report is not None
                    and "PATH004" in window.problems.report.codes(), timeout=10_000)
    window.view.fit()
    row = next(r for r in range(window.problems.rows())
               if window.problems.diagnostic_at(r).code == "PATH004")
    assert len(window.problems.diagnostic_at(row).location.elements) > 40
    window.problems.view.clicked.emit(window.problems.proxy.index(row, 2))
    assert _fitted(window), (_board_on_screen(window), window.view.viewport().rect())
    # Zoomed in on one corner first, the same click zooms out to the whole board: no further.
    window.view.fit()
    _wheel(window, 8)
    window.problems.view.clicked.emit(window.problems.proxy.index(row, 2))
    assert _fitted(window)


def test_a_fitted_board_stays_fitted_as_the_window_is_resized(
    window, ring_file: Path, qtbot
) -> None:  # type: ignore[no-untyped-def]
    window.open_path(ring_file)
    window.resize(1400, 900)
    window.view.fit()
    assert _fitted(window)
    for size in ((1250, 720), (1600, 1000), (1300, 760)):
        window.resize(*size)
        qtbot.waitUntil(lambda s=size: window.size().width() == s[0], timeout=2000)
        assert _fitted(window), size
        assert not window.minimap.isVisible(), f"minimap over the fitted board at {size}"
    # Once the designer zooms, a resize keeps their zoom and what they look at.
    _wheel(window, 3)
    scale = window.view.scale_factor()
    window.resize(1300, 850)
    qtbot.waitUntil(lambda: window.size().width() == 1300, timeout=2000)
    assert window.view.scale_factor() == scale
