"""Every action the editor offers on Alt-click has a way that no window manager takes: a key, a
menu entry with its shortcut, the inspector. Played on the real window with keys and clicks, no
Alt anywhere."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QAction

LEFT = Qt.MouseButton.LeftButton
CTRL = Qt.KeyboardModifier.ControlModifier


def _space_point(window, space_id: str) -> QPoint:  # type: ignore[no-untyped-def]
    item = window.scene.space_items[space_id]
    return window.view.mapFromScene(item.sceneBoundingRect().center())


def _menu_entry(window, menu: str, text: str) -> QAction:  # type: ignore[no-untyped-def]
    menus = {a.text().replace("&", ""): a.menu() for a in window.menuBar().actions()}
    [entry] = [a for a in menus[menu].actions() if a.text() == text]
    return entry


def test_ctrl_b_makes_the_selected_spaces_garages_or_boxes_with_any_tool(  # type: ignore[no-untyped-def]
    window, ring_file: Path, qtbot, tmp_path: Path
) -> None:
    window.open_path(ring_file)
    window.view.fit()
    viewport = window.view.viewport()
    entry = _menu_entry(window, "Track", "Team box or garage")
    assert entry.shortcut().toString() == "Ctrl+B"

    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key.Key_B, CTRL)
    assert "Select a space first" in window.status_label.text()

    # The Select tool: click a pit-lane space, Ctrl-click a box, then Ctrl+B.
    qtbot.mouseClick(viewport, LEFT, pos=_space_point(window, "pit-5"))
    qtbot.mouseClick(viewport, LEFT, CTRL, _space_point(window, "box-1"))
    assert window.document.selection == {"pit-5", "box-1"}
    qtbot.keyClick(window.view, Qt.Key.Key_B, CTRL)
    pit = window.document.track.pit_lane
    assert pit.garages == ["pit-5"] and pit.boxes == ["box-2"]
    assert window.scene.space_items["pit-5"].garage
    text = window.status_label.text()
    assert "pit-5 is a garage" in text and "box-1 is no longer a team box" in text
    assert window.document.undo_stack.count() == 1, "one step for the whole selection"

    # The Pit lane tool: the menu works on the selection there too.
    window.choose_tool("Pit lane")
    window.document.set_selection({"pit-5"})
    entry.trigger()
    assert window.document.track.pit_lane.garages == []
    assert "pit-5 is no longer a garage" in window.status_label.text()
    saved = tmp_path / "no-alt.json"
    assert window.save_as(saved)
    assert '"boxes": ["box-2"]' in saved.read_text(encoding="utf-8")


def test_the_pit_lane_hint_and_the_help_name_ways_without_alt(window) -> None:  # type: ignore[no-untyped-def]
    window.choose_tool("Pit lane")
    hint = window.status_label.text()
    assert "B (or Alt-click)" in hint
    assert "Ctrl+B (Track > Team box or garage)" in hint
    _menu_entry(window, "Help", "Keyboard shortcuts").trigger()
    assert "<b>Ctrl+B</b></td><td>Team box or garage" in window.last_help
