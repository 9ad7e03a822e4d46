"""The align tool: match points of the track with the scan, then move the track onto the scan."""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QKeyEvent, QMouseEvent

from editor import alignment
from editor.tools.base import Tool, ToolContext


class AlignTool(Tool):
    name = "Align"
    shortcut = "L"
    hint = (
        "Click a point of the track, then where it lies on the scan; two or three such pairs, "
        "then Enter moves the track onto the scan; Esc starts again"
    )
    cursor = Qt.CursorShape.CrossCursor

    def __init__(self, context: ToolContext) -> None:
        super().__init__(context)
        self.pairs: list[alignment.Pair] = []
        self.pending: tuple[float, float] | None = None

    def press(self, event: QMouseEvent, pos: QPointF) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        point = (pos.x(), pos.y())
        if self.pending is None:
            self.pending = point
            self.context.status(
                f"Pair {len(self.pairs) + 1}: now click where this lies on the scan"
            )
        else:
            self.pairs.append((self.pending, point))
            self.pending = None
            self.context.status(
                f"{len(self.pairs)} pair(s) matched: "
                + (
                    "Enter aligns, or click another track point"
                    if len(self.pairs) >= 2
                    else "click another track point"
                )
            )
        return True

    def key(self, event: QKeyEvent) -> bool:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.commit()
            return True
        return False

    def commit(self) -> bool:
        pairs = list(self.pairs)
        try:
            matrix = alignment.fit_transform(pairs)
        except alignment.EditError as err:
            self.context.status(str(err))
            return False
        done = self.document.edit(
            "Align track to scan", lambda t: alignment.transform_track(t, matrix)
        )
        if done:
            worst = max(alignment.residuals(pairs, matrix))
            self.context.status(
                f"Aligned on {len(pairs)} pairs; the worst point is {worst:.1f} px off"
            )
        self.pairs, self.pending = [], None
        return done

    def cancel(self) -> None:
        self.pairs, self.pending = [], None
        self.context.status(self.hint)
