"""The select tool: click, add to the selection, rubber band, drag to move, nudge, delete."""

from __future__ import annotations

import itertools

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QKeyEvent, QMouseEvent

from editor import edits
from editor.tools.base import Tool

NUDGE = {
    Qt.Key.Key_Left: (-1, 0),
    Qt.Key.Key_Right: (1, 0),
    Qt.Key.Key_Up: (0, -1),
    Qt.Key.Key_Down: (0, 1),
}
_drags = itertools.count(1)


class SelectTool(Tool):
    name = "Select"
    shortcut = "S"
    hint = "Click to select, Ctrl/Shift-click to add, drag to move; arrows nudge, Delete removes"
    cursor = Qt.CursorShape.ArrowCursor
    rubber_band = True

    def __init__(self, context) -> None:  # type: ignore[no-untyped-def]
        super().__init__(context)
        self._drag_from: QPointF | None = None
        self._drag_key = ""
        self._moved = False

    def press(self, event: QMouseEvent, pos: QPointF) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        element = self.scene.element_at(pos)
        if element is None:
            if not event.modifiers() & (
                Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
            ):
                self.document.set_selection(())
            return False  # the view starts a rubber band
        selection = set(self.document.selection)
        if event.modifiers() & (
            Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
        ):
            selection ^= {element}
            self.document.set_selection(selection)
            return True
        if element not in selection:
            self.document.set_selection({element})
        self._drag_from = pos
        self._drag_key = f"drag-{next(_drags)}"
        self._moved = False
        return True

    def move(self, event: QMouseEvent, pos: QPointF) -> bool:
        if self._drag_from is None:
            return False
        dx, dy = pos.x() - self._drag_from.x(), pos.y() - self._drag_from.y()
        if not self._moved and abs(dx) + abs(dy) < 2 / max(self._view_scale(), 1e-6):
            return True
        ids = self._selected_spaces()
        if ids and self.document.edit(
            f"Move {len(ids)} space{'s' if len(ids) > 1 else ''}",
            lambda t: edits.move_spaces(t, ids, dx, dy),
            merge_key=self._drag_key,
        ):
            self._drag_from = pos
            self._moved = True
        return True

    def release(self, event: QMouseEvent, pos: QPointF) -> bool:
        if self._drag_from is None:
            return False
        self._drag_from = None
        return True

    def cancel(self) -> None:
        if self._drag_from is not None and self._moved:
            self.document.undo_stack.undo()
        self._drag_from = None
        self._moved = False

    def key(self, event: QKeyEvent) -> bool:
        key = Qt.Key(event.key())
        if key in NUDGE:
            step = 10 if event.modifiers() & Qt.KeyboardModifier.ShiftModifier else 1
            dx, dy = NUDGE[key]
            ids = self._selected_spaces()
            if ids:
                self.document.edit(
                    "Nudge spaces",
                    lambda t: edits.move_spaces(t, ids, dx * step, dy * step),
                    merge_key="nudge-" + ",".join(sorted(ids)),
                )
            return True
        if key in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace):
            self.delete_selection()
            return True
        return False

    def delete_selection(self) -> None:
        ids = set(self.document.selection)
        if ids:
            self.document.edit(
                f"Delete {len(ids)} element{'s' if len(ids) > 1 else ''}",
                lambda t: edits.delete_elements(t, ids),
            )

    def _selected_spaces(self) -> set[str]:
        spaces = {s.id for s in self.document.track.spaces}
        return {i for i in self.document.selection if i in spaces}

    def _view_scale(self) -> float:
        views = self.scene.views()
        return float(views[0].transform().m11()) if views else 1.0
