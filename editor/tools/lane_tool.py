"""The lane tool: click along the middle of a stretch of road, see its lanes, Enter adds them."""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QKeyEvent, QMouseEvent, QPainterPath
from PySide6.QtWidgets import (
    QDoubleSpinBox,
    QFormLayout,
    QGraphicsPathItem,
    QLabel,
    QLineEdit,
    QSpinBox,
    QWidget,
)

from editor import lanes
from editor.edits import EditError
from editor.scene import style
from editor.tools.base import Tool, ToolContext
from trackformat.builder.stretch import Stretch

NO_COUNT = "click along the road to see them"
"""What the live count says before there is a stretch to count."""


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
        """Lanes, lane width, space length or spaces per lane, and stagger, shown while the tool
        is active, with the count of spaces the stretch under the mouse gets."""
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
            self.length_box = QDoubleSpinBox(widget)
            self.length_box.setRange(0.0, 2000.0)
            self.length_box.setSuffix(" px")
            self.length_box.setSpecialValueText("by count")
            self.length_box.setValue(self.settings.space_length)
            self.length_box.setToolTip(
                "How long a space is: each lane gets as many spaces as fit its own line (fewer on "
                "the inside of a bend), or, staggered, as many as fit the middle of the road in "
                "every lane. 'by count' (0): give the spaces per lane instead"
            )
            self.counts_edit = QLineEdit("10", widget)
            self.counts_edit.setToolTip(
                "One number for every lane, or one per lane from the left: 14,13,12"
            )
            self.stagger_edit = QLineEdit("", widget)
            self.stagger_edit.setPlaceholderText("none")
            self.stagger_edit.setToolTip(
                "How far each lane's spaces lie ahead, as a share of a space: 0.5 staggers every "
                "other lane by half a space, as printed boards do; or one per lane: 0,0.5,0"
            )
            self.count_label = QLabel(NO_COUNT, widget)
            self.count_label.setWordWrap(True)
            form.addRow("Lanes", self.lanes_box)
            form.addRow("Lane width", self.spacing_box)
            form.addRow("Space length", self.length_box)
            form.addRow("Spaces per lane", self.counts_edit)
            form.addRow("Stagger", self.stagger_edit)
            form.addRow("Spaces", self.count_label)
            for signal in (
                self.lanes_box.valueChanged,
                self.spacing_box.valueChanged,
                self.length_box.valueChanged,
                self.counts_edit.textChanged,
                self.stagger_edit.textChanged,
            ):
                signal.connect(self._settings_changed)
            self._options = widget
        return self._options

    def _settings_changed(self) -> None:
        by_length = self.length_box.value() > 0
        self.counts_edit.setEnabled(not by_length)
        try:
            self.settings = lanes.LaneSettings(
                lanes=self.lanes_box.value(),
                spacing=self.spacing_box.value(),
                spaces=(self.settings.spaces if by_length
                        else lanes.parse_counts(self.counts_edit.text())),
                space_length=self.length_box.value(),
                stagger=lanes.parse_stagger(self.stagger_edit.text()),
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
        pos = self.snap(pos)
        point = (pos.x(), pos.y())
        if not self.points or self.points[-1] != point:
            self.points.append(point)
        self._show_preview(None)
        return True

    def move(self, event: QMouseEvent, pos: QPointF) -> bool:
        pos = self.snap(pos)
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
        self.scene.snapper.hide()
        self._show_count(None)
        if self.preview_item is not None:
            self.scene.removeItem(self.preview_item)
            self.preview_item = None

    # Preview ---------------------------------------------------------------------------------

    def _show_preview(self, cursor: tuple[float, float] | None) -> None:
        points = list(self.points)
        if cursor is not None and (not points or points[-1] != cursor):
            points.append(cursor)
        path = QPainterPath()
        stretch = None
        if len(points) >= 2:
            try:
                stretch = lanes.preview(self.document.track, points, self.settings)
            except EditError as err:
                self.context.status(str(err))
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
        self._show_count(stretch)
        if self.preview_item is None:
            self.preview_item = QGraphicsPathItem()
            self.preview_item.setPen(style.cosmetic_pen(style.CORNER_RED, 1.2))
            self.preview_item.setZValue(100)
            self.scene.addItem(self.preview_item)
        self.preview_item.setPath(path)

    def _show_count(self, stretch: Stretch | None) -> None:
        """The live count: how many spaces each lane of the previewed stretch gets, how long."""
        if self._options is None:
            return
        if stretch is None:
            self.count_label.setText(NO_COUNT)
            return
        counts = ", ".join(str(n) for n in stretch.counts)
        lengths = ", ".join(f"{length:.0f}" for length in stretch.space_lengths)
        self.count_label.setText(f"{counts} ({lengths} px each)")
