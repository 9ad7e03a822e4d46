"""The align tool: match points of the track with the board picture, then move one onto the other.

Three modes. *Move the track onto the picture* (a better scan replaces the one the track was
drawn on): click a point of the track, then where it lies on the picture; the track's
coordinates change. *Move the picture onto the track* (your own scan under a shipped track):
click a point of the picture, then where it belongs on the track; only the picture's placement
changes, saved in the track file. Two pairs fix a similarity, three an affine map; Enter
applies, as one undoable step. *Move the picture by hand*: drag it; Shift turns and Ctrl scales
it about the middle of the view; each drag is one undoable step.
"""

from __future__ import annotations

import itertools

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QKeyEvent, QMouseEvent, QPainterPath
from PySide6.QtWidgets import QCheckBox, QComboBox, QFormLayout, QGraphicsPathItem, QWidget

from editor import alignment, placement
from editor.scene import style
from editor.scene.style import Layer
from editor.tools.base import Tool, ToolContext
from trackformat.model import Placement

MOVE_TRACK = "Move the track onto the picture"
MOVE_PICTURE = "Move the picture onto the track"
BY_HAND = "Move the picture by hand"

_drags = itertools.count(1)


class AlignTool(Tool):
    name = "Align"
    shortcut = "L"
    hint = (
        "Click a point of the track, then where it lies on the picture; two or three such "
        "pairs, then Enter moves the track onto the picture; Esc starts again"
    )
    picture_hint = (
        "Click a point of the board picture, then where it belongs on the track; two pairs "
        "(three to slant it), then Enter moves the picture; Esc starts again"
    )
    hand_hint = (
        "Drag the board picture to move it; Shift+drag turns it and Ctrl+drag scales it about "
        "the middle of the view"
    )
    cursor = Qt.CursorShape.CrossCursor

    def __init__(self, context: ToolContext) -> None:
        super().__init__(context)
        self.pairs: list[alignment.Pair] = []
        self.pending: tuple[float, float] | None = None
        self.mode = MOVE_TRACK
        self.keep_shape = False
        """In picture mode, fit a similarity even past two pairs (a flat scan is not slanted)."""
        self._options: QWidget | None = None
        self._marks: QGraphicsPathItem | None = None
        self._clicks: list[QPointF] = []
        self._drag: tuple[str, str, tuple[float, float], tuple[float, float]] | None = None
        """While the picture is dragged by hand: undo key, how, pivot and where it began."""
        self._drag_start: Placement | None = None

    def options(self) -> QWidget:
        """What moves onto what, shown while the tool is active."""
        if self._options is None:
            widget = QWidget()
            form = QFormLayout(widget)
            self.mode_box = QComboBox(widget)
            self.mode_box.addItems([MOVE_TRACK, MOVE_PICTURE, BY_HAND])
            self.mode_box.currentTextChanged.connect(self.set_mode)
            self.shape_box = QCheckBox("Keep the picture's shape", widget)
            self.shape_box.setToolTip(
                "Fit only a move, turn and scale however many pairs you match, and measure "
                "how well they agree (a flat-bed scan is never slanted)"
            )
            self.shape_box.toggled.connect(self._keep_shape)
            form.addRow("Align", self.mode_box)
            form.addRow("", self.shape_box)
            self.shape_box.setVisible(self.mode == MOVE_PICTURE)
            self._options = widget
        return self._options

    def _keep_shape(self, on: bool) -> None:
        self.keep_shape = on

    def set_mode(self, mode: str) -> None:
        self.mode = mode
        if self._options is not None:
            if self.mode_box.currentText() != mode:
                self.mode_box.setCurrentText(mode)
            self.shape_box.setVisible(mode == MOVE_PICTURE)  # pairs fitted to the picture only
        self.cancel()

    @property
    def moving_picture(self) -> bool:
        return self.mode == MOVE_PICTURE

    def activate(self) -> None:
        hints = {MOVE_PICTURE: self.picture_hint, BY_HAND: self.hand_hint}
        self.context.status(hints.get(self.mode, self.hint))

    def press(self, event: QMouseEvent, pos: QPointF) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        if self.mode == BY_HAND:
            if self._picture_movable():
                self._begin_drag(event, pos)
            return True
        if self.moving_picture and not self._picture_movable():
            return True
        if self._track_point_next():
            pos = self.snap(pos)
        point = (pos.x(), pos.y())
        self._mark(pos)
        if self.pending is None:
            if self.moving_picture:
                # Remembered in the picture's own pixels: the pair stays true whatever
                # placement the picture has now.
                point = placement.board_to_picture(self.document.track.board.placement, *point)
            self.pending = point
            self.context.status(
                f"Pair {len(self.pairs) + 1}: now click where this belongs on the track"
                if self.moving_picture
                else f"Pair {len(self.pairs) + 1}: now click where this lies on the picture"
            )
            return True
        self.pairs.append((self.pending, point))
        self.pending = None
        self.context.status(
            f"{len(self.pairs)} pair(s) matched: "
            + ("Enter aligns, or match another pair" if len(self.pairs) >= 2 else
               "match another pair")
        )
        return True

    def _begin_drag(self, event: QMouseEvent, pos: QPointF) -> None:
        modifiers = event.modifiers()
        how = (
            "turn" if modifiers & Qt.KeyboardModifier.ShiftModifier
            else "scale" if modifiers & Qt.KeyboardModifier.ControlModifier
            else "move"
        )
        views = self.scene.views()
        middle = views[0].viewport().rect().center() if views else None
        pivot = views[0].mapToScene(middle) if views and middle is not None else pos
        self._drag = (f"picture-{next(_drags)}", how, (pivot.x(), pivot.y()), (pos.x(), pos.y()))
        self._drag_start = self.document.track.board.placement

    def _track_point_next(self) -> bool:
        """Whether the next click is a point of the track (snapped), not of the picture."""
        if self.mode == BY_HAND:
            return False
        return (self.pending is None) != self.moving_picture

    def move(self, event: QMouseEvent, pos: QPointF) -> bool:
        if self._drag is None:
            if self._track_point_next():
                self.snap(pos)  # marks where a click would land
            else:
                self.scene.snapper.hide()
            return False
        key, how, pivot, start = self._drag
        placed = placement.moved_by_hand(self._drag_start, pivot, start, (pos.x(), pos.y()), how)
        board = self.document.track.board.model_copy(update={"placement": placed})
        words = {"move": "Move", "turn": "Turn", "scale": "Scale"}[how]
        self.document.edit(
            f"{words} picture by hand", lambda t: t.model_copy(update={"board": board}), key
        )
        return True

    def release(self, event: QMouseEvent, pos: QPointF) -> bool:
        if self._drag is None:
            return False
        self.move(event, pos)
        self._drag, self._drag_start = None, None
        return True

    def _picture_movable(self) -> bool:
        if self.scene.scan_item is None:
            self.context.status("There is no board picture to move: File > Set board picture")
            return False
        if Layer.SCAN in self.scene.locked:
            self.context.status(
                "The board picture is locked: untick Locked beside scan in the Layers panel"
            )
            return False
        return True

    def key(self, event: QKeyEvent) -> bool:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.commit()
            return True
        return False

    def commit(self) -> bool:
        if self.mode == BY_HAND:
            return False
        done = self._commit_picture() if self.moving_picture else self._commit_track()
        if done:
            self._reset()
        return done

    def _commit_track(self) -> bool:
        pairs = list(self.pairs)
        try:
            matrix = alignment.fit_transform(pairs)
        except alignment.EditError as err:
            self.context.status(str(err))
            return False
        done = self.document.edit(
            "Align track to picture", lambda t: alignment.transform_track(t, matrix)
        )
        if done:
            worst = max(alignment.residuals(pairs, matrix))
            self.context.status(
                f"Aligned on {len(pairs)} pairs; the worst point is {worst:.1f} px off"
            )
        return done

    def _commit_picture(self) -> bool:
        if not self._picture_movable():
            return False
        try:
            fit = placement.fit_placement(self.pairs, self.keep_shape)
        except alignment.EditError as err:
            self.context.status(str(err))
            return False
        board = self.document.track.board.model_copy(update={"placement": fit.placement})
        done = self.document.edit(
            "Move picture onto track", lambda t: t.model_copy(update={"board": board})
        )
        if done:
            self.context.status(fit.describe())
        return done

    def _mark(self, pos: QPointF) -> None:
        """Small crosses where the pairs were clicked, until they are applied or dropped."""
        self._clicks.append(pos)
        path = QPainterPath()
        for index, click in enumerate(self._clicks):
            size = 12.0 if index % 2 == 0 else 8.0
            path.moveTo(click + QPointF(-size, 0))
            path.lineTo(click + QPointF(size, 0))
            path.moveTo(click + QPointF(0, -size))
            path.lineTo(click + QPointF(0, size))
            if index % 2 == 1:
                path.moveTo(self._clicks[index - 1])
                path.lineTo(click)
        if self._marks is None:
            self._marks = QGraphicsPathItem()
            self._marks.setPen(style.cosmetic_pen(style.PROBLEM_ERROR, 2.0))
            self._marks.setZValue(1000.0)
            self.scene.addItem(self._marks)
        self._marks.setPath(path)

    def _reset(self) -> None:
        self.pairs, self.pending, self._clicks = [], None, []
        self._drag, self._drag_start = None, None
        if self._marks is not None:
            try:
                if self._marks.scene() is self.scene:
                    self.scene.removeItem(self._marks)
            except RuntimeError:  # already gone with the scene's items (another track opened)
                pass
            self._marks = None

    def cancel(self) -> None:
        self._reset()
        self.scene.snapper.hide()
        self.activate()
