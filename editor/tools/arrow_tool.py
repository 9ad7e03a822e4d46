"""The arrow tool: click a space, then another, to add the move between them or remove it."""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QMouseEvent

from editor import edits
from editor.tools.base import Tool, ToolContext


class ArrowTool(Tool):
    name = "Arrow"
    shortcut = "A"
    hint = (
        "Click the space a move starts from, then the space it ends on, to add or remove that "
        "link (a link listed twice loses its extra copy)"
    )
    cursor = Qt.CursorShape.CrossCursor

    def __init__(self, context: ToolContext) -> None:
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
        self.toggle(source, space)
        self.document.set_selection({space})
        return True

    def toggle(self, source: str, target: str) -> None:
        """Add the move, or take one listing of it out: a move listed twice (REF005) keeps its
        arrow and is listed once, where taking every copy out would lose the move."""
        listed = edits.link_listings(self.document.track)[(source, target)]
        link = f"link {source} -> {target}"
        if listed == 0:
            text, news = f"Add {link}", f"Added {link}"
        elif listed == 1:
            text, news = f"Remove {link}", f"Removed {link}"
        else:
            text = f"Remove a copy of {link}"
            news = (
                f"{link.capitalize()} was listed {listed} times: removed one copy, "
                f"the move stays{' listed once' if listed == 2 else ''}"
            )
        if self.edit(text, lambda t: edits.toggle_link(t, source, target)):
            self.context.status(news)

    def cancel(self) -> None:
        if self.source is not None:
            self.source = None
            self.context.status(self.hint)
