"""Qt fixtures: a main window with its own settings file and no dialogs."""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QCoreApplication, QEvent, QSettings

from tests.factories import ring
from trackformat.io import save_track


def _bury_the_dead(set_aside: bool = False) -> None:
    """Delete the widgets closed so far and collect their Python wrappers, now.

    Every test leaves a closed window behind. Left to Python's cycle collector, its wrappers die
    whenever the next collection runs, which may be in the middle of another window's paint
    event, and Qt then deletes widgets under the painter's feet (a segmentation fault a few
    tests later). Done here, between tests, nothing else is drawing.

    ``set_aside`` (before a test, when the tests before it have let go of their windows): what
    survives is set aside for the collector (:func:`gc.freeze`), so that the burial after the
    test, and every collection Python starts meanwhile, looks only at the objects made since.
    Without it each collection walked the whole heap of the test process, which the race tests
    run before (``SLOWEST_FIRST`` in tests/conftest.py) fill with millions of objects: a second
    or more per burial in `make test`, more than the editor tests themselves took. Not after a
    test: pytest still holds the test's window then, which would be set aside for good."""
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    gc.collect()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    if set_aside:
        gc.freeze()


@pytest.fixture(autouse=True)
def _windows_die_between_tests(qapp) -> Iterator[None]:  # type: ignore[no-untyped-def]
    _bury_the_dead(set_aside=True)
    yield
    _bury_the_dead()


REPOSITORY = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _autosaves_in_the_tests_own_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The autosave of a track of the repository (``tracks/monaco.json``), or of a track never
    saved, goes to the test's own folder.

    Left beside the shipped track, the side file of a test that edits it would be offered back,
    and taken (``confirm_answer``), by a test of another process (``pytest -n``) that opens the
    same track meanwhile, or by the user's next ``make run`` should the test die before its
    window closes; an untitled track's would go to the user's own data folder, which the test
    processes share. The tests of autosave itself use tracks in their ``tmp_path``, whose side
    files stay where the editor puts them."""
    from editor import autosave

    beside = autosave.side_file
    folder = tmp_path / "autosaves"
    folder.mkdir(exist_ok=True)

    def side_file(track_path: Path | None) -> Path:
        if track_path is None:
            return folder / beside(None).name
        if track_path.resolve().is_relative_to(REPOSITORY):
            return folder / beside(track_path).name
        return beside(track_path)

    monkeypatch.setattr(autosave, "side_file", side_file)


@pytest.fixture
def ring_file(tmp_path: Path) -> Path:
    path = tmp_path / "ring.json"
    save_track(ring(), path)
    return path


@pytest.fixture
def window(qtbot, tmp_path: Path) -> Iterator[object]:  # type: ignore[no-untyped-def]
    from editor.mainwindow import MainWindow

    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    win = MainWindow(settings, ask=False)
    qtbot.addWidget(win)
    win.resize(1200, 800)
    win.show()
    yield win
    win.validation.wait()
    win.unsaved_answer = "discard"
    win.close()
    win.deleteLater()
