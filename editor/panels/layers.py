"""The layers panel: show, hide and lock each layer of the board, and the scan's opacity."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox, QGridLayout, QLabel, QSlider, QWidget

from editor.scene.board_scene import BoardScene
from editor.scene.style import Layer


class LayersPanel(QWidget):
    def __init__(self, scene: BoardScene, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.scene = scene
        grid = QGridLayout(self)
        grid.addWidget(QLabel("<b>Layer</b>"), 0, 0)
        grid.addWidget(QLabel("<b>Shown</b>"), 0, 1)
        grid.addWidget(QLabel("<b>Locked</b>"), 0, 2)
        self.shown: dict[Layer, QCheckBox] = {}
        self.locked: dict[Layer, QCheckBox] = {}
        for row, layer in enumerate(Layer, start=1):
            grid.addWidget(QLabel(layer.value), row, 0)
            shown = QCheckBox(self)
            shown.setChecked(layer not in scene.hidden)
            shown.toggled.connect(lambda on, layer=layer: scene.set_layer_visible(layer, on))
            locked = QCheckBox(self)
            locked.toggled.connect(lambda on, layer=layer: scene.set_layer_locked(layer, on))
            grid.addWidget(shown, row, 1)
            grid.addWidget(locked, row, 2)
            self.shown[layer], self.locked[layer] = shown, locked
        self.opacity = QSlider(Qt.Orientation.Horizontal, self)
        self.opacity.setRange(0, 100)
        self.opacity.setValue(int(scene.scan_opacity * 100))
        self.opacity.valueChanged.connect(lambda v: scene.set_scan_opacity(v / 100))
        grid.addWidget(QLabel("Scan opacity"), len(Layer) + 1, 0)
        grid.addWidget(self.opacity, len(Layer) + 1, 1, 1, 2)
        grid.setRowStretch(len(Layer) + 2, 1)
