"""The editor window driven as a user would: open, select, edit, undo, save, recover."""

from __future__ import annotations

import threading
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


def _killed(window) -> Path:  # type: ignore[no-untyped-def]
    """The side file ``window`` has written, as it would be left by its editor killed: under
    the name of an editor no longer running (the window itself stays open, its timer stopped,
    and no lock is held for that name)."""
    side = window.autosaver.save_now()
    assert side is not None and side.is_file()
    window.autosaver.timer.stop()
    left = autosave.own_side_file(window.document.path, "4242-0badf00d")
    side.rename(left)
    return left


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
    left = _killed(window)
    second = _second_session(qtbot, tmp_path)
    second.confirm_answer = True
    assert second.open_path(ring_file)
    assert second.document.track.metadata.name == "Unsaved work"
    assert second.document.modified, "recovered work is unsaved until the user saves it"
    assert second.save()
    assert not left.exists() and not autosave.side_files(ring_file.resolve())
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
    left = _killed(window)
    second = _second_session(qtbot, tmp_path)
    second.confirm_answer = False
    second.open_path(ring_file)
    assert second.document.track.metadata.name == "Test ring"
    assert not left.exists()
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


def test_a_long_tool_hint_is_cut_with_an_ellipsis_and_reads_whole_in_its_tooltip(
    window, ring_file: Path, qtbot
) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtGui import QColor

    from editor.tools.lane_tool import LaneTool

    window.open_path(ring_file)
    window.resize(700, 600)
    window.choose_tool("Lanes")
    hint, pointer = window.status_label, window.pointer_label
    qtbot.waitUntil(lambda: hint.width() < hint.fontMetrics().horizontalAdvance(LaneTool.hint))
    # The hint keeps the room the coordinates and counts leave: neither overlaps it.
    assert hint.geometry().right() < pointer.geometry().left()
    assert pointer.geometry().right() < window.counts_label.geometry().left()
    # It is cut with an ellipsis, and its whole text is the tooltip.
    assert hint.shown_text().endswith("…")
    assert LaneTool.hint.startswith(hint.shown_text()[:-1])
    assert hint.toolTip() == LaneTool.hint == hint.text()
    # What the bar draws ends where the label ends: some text is drawn near its right edge.
    picture = hint.grab().toImage()
    background = QColor(picture.pixel(picture.width() - 1, 0))
    right = picture.width() * 0.8
    assert any(
        QColor(picture.pixel(x, y)) != background
        for x in range(int(right), picture.width()) for y in range(picture.height())
    )
    # The coordinates keep their width whatever the numbers.
    width = pointer.width()
    pointer.setText("x -12345  y -12345")
    assert pointer.width() == width and pointer.text() == "x -12345  y -12345"
    # Room enough: the whole hint shows and no tooltip is needed.
    window.resize(2400, 600)
    qtbot.waitUntil(lambda: not hint.toolTip())
    assert hint.shown_text() == LaneTool.hint


def test_autosave_writes_again_only_after_an_edit(
    window, ring_file: Path
) -> None:  # type: ignore[no-untyped-def]
    window.open_path(ring_file)
    window.autosaver.timer.stop()

    def rename(name: str) -> None:
        window.document.edit("rename", lambda t: t.model_copy(
            update={"metadata": t.metadata.model_copy(update={"name": name})}))

    rename("First")
    side = window.autosaver.save_now()
    assert side is not None and load_track(side).metadata.name == "First"
    side.write_text("not touched again", encoding="utf-8")
    assert window.autosaver.save_now() is None, "no edit since: nothing serialised or written"
    assert side.read_text(encoding="utf-8") == "not touched again"
    rename("Second")
    assert window.autosaver.save_now() == side
    assert load_track(side).metadata.name == "Second"


def _rename(window, name: str) -> None:  # type: ignore[no-untyped-def]
    window.document.edit("rename", lambda t: t.model_copy(
        update={"metadata": t.metadata.model_copy(update={"name": name})}))


class _HeldText:
    """Autosave's text maker, held until released: ``writing`` is set once a write has begun,
    ``threads`` names the threads it ran on."""

    def __init__(self, monkeypatch) -> None:  # type: ignore[no-untyped-def]
        self.writing = threading.Event()
        self.release = threading.Event()
        self.threads: list[str] = []
        self._text_of = autosave.dumps_document
        monkeypatch.setattr(autosave, "dumps_document", self)

    def __call__(self, document):  # type: ignore[no-untyped-def]
        self.threads.append(threading.current_thread().name)
        self.writing.set()
        assert self.release.wait(10)
        return self._text_of(document)


def test_autosave_writes_on_its_own_thread_and_the_editor_goes_on(
    window, ring_file: Path, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    window.open_path(ring_file)
    window.autosaver.timer.stop()
    _rename(window, "Written later")
    held = _HeldText(monkeypatch)
    pending = window.autosaver.save_later()  # what the timer's tick does
    assert pending is not None and held.writing.wait(10)
    side = window.autosaver.side_file()
    assert not side.exists(), "the tick returned while the text is still being written"
    # Meanwhile the designer edits on: the snapshot already taken is what gets written.
    _rename(window, "Edited meanwhile")
    held.release.set()
    assert pending.result(10) == side
    assert load_track(side).metadata.name == "Written later"
    assert held.threads and held.threads[0] != threading.main_thread().name
    assert window.autosaver.save_now() == side
    assert load_track(side).metadata.name == "Edited meanwhile"


def test_a_save_during_an_autosave_leaves_no_side_file(
    window, ring_file: Path, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    window.open_path(ring_file)
    window.autosaver.timer.stop()
    _rename(window, "Saved")
    held = _HeldText(monkeypatch)
    pending = window.autosaver.save_later()
    assert pending is not None and held.writing.wait(10)
    assert window.save()  # the user saves while the autosave is being written
    held.release.set()
    assert pending.result(10) is None, "the stale write is dropped"
    assert not window.autosaver.side_file().exists(), (
        "a side file written after the save would offer old work back at the next start")
    assert load_track(ring_file).metadata.name == "Saved"


def test_a_corner_s_unread_stops_show_as_they_are_and_typing_1_sets_them(  # type: ignore[no-untyped-def]
        window, qtbot, tmp_path: Path) -> None:
    # A traced draft leaves the stops it could not read at 0. The field said 1 (its least
    # number), so typing 1 changed nothing and the corner kept demanding 0 stops.
    def unread(document):  # type: ignore[no-untyped-def]
        for corner in document["corners"]:
            corner["stops"] = 0
    path = tmp_path / "draft.json"
    save_track(edit(ring(), unread), path)
    window.open_path(path)
    window.document.set_selection({"north", "south"})
    stops = window.inspector_dock.widget().fields["stops"]
    assert stops.text() == "0 (set 1 to 3)"
    stops.setFocus()
    stops.lineEdit().selectAll()
    qtbot.keyClicks(stops.lineEdit(), "1")
    qtbot.keyClick(stops.lineEdit(), Qt.Key.Key_Tab)
    assert [c.stops for c in window.document.track.corners] == [1, 1]
