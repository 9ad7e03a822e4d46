"""The arrow tool: click a space, then another, to add the move between them or remove it."""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QMouseEvent

from editor import edits
from editor.tools.base import Tool


class ArrowTool(Tool):
    name = "Arrow"
    shortcut = "A"
    hint = (
        "Click the space a move starts from, then the space it ends on, to add or remove that link"
    )
    cursor = Qt.CursorShape.CrossCursor

    def __init__(self, context) -> None:  # type: ignore[no-untyped-def]
        super().__init__(context)
        self.source: str | None = None

    def press(self, event: QMouseEvent, pos: QPointF) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        space = self.scene.space_at(pos)
        if space is None:
            self.cancel()
            return True
        if self.source is None:
            self.source = space
            self.document.set_selection({space})
            self.context.status(f"Move from {space}: now click the space it ends on (Esc cancels)")
            return True
        source, self.source = self.source, None
        if space == source:
            self.context.status("A link joins two different spaces")
            return True
        adding = not edits.has_link(self.document.track, source, space)
        self.document.edit(
            f"{'Add' if adding else 'Remove'} link {source} -> {space}",
            lambda t: edits.toggle_link(t, source, space),
        )
        self.document.set_selection({space})
        self.context.status(f"{'Added' if adding else 'Removed'} link {source} -> {space}")
        return True

    def cancel(self) -> None:
        if self.source is not None:
            self.source = None
            self.context.status(self.hint)
