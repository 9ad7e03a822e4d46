"""File > Trace board picture...: the draft drawn on the board in one undoable step, its guesses
shown, and a picture that cannot be traced said without touching the track.

The picture is the ring track drawn by the project's own render (as the tracer's own tests
draw it): nobody's art, read by the tracer in a few seconds. The real Monaco scan is traced
only in a test that skips without the corpus.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from PySide6.QtCore import Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QApplication,
    QDialogButtonBox,
    QMessageBox,
    QProgressDialog,
    QPushButton,
)

pytest.importorskip("cv2", reason="the tracer's image libraries (the trace extra) are missing")
pytest.importorskip("skimage", reason="the tracer's image libraries (the trace extra) are missing")
pytest.importorskip("scipy", reason="the tracer's image libraries (the trace extra) are missing")

from editor import trace_board
from editor.trace_board import TraceDialog
from tests.corpus import corpus_path
from tests.factories import ring
from trackformat.interop.render import render_to_file
from trackformat.io import save_track

TRACE_SECONDS = 120
"""Longest a test waits for a trace (a few seconds alone; more on a busy machine)."""


@pytest.fixture(scope="module")
def ring_picture(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 3-lane ring of 40 spaces a lane, drawn to a 1200 px PNG by the project's render."""
    path = tmp_path_factory.mktemp("board") / "ring-board.png"
    render_to_file(ring(3, 40), path)
    return path


@pytest.fixture
def small_track(window, tmp_path: Path) -> Path:  # type: ignore[no-untyped-def]
    """A saved 2-lane ring of 12 spaces a lane (and a pit lane), open in the window: the track
    a trace replaces."""
    path = tmp_path / "track" / "small.json"
    path.parent.mkdir()
    save_track(ring(2, 12), path)
    assert window.open_path(path)
    return path


def _menu_trace(window, picture: str, lanes: int | None = None) -> list[str]:  # type: ignore[no-untyped-def]
    """Choose File > Trace board picture..., name ``picture`` in its dialog and press Trace;
    returns what the dialog offered (lanes, space length) before it was filled in."""
    offered: list[str] = []

    def fill_in() -> None:
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, TraceDialog)
        trace = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
        offered.extend([str(dialog.lanes.value()), dialog.space_length.text(),
                        f"{dialog.lanes.minimum()}-{dialog.lanes.maximum()}",
                        f"trace enabled: {trace.isEnabled()}"])
        QTest.keyClicks(dialog.picture, picture)
        if lanes is not None:
            dialog.lanes.setValue(lanes)
        QTest.keyClick(dialog, Qt.Key.Key_Return)

    QTimer.singleShot(0, fill_in)
    file_menu = window.menuBar().actions()[0].menu()
    next(a for a in file_menu.actions() if a.text() == "Trace board picture...").trigger()
    return offered


def _progress_dialog(window) -> QProgressDialog | None:  # type: ignore[no-untyped-def]
    shown = [d for d in window.findChildren(QProgressDialog) if d.isVisible()]
    return shown[0] if shown else None


def _visible_spaces(window) -> int:  # type: ignore[no-untyped-def]
    """The spaces drawn in the part of the board on screen."""
    view = window.view
    shown = view.mapToScene(view.viewport().rect()).boundingRect()
    return sum(1 for item in window.scene.space_items.values()
               if item.isVisible() and shown.intersects(item.sceneBoundingRect()))


def _problem_codes(window) -> list[str]:  # type: ignore[no-untyped-def]
    return [window.problems.diagnostic_at(row).code for row in range(window.problems.rows())]


def _settled(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    """Wait for the problems panel to show the check of the track as it is now."""
    qtbot.waitUntil(lambda: window.validation.checked is window.document.track
                    and not window.validation.busy(), timeout=10_000)


def test_a_traced_picture_is_drawn_as_one_undoable_step_with_its_guesses_shown(
        window, qtbot, small_track: Path, ring_picture: Path) -> None:  # type: ignore[no-untyped-def]
    before = window.document.track
    steps = window.document.undo_stack.count()
    stages: set[str] = set()
    offered = _menu_trace(window, str(ring_picture))
    assert offered == ["3", "measured from the picture", "2-4", "trace enabled: False"]

    def traced() -> bool:
        progress = _progress_dialog(window)
        if progress is not None:
            stages.add(progress.labelText())
        return window.status_label.text().startswith("Traced ring-board.png")

    qtbot.waitUntil(traced, timeout=TRACE_SECONDS * 1000)
    assert any(": finding the spaces..." in stage for stage in stages), stages
    assert _progress_dialog(window) is None

    track = window.document.track
    assert len(track.spaces) >= 0.95 * 120 and len(track.lanes) == 3
    assert _visible_spaces(window) == len(track.spaces)  # fitted: every space on screen
    assert window.document.undo_stack.count() == steps + 1
    # The picture is the draft's board, named from the track's folder, and shown under it.
    assert (small_track.parent / track.board.image).resolve() == ring_picture.resolve()
    assert (track.board.width, track.board.height) == (1200, 1200)
    # The draft is a new, unsaved track: Save asks where, so the old track's file is kept.
    assert window.document.path is None and "*untitled" in window.windowTitle()
    assert f"{small_track.name} is kept" in window.status_label.text()
    assert window.scene.scan_item is not None and window.scene.scan_item.isVisible()
    # The weak spaces are selected (drawn so) and named; the tracer's notes are in Problems.
    selected = sorted(i for i, item in window.scene.space_items.items() if item.selected)
    assert selected and selected == sorted(window.document.selection)
    assert f"{len(selected)} weak space" in window.status_label.text()
    assert selected[0] in window.status_label.text()
    _settled(window, qtbot)
    codes = _problem_codes(window)
    assert "TRACE001" in codes and "GRID004" in codes  # the tracer's and the validator's
    noted = {e for row in range(window.problems.rows())
             for e in window.problems.diagnostic_at(row).location.elements
             if window.problems.diagnostic_at(row).code == "TRACE001"}
    assert set(selected) <= noted

    window.undo_action.trigger()  # one step back: the previous track, whole, with its file
    assert window.document.track == before
    assert window.document.path == small_track.resolve()
    assert window.windowTitle().startswith(f"{small_track.name} - ")  # saved: no star
    assert _visible_spaces(window) == len(before.spaces) == 33  # with the pit lane and boxes
    assert window.scene.scan_item is None
    _settled(window, qtbot)
    assert not any(code.startswith("TRACE") for code in _problem_codes(window))
    window.redo_action.trigger()
    assert window.document.track == track
    assert window.document.path is None and "*untitled" in window.windowTitle()
    _settled(window, qtbot)
    assert "TRACE001" in _problem_codes(window)


def test_undoing_a_trace_saved_elsewhere_keeps_the_new_file(
        window, qtbot, small_track: Path, ring_picture: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    old_text = small_track.read_bytes()
    _menu_trace(window, str(ring_picture))
    qtbot.waitUntil(lambda: window.status_label.text().startswith("Traced ring-board.png"),
                    timeout=TRACE_SECONDS * 1000)
    draft_file = tmp_path / "draft.json"
    assert window.save_as(draft_file)
    window.undo_action.trigger()  # the old track, in the file last saved: as after any undo
    assert window.document.path == draft_file.resolve()
    assert window.document.modified
    window.redo_action.trigger()
    assert window.document.path == draft_file.resolve() and not window.document.modified
    assert small_track.read_bytes() == old_text  # the old track's file was never written


def _message_after_trace(window, qtbot, picture: Path) -> str:  # type: ignore[no-untyped-def]
    run = trace_board.trace_board_picture(
        trace_board.TraceParts(window, window.document, window.validation, window.problems,
                               window.scene, window.view, window.show_status),
        trace_board.TraceRequest(picture, 3))
    assert run is not None
    qtbot.waitUntil(lambda: run.message is not None and run.message.isVisible(),
                    timeout=TRACE_SECONDS * 1000)
    assert run.outcome == trace_board.FAILED and _progress_dialog(window) is None
    text = run.message.text()
    qtbot.mouseClick(run.message.button(QMessageBox.StandardButton.Ok),
                     Qt.MouseButton.LeftButton)
    return text  # type: ignore[no-any-return]


def test_a_picture_that_cannot_be_traced_is_said_and_the_track_stays(
        window, qtbot, small_track: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    window.document.edit("Rename", lambda t: t.model_copy(
        update={"metadata": t.metadata.model_copy(update={"name": "Unsaved work"})}))
    before, steps = window.document.track, window.document.undo_stack.count()
    notes = tmp_path / "notes.png"
    notes.write_text("not a picture", encoding="utf-8")
    text = _message_after_trace(window, qtbot, notes)
    assert str(notes) in text and "not a picture" in text and "unchanged" in text
    noise = tmp_path / "noise.png"
    Image.fromarray(np.random.default_rng(7).integers(0, 256, (300, 400, 3),
                                                      dtype=np.uint8)).save(noise)
    text = _message_after_trace(window, qtbot, noise)
    assert "noise.png" in text and "no road found" in text
    assert "Traceback" not in text
    assert window.status_label.text().startswith("Cannot trace: ")
    assert window.document.track is before
    assert window.document.undo_stack.count() == steps and window.document.modified
    assert _visible_spaces(window) == len(before.spaces)


def test_cancel_stops_the_trace_and_leaves_the_track(
        window, qtbot, small_track: Path, ring_picture: Path) -> None:  # type: ignore[no-untyped-def]
    before = window.document.track
    _menu_trace(window, str(ring_picture))
    progress = _progress_dialog(window)
    assert progress is not None
    cancel = progress.findChild(QPushButton)
    assert cancel.text() == "Cancel"
    qtbot.mouseClick(cancel, Qt.MouseButton.LeftButton)
    assert _progress_dialog(window) is None
    assert window.status_label.text() == ("Tracing ring-board.png cancelled: the track is "
                                          "unchanged")
    keeper = trace_board._keeper()
    qtbot.waitUntil(lambda: not keeper.running, timeout=TRACE_SECONDS * 1000)
    qtbot.wait(200)  # whatever the stopped thread sent has been delivered
    assert window.document.track is before and window.document.undo_stack.count() == 0
    assert not [w for w in window.findChildren(QMessageBox) if w.isVisible()]


def test_the_monaco_scan_traces_into_a_draft_on_the_board(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    scan = corpus_path("monaco-board", "monaco.jpg")
    _menu_trace(window, str(scan))
    qtbot.waitUntil(lambda: window.status_label.text().startswith("Traced monaco.jpg"),
                    timeout=TRACE_SECONDS * 1000)
    track = window.document.track
    assert len(track.spaces) >= 480 and len(track.corners) >= 8
    assert _visible_spaces(window) == len(track.spaces)
    assert window.document.selection  # the weak spaces: the corners' and the band's
    window.undo_action.trigger()
    assert window.document.track.spaces == []
