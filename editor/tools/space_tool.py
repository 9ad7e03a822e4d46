"""The space tool: draw a space, reshape its outline, insert or remove a space in a lane."""

from __future__ import annotations

import itertools
import math

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QKeyEvent, QMouseEvent, QPainterPath
from PySide6.QtWidgets import QGraphicsPathItem
from shapely.geometry import Point, Polygon

from editor import edits
from editor.scene import style
from editor.tools.base import Tool, ToolContext
from trackformat.model import Space, SpaceKind, Track

_drags = itertools.count(1)
GRAB_PIXELS = 8.0
"""How close (in screen pixels) a click must be to a corner of an outline to drag it."""


def new_space(track: Track, outline: list[tuple[float, float]]) -> Track:
    """A track space with this outline, in the lane of the nearest track space, heading like it."""
    if len(outline) < 3:
        raise edits.EditError("a space needs at least three corners")
    cx = sum(x for x, _ in outline) / len(outline)
    cy = sum(y for _, y in outline) / len(outline)
    near = min(
        (s for s in track.spaces if s.kind == SpaceKind.TRACK),
        key=lambda s: math.dist(s.centre, (cx, cy)),
        default=None,
    )
    lane = near.lane if near else (track.lanes[0].id if track.lanes else None)
    space = Space(
        id=edits.fresh_id({s.id for s in track.spaces}, f"{lane or 'space'}-new"),
        lane=lane,
        polygon=[(round(x, 2), round(y, 2)) for x, y in outline],
        centre=(round(cx, 2), round(cy, 2)),
        heading=near.heading if near else 0.0,
    )
    return edits.add_spaces(track, [space])


class SpaceTool(Tool):
    name = "Space"
    shortcut = "D"
    hint = (
        "Click inside a space to select it (Ctrl/Shift-click to add); click the corners of a new "
        "space on empty board or on the edges of others, Enter or double-click to finish; drag a "
        "corner of a selected space to reshape it; Insert splits it in its lane, Shift+Delete "
        "removes it from its lane"
    )
    cursor = Qt.CursorShape.CrossCursor

    def __init__(self, context: ToolContext) -> None:
        super().__init__(context)
        self.points: list[QPointF] = []
        self.preview: QGraphicsPathItem | None = None
        self._vertex: tuple[str, int] | None = None
        self._vertex_from: tuple[float, float] | None = None
        """Where the dragged corner was when the drag began."""
        self._drag_key = ""

    # Drawing ---------------------------------------------------------------------------------

    def press(self, event: QMouseEvent, pos: QPointF) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        grab = self._vertex_at(pos)
        if grab is not None and not self.points:
            self._vertex = grab
            self._drag_key = f"vertex-{next(_drags)}"
            space_id, index = grab
            x, y = self.scene.space_items[space_id].space.polygon[index]
            self._vertex_from = (x, y)
            return True
        picked = self._space_inside(pos) if not self.points else None
        if picked is not None:
            self._pick(picked, event)
            return True
        pos = self.snap(pos)
        self.points.append(pos)
        self._draw_preview(pos)
        return True

    def move(self, event: QMouseEvent, pos: QPointF) -> bool:
        if self._vertex is not None:
            space_id, index = self._vertex
            space = next(s for s in self.document.track.spaces if s.id == space_id)
            outline = list(space.polygon)
            pos = self.snap(pos, exclude=space_id, away_from=self._vertex_from)
            outline[index] = (pos.x(), pos.y())
            self.document.edit(
                f"Reshape {space_id}",
                lambda t: edits.set_polygon(t, space_id, outline),
                merge_key=self._drag_key,
            )
            return True
        if self.points:
            self._draw_preview(self.snap(pos))
            return True
        if self._space_inside(pos) is None:
            self.snap(pos)  # marks where a click would put a corner
        else:
            self.scene.snapper.hide()
        return False

    def release(self, event: QMouseEvent, pos: QPointF) -> bool:
        if self._vertex is not None:
            self._vertex = None
            return True
        return bool(self.points)

    def double_click(self, event: QMouseEvent, pos: QPointF) -> bool:
        self.finish()
        return True

    def key(self, event: QKeyEvent) -> bool:
        key = event.key()
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.finish()
            return True
        selected = [i for i in self.document.selection if i in self.scene.space_items]
        if key == Qt.Key.Key_Insert and len(selected) == 1:
            made: list[str] = []

            def split(track: Track) -> Track:
                new, new_id = edits.split_space(track, selected[0])
                made.append(new_id)
                return new

            if self.document.edit(f"Insert a space after {selected[0]}", split):
                self.document.set_selection(made)
            return True
        if key == Qt.Key.Key_Delete and event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            for space_id in selected:
                self._remove_from_lane(space_id)
            return True
        return False

    def _remove_from_lane(self, space_id: str) -> None:
        self.document.edit(
            f"Remove {space_id} from its lane", lambda t: edits.remove_from_lane(t, space_id)
        )

    def finish(self) -> None:
        outline = [(p.x(), p.y()) for p in self.points]
        # A double click adds the same point twice: drop repeats.
        outline = [
            p for i, p in enumerate(outline) if i == 0 or math.dist(p, outline[i - 1]) > 1e-6
        ]
        self._clear_preview()
        self.points = []
        if len(outline) >= 3:
            before = {s.id for s in self.document.track.spaces}
            if self.document.edit("Draw a space", lambda t: new_space(t, outline)):
                added = [s.id for s in self.document.track.spaces if s.id not in before]
                self.document.set_selection(added)
                self.context.status(f"Drew {added[0]}: set its lane and heading in the inspector")

    def cancel(self) -> None:
        self.points = []
        self._vertex = None
        self._clear_preview()
        self.scene.snapper.hide()

    # Helpers ---------------------------------------------------------------------------------

    def _reach(self) -> float:
        """:data:`GRAB_PIXELS` in board units at the view's zoom."""
        views = self.scene.views()
        scale = float(views[0].transform().m11()) if views else 1.0
        return GRAB_PIXELS / max(scale, 1e-6)

    def _space_inside(self, pos: QPointF) -> str | None:
        """The space whose inside (not its edge, where a neighbour's corner is drawn) is under
        ``pos``: a click there selects it rather than starting a new outline."""
        space_id = self.scene.space_at(pos)
        if space_id is None:
            return None
        shape = Polygon(self.scene.space_items[space_id].space.polygon)
        # Zoomed out, the edge band would cover small spaces: keep their middle clickable.
        edge = min(self._reach(), 0.2 * abs(shape.area) ** 0.5)
        return space_id if shape.exterior.distance(Point(pos.x(), pos.y())) > edge else None

    def _pick(self, space_id: str, event: QMouseEvent) -> None:
        adding = event.modifiers() & (
            Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
        )
        if adding:
            self.document.set_selection(self.document.selection ^ {space_id})
        else:
            self.document.set_selection({space_id})

    def _vertex_at(self, pos: QPointF) -> tuple[str, int] | None:
        reach = self._reach()
        for space_id in self.document.selection:
            item = self.scene.space_items.get(space_id)
            if item is None:
                continue
            for index, (x, y) in enumerate(item.space.polygon):
                if math.dist((x, y), (pos.x(), pos.y())) <= reach:
                    return space_id, index
        return None

    def _draw_preview(self, cursor: QPointF) -> None:
        path = QPainterPath(self.points[0])
        for point in [*self.points[1:], cursor]:
            path.lineTo(point)
        path.lineTo(self.points[0])
        if self.preview is None:
            self.preview = QGraphicsPathItem()
            self.preview.setPen(style.cosmetic_pen(style.CORNER_RED, 1.5, Qt.PenStyle.DashLine))
            self.preview.setZValue(100)
            self.scene.addItem(self.preview)
        self.preview.setPath(path)

    def _clear_preview(self) -> None:
        if self.preview is not None:
            self.scene.removeItem(self.preview)
            self.preview = None
