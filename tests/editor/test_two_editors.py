"""Two editors on one track: each keeps its own recovery file, one's save never removes the
other's unsaved work, a save over a file another editor saved meanwhile asks first, and the work
of an editor that was killed is still offered back, while an open one's is left alone."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMessageBox

from trackformat.io import load_track

ROOT = Path(__file__).resolve().parents[2]

OTHER_EDITOR = """
import os, sys
from pathlib import Path
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication
app = QApplication([])
from editor.mainwindow import MainWindow
track, settings, name = sys.argv[1:4]
window = MainWindow(QSettings(settings, QSettings.Format.IniFormat), ask=False)
assert window.open_path(Path(track))
meta = window.document.track.metadata.model_copy(update={"name": name})
window.document.edit("Rename", lambda t: t.model_copy(update={"metadata": meta}))
print(window.autosaver.save_now(), flush=True)
sys.stdin.readline()
os._exit(9)  # killed: nothing cleaned up, nothing saved
"""
"""A whole editor in a process of its own: opens the track, renames it, autosaves, and stays
open until a line comes on its input; then it dies as a killed process does."""


def _rename(window, name: str) -> None:  # type: ignore[no-untyped-def]
    meta = window.document.track.metadata.model_copy(update={"name": name})
    window.document.edit("Rename", lambda t: t.model_copy(update={"metadata": meta}))


@pytest.fixture
def second(qtbot, tmp_path: Path) -> Iterator[object]:  # type: ignore[no-untyped-def]
    """Another editor window, open beside the first (``window``)."""
    from editor.mainwindow import MainWindow

    other = MainWindow(QSettings(str(tmp_path / "second.ini"), QSettings.Format.IniFormat),
                       ask=False)
    other.unsaved_answer = "discard"  # closing at the end never waits on its unsaved work
    qtbot.addWidget(other)
    yield other
    other.validation.wait()
    other.close()
    other.deleteLater()


@contextmanager
def _asking(window) -> Iterator[None]:  # type: ignore[no-untyped-def]
    """Dialogs shown (and answered by a stand-in) for a while; never left on, since closing
    the window at the end of a test would then wait for an answer to "Unsaved changes"."""
    window.ask = True
    try:
        yield
    finally:
        window.ask = False


class _Answer:
    """Stands in for QMessageBox.exec: records what each box said and clicks ``button``."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, button: str) -> None:
        self.button = button
        self.shown: list[str] = []
        monkeypatch.setattr(QMessageBox, "exec", lambda box: self.answer(box))

    def answer(self, box: QMessageBox) -> int:
        self.shown.append(f"{box.windowTitle()}: {box.text()} {box.informativeText()}")
        next(b for b in box.buttons() if b.text() == self.button).click()
        return 0


def test_one_editors_save_leaves_the_others_unsaved_work(  # type: ignore[no-untyped-def]
    window, second, ring_file: Path
) -> None:
    assert window.open_path(ring_file) and second.open_path(ring_file)
    _rename(window, "First's work")
    _rename(second, "Second's work")
    first_side, second_side = window.autosaver.save_now(), second.autosaver.save_now()
    assert first_side is not None and second_side is not None and first_side != second_side

    assert window.save()

    assert not first_side.exists(), "the save removes its own recovery file"
    assert load_track(second_side).metadata.name == "Second's work"
    assert load_track(ring_file).metadata.name == "First's work"


@pytest.mark.parametrize(("button", "on_disk"), [
    ("Cancel", "First's save"), ("Overwrite", "Second's work"),
])
def test_saving_over_another_editors_save_asks_first(  # type: ignore[no-untyped-def]
    window, second, ring_file: Path, monkeypatch: pytest.MonkeyPatch, button: str, on_disk: str
) -> None:
    answer = _Answer(monkeypatch, button)
    assert window.open_path(ring_file) and second.open_path(ring_file)
    with _asking(window):  # saving over its own save again is no change on disk: not asked
        for name in ("First's draft", "First's save"):
            _rename(window, name)
            assert window.save()
    _rename(second, "Second's work")

    with _asking(second):
        saved = second.save()

    assert answer.shown == [
        "The file changed on disk: ring.json was changed on disk since you opened or last saved "
        "it (by another editor or program). Overwrite it with your track (what was written "
        "there is lost), save your track as another file, or cancel and save nothing?"
    ]
    assert saved == (button == "Overwrite")
    assert load_track(ring_file).metadata.name == on_disk
    assert second.document.modified == (button == "Cancel")
    if button == "Cancel":
        assert "Not saved: ring.json was changed on disk" in second.status_label.text()


def test_save_as_instead_keeps_both_files(  # type: ignore[no-untyped-def]
    window, second, ring_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert window.open_path(ring_file) and second.open_path(ring_file)
    _rename(window, "First's save")
    assert window.save()
    _rename(second, "Second's work")
    _Answer(monkeypatch, "Save as...")
    elsewhere = tmp_path / "mine.json"
    monkeypatch.setattr("editor.mainwindow.QFileDialog.getSaveFileName",
                        lambda *_args: (str(elsewhere), ""))
    with _asking(second):
        assert second.save()

    assert load_track(ring_file).metadata.name == "First's save"
    assert load_track(elsewhere).metadata.name == "Second's work"
    assert second.document.path == elsewhere.resolve() and not second.document.modified


def test_an_open_editors_work_is_left_alone_and_a_killed_ones_offered_back(  # type: ignore[no-untyped-def]
    window, ring_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    other = subprocess.Popen(
        [sys.executable, "-c", OTHER_EDITOR, str(ring_file), str(tmp_path / "other.ini"),
         "The other editor's work"],
        cwd=ROOT, env={**os.environ, "QT_QPA_PLATFORM": "offscreen"}, text=True,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
    )
    try:
        assert other.stdout is not None and other.stdin is not None
        side = Path(other.stdout.readline().strip())
        assert side.is_file(), "the other editor autosaved"
        asked: list[str] = []
        monkeypatch.setattr(window, "_confirm", lambda _title, text: asked.append(text) or False)

        assert window.open_path(ring_file)

        assert asked == [], "an editor still open has not lost its work"
        assert window.document.track.metadata.name == "Test ring"
        assert load_track(side).metadata.name == "The other editor's work"
        other.stdin.write("die\n")
        other.stdin.flush()
        assert other.wait(30) == 9
    finally:
        other.kill()
        other.wait()
    assert side.is_file(), "killed, the other editor left its work behind"
    monkeypatch.setattr(window, "_confirm", lambda _title, text: asked.append(text) or True)

    assert window.open_path(ring_file)

    assert len(asked) == 1 and asked[0].startswith(
        "ring.json has unsaved changes from an editor that did not close cleanly")
    assert window.document.track.metadata.name == "The other editor's work"
    assert window.document.modified
    assert not side.exists(), "the restored work now lives in this editor's own recovery file"
    own = window.autosaver.side_file()
    assert load_track(own).metadata.name == "The other editor's work"
    assert window.save()
    assert load_track(ring_file).metadata.name == "The other editor's work"
    assert not own.exists()


def test_declined_work_of_a_killed_editor_is_removed(  # type: ignore[no-untyped-def]
    window, ring_file: Path
) -> None:
    # What an editor of an earlier version, or one killed before it took its lock, leaves.
    track = load_track(ring_file)
    left = ring_file.with_name(f".{ring_file.name}.4242-0badf00d.autosave")
    left.write_text(ring_file.read_text().replace('"Test ring"', '"Left behind"'))
    window.confirm_answer = False

    assert window.open_path(ring_file)

    assert window.document.track == track
    assert not left.exists()


def test_two_new_tracks_autosave_apart(window, second) -> None:  # type: ignore[no-untyped-def]
    _rename(window, "First new track")
    _rename(second, "Second new track")

    first_side, second_side = window.autosaver.save_now(), second.autosaver.save_now()

    assert first_side is not None and second_side is not None
    assert first_side != second_side and first_side.parent == second_side.parent
    assert load_track(first_side).metadata.name == "First new track"
    assert load_track(second_side).metadata.name == "Second new track"
