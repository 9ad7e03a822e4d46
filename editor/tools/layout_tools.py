"""Tools that lay out what is printed on the board: corners, the finish line, the grid, the pit.

Each collects clicks and calls one function of :mod:`editor.layout`, so each commit is one undo
step and the logic is tested without a window.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QKeyEvent, QMouseEvent

from editor import layout
from editor.edits import EditError
from editor.tools.base import Tool, ToolContext

SHIFT = Qt.KeyboardModifier.ShiftModifier
CTRL = Qt.KeyboardModifier.ControlModifier
ALT = Qt.KeyboardModifier.AltModifier


class CornerTool(Tool):
    name = "Corner"
    shortcut = "C"
    hint = (
        "Click the corner's spaces (Shift-click the exit of a lane to take the whole stretch from "
        "its entry), Enter makes the corner, Esc starts again"
    )
    cursor = Qt.CursorShape.PointingHandCursor

    def __init__(self, context: ToolContext) -> None:
        super().__init__(context)
        self.picked: list[str] = []

    def press(self, event: QMouseEvent, pos: QPointF) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        space = self.scene.space_at(pos)
        if space is None:
            return True
        if event.modifiers() & SHIFT and self.picked:
            try:
                stretch = layout.lane_range(self.document.track, self.picked[-1], space)
            except EditError as err:
                self.context.status(str(err))
                return True
            self.picked += [s for s in stretch if s not in self.picked]
        elif space in self.picked:
            self.picked.remove(space)
        else:
            self.picked.append(space)
        self.document.set_selection(self.picked)
        self.context.status(
            f"{len(self.picked)} spaces picked: Enter makes the corner, Esc cancels"
        )
        return True

    def key(self, event: QKeyEvent) -> bool:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.commit()
            return True
        return False

    def commit(self) -> str | None:
        picked = list(self.picked)
        made: list[str] = []

        def change(track):  # type: ignore[no-untyped-def]
            new, corner_id = layout.make_corner(track, picked)
            made.append(corner_id)
            return new

        if self.document.edit("Make corner", change):
            self.picked = []
            self.document.set_selection(made)
            self.context.status(
                f"Made {made[0]}: set its stops and printed numbers in the inspector"
            )
            return made[0]
        return None

    def cancel(self) -> None:
        self.picked = []
        self.document.set_selection(())
        self.context.status(self.hint)


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
            self.document.edit(
                "Move finish line in one lane", lambda t: layout.set_finish_space(t, space)
            )
        else:
            self.document.edit("Set finish line", lambda t: layout.finish_line_through(t, space))
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
            self.document.edit("Grid slot", lambda t: layout.toggle_grid_slot(t, space))
            self.context.status(f"{len(self.document.track.grid)} grid slots")
        return True


class PitTool(Tool):
    name = "Pit lane"
    shortcut = "P"
    hint = (
        "Click pit-lane spaces in driving order; Shift-click a track space to enter from it, "
        "Ctrl-click one to leave onto it; B (or Alt-click) makes the space under the pointer a "
        "team's place to stop, a box beside the lane or a garage in the lane, or takes it back"
    )
    cursor = Qt.CursorShape.PointingHandCursor

    def __init__(self, context: ToolContext) -> None:
        super().__init__(context)
        self._pointer: QPointF | None = None
        self._clicked: str | None = None

    def press(self, event: QMouseEvent, pos: QPointF) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        space = self.scene.space_at(pos)
        if space is None:
            return True
        self._clicked = space
        mods = event.modifiers()
        if mods & SHIFT:
            self.document.edit("Pit entry", lambda t: layout.toggle_pit_entry(t, space))
        elif mods & CTRL:
            self.document.edit("Pit exit", lambda t: layout.toggle_pit_exit(t, space))
        elif mods & ALT:
            self.toggle_place_to_stop(space)
        else:
            self.document.edit("Pit-lane space", lambda t: layout.append_pit_space(t, space))
        return True

    def move(self, event: QMouseEvent, pos: QPointF) -> bool:
        self._pointer = pos
        return False

    def key(self, event: QKeyEvent) -> bool:
        """B: the space under the pointer (else the one last clicked) becomes a place to stop,
        or stops being one. Alt-click does the same, but most window managers take Alt-click
        for moving windows, so a key does it everywhere."""
        if event.key() != Qt.Key.Key_B or event.modifiers() & (CTRL | ALT):
            return False
        space = self.scene.space_at(self._pointer) if self._pointer is not None else None
        space = space or self._clicked
        if space is None:
            self.context.status("Point at a space and press B to make it a box or a garage")
        else:
            self.toggle_place_to_stop(space)
        return True

    def toggle_place_to_stop(self, space: str) -> None:
        """A pit-lane space becomes a garage in line, any other space a box beside the lane;
        one that already is one stops being it."""
        self._clicked = space
        pit = self.document.track.pit_lane
        if pit is not None and space in pit.spaces:
            was = space in pit.garages
            if self.document.edit("Garage", lambda t: layout.toggle_garage(t, space)):
                self.context.status(
                    f"{space} is no longer a garage" if was
                    else f"{space} is a garage in line: a team stops there, like at a box"
                )
        else:
            was = pit is not None and space in pit.boxes
            if self.document.edit("Team box", lambda t: layout.toggle_box(t, space)):
                self.context.status(
                    f"{space} is no longer a team box" if was else f"{space} is a team box"
                )
