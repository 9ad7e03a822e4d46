"""The align tool: match points of the track with the board picture, then move one onto the other.

Three modes. *Move the picture onto the track* (your own scan under a shipped track): click a
point of the picture, then where it belongs on the track; only the picture's placement changes,
saved in the track file. *Move the picture by hand*: drag it; Shift turns and Ctrl scales it
about the middle of the view; each drag is one undoable step. *Move the track onto the picture*
(a track whose spaces came from elsewhere, fitted onto a new scan): click a point of the track,
then where it lies on the picture; every space of the track moves. Two pairs fix a similarity,
three an affine map; Enter applies, as one undoable step.

The tool starts by moving the picture, whatever the track: someone checking a shipped track
against their scan presses L and clicks pairs, and that must never rewrite the track's spaces.
Moving the track is chosen on purpose, in the tool's options or with T, which steps through the
modes; the status bar always starts with the mode on.
"""

from __future__ import annotations

import itertools

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QKeyEvent, QMouseEvent, QPainterPath
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGraphicsPathItem,
    QLabel,
    QWidget,
)

from editor import alignment, placement
from editor.scene import style
from editor.scene.style import Layer
from editor.tools.base import Tool, ToolContext
from trackformat.model import Placement

MOVE_PICTURE = "Move the picture onto the track"
BY_HAND = "Move the picture by hand"
MOVE_TRACK = "Move the track onto the picture"
MODES = (MOVE_PICTURE, BY_HAND, MOVE_TRACK)
"""In the order T steps through them: the track's own spaces move only two presses away."""
MODE_SAID = {
    MOVE_PICTURE: "Moving the picture onto the track",
    BY_HAND: "Moving the picture by hand",
    MOVE_TRACK: "Moving the TRACK onto the picture",
}
"""How the status bar names each mode, first in every message of the tool (the track in
capitals: it is the mode that changes the spaces)."""
MODE_TIPS = {
    MOVE_PICTURE: "Place your scan under the track: only the picture's placement changes",
    BY_HAND: "Drag the picture; Shift+drag turns it, Ctrl+drag scales it",
    MOVE_TRACK: "Fit a track drawn on another scan onto this picture: every space of the track "
                "moves",
}
SWITCH_KEY, SWITCH_KEY_NAME = Qt.Key.Key_T, "T"

_drags = itertools.count(1)


class AlignTool(Tool):
    name = "Align"
    shortcut = "L"
    hint = (
        "Place the board picture under the track: click a point of the picture, then where it "
        f"belongs on the track, two or three times, then Enter; {SWITCH_KEY_NAME} changes the "
        "mode (the picture by hand, or the track onto the picture)"
    )
    picture_hint = (
        "click a point of the board picture, then where it belongs on the track; two pairs "
        "(three to slant it), then Enter moves the picture; Esc starts again"
    )
    hand_hint = (
        "drag the board picture to move it; Shift+drag turns it and Ctrl+drag scales it about "
        "the middle of the view"
    )
    track_hint = (
        "click a point of the track, then where it lies on the picture; two or three such "
        "pairs, then Enter moves every space of the track; Esc starts again"
    )
    cursor = Qt.CursorShape.CrossCursor

    def __init__(self, context: ToolContext) -> None:
        super().__init__(context)
        self.pairs: list[alignment.Pair] = []
        self.pending: tuple[float, float] | None = None
        self.mode = MOVE_PICTURE
        """What moves: the picture, unless the designer chooses otherwise (see the module)."""
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
            self.mode_box.addItems(list(MODES))
            for index, mode in enumerate(MODES):
                self.mode_box.setItemData(index, MODE_TIPS[mode], Qt.ItemDataRole.ToolTipRole)
            self.mode_box.setToolTip(f"What moves onto what ({SWITCH_KEY_NAME} on the board "
                                     "steps through the modes)")
            self.mode_box.setCurrentText(self.mode)
            self.mode_box.currentTextChanged.connect(self.set_mode)
            self.track_warning = QLabel("Every space of the track moves", widget)
            self.track_warning.setStyleSheet("color: #b00000; font-weight: bold")
            self.shape_box = QCheckBox("Keep the picture's shape", widget)
            self.shape_box.setToolTip(
                "Fit only a move, turn and scale however many pairs you match, and measure "
                "how well they agree (a flat-bed scan is never slanted)"
            )
            self.shape_box.toggled.connect(self._keep_shape)
            form.addRow(f"Align ({SWITCH_KEY_NAME})", self.mode_box)
            form.addRow("", self.shape_box)
            form.addRow("", self.track_warning)
            self._show_mode_options()
            self._options = widget
        return self._options

    def _show_mode_options(self) -> None:
        self.shape_box.setVisible(self.mode == MOVE_PICTURE)  # pairs fitted to the picture only
        self.track_warning.setVisible(self.mode == MOVE_TRACK)

    def _keep_shape(self, on: bool) -> None:
        self.keep_shape = on

    def set_mode(self, mode: str) -> None:
        """Choose what moves (one of :data:`MODES`); pairs matched so far are dropped."""
        self.mode = mode
        if self._options is not None:
            if self.mode_box.currentText() != mode:
                self.mode_box.setCurrentText(mode)  # comes back here, once more: harmless
            self._show_mode_options()
        self.cancel()

    def next_mode(self) -> None:
        """The next mode of :data:`MODES` (the key T)."""
        self.set_mode(MODES[(MODES.index(self.mode) + 1) % len(MODES)])

    @property
    def moving_picture(self) -> bool:
        return self.mode == MOVE_PICTURE

    def say(self, text: str) -> None:
        """``text`` in the status bar after the mode on, so that the designer always sees
        whether their clicks move the picture or the track."""
        self.context.status(f"{MODE_SAID[self.mode]} ({SWITCH_KEY_NAME}: next mode): {text}")

    def activate(self) -> None:
        hints = {MOVE_PICTURE: self.picture_hint, BY_HAND: self.hand_hint,
                 MOVE_TRACK: self.track_hint}
        self.say(hints[self.mode])

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
            self.say(
                f"pair {len(self.pairs) + 1}: now click where this belongs on the track"
                if self.moving_picture
                else f"pair {len(self.pairs) + 1}: now click where this lies on the picture"
            )
            return True
        self.pairs.append((self.pending, point))
        self.pending = None
        self.say(
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
            self.say("there is no board picture to move: File > Set board picture")
            return False
        if Layer.SCAN in self.scene.locked:
            self.say("the board picture is locked: untick Locked beside scan in the Layers panel")
            return False
        return True

    def key(self, event: QKeyEvent) -> bool:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.commit()
            return True
        if event.key() == SWITCH_KEY and event.modifiers() == Qt.KeyboardModifier.NoModifier:
            self.next_mode()
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
            self.say(str(err))
            return False
        done = self.document.edit(
            "Align track to picture", lambda t: alignment.transform_track(t, matrix)
        )
        if done:
            worst = max(alignment.residuals(pairs, matrix))
            self.say(
                f"every space moved on {len(pairs)} pairs; the worst point is {worst:.1f} px "
                "off (Ctrl+Z puts the track back)"
            )
        return done

    def _commit_picture(self) -> bool:
        if not self._picture_movable():
            return False
        try:
            fit = placement.fit_placement(self.pairs, self.keep_shape)
        except alignment.EditError as err:
            self.say(str(err))
            return False
        board = self.document.track.board.model_copy(update={"placement": fit.placement})
        done = self.document.edit(
            "Move picture onto track", lambda t: t.model_copy(update={"board": board})
        )
        if done:
            self.say(fit.describe())
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
