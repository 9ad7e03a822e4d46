"""The board view: zoom around the cursor, pan, and mouse and keys handed to the active tool."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QPointF, QRect, QRectF, Qt, Signal
from PySide6.QtGui import QGuiApplication, QKeyEvent, QMouseEvent, QPainter, QPolygonF, QWheelEvent
from PySide6.QtWidgets import QGraphicsView, QWidget

from editor.scene.board_scene import BoardScene
from editor.tools.base import Tool

ZOOM_STEP = 1.2
MIN_SCALE, MAX_SCALE = 0.02, 40.0


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
        self.rubberBandChanged.connect(self._band_changed)

    def showEvent(self, event) -> None:  # type: ignore[no-untyped-def]
        super().showEvent(event)
        if self._fit_pending:
            self.fit()

    def resizeEvent(self, event) -> None:  # type: ignore[no-untyped-def]
        super().resizeEvent(event)
        if self._fit_pending:
            self.fit()
        self.viewChanged.emit()

    def scrollContentsBy(self, dx: int, dy: int) -> None:
        super().scrollContentsBy(dx, dy)
        self.viewChanged.emit()

    # Zoom ------------------------------------------------------------------------------------

    def scale_factor(self) -> float:
        return float(self.transform().m11())

    def zoom(self, steps: float) -> None:
        """Zoom by ``ZOOM_STEP ** steps`` around the cursor (or the centre for keys)."""
        factor = ZOOM_STEP**steps
        target = max(MIN_SCALE, min(MAX_SCALE, self.scale_factor() * factor))
        factor = target / self.scale_factor()
        self.scale(factor, factor)
        self.viewChanged.emit()

    def fit(self, rect: QRectF | None = None) -> None:
        """Fit the whole board and its picture where it is placed (or ``rect``) in the view;
        before the view is shown, on showing."""
        if not self.isVisible():
            self._fit_pending = True
            return
        self._fit_pending = False
        if rect is None:
            rect = self.board.board_rect()
        if rect is None or rect.isEmpty():
            rect = self.board.itemsBoundingRect()
        self.fitInView(rect, Qt.AspectRatioMode.KeepAspectRatio)
        self.viewChanged.emit()

    def centre_on_rect(self, rect: QRectF) -> None:
        """Centre on ``rect`` and zoom so that it fills about a fifth of the view: close enough
        to see the culprit, far enough to see what is around it."""
        view = self.viewport().rect()
        margin_w, margin_h = max(rect.width(), 1.0) * 1.5, max(rect.height(), 1.0) * 1.5
        around = rect.adjusted(-margin_w, -margin_h, margin_w, margin_h)
        wanted = min(view.width() / around.width(), view.height() / around.height())
        # Zoom in when the culprit would look small; zoom out only when it would not fit.
        if not 0.5 < wanted / self.scale_factor() < 1.25:
            self.fitInView(around, Qt.AspectRatioMode.KeepAspectRatio)
        self.centerOn(rect.center())
        self.viewChanged.emit()

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
