"""The Align tool moves the picture unless the designer asks for the track: someone checking a
shipped track against its picture presses L and clicks pairs, and the track file's spaces stay
exactly as they were; the status bar always says which mode is on, and T changes it."""

from __future__ import annotations

import shutil
from pathlib import Path

from PySide6.QtCore import QPointF, Qt

from editor.help_menu import shortcuts
from editor.tools.align_tool import BY_HAND, MOVE_PICTURE, MOVE_TRACK
from tests.corpus import ROOT
from trackformat.io import load_track


def _click(window, qtbot, x: float, y: float) -> None:  # type: ignore[no-untyped-def]
    where = window.view.mapFromScene(QPointF(x, y))
    qtbot.mouseClick(window.view.viewport(), Qt.MouseButton.LeftButton, pos=where)


def _monaco(tmp_path: Path) -> Path:
    """The shipped Monaco and its picture, copied: the test saves over the copy."""
    for name in ("monaco.json", "monaco.png"):
        shutil.copy(ROOT / "tracks" / name, tmp_path / name)
    return tmp_path / "monaco.json"


def _coordinates(path: Path) -> list[tuple[object, ...]]:
    return [(s.id, tuple(s.centre), tuple(map(tuple, s.polygon)), s.heading)
            for s in load_track(path).spaces]


def test_l_then_pairs_on_monaco_moves_the_picture_and_leaves_the_spaces(
    window, tmp_path: Path, qtbot
) -> None:  # type: ignore[no-untyped-def]
    path = _monaco(tmp_path)
    shipped = _coordinates(path)
    assert window.open_path(path)
    assert window.scene.scan_item is not None and load_track(path).board.placement is None
    window.view.fit()
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key.Key_L)
    tool = window.view.tool
    assert tool.name == "Align"
    assert window.status_label.text().startswith("Moving the picture onto the track (T: ")
    assert window.options_area.widget() is tool.options()
    assert tool.mode_box.isVisible() and tool.mode_box.currentText() == MOVE_PICTURE
    # Two pairs: a point of the picture, then (a little off) where it belongs on the track.
    for x, y in ((900.0, 700.0), (2900.0, 1800.0)):
        _click(window, qtbot, x, y)
        assert window.status_label.text().startswith("Moving the picture onto the track")
        _click(window, qtbot, x + 40.0, y - 25.0)
    qtbot.keyClick(window.view, Qt.Key.Key_Return)
    assert window.document.undo_stack.undoText() == "Move picture onto track"
    assert window.status_label.text().startswith("Moving the picture onto the track")
    assert window.save()
    saved = load_track(path)
    assert saved.board.placement is not None, "the picture was placed"
    assert _coordinates(path) == shipped, "not one space of the track file moved"


def test_t_steps_through_the_modes_and_the_status_bar_and_options_say_which(
    window, tmp_path: Path, qtbot
) -> None:  # type: ignore[no-untyped-def]
    assert window.open_path(_monaco(tmp_path))
    window.view.fit()
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key.Key_L)
    tool = window.view.tool
    tool.options()
    said = []
    for _ in range(3):
        qtbot.keyClick(window.view, Qt.Key.Key_T)
        said.append((tool.mode_box.currentText(), window.status_label.text().split(" (T: ")[0],
                     tool.track_warning.isVisible()))
    assert said == [
        (BY_HAND, "Moving the picture by hand", False),
        (MOVE_TRACK, "Moving the TRACK onto the picture", True),
        (MOVE_PICTURE, "Moving the picture onto the track", False),
    ]
    listed = shortcuts(window, window.tools.values())
    assert ("Board", "T") in {(group, keys) for group, keys, _what in listed}


def test_the_track_moves_only_when_chosen_and_says_so(
    window, tmp_path: Path, qtbot
) -> None:  # type: ignore[no-untyped-def]
    path = _monaco(tmp_path)
    assert window.open_path(path)
    window.view.fit()
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key.Key_L)
    tool = window.view.tool
    tool.options()
    tool.mode_box.setCurrentText(MOVE_TRACK)
    assert window.status_label.text().startswith("Moving the TRACK onto the picture")
    before = window.document.track.spaces
    for x, y in ((900.0, 700.0), (2900.0, 1800.0)):
        _click(window, qtbot, x, y)
        _click(window, qtbot, x + 40.0, y - 25.0)
    qtbot.keyClick(window.view, Qt.Key.Key_Return)
    assert window.document.track.spaces != before
    assert window.document.track.board.placement is None
    text = window.status_label.text()
    assert text.startswith("Moving the TRACK onto the picture") and "every space moved" in text
