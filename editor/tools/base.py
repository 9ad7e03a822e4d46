"""What every tool is: an object that gets the board's mouse and keys while it is active.

A tool says its name, shortcut, cursor and the hint shown in the status bar; it is activated and
deactivated by the main window; Esc cancels what it is doing. Tools change the track only through
the document, so every change they make is one undoable step.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QKeyEvent, QMouseEvent
from PySide6.QtWidgets import QWidget

from editor import edits
from editor.document import TrackDocument
from trackformat.model import Track

if TYPE_CHECKING:
    from collections.abc import Callable

    from editor.scene.board_scene import BoardScene


@dataclass
class ToolContext:
    """What a tool works with."""

    document: TrackDocument
    scene: BoardScene
    status: Callable[[str], None]
    """Shows a short message in the status bar."""


class Tool:
    """Base of the tools: does nothing, lets the view apply Qt's defaults."""

    name = "tool"
    shortcut = ""
    hint = ""
    cursor = Qt.CursorShape.ArrowCursor
    rubber_band = False
    """Whether a drag on empty board draws a selection rectangle (the select tool)."""

    def __init__(self, context: ToolContext) -> None:
        self.context = context

    @property
    def document(self) -> TrackDocument:
        return self.context.document

    @property
    def scene(self) -> BoardScene:
        return self.context.scene

    def edit(
        self, text: str, change: Callable[[Track], Track], merge_key: str | None = None
    ) -> bool:
        """Make ``change`` one undoable step named ``text`` (False: refused or no change).

        A move the change would list a second time is left out (the Pit lane tool laying its
        lane over spaces already linked, say): a move is listed once, never twice (REF005)."""
        return self.document.edit(
            text, lambda track: edits.without_new_copies(track, change(track)), merge_key
        )

    def options(self) -> QWidget | None:
        """Settings shown in the tool options panel while the tool is active (None: none)."""
        return None

    def activate(self) -> None:
        self.context.status(self.hint)

    def deactivate(self) -> None:
        self.cancel()
        self.scene.snapper.hide()

    def snap(
        self, pos: QPointF, exclude: str | None = None,
        away_from: tuple[float, float] | None = None, beside: float | None = None,
    ) -> QPointF:
        """``pos``, or the space corner or lane end it is near, or with ``beside`` the point
        that far outside the road's edge (see :mod:`editor.scene.snap`)."""
        return self.scene.snapper.snap(pos, exclude, away_from, beside)

    def cancel(self) -> None:
        """Drop whatever is half done (Esc)."""

    def press(self, event: QMouseEvent, pos: QPointF) -> bool:
        return False

    def move(self, event: QMouseEvent, pos: QPointF) -> bool:
        return False

    def release(self, event: QMouseEvent, pos: QPointF) -> bool:
        return False

    def double_click(self, event: QMouseEvent, pos: QPointF) -> bool:
        return False

    def key(self, event: QKeyEvent) -> bool:
        return False
