"""Graphics items of the board: spaces, the link arrows, corners, grid numbers, problem markers."""

from __future__ import annotations

import math
from collections.abc import Iterable

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetricsF,
    QPainter,
    QPainterPath,
    QPainterPathStroker,
    QPen,
    QPolygonF,
)
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsPathItem,
    QGraphicsPolygonItem,
    QStyleOptionGraphicsItem,
    QWidget,
)

from editor.scene import style
from trackformat.model import Space

ELEMENT_ID = 0
"""``QGraphicsItem.data`` key holding the id of the track element an item shows."""


def polygon_of(points: Iterable[tuple[float, float]]) -> QPolygonF:
    return QPolygonF([QPointF(x, y) for x, y in points])


class SpaceItem(QGraphicsPolygonItem):
    """One space, drawn by Qt itself (no Python ``paint``: thousands of spaces redraw on every
    frame of a pan). Selection, the finish line and the heatmap only change its brush; the
    document, not Qt, knows what is selected."""

    def __init__(self, space: Space) -> None:
        super().__init__()
        self.setPen(style.SPACE_PEN)
        self.selected = False
        self.finish = False
        self.garage = False
        self.heat: QColor | None = None
        self.show_space(space)

    def show_space(self, space: Space) -> None:
        self.space = space
        self.setData(ELEMENT_ID, space.id)
        self.setPolygon(polygon_of(space.polygon))
        lane = f", lane {space.lane}" if space.lane else ""
        self.setToolTip(f"{space.id}  ({space.kind.value}{lane})")
        self.restyle()

    def mark(self, finish: bool, garage: bool) -> None:
        """Show whether the space is on the finish line and whether it is a garage, restyling
        only when that changed (a restyle per space on every edit would cost a large board)."""
        if self.finish != finish or self.garage != garage:
            self.finish, self.garage = finish, garage
            self.restyle()

    def restyle(self) -> None:
        """Pick the fill from the space's state: selected, heat, finish line, garage, kind."""
        if self.selected:
            fill = style.SELECTED_FILL
        elif self.heat is not None:
            fill = self.heat
        elif self.finish:
            fill = style.FINISH_FILL
        elif self.garage:
            fill = style.GARAGE_FILL
        else:
            fill = style.SPACE_FILL.get(self.space.kind.value, style.SPACE_FILL["track"])
        self.setBrush(QBrush(fill))


def arrow_path(links: Iterable[tuple[QPointF, QPointF]], head: float) -> QPainterPath:
    """One path holding an arrow per link: a line from near the source to near the target, with
    a head. One path item for all links draws far faster than an item per link."""
    path = QPainterPath()
    for start, end in links:
        dx, dy = end.x() - start.x(), end.y() - start.y()
        length = math.hypot(dx, dy)
        if length < 1e-6:
            continue
        ux, uy = dx / length, dy / length
        a = QPointF(start.x() + ux * length * 0.25, start.y() + uy * length * 0.25)
        b = QPointF(end.x() - ux * length * 0.25, end.y() - uy * length * 0.25)
        path.moveTo(a)
        path.lineTo(b)
        size = min(head, length * 0.3)
        left = QPointF(b.x() - ux * size - uy * size * 0.5, b.y() - uy * size + ux * size * 0.5)
        right = QPointF(b.x() - ux * size + uy * size * 0.5, b.y() - uy * size - ux * size * 0.5)
        path.moveTo(left)
        path.lineTo(b)
        path.lineTo(right)
    return path


class CornerItem(QGraphicsPathItem):
    """A corner's limits, drawn red and white, selectable as the corner."""

    def __init__(self, corner_id: str, outline: QPainterPath) -> None:
        super().__init__(outline)
        self.setData(ELEMENT_ID, corner_id)
        self.selected = False
        self.setBrush(Qt.BrushStyle.NoBrush)

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        width = 4.0 if self.selected else 2.5
        red = style.cosmetic_pen(style.CORNER_RED, width)
        white = style.cosmetic_pen(style.CORNER_WHITE, width, Qt.PenStyle.DashLine)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        for pen in (red, white):
            painter.setPen(pen)
            painter.drawPath(self.path())

    def shape(self) -> QPainterPath:
        # Only the limit line is the corner's, so the spaces inside stay clickable; the Select
        # tool also takes a band a few screen pixels wide along it, and the corner's label
        # (BoardScene.element_at).
        stroker_pen = QPen()
        stroker_pen.setWidthF(6.0)
        stroker = QPainterPathStroker(stroker_pen)
        return stroker.createStroke(self.path())


class LabelItem(QGraphicsItem):
    """A small text on a coloured box (stop counts, grid numbers), kept the same size on screen,
    or, given ``most`` (board pixels), no larger than that on the board: a grid number stays
    within its slot when the view zooms out, as a number printed on the board does, rather
    than cover the slots round it."""

    def __init__(self, text: str, back: QColor, fore: QColor, size: float = 9.0,
                 most: float | None = None) -> None:
        super().__init__()
        self.text, self.back, self.fore = text, back, fore
        self.most = most
        self.font = QFont()
        self.font.setPointSizeF(size)
        self.font.setBold(True)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations, True)
        metrics = QFontMetricsF(self.font)
        lines = text.split("\n")
        width = max(metrics.horizontalAdvance(line) for line in lines) + 8
        self._rect = QRectF(0, 0, width, metrics.lineSpacing() * len(lines) + 4)
        self._rect.moveCenter(QPointF(0, 0))

    def boundingRect(self) -> QRectF:
        return self._rect

    def stand_off(self, direction: tuple[float, float], gap: float = 3.0) -> None:
        """Put the box beside its position instead of on it, on the side ``direction`` (a unit
        vector) points to, ``gap`` screen pixels away: the whole box lies beyond the line through
        the position square to ``direction``, so a corner's label stands outside its limits,
        whatever the zoom, and hides none of its spaces."""
        dx, dy = direction
        half_w, half_h = self._rect.width() / 2, self._rect.height() / 2
        reach = half_w * abs(dx) + half_h * abs(dy)
        self.prepareGeometryChange()
        self._rect.moveCenter(QPointF(dx * (reach + gap), dy * (reach + gap)))

    def shrink(self) -> float:
        """How much smaller than its usual size the label is drawn at the view's zoom (1: not
        at all): its box no larger than :attr:`most` board pixels across."""
        scene = self.scene()
        if self.most is None or scene is None or not scene.views():
            return 1.0
        on_screen = self.most * scene.views()[0].transform().m11()
        return min(1.0, on_screen / max(self._rect.width(), self._rect.height()))

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        shrink = self.shrink()
        if shrink < 1.0:
            painter.scale(shrink, shrink)
        painter.setPen(QPen(QColor(0, 0, 0), 1))
        painter.setBrush(QBrush(self.back))
        painter.drawRect(self._rect)
        painter.setPen(self.fore)
        painter.setFont(self.font)
        painter.drawText(self._rect, Qt.AlignmentFlag.AlignCenter, self.text)


class ProblemMarker(QGraphicsItem):
    """A ring around the board point of a diagnostic; its tooltip is the message."""

    RADIUS = 9.0

    def __init__(self, colour: QColor, tooltip: str, elements: tuple[str, ...]) -> None:
        super().__init__()
        self.colour = colour
        self.elements = elements
        self.setToolTip(tooltip)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations, True)

    def boundingRect(self) -> QRectF:
        r = self.RADIUS + 2
        return QRectF(-r, -r, 2 * r, 2 * r)

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(self.colour, 2.5))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawEllipse(QPointF(0, 0), self.RADIUS, self.RADIUS)
        painter.drawLine(QPointF(0, -4), QPointF(0, 2))
        painter.drawPoint(QPointF(0, 5))
