"""The lane tool: click along the middle of a stretch of road, see its lanes, Enter adds them."""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QKeyEvent, QMouseEvent, QPainterPath
from PySide6.QtWidgets import (
    QDoubleSpinBox,
    QFormLayout,
    QGraphicsPathItem,
    QLineEdit,
    QSpinBox,
    QWidget,
)

from editor import lanes
from editor.edits import EditError
from editor.scene import style
from editor.tools.base import Tool, ToolContext


class LaneTool(Tool):
    name = "Lanes"
    shortcut = "N"
    hint = (
        "Click along the middle of the road in the driving direction; the lanes follow the "
        "mouse; Enter or double-click adds them, Backspace drops the last point, Esc cancels"
    )
    cursor = Qt.CursorShape.CrossCursor

    def __init__(self, context: ToolContext) -> None:
        super().__init__(context)
        self.points: list[tuple[float, float]] = []
        self.settings = lanes.LaneSettings()
        self.preview_item: QGraphicsPathItem | None = None
        self._options: QWidget | None = None

    # Options ---------------------------------------------------------------------------------

    def options(self) -> QWidget:
        """Lanes, spacing and spaces per lane, shown while the tool is active."""
        if self._options is None:
            widget = QWidget()
            form = QFormLayout(widget)
            self.lanes_box = QSpinBox(widget)
            self.lanes_box.setRange(1, 4)
            self.lanes_box.setValue(self.settings.lanes)
            self.spacing_box = QDoubleSpinBox(widget)
            self.spacing_box.setRange(2.0, 2000.0)
            self.spacing_box.setSuffix(" px")
            self.spacing_box.setValue(self.settings.spacing)
            self.counts_edit = QLineEdit("10", widget)
            self.counts_edit.setToolTip(
                "One number for every lane, or one per lane from the left: 14,13,12"
            )
            form.addRow("Lanes", self.lanes_box)
            form.addRow("Lane width", self.spacing_box)
            form.addRow("Spaces per lane", self.counts_edit)
            for signal in (
                self.lanes_box.valueChanged,
                self.spacing_box.valueChanged,
                self.counts_edit.textChanged,
            ):
                signal.connect(self._settings_changed)
            self._options = widget
        return self._options

    def _settings_changed(self) -> None:
        try:
            self.settings = lanes.LaneSettings(
                lanes=self.lanes_box.value(),
                spacing=self.spacing_box.value(),
                spaces=lanes.parse_counts(self.counts_edit.text()),
            )
        except EditError as err:
            self.context.status(str(err))
            return
        self._show_preview(None)

    def set_settings(self, settings: lanes.LaneSettings) -> None:
        self.settings = settings
        self._show_preview(None)

    # Mouse and keys --------------------------------------------------------------------------

    def press(self, event: QMouseEvent, pos: QPointF) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        point = (pos.x(), pos.y())
        if not self.points or self.points[-1] != point:
            self.points.append(point)
        self._show_preview(None)
        return True

    def move(self, event: QMouseEvent, pos: QPointF) -> bool:
        if not self.points:
            return False
        self._show_preview((pos.x(), pos.y()))
        return True

    def double_click(self, event: QMouseEvent, pos: QPointF) -> bool:
        self.commit()
        return True

    def key(self, event: QKeyEvent) -> bool:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.commit()
            return True
        if event.key() == Qt.Key.Key_Backspace and self.points:
            self.points.pop()
            self._show_preview(None)
            return True
        return False

    def commit(self) -> bool:
        points, settings = list(self.points), self.settings
        if len(points) < 2:
            self.context.status("click at least two points along the middle of the road")
            return False
        before = {s.id for s in self.document.track.spaces}
        done = self.document.edit(
            f"Add {settings.lanes} lanes", lambda t: lanes.add_stretch(t, points, settings)
        )
        if done:
            added = [s.id for s in self.document.track.spaces if s.id not in before]
            self.document.set_selection(added)
            self.context.status(
                f"Added {len(added)} spaces; carry on from their end for the next stretch"
            )
            self.cancel()
        return done

    def cancel(self) -> None:
        self.points = []
        if self.preview_item is not None:
            self.scene.removeItem(self.preview_item)
            self.preview_item = None

    # Preview ---------------------------------------------------------------------------------

    def _show_preview(self, cursor: tuple[float, float] | None) -> None:
        points = list(self.points)
        if cursor is not None and (not points or points[-1] != cursor):
            points.append(cursor)
        path = QPainterPath()
        if len(points) >= 2:
            try:
                stretch = lanes.preview(self.document.track, points, self.settings)
            except EditError as err:
                self.context.status(str(err))
                stretch = None
            if stretch is not None:
                for space in stretch.spaces:
                    outline = [QPointF(x, y) for x, y in space.polygon]
                    path.moveTo(outline[0])
                    for corner in outline[1:]:
                        path.lineTo(corner)
                    path.closeSubpath()
        if points:
            path.moveTo(QPointF(*points[0]))
            for x, y in points[1:]:
                path.lineTo(QPointF(x, y))
        if self.preview_item is None:
            self.preview_item = QGraphicsPathItem()
            self.preview_item.setPen(style.cosmetic_pen(style.CORNER_RED, 1.2))
            self.preview_item.setZValue(100)
            self.scene.addItem(self.preview_item)
        self.preview_item.setPath(path)
