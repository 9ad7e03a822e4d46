"""The minimap: a small overview of the whole board in a corner of the view.

It shows the board picture and the spaces, and a frame round the part of the board the view
shows; a click (or a drag) on it moves the view there. Zoomed in on one corner of a large scan,
the designer sees where they are and goes elsewhere without zooming out. It shows only while
part of the board is out of view: with the board fitted (as far out as the view zooms, and kept
fitted as the window is resized) it would only hide a corner of the board.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import (
    QColor,
    QMouseEvent,
    QPainter,
    QPainterPath,
    QPaintEvent,
    QPen,
    QPixmap,
    QTransform,
)
from PySide6.QtWidgets import QWidget

from editor.scene.board_scene import BoardScene
from editor.view import FIT_MARGIN, BoardView

SIZE = QSize(220, 160)
"""The minimap's size in screen pixels."""
MARGIN = 8
"""Its distance from the view's edges."""
PICTURE_WIDTH = 480
"""The board picture is kept at about this width for the minimap (a scan is 5,000 px)."""
BACKGROUND = QColor(45, 45, 45)
SPACE_COLOUR = QColor(250, 250, 250, 200)
FRAME_COLOUR = QColor(255, 40, 40)


class Minimap(QWidget):
    """See the module docstring; a child of the board view, kept in its bottom-right corner."""

    def __init__(self, view: BoardView) -> None:
        super().__init__(view)
        self.view = view
        self.board: BoardScene = view.board
        self.setFixedSize(SIZE)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setToolTip("The whole board: click or drag to move the view there")
        self._spaces_key: object = None
        self._spaces = QPainterPath()
        self._picture_key: object = None
        self._picture: QPixmap | None = None
        self.enabled = True
        """Whether the designer wants it (View > Minimap); it shows only while the view does not
        show the whole board, where it would just cover part of it."""
        view.viewChanged.connect(self._follow)
        self._follow()

    def refresh(self) -> None:
        """The board changed: redraw, and show or hide as the board now fits the view or not."""
        self._follow()

    def _follow(self) -> None:
        """Keep to the view's bottom-right corner, inside its scroll bars, and repaint; shown
        while part of the board is out of view."""
        area = self.view.viewport().geometry()
        self.move(area.right() - self.width() - MARGIN, area.bottom() - self.height() - MARGIN)
        self.setVisible(self.enabled and not self.whole_board_in_view())
        self.raise_()
        self.update()

    def whole_board_in_view(self) -> bool:
        """Whether the view shows the whole board, give or take a screen pixel or two: at "fit
        the board" (where zooming out stops) the minimap would only cover a corner of it."""
        board = self._board_rect()
        if board.isEmpty():
            return True
        slack = (FIT_MARGIN + 1) / max(self.view.scale_factor(), 1e-9)
        return self.visible_area().adjusted(-slack, -slack, slack, slack).contains(board)

    def set_enabled(self, on: bool) -> None:
        self.enabled = on
        self._follow()

    # What is drawn ---------------------------------------------------------------------------

    def board_to_map(self) -> QTransform:
        """Board pixels to the minimap's pixels: the board and its picture fitted, centred."""
        rect = self._board_rect()
        if rect.isEmpty():
            return QTransform()
        scale = min((self.width() - 4) / rect.width(), (self.height() - 4) / rect.height())
        dx = (self.width() - rect.width() * scale) / 2 - rect.left() * scale
        dy = (self.height() - rect.height() * scale) / 2 - rect.top() * scale
        return QTransform(scale, 0, 0, scale, dx, dy)

    def _board_rect(self) -> QRectF:
        """The board and its picture; empty while the window closes (its items deleted before
        the view's last resize reaches the minimap)."""
        try:
            return self.board.board_rect()
        except RuntimeError:
            return QRectF()

    def visible_area(self) -> QRectF:
        """The part of the board the view shows, in board pixels."""
        return self.view.mapToScene(self.view.viewport().rect()).boundingRect()

    def _space_outlines(self) -> QPainterPath:
        track = self.board.track
        if track is None:
            return QPainterPath()
        if self._spaces_key is not track.spaces:
            path = QPainterPath()
            for space in track.spaces:
                outline = [QPointF(x, y) for x, y in space.polygon]
                if outline:
                    path.moveTo(outline[0])
                    for corner in outline[1:]:
                        path.lineTo(corner)
                    path.closeSubpath()
            self._spaces_key, self._spaces = track.spaces, path
        return self._spaces

    def _board_picture(self) -> QPixmap | None:
        item = self.board.scan_item
        if item is None or self._board_rect().isEmpty():
            return None
        if self._picture_key is not item:
            pixmap = item.pixmap()
            if pixmap.width() > PICTURE_WIDTH:
                pixmap = pixmap.scaledToWidth(
                    PICTURE_WIDTH, Qt.TransformationMode.SmoothTransformation
                )
            self._picture_key, self._picture = item, pixmap
        return self._picture

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.fillRect(self.rect(), BACKGROUND)
        to_map = self.board_to_map()
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        picture = self._board_picture()
        item = self.board.scan_item
        if picture is not None and item is not None and item.isVisible():
            shrink = item.pixmap().width() / max(picture.width(), 1)
            painter.setTransform(QTransform.fromScale(shrink, shrink) * item.transform() * to_map)
            painter.setOpacity(item.opacity())
            painter.drawPixmap(0, 0, picture)
            painter.setOpacity(1.0)
        painter.setTransform(to_map)
        painter.fillPath(self._space_outlines(), SPACE_COLOUR)
        painter.resetTransform()
        frame = to_map.mapRect(self.visible_area()).intersected(QRectF(self.rect()))
        painter.setPen(QPen(FRAME_COLOUR, 2))
        painter.drawRect(frame.adjusted(1, 1, -1, -1))
        painter.setPen(QPen(QColor(20, 20, 20), 1))
        painter.drawRect(self.rect().adjusted(0, 0, -1, -1))
        painter.end()

    # Moving the view -------------------------------------------------------------------------

    def map_to_board(self, point: QPointF) -> QPointF:
        inverse, _ = self.board_to_map().inverted()
        return inverse.map(point)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self.view.look_at(self.map_to_board(event.position()))
            event.accept()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if event.buttons() & Qt.MouseButton.LeftButton:
            self.view.look_at(self.map_to_board(event.position()))
            event.accept()
