"""The editor's tools driven with the mouse and keys on the real window."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPoint, Qt


def _space_point(window, space_id: str) -> QPoint:  # type: ignore[no-untyped-def]
    item = window.scene.space_items[space_id]
    return window.view.mapFromScene(item.sceneBoundingRect().center())


def test_clicking_selects_and_dragging_moves_as_one_undo_step(
    window, ring_file: Path, qtbot
) -> None:  # type: ignore[no-untyped-def]
    window.open_path(ring_file)
    window.view.fit()
    start = _space_point(window, "2-10")
    qtbot.mouseClick(window.view.viewport(), Qt.MouseButton.LeftButton, pos=start)
    assert window.document.selection == {"2-10"}
    before = window.document.track
    qtbot.mousePress(window.view.viewport(), Qt.MouseButton.LeftButton, pos=start)
    for step in range(1, 6):
        qtbot.mouseMove(window.view.viewport(), start + QPoint(4 * step, 0))
    qtbot.mouseRelease(window.view.viewport(), Qt.MouseButton.LeftButton, pos=start + QPoint(20, 0))
    moved = next(s for s in window.document.track.spaces if s.id == "2-10")
    original = next(s for s in before.spaces if s.id == "2-10")
    assert moved.centre[0] > original.centre[0]
    assert window.document.undo_stack.count() == 1
    window.document.undo_stack.undo()
    assert window.document.track is before
    window.document.undo_stack.redo()
    assert next(s for s in window.document.track.spaces if s.id == "2-10") == moved
    assert window.document.modified and window.windowTitle().startswith("*")


def test_keyboard_nudges_and_deletes(window, ring_file: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window.open_path(ring_file)
    window.document.set_selection({"1-5"})
    window.view.setFocus()
    x0 = next(s for s in window.document.track.spaces if s.id == "1-5").centre[0]
    qtbot.keyClick(window.view, Qt.Key.Key_Right)
    qtbot.keyClick(window.view, Qt.Key.Key_Right, Qt.KeyboardModifier.ShiftModifier)
    x1 = next(s for s in window.document.track.spaces if s.id == "1-5").centre[0]
    assert round(x1 - x0, 2) == 11
    assert window.document.undo_stack.count() == 1, "consecutive nudges merge"
    qtbot.keyClick(window.view, Qt.Key.Key_Delete)
    assert "1-5" not in {s.id for s in window.document.track.spaces}
    assert "1-5" not in window.scene.space_items


def test_arrow_tool_adds_and_removes_a_link(window, ring_file: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window.open_path(ring_file)
    window.view.fit()
    window.choose_tool("Arrow")
    viewport = window.view.viewport()
    qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=_space_point(window, "1-7"))
    qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=_space_point(window, "2-8"))
    links = {(k.from_, k.to) for k in window.document.track.links}
    assert ("1-7", "2-8") in links
    qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=_space_point(window, "1-7"))
    qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=_space_point(window, "2-8"))
    assert ("1-7", "2-8") not in {(k.from_, k.to) for k in window.document.track.links}
    assert window.document.undo_stack.count() == 2


def test_corner_tool_makes_a_corner_from_clicks(window, ring_file: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window.open_path(ring_file)
    window.view.fit()
    window.document.edit(
        "drop north",
        lambda t: t.model_copy(update={"corners": [c for c in t.corners if c.id != "north"]}),
    )
    window.choose_tool("Corner")
    viewport = window.view.viewport()
    for lane in "123":
        qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=_space_point(window, f"{lane}-8"))
        qtbot.mouseClick(
            viewport,
            Qt.MouseButton.LeftButton,
            Qt.KeyboardModifier.ShiftModifier,
            _space_point(window, f"{lane}-11"),
        )
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key.Key_Return)
    made = [c for c in window.document.track.corners if c.id != "south"]
    assert len(made) == 1 and sorted(made[0].spaces) == sorted(
        f"{lane}-{k}" for lane in "123" for k in range(8, 12)
    )
    assert window.document.selection == {made[0].id}
    inspector = window.inspector_dock.widget()
    assert "long 4, short 4" in inspector.fields["computed"].text()


def test_grid_and_finish_tools(window, ring_file: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window.open_path(ring_file)
    window.view.fit()
    viewport = window.view.viewport()
    window.choose_tool("Finish line")
    qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=_space_point(window, "2-1"))
    assert window.document.track.finish_line.spaces == ["1-1", "2-1", "3-1"]
    window.choose_tool("Grid")
    qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=_space_point(window, "1-39"))
    assert "1-39" not in window.document.track.grid, "clicking a slot takes it out"
    qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=_space_point(window, "1-39"))
    assert window.document.track.grid[-1] == "1-39"


def test_space_tool_draws_reshapes_inserts_and_removes(window, ring_file: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window.open_path(ring_file)
    window.view.fit()
    window.choose_tool("Space")
    viewport = window.view.viewport()
    corners = [QPoint(200, 200), QPoint(240, 200), QPoint(240, 230), QPoint(200, 230)]
    for corner in corners:
        qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=corner)
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key.Key_Return)
    (drawn,) = window.document.selection
    space = next(s for s in window.document.track.spaces if s.id == drawn)
    assert len(space.polygon) == 4 and space.lane is not None
    # Drag the first corner of the drawn space.
    grab = window.view.mapFromScene(*space.polygon[0])
    qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, pos=grab)
    qtbot.mouseMove(viewport, grab + QPoint(-10, -10))
    qtbot.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=grab + QPoint(-10, -10))
    reshaped = next(s for s in window.document.track.spaces if s.id == drawn)
    assert reshaped.polygon[0][0] < space.polygon[0][0]
    # Insert a space after 2-20 in its lane, then remove it again.
    window.document.set_selection({"2-20"})
    qtbot.keyClick(window.view, Qt.Key.Key_Insert)
    (inserted,) = window.document.selection
    from trackformat.graph import build_graphs

    assert build_graphs(window.document.track).lanes["2"][21] == inserted
    qtbot.keyClick(window.view, Qt.Key.Key_Delete, Qt.KeyboardModifier.ShiftModifier)
    assert inserted not in window.scene.space_items


def test_rubber_band_selects_what_it_touches(window, ring_file: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window.open_path(ring_file)
    window.view.fit()
    viewport = window.view.viewport()
    # From the empty middle of the ring out across the spaces at 9 o'clock.
    a = _space_point(window, "1-20")
    b = _space_point(window, "3-21")
    start = QPoint(min(a.x(), b.x()) - 30, min(a.y(), b.y()) - 5)
    end = QPoint(max(a.x(), b.x()) + 60, max(a.y(), b.y()) + 5)
    start = QPoint(end.x(), start.y())  # begin right of the lanes, inside the ring: empty board
    qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, pos=start)
    for step in range(1, 11):
        qtbot.mouseMove(
            viewport, start + (QPoint(min(a.x(), b.x()) - 30, end.y()) - start) * step / 10
        )
    qtbot.mouseRelease(
        viewport, Qt.MouseButton.LeftButton, pos=QPoint(min(a.x(), b.x()) - 30, end.y())
    )
    assert {"1-20", "3-21"} <= window.document.selection
    assert all(window.scene.space_items[i].selected for i in ("1-20", "3-21"))


def test_lane_tool_previews_and_adds_lanes(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    from editor.lanes import LaneSettings

    window.view.fit()
    window.choose_tool("Lanes")
    tool = window.view.tool
    assert window.options_area.widget() is tool.options()
    tool.counts_edit.setText("12")
    tool.lanes_box.setValue(2)
    viewport = window.view.viewport()
    clicks = [QPoint(200, 300), QPoint(450, 280), QPoint(700, 330)]
    for click in clicks:
        qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=click)
    qtbot.mouseMove(viewport, QPoint(800, 360))
    assert tool.preview_item is not None and not tool.preview_item.path().isEmpty()
    assert tool.settings == LaneSettings(lanes=2, spacing=40.0, spaces=(12,))
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key.Key_Return)
    track = window.document.track
    assert len(track.spaces) == 24 and [lane.id for lane in track.lanes] == ["1", "2"]
    assert len(window.scene.space_items) == 24
    assert tool.preview_item is None
    window.document.undo_stack.undo()
    assert window.document.track.spaces == []


def test_pit_tool_alt_click_makes_a_pit_space_a_garage_in_line(  # type: ignore[no-untyped-def]
    window, ring_file: Path, qtbot, tmp_path: Path
) -> None:
    from editor.scene import style

    window.open_path(ring_file)
    window.view.fit()
    window.choose_tool("Pit lane")
    viewport = window.view.viewport()

    def pixel(space_id: str):  # type: ignore[no-untyped-def]
        return window.view.viewport().grab().toImage().pixelColor(_space_point(window, space_id))

    plain = pixel("pit-3")
    alt = Qt.KeyboardModifier.AltModifier
    for space_id in ("pit-4", "pit-2"):
        qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton, alt, _space_point(window, space_id))
    pit = window.document.track.pit_lane
    assert pit.garages == ["pit-2", "pit-4"], "garages are kept in driving order"
    assert window.scene.space_items["pit-2"].brush().color() == style.GARAGE_FILL
    assert pixel("pit-2") != plain and pixel("pit-3") == plain
    assert window.document.undo_stack.count() == 2
    qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton, alt, _space_point(window, "pit-4"))
    assert window.document.track.pit_lane.garages == ["pit-2"]
    assert pixel("pit-4") == plain
    saved = tmp_path / "with-garage.json"
    assert window.save_as(saved)
    assert '"garages": ["pit-2"]' in saved.read_text(encoding="utf-8")


def test_pit_tool_b_key_makes_a_garage_or_a_box_without_alt(  # type: ignore[no-untyped-def]
    window, ring_file: Path, qtbot, tmp_path: Path
) -> None:
    """Alt-click is taken by most window managers: B on the space under the pointer does the
    same, a garage in the pit lane, a box beside it, and takes either back."""
    from editor.scene import style

    window.open_path(ring_file)
    window.view.fit()
    window.choose_tool("Pit lane")
    assert "B (or Alt-click)" in window.status_label.text()
    viewport = window.view.viewport()
    window.view.setFocus()

    def press_b_over(space_id: str) -> None:
        qtbot.mouseMove(viewport, _space_point(window, space_id))
        qtbot.keyClick(window.view, Qt.Key.Key_B)

    saved = tmp_path / "stops.json"
    press_b_over("pit-3")
    assert window.document.track.pit_lane.garages == ["pit-3"]
    assert window.scene.space_items["pit-3"].brush().color() == style.GARAGE_FILL
    assert "pit-3 is a garage" in window.status_label.text()
    assert window.save_as(saved)
    assert '"garages": ["pit-3"]' in saved.read_text(encoding="utf-8")
    press_b_over("pit-3")
    assert window.document.track.pit_lane.garages == []
    assert window.save_as(saved)
    assert '"garages": []' in saved.read_text(encoding="utf-8")

    press_b_over("box-2")
    assert window.document.track.pit_lane.boxes == ["box-1"], "B takes a box back"
    press_b_over("box-2")
    assert window.document.track.pit_lane.boxes == ["box-1", "box-2"], "and makes one beside"
    assert "box-2 is a team box" in window.status_label.text()
    assert window.save_as(saved)
    assert '"boxes": ["box-1", "box-2"]' in saved.read_text(encoding="utf-8")
    assert window.document.undo_stack.count() == 4


def test_the_inspector_makes_a_selected_pit_space_a_garage(  # type: ignore[no-untyped-def]
    window, ring_file: Path, qtbot
) -> None:
    window.open_path(ring_file)
    window.document.set_selection({"pit-5"})
    box = window.inspector_dock.widget().fields["place_to_stop"]
    assert not box.isChecked()
    box.click()
    qtbot.waitUntil(lambda: window.document.track.pit_lane.garages == ["pit-5"])
    box = window.inspector_dock.widget().fields["place_to_stop"]
    assert box.isChecked()
    box.click()
    qtbot.waitUntil(lambda: window.document.track.pit_lane.garages == [])
    window.document.set_selection({"1-5"})
    assert "place_to_stop" not in window.inspector_dock.widget().fields, "not on a track space"
