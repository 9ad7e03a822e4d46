"""Aids on the board that are not tools: snapping and the minimap, turned on and off in the
View menu, remembered between sessions, and what snapping caught said in the status bar."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QLabel, QMenu

from editor.minimap import Minimap

if TYPE_CHECKING:
    from editor.mainwindow import MainWindow

SNAP_KEY, MINIMAP_KEY = "board/snap", "board/minimap"


def _setting(window: MainWindow, key: str) -> bool:
    return str(window.settings.value(key, "true")).lower() != "false"


def _toggle(window: MainWindow, menu: QMenu, text: str, keys: str, on: bool) -> QAction:
    action = QAction(text, window, checkable=True)
    action.setShortcut(QKeySequence(keys))
    action.setChecked(on)
    menu.addAction(action)
    return action


def install(window: MainWindow, view_menu: QMenu) -> None:
    """The snap and minimap entries of the View menu, the minimap, and the snap label."""
    window.snap_label = QLabel("")
    window.statusBar().addPermanentWidget(window.snap_label)
    snapper = window.scene.snapper
    snapper.changed.connect(lambda what: _show_snap(window, what))
    window.snap_action = _toggle(
        window, view_menu, "Snap to corners and lane ends", "Shift+S", _setting(window, SNAP_KEY)
    )
    window.snap_action.toggled.connect(lambda on: set_snapping(window, on))
    set_snapping(window, window.snap_action.isChecked())

    window.minimap = Minimap(window.view)
    window.scene.changed.connect(lambda _rects: window.minimap.refresh())
    window.minimap_action = _toggle(
        window, view_menu, "Minimap", "M", _setting(window, MINIMAP_KEY)
    )
    window.minimap_action.toggled.connect(lambda on: show_minimap(window, on))
    show_minimap(window, window.minimap_action.isChecked())


def set_snapping(window: MainWindow, on: bool) -> None:
    window.scene.snapper.set_enabled(on)
    window.settings.setValue(SNAP_KEY, on)
    if window.snap_action.isChecked() != on:
        window.snap_action.setChecked(on)
    _show_snap(window, "")


def _show_snap(window: MainWindow, what: str) -> None:
    if not window.scene.snapper.enabled:
        window.snap_label.setText("snap off (Shift+S)")
    else:
        window.snap_label.setText(f"snap: {what}" if what else "")


def show_minimap(window: MainWindow, on: bool) -> None:
    window.settings.setValue(MINIMAP_KEY, on)
    if window.minimap_action.isChecked() != on:
        window.minimap_action.setChecked(on)
    window.minimap.set_enabled(on)
