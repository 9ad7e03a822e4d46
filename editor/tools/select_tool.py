"""The select tool: click, add to the selection, rubber band, drag to move, nudge, delete.

A click inside a corner's limits selects the space clicked, which is edited far more often than
the corner; the corner is selected by a click on its label (the yellow box of its stops and
numbers) or on the band along its red-and-white limit line, or by a double-click anywhere inside
its limits. The status bar says so when a click selects a space of a corner.
"""

from __future__ import annotations

import itertools

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QKeyEvent, QMouseEvent

from editor import edits
from editor.scene.labels import typical_size
from editor.tools.base import Tool, ToolContext

NUDGE = {
    Qt.Key.Key_Left: (-1, 0),
    Qt.Key.Key_Right: (1, 0),
    Qt.Key.Key_Up: (0, -1),
    Qt.Key.Key_Down: (0, 1),
}
_drags = itertools.count(1)

LIMIT_REACH = 6.0
"""How near a corner's limit line, in screen pixels, a click selects the corner."""
LIMIT_SHARE = 0.25
"""... but never further from it than this share of a space, so that the spaces along the limit
of a corner seen from afar stay clickable (the label is the target then)."""


class SelectTool(Tool):
    name = "Select"
    shortcut = "S"
    hint = (
        "Click to select, Ctrl/Shift-click to add, drag to move; arrows nudge, Delete removes; "
        "a corner: click its label or limit line, or double-click inside it"
    )
    cursor = Qt.CursorShape.ArrowCursor
    rubber_band = True

    def __init__(self, context: ToolContext) -> None:
        super().__init__(context)
        self._drag_from: QPointF | None = None
        self._drag_key = ""
        self._moved = False

    def press(self, event: QMouseEvent, pos: QPointF) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        element = self.element_at(pos)
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
            self._say_what_is_selected(element)
        self._drag_from = pos
        self._drag_key = f"drag-{next(_drags)}"
        self._moved = False
        return True

    def double_click(self, event: QMouseEvent, pos: QPointF) -> bool:
        """A double-click inside a corner's limits selects the corner (its first click selected
        the space under it)."""
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        space = self.scene.space_at(pos)
        corner = self._corner_of(space) if space is not None else None
        if corner is None:
            return False
        self._drag_from = None
        self.document.set_selection({corner})
        self._say_what_is_selected(corner)
        return True

    def element_at(self, pos: QPointF) -> str | None:
        """The element a click at ``pos`` selects: a corner by its label or the band along its
        limit line (a few screen pixels wide at any zoom), else what is under the pointer."""
        views = self.scene.views()
        transform = views[0].transform() if views else None
        track = self.scene.track
        space = typical_size(track) if track is not None else 20.0
        reach = min(LIMIT_REACH / max(self._view_scale(), 1e-6), space * LIMIT_SHARE)
        return self.scene.element_at(pos, transform, reach)

    def _corner_of(self, space: str) -> str | None:
        return next((c.id for c in self.document.track.corners if space in c.spaces), None)

    def _say_what_is_selected(self, element: str) -> None:
        """Tell how to select the corner when a click selected one of its spaces, and what was
        selected when it was a corner."""
        corner = next((c for c in self.document.track.corners if c.id == element), None)
        if corner is not None:
            self.context.status(
                f"Corner {corner.name or corner.id} selected: its stops and numbers are in the "
                "inspector; Delete removes the corner, not its spaces"
            )
            return
        inside = self._corner_of(element)
        if inside is not None:
            name = next(c.name or c.id for c in self.document.track.corners if c.id == inside)
            self.context.status(
                f"{element} selected, a space of corner {name}: double-click it (or click the "
                "corner's label or limit line) to select the corner"
            )
        else:
            self.context.status(self.hint)

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
