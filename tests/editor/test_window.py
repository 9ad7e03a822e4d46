"""The editor window driven as a user would: open, select, edit, undo, save, recover."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPoint, Qt

from editor import autosave
from tests.factories import edit, ring, space
from trackformat.io import load_track, save_track


def _checked(window) -> bool:  # type: ignore[no-untyped-def]
    """Whether the problems panel shows the report of the track as it is now."""
    return (
        window.validation.checked is window.document.track
        and window.problems.report is window.validation.report
    )


def _space_point(window, space_id: str) -> QPoint:  # type: ignore[no-untyped-def]
    item = window.scene.space_items[space_id]
    return window.view.mapFromScene(item.sceneBoundingRect().center())


def test_opening_a_track_shows_its_spaces_and_checks_it(window, ring_file: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    assert window.open_path(ring_file)
    assert len(window.scene.space_items) == len(ring().spaces)
    qtbot.waitUntil(lambda: _checked(window), timeout=5000)
    assert window.problems.report.errors == 0
    assert "ring.json" in window.windowTitle() and not window.document.modified


def test_a_broken_file_is_reported_and_the_open_track_kept(
    window, ring_file: Path, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    window.open_path(ring_file)
    broken = tmp_path / "broken.json"
    broken.write_text('{"format_version": 1, "metadata": {"name": 3}}')
    assert not window.open_path(broken)
    assert "broken.json" in window.last_error and "/metadata/name" in window.last_error
    assert window.document.path == ring_file.resolve()


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


def test_a_problem_row_selects_and_centres_its_culprit(window, tmp_path: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "jump.json"
    save_track(edit(ring(), lambda d: d["links"].append({"from": "1-20", "to": "3-21"})), path)
    window.open_path(path)
    qtbot.waitUntil(lambda: _checked(window), timeout=5000)
    row = next(
        r
        for r in range(window.problems.rows())
        if window.problems.diagnostic_at(r).code == "LAP002"
    )
    index = window.problems.proxy.index(row, 2)
    window.problems.view.activated.emit(index)
    assert window.document.selection == {"1-20", "3-21"}
    centre = window.view.mapToScene(window.view.viewport().rect().center())
    target = (
        window.scene.space_items["1-20"]
        .sceneBoundingRect()
        .united(window.scene.space_items["3-21"].sceneBoundingRect())
        .center()
    )
    assert abs(centre.x() - target.x()) < 30 and abs(centre.y() - target.y()) < 30


def test_problems_refresh_after_an_edit(window, ring_file: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window.open_path(ring_file)
    qtbot.waitUntil(lambda: _checked(window), timeout=5000)
    window.document.edit(
        "break", lambda t: edit(t, lambda d: d["links"].append({"from": "1-20", "to": "3-21"}))
    )
    qtbot.waitUntil(lambda: _checked(window), timeout=5000)
    assert "LAP002" in window.problems.report.codes()
    assert window.problems.report.errors >= 1
    assert "errors" in window.counts_label.text()


def test_save_and_reopen_round_trip(window, ring_file: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    window.open_path(ring_file)
    window.document.set_selection({"3-3"})
    window.document.edit(
        "rename",
        lambda t: t.model_copy(
            update={"metadata": t.metadata.model_copy(update={"name": "Renamed"})}
        ),
    )
    target = tmp_path / "saved" / "copy.json"
    assert window.save_as(target)
    assert not window.document.modified
    assert load_track(target).metadata.name == "Renamed"
    assert target.read_text() == ring_file.read_text().replace('"Test ring"', '"Renamed"')
    assert window.open_path(target)
    assert window.document.track.metadata.name == "Renamed"
    assert str(target.resolve()) == window.recent_files()[0]


def _second_session(qtbot, tmp_path: Path):  # type: ignore[no-untyped-def]
    """Another editor started after the first one was killed (the first never closes)."""
    from PySide6.QtCore import QSettings

    from editor.mainwindow import MainWindow

    settings = QSettings(str(tmp_path / "settings2.ini"), QSettings.Format.IniFormat)
    second = MainWindow(settings, ask=False)
    qtbot.addWidget(second)
    return second


def test_autosave_is_offered_back_after_a_crash(
    window, ring_file: Path, qtbot, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    window.open_path(ring_file)
    window.document.edit(
        "rename",
        lambda t: t.model_copy(
            update={"metadata": t.metadata.model_copy(update={"name": "Unsaved work"})}
        ),
    )
    side = window.autosaver.save_now()
    assert side is not None and side.is_file()
    window.autosaver.timer.stop()
    second = _second_session(qtbot, tmp_path)
    second.confirm_answer = True
    assert second.open_path(ring_file)
    assert second.document.track.metadata.name == "Unsaved work"
    assert second.document.modified, "recovered work is unsaved until the user saves it"
    assert second.save()
    assert not autosave.side_file(ring_file.resolve()).exists()
    assert load_track(ring_file).metadata.name == "Unsaved work"
    second.validation.wait()


def test_declining_recovery_discards_the_side_file(
    window, ring_file: Path, qtbot, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    window.open_path(ring_file)
    window.document.edit(
        "rename",
        lambda t: t.model_copy(
            update={"metadata": t.metadata.model_copy(update={"name": "Unsaved"})}
        ),
    )
    window.autosaver.save_now()
    window.autosaver.timer.stop()
    second = _second_session(qtbot, tmp_path)
    second.confirm_answer = False
    second.open_path(ring_file)
    assert second.document.track.metadata.name == "Test ring"
    assert not autosave.side_file(ring_file.resolve()).exists()
    second.validation.wait()


def test_closing_with_unsaved_work_asks(window, ring_file: Path) -> None:  # type: ignore[no-untyped-def]
    window.open_path(ring_file)
    window.document.edit(
        "rename",
        lambda t: t.model_copy(update={"metadata": t.metadata.model_copy(update={"name": "x"})}),
    )
    window.unsaved_answer = "cancel"
    assert not window.close()
    assert window.isVisible()
    window.unsaved_answer = "discard"
    assert window.close()


def test_a_missing_scan_is_reported_and_can_be_relinked(window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtGui import QImage

    path = tmp_path / "track.json"
    track = ring()
    save_track(
        track.model_copy(update={"board": track.board.model_copy(update={"image": "gone.png"})}),
        path,
    )
    window.open_path(path)
    assert "board picture not found" in window.status_label.text()
    picture = tmp_path / "pictures" / "board.png"
    picture.parent.mkdir()
    image = QImage(1200, 1200, QImage.Format.Format_RGB32)
    image.fill(0x336633)
    image.save(str(picture))
    window.relink_scan(picture)
    assert window.document.track.board.image == "pictures/board.png"
    assert window.scene.scan_item is not None


def test_inspector_edits_every_selected_space(window, ring_file: Path) -> None:  # type: ignore[no-untyped-def]
    window.open_path(ring_file)
    window.document.set_selection({"1-1", "1-2"})
    inspector = window.inspector_dock.widget()
    heading = inspector.fields["heading"]
    heading.setValue(33.0)
    heading.editingFinished.emit()
    assert {s.heading for s in window.document.track.spaces if s.id in {"1-1", "1-2"}} == {33.0}
    window.document.set_selection({"north"})
    stops = window.inspector_dock.widget().fields["stops"]
    stops.setValue(3)
    stops.setValue(2)
    assert next(c for c in window.document.track.corners if c.id == "north").stops == 2
    assert window.document.undo_stack.count() == 2, "spin-box steps of one field merge"
    assert "long 4, short 4" in window.inspector_dock.widget().fields["computed"].text()


def test_hand_edited_space_document_helper() -> None:
    doc = {"spaces": [{"id": "a"}]}
    assert space(doc, "a") == {"id": "a"}


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


def test_new_track_from_a_scan_then_saved_beside_it(window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtGui import QImage

    picture = tmp_path / "scans" / "my board.jpg"
    picture.parent.mkdir()
    image = QImage(3000, 2000, QImage.Format.Format_RGB32)
    image.fill(0x448844)
    assert image.save(str(picture))
    assert window.new_from_scan(picture)
    board = window.document.track.board
    assert (board.width, board.height) == (3000, 2000)
    assert window.scene.scan_item is not None and window.document.path is None
    window.document.edit(
        "name",
        lambda t: t.model_copy(update={"metadata": t.metadata.model_copy(update={"name": "Mine"})}),
    )
    assert window.save_as(tmp_path / "tracks" / "mine.json")
    assert load_track(tmp_path / "tracks" / "mine.json").board.image == "../scans/my board.jpg"


def test_a_picture_that_is_not_one_is_refused(window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    fake = tmp_path / "fake.png"
    fake.write_text("not a picture")
    assert not window.new_from_scan(fake)
    assert "fake.png" in window.last_error


def test_lane_tool_previews_and_adds_lanes(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    from editor.lanes import LaneSettings

    window.view.fit()
    window.choose_tool("Lanes")
    tool = window.view.tool
    assert window.options_dock.widget() is tool.options()
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
