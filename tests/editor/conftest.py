"""Qt fixtures: a main window with its own settings file and no dialogs."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QSettings

from tests.factories import ring
from trackformat.io import save_track


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
