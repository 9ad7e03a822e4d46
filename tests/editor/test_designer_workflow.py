"""What a designer digitising a board sees: the heatmap's colours, the title's star, the problems
a half-made track raises, the board staying put, the Space tool picking spaces."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QColor

from editor.panels import testdrive as drive_panel
from editor.scene import style
from tests.corpus import ROOT


def _space_point(window, space_id: str) -> QPoint:  # type: ignore[no-untyped-def]
    item = window.scene.space_items[space_id]
    return window.view.mapFromScene(item.sceneBoundingRect().center())


def _checked(window) -> bool:  # type: ignore[no-untyped-def]
    """Whether the problems panel shows the report of the track as it is now."""
    return (
        window.validation.checked is window.document.track
        and window.problems.report is window.validation.report
    )


def _fill(window, space_id: str) -> QColor:  # type: ignore[no-untyped-def]
    return window.scene.space_items[space_id].brush().color()


@pytest.mark.usefixtures("compiled_kernel")
def test_the_heatmap_colours_the_spaces_it_counts(window, ring_file: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window.open_path(ring_file)
    panel = window.testdrive_dock.widget()
    assert isinstance(panel, drive_panel.TestDrivePanel)
    panel.bots.setText("random,cautious")
    panel.cars.setValue(3)
    panel.races.setValue(4)
    assert panel.start()
    qtbot.waitUntil(lambda: not panel.running(), timeout=60_000)
    panel.heat.setCurrentText("stops")
    counted = set(panel.heat_values("stops"))
    assert counted
    plain = {s.id: style.SPACE_FILL[s.kind.value] for s in window.document.track.spaces}
    for space_id, item in window.scene.space_items.items():
        tinted = _fill(window, space_id).rgba() != plain[space_id].rgba()
        assert tinted == (space_id in counted or item.finish), space_id
    hottest = max(counted, key=lambda s: panel.heat_values("stops")[s])
    assert _fill(window, hottest).red() == 255 and _fill(window, hottest).green() < 20
    panel.heat.setCurrentText("none")
    assert all(
        _fill(window, s).rgba() == plain[s].rgba()
        for s, item in window.scene.space_items.items()
        if not item.finish
    )


def test_leaving_a_field_unchanged_records_nothing(window, ring_file: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window.open_path(ring_file)
    inspector = window.inspector_dock.widget()
    name = inspector.fields["name"]
    name.setFocus()
    qtbot.keyClick(name, Qt.Key.Key_Tab)  # focus leaves the field: editingFinished
    name.editingFinished.emit()
    laps = inspector.fields["laps"]
    laps.setValue(laps.value())
    assert window.document.undo_stack.count() == 0
    assert not window.windowTitle().startswith("*") and not window.document.modified
    assert window.document.edit("Same track", lambda t: t.model_copy()) is False
    assert window.document.undo_stack.count() == 0



def test_the_space_tool_selects_the_space_clicked(window, ring_file: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window.open_path(ring_file)
    window.view.fit()
    window.choose_tool("Space")
    viewport = window.view.viewport()
    qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=_space_point(window, "2-10"))
    assert window.document.selection == {"2-10"}
    assert _fill(window, "2-10").rgba() == style.SELECTED_FILL.rgba()
    assert window.inspector_dock.widget().fields["kind"].currentText() == "track"
    qtbot.mouseClick(
        viewport,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.ShiftModifier,
        pos=_space_point(window, "2-11"),
    )
    assert window.document.selection == {"2-10", "2-11"}
    assert window.document.undo_stack.count() == 0, "selecting is not an edit"
    # On empty board the tool still draws a new space.
    corner = window.view.mapFromScene(window.document.track.board.width - 60, 40)
    for dx, dy in ((0, 0), (30, 0), (30, 30)):
        qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=corner + QPoint(dx, dy))
    qtbot.keyClick(window.view, Qt.Key.Key_Return)
    assert window.document.undo_stack.count() == 1
    assert len(window.document.selection) == 1 and "2-10" not in window.document.selection


def test_the_board_stays_put_when_a_tool_with_options_is_chosen(
    window, ring_file: Path, qtbot
) -> None:  # type: ignore[no-untyped-def]
    window.open_path(ring_file)
    qtbot.wait(50)
    landmark = window.scene.space_items["1-0"].sceneBoundingRect().center()
    before = window.view.mapToGlobal(window.view.mapFromScene(landmark))
    for name in ("Lanes", "Select", "Space", "Lanes", "Arrow"):
        window.choose_tool(name)
        qtbot.wait(20)
        after = window.view.mapToGlobal(window.view.mapFromScene(landmark))
        assert (after - before).manhattanLength() <= 1, name


def _half_made(tmp_path: Path) -> Path:
    """Two stretches of three lanes over a board picture, not joined up: a track being laid."""
    from PySide6.QtGui import QImage

    from editor.document import empty_track
    from editor.lanes import LaneSettings, add_stretch
    from trackformat.io import save_track

    picture = QImage(1200, 800, QImage.Format.Format_RGB32)
    picture.fill(QColor(90, 160, 90))
    picture.save(str(tmp_path / "board.png"))
    track = empty_track("Half made", 1200, 800, "board.png")
    settings = LaneSettings(lanes=3, spacing=40.0, spaces=(12,))
    track = add_stretch(track, [(100, 100), (900, 100)], settings)
    track = add_stretch(track, [(1000, 200), (1000, 700)], LaneSettings(3, 40.0, (10,)))
    path = tmp_path / "half.json"
    save_track(track, path)
    return path


def test_a_half_made_track_says_once_that_its_lap_is_open(
    window, tmp_path: Path, qtbot
) -> None:  # type: ignore[no-untyped-def]
    window.open_path(_half_made(tmp_path))
    qtbot.waitUntil(lambda: _checked(window), timeout=5000)
    rows = [window.problems.diagnostic_at(r) for r in range(window.problems.rows())]
    assert len(rows) <= 6
    loop = [d for d in rows if d.code == "REACH004"]
    assert len(loop) == 1 and loop[0].message.startswith("the lap is not closed yet")
    row = rows.index(loop[0])
    where = window.problems.proxy.index(row, 3).data()
    assert where == f"1-011, 2-011, 3-011, 1-021 and {len(loop[0].location.elements) - 4} more"
    messages = " ".join(d.message for d in rows)
    assert "Finish line tool" in messages and "Grid tool" in messages


def test_problem_markers_leave_the_board_picture_visible(
    window, tmp_path: Path, qtbot
) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtGui import QImage, QPainter

    from editor.scene.style import Layer

    window.open_path(_half_made(tmp_path))
    qtbot.waitUntil(lambda: _checked(window), timeout=5000)
    window.view.fit()

    def shot() -> QImage:
        image = QImage(window.view.viewport().size(), QImage.Format.Format_RGB32)
        image.fill(QColor(255, 255, 255))
        painter = QPainter(image)
        window.view.render(painter)
        painter.end()
        return image

    with_markers = shot()
    window.scene.set_layer_visible(Layer.PROBLEMS, False)
    without = shot()
    changed = sum(
        with_markers.pixel(x, y) != without.pixel(x, y)
        for x in range(0, with_markers.width(), 2)
        for y in range(0, with_markers.height(), 2)
    )
    total = (with_markers.width() // 2) * (with_markers.height() // 2)
    assert 0 < changed < total * 0.005, f"{changed} of {total} sampled pixels hidden by markers"


def test_the_board_keeps_most_of_the_window(window, ring_file: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window.open_path(ring_file)
    qtbot.wait(20)
    assert window.problems_dock.isVisible()
    assert window.problems_dock.height() <= window.height() * 0.22
    assert window.view.height() >= window.height() * 0.55
    hint = window.minimumSizeHint()
    assert hint.width() <= 1280 and hint.height() <= 700, "the window fits a 1366 x 768 screen"


def test_the_status_bar_shows_the_board_point_under_the_pointer(
    window, ring_file: Path, qtbot
) -> None:  # type: ignore[no-untyped-def]
    window.open_path(ring_file)
    window.view.fit()
    centre = window.scene.space_items["1-0"].space.centre
    qtbot.mouseMove(window.view.viewport(), window.view.mapFromScene(*centre))
    x, y = (float(v) for v in window.pointer_label.text().replace("x", "").split("y"))
    assert abs(x - centre[0]) <= 3 and abs(y - centre[1]) <= 3
    assert window.pointer_label.isVisible()


def test_the_help_menu_lists_every_tool_and_menu_shortcut(window) -> None:  # type: ignore[no-untyped-def]
    menus = {a.text().replace("&", ""): a.menu() for a in window.menuBar().actions()}
    assert "Help" in menus
    [entry] = [a for a in menus["Help"].actions() if a.text() == "Keyboard shortcuts"]
    entry.trigger()
    shown = window.last_help
    for tool in window.tools.values():
        assert f"<b>{tool.shortcut}</b></td><td>{tool.name}:" in shown
    assert "<b>F5</b></td><td>Check now" in shown
    assert "<b>Ctrl+Z</b></td><td>Undo" in shown
    assert "pan" in shown


def test_duplicate_copy_and_paste_add_spaces_as_one_step(window, ring_file: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window.open_path(ring_file)
    window.view.fit()
    before = len(window.scene.space_items)
    window.document.set_selection({"1-5", "1-6"})
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier)
    assert len(window.scene.space_items) == before + 2
    assert window.document.selection == {"1-5-copy-1", "1-6-copy-1"}
    assert window.document.undo_stack.count() == 1 and window.windowTitle().startswith("*")
    original = window.scene.space_items["1-5"].sceneBoundingRect()
    copy = window.scene.space_items["1-5-copy-1"].sceneBoundingRect()
    shift = copy.topLeft() - original.topLeft()
    assert abs(shift.x() - 20) < 0.01 and abs(shift.y() - 20) < 0.01
    assert _fill(window, "1-5-copy-1").rgba() == style.SELECTED_FILL.rgba()
    links = {(k.from_, k.to) for k in window.document.track.links}
    assert ("1-5-copy-1", "1-6-copy-1") in links

    window.document.set_selection({"2-9"})
    qtbot.keyClick(window.view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(window.view, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    assert window.document.selection == {"2-9-copy-1"}
    assert window.document.undo_stack.count() == 2
    window.document.undo_stack.undo()
    assert "2-9-copy-1" not in window.scene.space_items


def test_the_window_layout_and_last_folder_are_remembered(
    window, ring_file: Path, tmp_path: Path, qtbot, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtWidgets import QFileDialog

    from editor.mainwindow import MainWindow
    from editor.scene.style import Layer

    window.open_path(ring_file)
    window.layers_dock.hide()
    window.layers.shown[Layer.LINKS].setChecked(False)
    window.layers.locked[Layer.CORNERS].setChecked(True)
    window.layers.opacity.setValue(40)
    # As small as the window goes (the offscreen screen is smaller than the editor's default).
    window.resize(window.minimumSizeHint().width(), 700)
    qtbot.wait(20)
    size = (window.width(), window.height())
    window.close()

    again = MainWindow(window.settings, ask=False)
    qtbot.addWidget(again)
    again.show()
    qtbot.wait(20)
    assert not again.layers_dock.isVisible() and again.problems_dock.isVisible()
    assert (again.width(), again.height()) == size
    again.open_path(ring_file)
    assert not any(item.isVisible() for item in again.scene.layer_items[Layer.LINKS])
    assert all(item.isVisible() for item in again.scene.layer_items[Layer.SPACES])
    assert again.layers.locked[Layer.CORNERS].isChecked()
    assert again.scene.scan_opacity == 0.4
    asked: list[str] = []
    monkeypatch.setattr(
        QFileDialog, "getOpenFileName", lambda *args: (asked.append(args[2]), ("", ""))[1]
    )
    [entry] = [a for a in again.menuBar().actions()[0].menu().actions() if a.text() == "Open..."]
    entry.trigger()
    assert asked == [str(ring_file.resolve().parent)]


COPY_THEN_QUIT = """
import sys
from pathlib import Path
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication
app = QApplication([])
from editor import clipboard
from editor.mainwindow import MainWindow
window = MainWindow(QSettings(sys.argv[2], QSettings.Format.IniFormat), ask=False)
window.open_path(Path(sys.argv[1]))
window.document.set_selection({"1-5", "1-6"})
assert clipboard.copy(window.document, window.show_status)
assert clipboard.paste(window.document, window.show_status)
window.close()
app.quit()
"""


def test_the_editor_exits_cleanly_after_a_copy(ring_file: Path, tmp_path: Path) -> None:
    """The clipboard outlives the window; what the editor puts on it must not crash the
    program as it exits (a QMimeData made in Python once did, with a segmentation fault)."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", COPY_THEN_QUIT, str(ring_file), str(tmp_path / "s.ini")],
        capture_output=True, text=True, env=env, timeout=120, check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
