"""The board view: zoom around the cursor, pan, and mouse and keys handed to the active tool.

Zoom stays between "fit the board" and :data:`MAX_SCALE`: further out the board is only a small
picture in the middle of nothing, and the way back is a fit anyway; further in shows nothing
more of the scan. A view fitted to the board stays fitted while the window or its panels are
resized, until the designer zooms or pans: otherwise a window that opens smaller than it was
when the board was fitted cuts the board off, and the minimap comes up over it.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, QPointF, QRect, QRectF, Qt, Signal
from PySide6.QtGui import (
    QGuiApplication,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPolygonF,
    QTransform,
    QWheelEvent,
)
from PySide6.QtWidgets import QGraphicsView, QWidget

from editor.scene.board_scene import BoardScene
from editor.tools.base import Tool

ZOOM_STEP = 1.2
MAX_SCALE = 16.0
"""The closest zoom: a board pixel 16 screen pixels wide, enough to click one pixel of the scan
exactly (closer, the view shows a blur of a few pixels and nothing around them)."""
FIT_MARGIN = 2
"""The screen pixels Qt's ``fitInView`` leaves round what it fits."""


class BoardView(QGraphicsView):
    """Shows the board scene; the active tool sees the mouse first, then Qt's defaults apply."""

    rubberBandPicked = Signal(object, bool)
    """The elements a finished rubber band touched, and whether to add them (Shift or Ctrl)."""
    pointerMoved = Signal(object)
    """The board point (a QPointF, in board pixels) under the mouse."""
    viewChanged = Signal()
    """The view scrolled, zoomed or was resized: what it shows changed (for the minimap)."""

    def __init__(self, scene: BoardScene, parent: QWidget | None = None) -> None:
        super().__init__(scene, parent)
        self.board = scene
        self.tool: Tool | None = None
        self.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        self.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setResizeAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        self.setDragMode(QGraphicsView.DragMode.RubberBandDrag)
        self.setMouseTracking(True)
        self._pan_from: QPoint | None = None
        self._space_held = False
        self._fit_pending = False
        self._band: QPolygonF | None = None
        self._fitted: QTransform | None = None
        """The transform the last fit gave, while the designer has not zoomed or panned since
        (None once they have): a resize then fits the board again."""
        self.rubberBandChanged.connect(self._band_changed)
        # Only the designer's own scrolling (scroll bars, keys): Qt's doing emits no action.
        self.horizontalScrollBar().actionTriggered.connect(self._left_fit)
        self.verticalScrollBar().actionTriggered.connect(self._left_fit)

    def showEvent(self, event) -> None:  # type: ignore[no-untyped-def]
        super().showEvent(event)
        if self._fit_pending:
            self.fit()

    def resizeEvent(self, event) -> None:  # type: ignore[no-untyped-def]
        super().resizeEvent(event)
        if self._fit_pending or self.at_fit():
            self.fit()
        self.viewChanged.emit()

    def scrollContentsBy(self, dx: int, dy: int) -> None:
        super().scrollContentsBy(dx, dy)
        self.viewChanged.emit()

    # Zoom ------------------------------------------------------------------------------------

    def scale_factor(self) -> float:
        return float(self.transform().m11())

    def fit_scale(self) -> float:
        """The scale "fit the board" gives in the view as it is now: the farthest out zoom goes."""
        rect = self._board_area()
        width = self.viewport().width() - 2 * FIT_MARGIN
        height = self.viewport().height() - 2 * FIT_MARGIN
        if rect.isEmpty() or width <= 0 or height <= 0:
            return self.scale_factor()
        return min(width / rect.width(), height / rect.height())

    def at_fit(self) -> bool:
        """Whether the view shows the board as the last fit left it (no zoom or pan since)."""
        return self._fitted is not None and self.transform() == self._fitted

    def _left_fit(self, *_action: object) -> None:
        """The designer zoomed or panned: a resize keeps what they look at from now on."""
        self._fitted = None

    def _board_area(self) -> QRectF:
        """The board and its picture where it is placed (the items, on a board of no size);
        empty while the window closes, its items deleted before the view's last resize."""
        try:
            rect = self.board.board_rect()
            if rect.isEmpty():
                rect = self.board.itemsBoundingRect()
        except RuntimeError:
            return QRectF()
        return rect

    def zoom(self, steps: float) -> None:
        """Zoom by ``ZOOM_STEP ** steps`` around the cursor (or the centre for keys), never out
        past "fit the board" (reaching it fits the board: the whole of it, centred) nor in past
        :data:`MAX_SCALE` (a view set closer than that by a program stays as it is)."""
        current = self.scale_factor()
        target = min(max(MAX_SCALE, current), current * ZOOM_STEP**steps)
        if steps < 0 and target <= self.fit_scale() * 1.0001:
            self.fit()
            return
        self._left_fit()
        self.scale(target / current, target / current)
        self.viewChanged.emit()

    def fit(self, rect: QRectF | None = None) -> None:
        """Fit the whole board and its picture where it is placed (or ``rect``) in the view;
        before the view is shown, on showing. Fitted to the board, the view stays fitted as it
        is resized, until the designer zooms or pans."""
        if not self.isVisible():
            self._fit_pending = True
            return
        self._fit_pending = False
        whole = rect is None
        if rect is None:
            rect = self._board_area()
        if rect.isEmpty():
            return
        self.fitInView(rect, Qt.AspectRatioMode.KeepAspectRatio)
        self._fitted = self.transform() if whole else None
        self.viewChanged.emit()

    def centre_on_rect(self, rect: QRectF) -> None:
        """Centre on ``rect`` and zoom so that it fills about a fifth of the view: close enough
        to see the culprit, far enough to see what is around it. Never out past "fit the board"
        (a problem naming the whole lap shows the board fitted, not a quarter of the view), nor
        in past :data:`MAX_SCALE` (a problem at one point)."""
        view = self.viewport().rect()
        margin_w, margin_h = max(rect.width(), 1.0) * 1.5, max(rect.height(), 1.0) * 1.5
        around = rect.adjusted(-margin_w, -margin_h, margin_w, margin_h)
        wanted = min(view.width() / around.width(), view.height() / around.height())
        fit = self.fit_scale()
        wanted = max(fit, min(MAX_SCALE, wanted))
        current = self.scale_factor()
        # Zoom in when the culprit would look small; zoom out only when it would not fit.
        if not 0.5 < wanted / current < 1.25:
            self.setTransform(QTransform.fromScale(wanted, wanted))
        if self.scale_factor() <= fit * 1.0001 and self._board_area().contains(rect):
            self.fit()  # the whole board in view: centred as a fit centres it
            return
        self._left_fit()
        self.centerOn(rect.center())
        self.viewChanged.emit()

    def look_at(self, point: QPointF) -> None:
        """Centre the view on the board ``point`` (the minimap's click), as a pan."""
        self._left_fit()
        self.centerOn(point)

    def _band_changed(self, rect: QRect, _from: QPointF, _to: QPointF) -> None:
        # Qt reports the band while it is dragged and an empty one when it is let go.
        if not rect.isNull():
            self._band = self.mapToScene(rect)
            return
        if self._band is not None:
            band, self._band = self._band, None
            modifiers = QGuiApplication.keyboardModifiers()
            add = bool(
                modifiers
                & (Qt.KeyboardModifier.ShiftModifier | Qt.KeyboardModifier.ControlModifier)
            )
            self.rubberBandPicked.emit(self.board.elements_in(band), add)

    def wheelEvent(self, event: QWheelEvent) -> None:
        steps = event.angleDelta().y() / 120.0
        if steps:
            self.zoom(steps)
        event.accept()

    # Pan and tools ---------------------------------------------------------------------------

    def set_tool(self, tool: Tool | None) -> None:
        if self.tool is not None:
            self.tool.deactivate()
        self.tool = tool
        if tool is not None:
            tool.activate()
            self.viewport().setCursor(tool.cursor)
            self.setDragMode(
                QGraphicsView.DragMode.RubberBandDrag
                if tool.rubber_band
                else QGraphicsView.DragMode.NoDrag
            )

    def _panning(self, event: QMouseEvent) -> bool:
        return event.button() == Qt.MouseButton.MiddleButton or (
            self._space_held and event.button() == Qt.MouseButton.LeftButton
        )

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if self._panning(event):
            self._pan_from = event.position().toPoint()
            self.viewport().setCursor(Qt.CursorShape.ClosedHandCursor)
            event.accept()
            return
        if self.tool is not None and self.tool.press(
            event, self.mapToScene(event.position().toPoint())
        ):
            event.accept()
            return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        self.pointerMoved.emit(self.mapToScene(event.position().toPoint()))
        if self._pan_from is not None:
            delta = event.position().toPoint() - self._pan_from
            self._pan_from = event.position().toPoint()
            self._left_fit()
            self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() - delta.x())
            self.verticalScrollBar().setValue(self.verticalScrollBar().value() - delta.y())
            event.accept()
            return
        if self.tool is not None and self.tool.move(
            event, self.mapToScene(event.position().toPoint())
        ):
            event.accept()
            return
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if self._pan_from is not None:
            self._pan_from = None
            self.viewport().setCursor(self.tool.cursor if self.tool else Qt.CursorShape.ArrowCursor)
            event.accept()
            return
        if self.tool is not None and self.tool.release(
            event, self.mapToScene(event.position().toPoint())
        ):
            event.accept()
            return
        super().mouseReleaseEvent(event)

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:
        if self.tool is not None and self.tool.double_click(
            event, self.mapToScene(event.position().toPoint())
        ):
            event.accept()
            return
        super().mouseDoubleClickEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space_held = True
            self.viewport().setCursor(Qt.CursorShape.OpenHandCursor)
            event.accept()
            return
        if event.key() == Qt.Key.Key_Escape and self.tool is not None:
            self.tool.cancel()
            event.accept()
            return
        if self.tool is not None and self.tool.key(event):
            event.accept()
            return
        super().keyPressEvent(event)

    def keyReleaseEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space_held = False
            self.viewport().setCursor(self.tool.cursor if self.tool else Qt.CursorShape.ArrowCursor)
            event.accept()
            return
        super().keyReleaseEvent(event)
