"""Snapping and the minimap, driven with the mouse on the real window."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from editor.minimap import FRAME_COLOUR
from editor.tools.align_tool import MOVE_TRACK


def _screen(window, x: float, y: float) -> QPoint:  # type: ignore[no-untyped-def]
    return window.view.mapFromScene(QPointF(x, y))


def _hover(window, qtbot, at: QPoint) -> None:  # type: ignore[no-untyped-def]
    """The pointer moved to ``at`` with no button held (sent to the board itself: QTest's moves
    can go to a window of an earlier test still thought to hold the button)."""
    viewport = window.view.viewport()
    move = QMouseEvent(
        QEvent.Type.MouseMove, QPointF(at), QPointF(viewport.mapToGlobal(at)),
        Qt.MouseButton.NoButton, Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier,
    )
    QApplication.sendEvent(viewport, move)


def _click(window, qtbot, at: QPoint) -> None:  # type: ignore[no-untyped-def]
    _hover(window, qtbot, at)
    qtbot.mouseClick(window.view.viewport(), Qt.MouseButton.LeftButton, pos=at)


def _draw_space(window, qtbot, first: QPoint) -> list[tuple[float, float]]:  # type: ignore[no-untyped-def]
    """Draw a triangle from ``first`` outward with the Space tool; the new space's outline."""
    window.choose_tool("Space")
    before = {s.id for s in window.document.track.spaces}
    for at in (first, first + QPoint(0, -60), first + QPoint(-60, -30)):
        _click(window, qtbot, at)
    qtbot.keyClick(window.view, Qt.Key.Key_Return)
    made = [s for s in window.document.track.spaces if s.id not in before]
    assert len(made) == 1
    return [tuple(p) for p in made[0].polygon]


def _outer_corner(window) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    """A corner of the ring's outer edge, far from the board's middle."""
    middle = (600.0, 600.0)
    points = [p for s in window.document.track.spaces for p in s.polygon]
    return max(points, key=lambda p: (p[0] - middle[0]) ** 2 + (p[1] - middle[1]) ** 2)


def test_a_new_space_snaps_to_the_corner_of_a_space_beside_it(
    window, ring_file: Path, qtbot
) -> None:  # type: ignore[no-untyped-def]
    window.open_path(ring_file)
    window.view.fit()
    corner = _outer_corner(window)
    near = _screen(window, *corner) + QPoint(4, -3)  # a few pixels off, as a hand clicks
    window.choose_tool("Space")
    _hover(window, qtbot, near)
    assert window.snap_label.text().startswith("snap: corner of ")
    assert window.scene.snapper.shown_at == QPointF(*corner)
    outline = _draw_space(window, qtbot, near)
    assert outline[0] == pytest.approx(corner, abs=1e-6)


def test_snapping_turned_off_in_the_view_menu_leaves_the_click_where_it_was(
    window, ring_file: Path, qtbot
) -> None:  # type: ignore[no-untyped-def]
    window.open_path(ring_file)
    window.view.fit()
    corner = _outer_corner(window)
    near = _screen(window, *corner) + QPoint(4, -3)
    window.snap_action.trigger()
    assert window.snap_label.text() == "snap off (Shift+S)"
    assert window.settings.value("board/snap") in (False, "false")
    outline = _draw_space(window, qtbot, near)
    clicked = window.view.mapToScene(near)
    assert outline[0] == pytest.approx((clicked.x(), clicked.y()), abs=0.01)
    assert outline[0] != pytest.approx(corner, abs=0.5)
    assert window.scene.snapper.shown_at is None


@pytest.mark.parametrize("stagger", ["", "0.5"])
def test_the_next_stretch_of_lanes_starts_exactly_at_the_middle_of_the_road_laid(
    window, qtbot, stagger: str
) -> None:  # type: ignore[no-untyped-def]
    window.view.fit()
    window.choose_tool("Lanes")
    tool = window.view.tool
    tool.length_box.setValue(48.0)
    tool.stagger_edit.setText(stagger)  # staggered, the middle lane ends half a space ahead
    tool.points = [(300.0, 700.0), (900.0, 700.0)]
    assert tool.commit()
    end = _screen(window, 900.0, 700.0) + QPoint(2, -1)
    _hover(window, qtbot, end)
    assert window.snap_label.text() == "snap: middle of the road at the end of lanes 1, 2, 3"
    _click(window, qtbot, end)
    assert tool.points[0] == pytest.approx((900.0, 700.0), abs=0.01)


def test_the_align_tool_snaps_its_track_points_not_its_picture_points(
    window, ring_file: Path, qtbot
) -> None:  # type: ignore[no-untyped-def]
    window.open_path(ring_file)
    window.view.fit()
    window.choose_tool("Align")
    tool = window.view.tool
    tool.set_mode(MOVE_TRACK)
    corner = _outer_corner(window)
    near = _screen(window, *corner) + QPoint(3, 3)
    _click(window, qtbot, near)  # a point of the track: snapped
    assert tool.pending == pytest.approx(corner, abs=1e-6)
    _click(window, qtbot, near)  # where it lies on the picture: as clicked
    clicked = window.view.mapToScene(near)
    assert tool.pairs[0][1] == pytest.approx((clicked.x(), clicked.y()), abs=1e-6)


def test_the_minimap_shows_the_visible_area_and_a_click_moves_the_view_there(
    window, ring_file: Path, qtbot
) -> None:  # type: ignore[no-untyped-def]
    window.open_path(ring_file)
    window.view.fit()
    minimap = window.minimap
    assert not minimap.isVisible(), "the whole board in view: no minimap over it"
    window.view.zoom(8)  # well in: the view shows a small part of the board
    assert minimap.isVisible()
    target = QPointF(250.0, 950.0)
    _at = minimap.board_to_map().map(target).toPoint()
    qtbot.mouseClick(minimap, Qt.MouseButton.LeftButton, pos=_at)
    centre = window.view.mapToScene(window.view.viewport().rect().center())
    assert abs(centre.x() - target.x()) < 5 and abs(centre.y() - target.y()) < 5
    # The frame round the visible area is drawn where the view now is.
    qtbot.wait(50)
    picture = minimap.grab().toImage()
    frame = minimap.board_to_map().mapRect(minimap.visible_area())
    left_edge = QPoint(int(frame.left()) + 1, int(frame.center().y()))
    assert picture.pixelColor(left_edge) == FRAME_COLOUR
    assert picture.pixelColor(frame.center().toPoint()) != FRAME_COLOUR


def test_the_minimap_is_hidden_from_the_view_menu_and_stays_hidden(
    window, ring_file: Path, qtbot, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtCore import QSettings

    from editor.mainwindow import MainWindow

    window.open_path(ring_file)
    window.view.zoom(8)
    assert window.minimap.isVisible()
    window.activateWindow()
    window.view.setFocus()
    QTest.keyClick(window.view, Qt.Key.Key_M)  # the View menu's key, pressed over the board
    assert not window.minimap.isVisible()
    window.settings.sync()
    again = MainWindow(
        QSettings(window.settings.fileName(), QSettings.Format.IniFormat), ask=False
    )
    qtbot.addWidget(again)
    again.show()
    again.open_path(ring_file)
    again.view.zoom(8)
    assert not again.minimap.isVisible() and not again.minimap_action.isChecked()


def _drag_move(window, at: QPoint) -> None:  # type: ignore[no-untyped-def]
    viewport = window.view.viewport()
    move = QMouseEvent(
        QEvent.Type.MouseMove, QPointF(at), QPointF(viewport.mapToGlobal(at)),
        Qt.MouseButton.NoButton, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
    )
    QApplication.sendEvent(viewport, move)


def test_a_dragged_corner_moves_freely_off_its_place_and_snaps_onto_another(
    window, ring_file: Path, qtbot
) -> None:  # type: ignore[no-untyped-def]
    window.open_path(ring_file)
    window.view.fit()
    window.view.zoom(4)
    space = next(s for s in window.document.track.spaces if s.id == "1-10")
    window.view.centerOn(QPointF(*space.centre))
    window.choose_tool("Space")
    window.document.set_selection({"1-10"})
    start = _screen(window, *space.polygon[0])
    viewport = window.view.viewport()
    qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, pos=start)
    _drag_move(window, start + QPoint(4, 0))  # a small nudge: not pulled back onto its place
    moved = next(s for s in window.document.track.spaces if s.id == "1-10").polygon[0]
    wanted = window.view.mapToScene(start + QPoint(4, 0))
    assert moved == pytest.approx((wanted.x(), wanted.y()), abs=0.01)
    # Near a corner of another space, it lands on it.
    others = [
        p for s in window.document.track.spaces if s.id != "1-10" for p in s.polygon
        if p != space.polygon[0]
    ]
    target = min(others, key=lambda p: (p[0] - moved[0]) ** 2 + (p[1] - moved[1]) ** 2)
    near = _screen(window, *target) + QPoint(3, 2)
    _drag_move(window, near)
    qtbot.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=near)
    final = next(s for s in window.document.track.spaces if s.id == "1-10").polygon[0]
    assert final == pytest.approx(target, abs=0.01)
    assert window.document.undo_stack.count() == 1, "the drag is one step"


def test_a_corner_dragged_on_monaco_builds_the_snap_points_once_and_still_snaps(
    window, qtbot, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    from editor.scene import snap

    root = Path(__file__).resolve().parents[2]
    assert window.open_path(root / "tracks" / "monaco.json")
    track = window.document.track
    space = track.spaces[len(track.spaces) // 2]
    window.view.resetTransform()
    window.view.scale(3.0, 3.0)
    window.view.centerOn(QPointF(*space.centre))
    window.choose_tool("Space")
    window.document.set_selection({space.id})  # its corners can be dragged
    builds: list[int] = []
    original = snap.snap_targets

    def counted(track):  # type: ignore[no-untyped-def]
        builds.append(len(track.spaces))
        return original(track)

    monkeypatch.setattr(snap, "snap_targets", counted)
    start = _screen(window, *space.polygon[0])
    viewport = window.view.viewport()
    qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, pos=start)
    for step in range(1, 21):
        _drag_move(window, start + QPoint(step, step // 2))
    assert window.document.undo_stack.count() == 1, "the corner is being dragged"
    assert len(builds) <= 1, f"the snap points were built {len(builds)} times in one drag"
    # The points built once still catch a corner of another space.
    others = [p for s in window.document.track.spaces if s.id != space.id for p in s.polygon
              if p != space.polygon[0]]
    moved = next(s for s in window.document.track.spaces if s.id == space.id).polygon[0]
    target = min(others, key=lambda p: (p[0] - moved[0]) ** 2 + (p[1] - moved[1]) ** 2)
    near = _screen(window, *target) + QPoint(2, 1)
    _drag_move(window, near)
    qtbot.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=near)
    final = next(s for s in window.document.track.spaces if s.id == space.id).polygon[0]
    assert final == pytest.approx(target, abs=0.01)
    assert window.document.undo_stack.count() == 1
    # Once the drag is over the reshaped space's corners are points to snap to again.
    builds.clear()
    window.scene.snapper.snap(QPointF(*final))
    assert len(builds) == 1
