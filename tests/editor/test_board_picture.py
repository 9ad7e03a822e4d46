"""A board picture under the track, driven through the window: set, align, save, relink, lock."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QColor, QImage

from editor.placement import placed_bounds
from editor.scene.style import Layer
from editor.tools.align_tool import BY_HAND, MOVE_PICTURE, MOVE_TRACK
from trackformat.io import load_track


def _picture(path: Path, width: int, height: int) -> Path:
    """A picture with a red dot at a known place: a quarter across and a quarter down."""
    image = QImage(width, height, QImage.Format.Format_RGB32)
    image.fill(QColor(40, 120, 40))
    for dx in range(-3, 4):
        for dy in range(-3, 4):
            image.setPixelColor(width // 4 + dx, height // 4 + dy, QColor(255, 0, 0))
    path.parent.mkdir(parents=True, exist_ok=True)
    assert image.save(str(path))
    return path


def _click(window, qtbot, board_point: tuple[float, float]) -> None:  # type: ignore[no-untyped-def]
    where = window.view.mapFromScene(QPointF(*board_point))
    qtbot.mouseClick(window.view.viewport(), Qt.MouseButton.LeftButton, pos=where)


def _align_tool(window, ring_file: Path, tmp_path: Path):  # type: ignore[no-untyped-def]
    """The Align tool with its options shown, on the ring under a 1200 x 1200 picture laid
    pixel for pixel and the whole board in view."""
    window.open_path(ring_file)
    window.set_board_picture(_picture(tmp_path / "board.png", 1200, 1200))
    window.view.fit()
    window.choose_tool("Align")
    tool = window.view.tool
    tool.options()
    return tool


def _scan_pixel_on_screen(window, x: float, y: float) -> QColor:  # type: ignore[no-untyped-def]
    """The colour the window shows at the board point where picture pixel (x, y) is drawn."""
    scene_point = window.scene.scan_item.mapToScene(QPointF(x, y))
    shot = window.view.viewport().grab().toImage()
    at: QPoint = window.view.mapFromScene(scene_point)
    return shot.pixelColor(at)


def test_a_smaller_picture_is_scaled_to_the_board_and_that_is_said(
    window, ring_file: Path, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    window.open_path(ring_file)  # a 1200 x 1200 board
    before = window.document.track.spaces
    picture = _picture(tmp_path / "scans" / "half.png", 600, 600)
    assert window.set_board_picture(picture)
    track = window.document.track
    assert track.spaces is before, "setting a picture never moves the track"
    assert track.board.image == "scans/half.png"
    assert track.board.placement is not None
    assert track.board.placement.apply(600, 600) == pytest.approx((1200, 1200))
    status = window.status_label.text()
    assert "600 x 600 px" in status and "1200 x 1200 px" in status and "scaled by 2" in status
    # The scene draws the picture through the placement: its far corner on the board's.
    corner = window.scene.scan_item.mapToScene(QPointF(600, 600))
    assert (corner.x(), corner.y()) == pytest.approx((1200, 1200))
    assert window.scene.board_rect().width() == pytest.approx(1200)
    window.document.undo_stack.undo()
    assert window.document.track.board.image is None and window.scene.scan_item is None


def test_the_board_can_take_the_pictures_size_instead(
    window, ring_file: Path, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    window.open_path(ring_file)
    window.picture_size_answer = "board"
    assert window.set_board_picture(_picture(tmp_path / "half.png", 600, 600))
    track = window.document.track
    assert (track.board.width, track.board.height, track.board.placement) == (600, 600, None)
    assert "board and the track are scaled" in window.status_label.text()


def test_align_moves_the_picture_onto_the_track_and_the_file_keeps_it(
    window, ring_file: Path, tmp_path: Path, qtbot
) -> None:  # type: ignore[no-untyped-def]
    window.open_path(ring_file)
    picture = _picture(tmp_path / "board.png", 1200, 1200)
    assert window.set_board_picture(picture)
    assert window.document.track.board.placement is None, "same size: pixel for pixel"
    window.view.fit()
    window.choose_tool("Align")
    tool = window.view.tool
    assert window.options_area.widget() is tool.options()
    tool.mode_box.setCurrentText(MOVE_PICTURE)
    assert "point of the board picture" in window.status_label.text()
    # The picture is shifted by (+100, +50) and a tenth too small: its pixel p belongs at
    # (p - (100, 50)) * 1.1 on the track.
    spaces = window.document.track.spaces
    wanted = [(100.0, 100.0), (1000.0, 900.0)]
    for x, y in wanted:
        _click(window, qtbot, (x, y))  # a point of the picture (placed pixel for pixel now)
        _click(window, qtbot, ((x - 100) * 1.1, (y - 50) * 1.1))  # where it belongs
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key.Key_Return)
    placement = window.document.track.board.placement
    assert placement is not None
    assert window.document.track.spaces is spaces, "moving the picture never moves the track"
    x, y = placement.apply(600, 600)
    # Clicks land on whole screen pixels: a pixel of the view is about 1.5 board px here.
    assert (x, y) == pytest.approx(((600 - 100) * 1.1, (600 - 50) * 1.1), abs=4)
    assert "cannot be checked" in window.status_label.text()
    assert window.document.undo_stack.undoText() == "Move picture onto track"
    # The red dot of the picture is drawn where the placement puts it.
    assert _scan_pixel_on_screen(window, 300, 300).red() > 200
    assert window.save()
    assert load_track(ring_file).board.placement == placement
    window.open_path(ring_file)
    corner = window.scene.scan_item.mapToScene(QPointF(600, 600))
    assert (corner.x(), corner.y()) == pytest.approx(placement.apply(600, 600))
    # "Fit board" takes in the picture where it lies now.
    left, top, right, bottom = placed_bounds(placement, (1200, 1200))
    rect = window.scene.board_rect()
    assert (rect.left(), rect.top()) == pytest.approx((min(0, left), min(0, top)), abs=0.01)
    assert (rect.right(), rect.bottom()) == pytest.approx((max(1200, right), max(1200, bottom)),
                                                          abs=0.01)


def test_more_pairs_than_needed_report_the_residual(
    window, ring_file: Path, tmp_path: Path, qtbot
) -> None:  # type: ignore[no-untyped-def]
    tool = _align_tool(window, ring_file, tmp_path)
    tool.mode_box.setCurrentText(MOVE_TRACK)
    assert not tool.shape_box.isVisibleTo(tool.options()), "only for moving the picture"
    tool.mode_box.setCurrentText(MOVE_PICTURE)
    assert tool.shape_box.isVisibleTo(tool.options())
    tool.shape_box.setChecked(True)
    for x, y in [(100.0, 100.0), (1000.0, 900.0), (900.0, 150.0)]:
        _click(window, qtbot, (x, y))
        _click(window, qtbot, (x + 20, y + 10))
    assert tool.commit()
    assert "px off" in window.status_label.text() and "similarity" in window.status_label.text()


def test_a_locked_picture_is_not_moved(
    window, ring_file: Path, tmp_path: Path, qtbot
) -> None:  # type: ignore[no-untyped-def]
    window.open_path(ring_file)
    window.set_board_picture(_picture(tmp_path / "board.png", 1200, 1200))
    window.layers.locked[Layer.SCAN].setChecked(True)
    window.view.fit()
    window.choose_tool("Align")
    tool = window.view.tool
    tool.options()
    tool.mode_box.setCurrentText(MOVE_PICTURE)
    _click(window, qtbot, (100, 100))
    assert "locked" in window.status_label.text()
    assert tool.pending is None
    tool.mode_box.setCurrentText(BY_HAND)
    where = window.view.mapFromScene(QPointF(300, 300))
    qtbot.mousePress(window.view.viewport(), Qt.MouseButton.LeftButton, pos=where)
    qtbot.mouseMove(window.view.viewport(), where + QPoint(50, 0))
    qtbot.mouseRelease(window.view.viewport(), Qt.MouseButton.LeftButton, pos=where + QPoint(50, 0))
    assert window.document.track.board.placement is None


def test_relinking_keeps_the_placement_and_follows_a_rescan(
    window, ring_file: Path, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    window.open_path(ring_file)
    window.set_board_picture(_picture(tmp_path / "old.png", 600, 600))
    placed = window.document.track.board.placement
    assert placed is not None
    # The same picture moved: the placement is kept as it is.
    moved = tmp_path / "moved" / "old.png"
    moved.parent.mkdir()
    moved.write_bytes((tmp_path / "old.png").read_bytes())
    assert window.relink_scan(moved)
    assert window.document.track.board.placement == placed
    assert window.document.track.board.image == "moved/old.png"
    # A rescan at twice the resolution: it covers the board where the old one did.
    assert window.relink_scan(_picture(tmp_path / "rescan.png", 1200, 1200))
    again = window.document.track.board.placement
    assert again is not None and again.apply(1200, 1200) == pytest.approx(placed.apply(600, 600))
    assert "scaled to lie where the old one did" in window.status_label.text()


def test_relinking_a_missing_picture_of_another_size_scales_it_to_the_board(
    window, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    from tests.factories import ring
    from trackformat.io import save_track

    path = tmp_path / "track.json"
    track = ring()
    save_track(
        track.model_copy(update={"board": track.board.model_copy(update={"image": "gone.png"})}),
        path,
    )
    window.open_path(path)
    assert window.relink_scan(_picture(tmp_path / "small.png", 800, 800))
    placement = window.document.track.board.placement
    assert placement is not None and placement.apply(800, 800) == pytest.approx((1200, 1200))
    assert "800 x 800 px" in window.status_label.text()


def test_the_picture_is_moved_and_turned_by_hand_one_step_per_drag(
    window, ring_file: Path, tmp_path: Path, qtbot
) -> None:  # type: ignore[no-untyped-def]
    tool = _align_tool(window, ring_file, tmp_path)
    tool.mode_box.setCurrentText(BY_HAND)
    viewport = window.view.viewport()
    steps_before = window.document.undo_stack.count()
    start = window.view.mapFromScene(QPointF(300, 300))
    qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, pos=start)
    for step in range(1, 6):
        qtbot.mouseMove(viewport, start + QPoint(8 * step, 4 * step))
    qtbot.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=start + QPoint(40, 20))
    placed = window.document.track.board.placement
    assert placed is not None
    scale = 1 / window.view.scale_factor()  # board px per screen px
    assert placed.apply(0, 0) == pytest.approx((40 * scale, 20 * scale), abs=scale)
    assert window.document.undo_stack.count() == steps_before + 1
    assert window.document.undo_stack.undoText() == "Move picture by hand"
    corner = window.scene.scan_item.mapToScene(QPointF(0, 0))
    assert (corner.x(), corner.y()) == pytest.approx(placed.apply(0, 0))
    # Shift turns the picture about the middle of the view.
    middle = viewport.rect().center()
    qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ShiftModifier,
                     middle + QPoint(100, 0))
    qtbot.mouseMove(viewport, middle + QPoint(100, 100))
    qtbot.mouseRelease(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ShiftModifier,
                       middle + QPoint(0, 100))
    turned = window.document.track.board.placement
    assert turned is not None
    (a, b, _), (d, e, _) = turned.matrix
    assert (a, b, d, e) == pytest.approx((0, -1, 1, 0), abs=0.02), "a quarter turn clockwise"
    assert window.document.undo_stack.undoText() == "Turn picture by hand"
    window.document.undo_stack.undo()
    assert window.document.track.board.placement == placed
