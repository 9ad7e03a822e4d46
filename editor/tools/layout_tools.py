"""Tools that lay out what is printed on the board: the finish line and the grid.

Each collects clicks and calls one function of :mod:`editor.layout`, so each commit is one undo
step and the logic is tested without a window. The Corner and Pit lane tools, which pick more
than one click's worth, have modules of their own (:mod:`editor.tools.corner_tool`,
:mod:`editor.tools.pit_tool`).
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QMouseEvent

from editor import layout
from editor.tools.base import Tool

SHIFT = Qt.KeyboardModifier.ShiftModifier


class FinishTool(Tool):
    name = "Finish line"
    shortcut = "F"
    hint = (
        "Click the first space past the line: the line goes across all lanes; "
        "Shift-click moves one lane's"
    )
    cursor = Qt.CursorShape.PointingHandCursor

    def press(self, event: QMouseEvent, pos: QPointF) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        space = self.scene.space_at(pos)
        if space is None:
            return True
        if event.modifiers() & SHIFT:
            self.edit(
                "Move finish line in one lane", lambda t: layout.set_finish_space(t, space)
            )
        else:
            self.edit("Set finish line", lambda t: layout.finish_line_through(t, space))
        line = self.document.track.finish_line
        self.context.status(f"Finish line: {', '.join(line.spaces) if line else 'none'}")
        return True


class GridTool(Tool):
    name = "Grid"
    shortcut = "G"
    hint = "Click the start slots in order, pole first; click a slot again to take it out"
    cursor = Qt.CursorShape.PointingHandCursor

    def press(self, event: QMouseEvent, pos: QPointF) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        space = self.scene.space_at(pos)
        if space is not None:
            self.edit("Grid slot", lambda t: layout.toggle_grid_slot(t, space))
            self.context.status(f"{len(self.document.track.grid)} grid slots")
        return True
