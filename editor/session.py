"""What the editor remembers between sessions: the window's size and panels, the layers shown
and locked and the scan's opacity, and the folder the designer last worked in (where the next
Open dialog starts)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QSettings

from editor.scene.style import Layer

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
    layers = window.layers
    hidden, locked = _names(window, "layers/hidden"), _names(window, "layers/locked")
    for layer in Layer:
        layers.shown[layer].setChecked(layer.value not in hidden)
        layers.locked[layer].setChecked(layer.value in locked)
    opacity = window.settings.value("layers/scan_opacity")
    if opacity is not None and str(opacity).isdigit():
        layers.opacity.setValue(int(str(opacity)))


def save_layout(window: MainWindow) -> None:
    window.settings.setValue("window/geometry", window.saveGeometry())
    window.settings.setValue("window/state", window.saveState(LAYOUT_VERSION))
    layers = window.layers
    window.settings.setValue(
        "layers/hidden", [layer.value for layer in Layer if not layers.shown[layer].isChecked()]
    )
    window.settings.setValue(
        "layers/locked", [layer.value for layer in Layer if layers.locked[layer].isChecked()]
    )
    window.settings.setValue("layers/scan_opacity", layers.opacity.value())
    window.settings.sync()


def _names(window: MainWindow, key: str) -> set[str]:
    """A list saved in the settings (an INI file gives one item back as a plain string)."""
    value = window.settings.value(key, [])
    if isinstance(value, str):
        return {value} if value else set()
    return {str(v) for v in value} if isinstance(value, list) else set()


def last_folder(settings: QSettings) -> str:
    """The folder of the file last opened, saved or started from ("" before any)."""
    folder = settings.value("last_folder", "")
    return str(folder) if folder and Path(str(folder)).is_dir() else ""


def remember_folder(settings: QSettings, path: Path) -> None:
    """Remember the folder of ``path`` as the one last worked in."""
    settings.setValue("last_folder", str(path.resolve().parent))
