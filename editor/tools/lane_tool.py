"""The lane tool: click along the middle of a stretch of road, see its lanes, Enter adds them.

A stretch started at the end of the lanes laid continues them; one whose last click lands on the
start of the lanes closes the lap onto them. With *Pit lane* ticked the stretch is the pit lane.
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QBrush, QColor, QKeyEvent, QMouseEvent, QPainterPath
from PySide6.QtWidgets import (
    QCheckBox,
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
from trackformat.model import Space

NO_COUNT = "click along the road to see them"
"""What the live count says before there is a stretch to count."""

FOLD_FILL = QColor(220, 0, 0, 110)
"""The previewed spaces that fold over themselves, which Enter refuses to add."""


LANES_HINT = (
    "Click along the middle of the road in the driving direction; the lanes follow the "
    "mouse; end on the start of the lanes to close the lap; Enter or double-click adds "
    "them, Backspace drops the last point, Esc cancels"
)
PIT_HINT = (
    "Click beside the road in the driving direction, at the front of the space the pit lane "
    "is entered from and at the back of the one it leads onto (clicks snap beside a lane); "
    "Enter or double-click lays the pit spaces, Backspace drops the last point, Esc cancels"
)


class LaneTool(Tool):
    name = "Lanes"
    shortcut = "N"
    hint = LANES_HINT
    cursor = Qt.CursorShape.CrossCursor

    def __init__(self, context: ToolContext) -> None:
        super().__init__(context)
        self.points: list[tuple[float, float]] = []
        self.settings = lanes.LaneSettings()
        self.preview_item: QGraphicsPathItem | None = None
        self.fold_item: QGraphicsPathItem | None = None
        self._said = ""
        """What the preview last said in the status bar (a warning, or the lap it closes)."""
        self._options: QWidget | None = None

    # Options ---------------------------------------------------------------------------------

    def options(self) -> QWidget:
        """Lanes, lane width, space length or spaces per lane, stagger and whether the stretch is
        the pit lane, shown while the tool is active, with the count of spaces the stretch under
        the mouse gets."""
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
            self.stagger_edit = QLineEdit(
                ", ".join(f"{share:g}" for share in self.settings.stagger), widget)
            self.stagger_edit.setPlaceholderText("none")
            self.stagger_edit.setToolTip(
                "How far each lane's spaces lie ahead, as a share of a space: 0.5 (the default) "
                "staggers every other lane by half a space, as printed boards do; or one per "
                "lane: 0,0.5,0; empty for none"
            )
            self.pit_box = QCheckBox("one lane of pit spaces (pit-000, ...)", widget)
            self.pit_box.setToolTip(
                "Lay the pit lane: its spaces are pit spaces with ids of their own, added to the "
                "end of the pit lane; start each next stretch at its end"
            )
            self.count_label = QLabel(NO_COUNT, widget)
            self.count_label.setWordWrap(True)
            form.addRow("Lanes", self.lanes_box)
            form.addRow("Lane width", self.spacing_box)
            form.addRow("Space length", self.length_box)
            form.addRow("Spaces per lane", self.counts_edit)
            form.addRow("Stagger", self.stagger_edit)
            form.addRow("Pit lane", self.pit_box)
            form.addRow("Spaces", self.count_label)
            for signal in (
                self.lanes_box.valueChanged,
                self.spacing_box.valueChanged,
                self.length_box.valueChanged,
                self.counts_edit.textChanged,
                self.stagger_edit.textChanged,
                self.pit_box.toggled,
            ):
                signal.connect(self._settings_changed)
            self._options = widget
        return self._options

    def _settings_changed(self) -> None:
        by_length = self.length_box.value() > 0
        pit = self.pit_box.isChecked()
        self.counts_edit.setEnabled(not by_length)
        self.lanes_box.setEnabled(not pit)
        self.stagger_edit.setEnabled(not pit)
        hint = PIT_HINT if pit else LANES_HINT
        if hint != self.hint:  # what the clicks lay changed: say how to lay it
            self.hint = hint
            self.context.status(hint)
        try:
            self.settings = lanes.LaneSettings(
                lanes=self.lanes_box.value(),
                spacing=self.spacing_box.value(),
                spaces=(self.settings.spaces if by_length
                        else lanes.parse_counts(self.counts_edit.text())),
                space_length=self.length_box.value(),
                stagger=lanes.parse_stagger(self.stagger_edit.text()),
                pit=pit,
            )
        except EditError as err:
            self.context.status(str(err))
            return
        self._show_preview(None)

    def set_settings(self, settings: lanes.LaneSettings) -> None:
        self.settings = settings
        self._show_preview(None)

    # Mouse and keys --------------------------------------------------------------------------

    def _snap(self, pos: QPointF) -> QPointF:
        """``pos`` snapped; laying the pit lane, also to the middle of a lane alongside the
        road, so that the pit lane touches the track edge to edge."""
        beside = self.settings.spacing / 2 if self.settings.pit else None
        return self.snap(pos, beside=beside)

    def press(self, event: QMouseEvent, pos: QPointF) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        pos = self._snap(pos)
        point = (pos.x(), pos.y())
        if not self.points or self.points[-1] != point:
            self.points.append(point)
        self._show_preview(None)
        return True

    def move(self, event: QMouseEvent, pos: QPointF) -> bool:
        pos = self._snap(pos)
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
        what = "the pit lane" if settings.pit else f"{settings.lanes} lanes"
        done = self.document.edit(
            f"Add {what}", lambda t: lanes.add_stretch(t, points, settings)
        )
        if done:
            track = self.document.track
            added = [s.id for s in track.spaces if s.id not in before]
            self.document.set_selection(added)
            if settings.pit:
                after = ("lead into it and out of it with the Pit lane tool (P): Shift-click "
                         "the track space before it, Ctrl-click the one after")
            elif not lanes.open_ends(track) and not lanes.open_starts(track):
                after = "the lap is closed"
            else:
                after = ("carry on from their end for the next stretch, and end the last one on "
                         "the start of the lanes to close the lap")
            self.context.status(f"Added {len(added)} spaces; {after}")
            self.cancel()
        return done

    def cancel(self) -> None:
        self.points = []
        self._said = ""
        self.scene.snapper.hide()
        self._show_count(None)
        for item in (self.preview_item, self.fold_item):
            if item is not None:
                self.scene.removeItem(item)
        self.preview_item = self.fold_item = None

    # Preview ---------------------------------------------------------------------------------

    def _show_preview(self, cursor: tuple[float, float] | None) -> None:
        """The stretch as Enter would add it, and in the status bar what it ends on or why
        Enter would refuse it: lanes that fold over themselves are filled red."""
        points = list(self.points)
        if cursor is not None and (not points or points[-1] != cursor):
            points.append(cursor)
        path = QPainterPath()
        laying = None
        said = ""
        if len(points) >= 2:
            try:
                laying = lanes.lay(self.document.track, points, self.settings)
            except EditError as err:
                said = str(err)
            if laying is not None:
                _outline(path, laying.stretch.spaces)
                said = lanes.fold_message(laying.folds) if laying.folds else laying.closing()
        if said:
            self.context.status(said)
        elif self._said:
            self.context.status(self.hint)  # what was said of the last point holds no more
        self._said = said
        if points:
            path.moveTo(QPointF(*points[0]))
            for x, y in points[1:]:
                path.lineTo(QPointF(x, y))
        self._show_count(laying.stretch if laying is not None else None)
        if self.preview_item is None:
            self.preview_item = QGraphicsPathItem()
            self.preview_item.setPen(style.cosmetic_pen(style.CORNER_RED, 1.2))
            self.preview_item.setZValue(100)
            self.scene.addItem(self.preview_item)
        self.preview_item.setPath(path)
        self._show_folds(laying.folds if laying is not None else ())

    def _show_folds(self, folds: tuple[Space, ...]) -> None:
        if self.fold_item is None:
            self.fold_item = QGraphicsPathItem()
            self.fold_item.setPen(style.cosmetic_pen(style.CORNER_RED, 2.0))
            self.fold_item.setBrush(QBrush(FOLD_FILL))
            self.fold_item.setZValue(101)
            self.scene.addItem(self.fold_item)
        path = QPainterPath()
        _outline(path, folds)
        self.fold_item.setPath(path)

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


def _outline(path: QPainterPath, spaces: Iterable[Space]) -> None:
    """Add the outlines of ``spaces`` to ``path``."""
    for space in spaces:
        outline = [QPointF(x, y) for x, y in space.polygon]
        path.moveTo(outline[0])
        for corner in outline[1:]:
            path.lineTo(corner)
        path.closeSubpath()
