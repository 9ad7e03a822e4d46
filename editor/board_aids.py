"""Aids on the board that are not tools: snapping and the minimap, turned on and off in the
View menu, remembered between sessions, and what snapping caught said in the status bar."""

from __future__ import annotations

from PySide6.QtCore import QObject, QSettings
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QLabel, QMenu, QStatusBar

from editor.minimap import Minimap
from editor.scene.board_scene import BoardScene
from editor.view import BoardView

SNAP_KEY, MINIMAP_KEY = "board/snap", "board/minimap"


class BoardAids(QObject):
    """The snap and minimap entries of ``view_menu``, the minimap over ``view``, and the snap
    label in ``status``; each switch kept in ``settings``."""

    def __init__(self, settings: QSettings, scene: BoardScene, view: BoardView,
                 status: QStatusBar, view_menu: QMenu, parent: QObject) -> None:
        super().__init__(parent)
        self.settings, self.scene = settings, scene
        self.snap_label = QLabel("")
        status.addPermanentWidget(self.snap_label)
        scene.snapper.changed.connect(self._show_snap)
        self.snap_action = self._toggle(view_menu, "Snap to corners and lane ends", "Shift+S",
                                        SNAP_KEY)
        self.snap_action.toggled.connect(self._snap)
        self._snap(self.snap_action.isChecked())

        self.minimap = Minimap(view)
        scene.changed.connect(lambda _rects: self.minimap.refresh())
        self.minimap_action = self._toggle(view_menu, "Minimap", "M", MINIMAP_KEY)
        self.minimap_action.toggled.connect(self._minimap)
        self._minimap(self.minimap_action.isChecked())

    def _toggle(self, menu: QMenu, text: str, keys: str, key: str) -> QAction:
        """A checkable entry of ``menu``, on unless the settings say it was turned off."""
        action = QAction(text, menu, checkable=True)
        action.setShortcut(QKeySequence(keys))
        action.setChecked(str(self.settings.value(key, "true")).lower() != "false")
        menu.addAction(action)
        return action

    def _snap(self, on: bool) -> None:
        """The snap entry turned on or off."""
        self.scene.snapper.set_enabled(on)
        self.settings.setValue(SNAP_KEY, on)
        self._show_snap("")

    def _show_snap(self, what: str) -> None:
        if not self.scene.snapper.enabled:
            self.snap_label.setText("snap off (Shift+S)")
        else:
            self.snap_label.setText(f"snap: {what}" if what else "")

    def _minimap(self, on: bool) -> None:
        """The minimap entry turned on or off."""
        self.settings.setValue(MINIMAP_KEY, on)
        self.minimap.set_enabled(on)
