"""What the editor remembers between sessions: the window's size and panels, and the folder the
designer last worked in (where the next Open or New dialog starts)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray

if TYPE_CHECKING:
    from editor.mainwindow import MainWindow

LAYOUT_VERSION = 1
"""Bumped when the panels change, so that an old saved layout is not applied to new panels."""


def restore_layout(window: MainWindow) -> None:
    """Put the window and its panels back as they were when it last closed."""
    geometry = window.settings.value("window/geometry")
    state = window.settings.value("window/state")
    if isinstance(geometry, QByteArray):
        window.restoreGeometry(geometry)
    if isinstance(state, QByteArray):
        window.restoreState(state, LAYOUT_VERSION)


def save_layout(window: MainWindow) -> None:
    window.settings.setValue("window/geometry", window.saveGeometry())
    window.settings.setValue("window/state", window.saveState(LAYOUT_VERSION))
    window.settings.sync()


def last_folder(window: MainWindow) -> str:
    """The folder of the file last opened, saved or started from ("" before any)."""
    folder = window.settings.value("last_folder", "")
    return str(folder) if folder and Path(str(folder)).is_dir() else ""


def remember_folder(window: MainWindow, path: Path) -> None:
    window.settings.setValue("last_folder", str(path.resolve().parent))
