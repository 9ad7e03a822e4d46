"""The board: a QGraphicsScene that shows a track over its scan and follows the document.

The scene redraws incrementally: a space item is touched only when its ``Space`` object changed
(edits share unchanged objects between versions), and the arrows, corners and labels, which are a
few items each, are rebuilt when the spaces or links they depend on change.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

from PySide6.QtCore import QObject, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QImageReader, QPainterPath, QPixmap
from PySide6.QtWidgets import QGraphicsItem, QGraphicsPathItem, QGraphicsPixmapItem, QGraphicsScene
from shapely.geometry import Polygon
from shapely.ops import unary_union

from editor.scene import style
from editor.scene.items import (
    ELEMENT_ID,
    CornerItem,
    LabelItem,
    ProblemMarker,
    SpaceItem,
    arrow_path,
)
from editor.scene.style import Layer
from trackformat.analysis import measure_corner
from trackformat.graph import build_graphs
from trackformat.lint import Report, Severity
from trackformat.model import Track

QImageReader.setAllocationLimit(1024)  # MB: boards up to about 12,000 px a side


class BoardScene(QGraphicsScene):
    """Shows one track; see the module docstring."""

    scanProblem = Signal(str)
    """The board picture is missing or unreadable (the message says which file)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.track: Track | None = None
        self.space_items: dict[str, SpaceItem] = {}
        self.layer_items: dict[Layer, list[QGraphicsItem]] = {layer: [] for layer in Layer}
        self.hidden: set[Layer] = set()
        self.locked: set[Layer] = set()
        self.scan_item: QGraphicsPixmapItem | None = None
        self.scan_path: Path | None = None
        self.scan_opacity = 0.85
        self._link_paths: list[QGraphicsPathItem] = []
        self.heat: dict[str, float] = {}
        self.selection: set[str] = set()
        """Ids the document has selected; rebuilt items are selected from it."""

    # Track -----------------------------------------------------------------------------------

    def show_track(self, track: Track) -> None:
        """Bring the scene up to ``track``, touching only what changed.

        Items rebuilt here are new objects: they take the selection back from
        :attr:`selection`, and the scene stays silent meanwhile, so a redraw never looks like
        the user changing the selection.
        """
        blocked = self.blockSignals(True)
        try:
            self._show_track(track)
        finally:
            self.blockSignals(blocked)
        self.select_ids(self.selection)

    def _show_track(self, track: Track) -> None:
        old = self.track
        self.track = track
        spaces_changed = old is None or old.spaces is not track.spaces
        if spaces_changed:
            self._sync_spaces(track)
        if (
            spaces_changed
            or old is None
            or old.links is not track.links
            or old.pit_lane is not track.pit_lane
        ):
            self._rebuild_links(track)
        if (
            spaces_changed
            or old is None
            or old.corners is not track.corners
            or old.links is not track.links
        ):
            self._rebuild_corners(track)
        if (
            spaces_changed
            or old is None
            or old.grid is not track.grid
            or old.finish_line is not track.finish_line
        ):
            self._rebuild_grid(track)
        rect = self.itemsBoundingRect().united(QRectF(0, 0, track.board.width, track.board.height))
        # Room around the board, so that a space at its edge can still be centred in the view.
        margin = max(rect.width(), rect.height()) / 2
        self.setSceneRect(rect.adjusted(-margin, -margin, margin, margin))

    def _sync_spaces(self, track: Track) -> None:
        seen = set()
        finish = set(track.finish_line.spaces) if track.finish_line else set()
        for space in track.spaces:
            if space.id in seen:
                continue
            seen.add(space.id)
            item = self.space_items.get(space.id)
            if item is None:
                item = SpaceItem(space)
                self._add(item, Layer.SPACES)
                self.space_items[space.id] = item
            elif item.space is not space:
                item.show_space(space)
            item.finish = space.id in finish
        for space_id in [i for i in self.space_items if i not in seen]:
            self._remove(self.space_items.pop(space_id), Layer.SPACES)

    def _rebuild_links(self, track: Track) -> None:
        for item in self._link_paths:
            self._remove(item, Layer.LINKS)
        self._link_paths = []
        centres = {s.id: QPointF(*s.centre) for s in track.spaces}
        in_corner = {s for c in track.corners for s in c.spaces}
        links = list(track.links)
        if track.pit_lane:
            links += list(track.pit_lane.entry) + list(track.pit_lane.exit)
        plain: list[tuple[QPointF, QPointF]] = []
        corner: list[tuple[QPointF, QPointF]] = []
        for link in links:
            if link.from_ in centres and link.to in centres:
                pair = (centres[link.from_], centres[link.to])
                (corner if link.from_ in in_corner or link.to in in_corner else plain).append(pair)
        head = _typical_size(track) * 0.25
        for pairs, colour, width in (
            (plain, style.LINK_COLOUR, 1.0),
            (corner, style.CORNER_LINK_COLOUR, 1.6),
        ):
            item = QGraphicsPathItem(arrow_path(pairs, head))
            item.setPen(style.cosmetic_pen(colour, width))
            self._add(item, Layer.LINKS)
            self._link_paths.append(item)

    def _rebuild_corners(self, track: Track) -> None:
        for item in self.layer_items[Layer.CORNERS]:
            self.removeItem(item)
        self.layer_items[Layer.CORNERS] = []
        if not track.corners:
            return
        polygons = {s.id: s.polygon for s in track.spaces}
        graphs = build_graphs(track)
        for corner in track.corners:
            shapes = [Polygon(polygons[s]) for s in corner.spaces if s in polygons]
            shapes = [p if p.is_valid else p.buffer(0) for p in shapes]
            if not shapes:
                continue
            outline = unary_union([p.buffer(0.5) for p in shapes])
            path = QPainterPath()
            for part in getattr(outline, "geoms", [outline]):
                ring = list(part.exterior.coords)
                path.moveTo(QPointF(*ring[0]))
                for x, y in ring[1:]:
                    path.lineTo(QPointF(x, y))
            self._add(CornerItem(corner.id, path), Layer.CORNERS)
            measure = measure_corner(graphs, corner)
            long = _pair(corner.printed_long, measure.long)
            short = _pair(corner.printed_short, measure.short)
            text = f"{corner.stops}\nL {long}\nS {short}"
            label = LabelItem(text, style.STOPS_BOX, QColor(0, 0, 0))
            centre = outline.centroid
            label.setPos(centre.x, centre.y)
            self._add(label, Layer.CORNERS)

    def _rebuild_grid(self, track: Track) -> None:
        for item in self.layer_items[Layer.GRID_PIT]:
            self.removeItem(item)
        self.layer_items[Layer.GRID_PIT] = []
        centres = {s.id: s.centre for s in track.spaces}
        for number, slot in enumerate(track.grid, start=1):
            if slot in centres:
                label = LabelItem(str(number), style.GRID_BACK, style.GRID_TEXT, 8.0)
                label.setPos(*centres[slot])
                self._add(label, Layer.GRID_PIT)
        finish = set(track.finish_line.spaces) if track.finish_line else set()
        for space_id, item in self.space_items.items():
            if item.finish != (space_id in finish):
                item.finish = space_id in finish
                item.update()

    def clear_all(self) -> None:
        """Forget the shown track (before showing another one)."""
        self.clear()
        self.track = None
        self.space_items = {}
        self.layer_items = {layer: [] for layer in Layer}
        self._link_paths = []
        self.scan_item = None

    # Problems and heatmap --------------------------------------------------------------------

    def show_problems(self, report: Report) -> None:
        for item in self.layer_items[Layer.PROBLEMS]:
            self.removeItem(item)
        self.layer_items[Layer.PROBLEMS] = []
        for diagnostic in report.diagnostics:
            if diagnostic.severity == Severity.INFO or diagnostic.location.point is None:
                continue
            colour = (
                style.PROBLEM_ERROR
                if diagnostic.severity == Severity.ERROR
                else style.PROBLEM_WARNING
            )
            marker = ProblemMarker(
                colour, f"{diagnostic.code}: {diagnostic.message}", diagnostic.location.elements
            )
            marker.setPos(*diagnostic.location.point)
            self._add(marker, Layer.PROBLEMS)

    def show_heatmap(self, values: Mapping[str, float]) -> None:
        """Tint spaces by value (0 = none, the maximum = deep red); empty clears the heatmap."""
        self.heat = dict(values)
        top = max(self.heat.values(), default=0.0) or 1.0
        for space_id, item in self.space_items.items():
            value = self.heat.get(space_id, 0.0)
            item.heat = (
                None if value <= 0 or Layer.HEATMAP in self.hidden else _heat_colour(value / top)
            )
            item.update()

    # Scan ------------------------------------------------------------------------------------

    def show_scan(self, path: Path | None) -> bool:
        """Show the board picture at ``path``; False (and scanProblem) when it cannot be shown."""
        if self.scan_item is not None:
            self._remove(self.scan_item, Layer.SCAN)
            self.scan_item = None
        self.scan_path = path
        if path is None:
            return True
        if not path.is_file():
            self.scanProblem.emit(f"board picture not found: {path}")
            return False
        reader = QImageReader(str(path))
        reader.setAutoTransform(True)
        image = reader.read()
        if image.isNull():
            self.scanProblem.emit(f"board picture cannot be read: {path} ({reader.errorString()})")
            return False
        item = QGraphicsPixmapItem(QPixmap.fromImage(image))
        item.setTransformationMode(Qt.TransformationMode.SmoothTransformation)
        item.setOpacity(self.scan_opacity)
        item.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable, False)
        self.scan_item = item
        self._add(item, Layer.SCAN)
        return True

    def set_scan_opacity(self, opacity: float) -> None:
        self.scan_opacity = opacity
        if self.scan_item is not None:
            self.scan_item.setOpacity(opacity)

    # Layers ----------------------------------------------------------------------------------

    def set_layer_visible(self, layer: Layer, visible: bool) -> None:
        (self.hidden.discard if visible else self.hidden.add)(layer)
        for item in self.layer_items[layer]:
            item.setVisible(visible)
        if layer == Layer.HEATMAP:
            self.show_heatmap(self.heat)

    def set_layer_locked(self, layer: Layer, locked: bool) -> None:
        (self.locked.add if locked else self.locked.discard)(layer)
        for item in self.layer_items[layer]:
            if isinstance(item, (SpaceItem, CornerItem)):
                item.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable, not locked)

    def _add(self, item: QGraphicsItem, layer: Layer) -> None:
        item.setZValue(style.Z_ORDER[layer])
        item.setVisible(layer not in self.hidden)
        if layer in self.locked and isinstance(item, (SpaceItem, CornerItem)):
            item.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable, False)
        self.addItem(item)
        self.layer_items[layer].append(item)

    def _remove(self, item: QGraphicsItem, layer: Layer) -> None:
        self.removeItem(item)
        self.layer_items[layer].remove(item)

    # Selection -------------------------------------------------------------------------------

    def selected_ids(self) -> set[str]:
        return {
            str(item.data(ELEMENT_ID)) for item in self.selectedItems() if item.data(ELEMENT_ID)
        }

    def select_ids(self, ids: Iterable[str]) -> None:
        wanted = set(ids)
        self.selection = wanted
        blocked = self.blockSignals(True)
        try:
            for item in self.layer_items[Layer.SPACES] + self.layer_items[Layer.CORNERS]:
                element = item.data(ELEMENT_ID)
                if element is not None:
                    item.setSelected(element in wanted)
        finally:
            self.blockSignals(blocked)

    def element_at(self, point: QPointF) -> str | None:
        """Id of the topmost selectable element under a scene point."""
        for item in self.items(point):
            element = item.data(ELEMENT_ID)
            if element is not None and item.isVisible():
                return str(element)
        return None

    def space_at(self, point: QPointF) -> str | None:
        for item in self.items(point):
            if isinstance(item, SpaceItem) and item.isVisible():
                return item.space.id
        return None


def _pair(printed: int | None, computed: int | None) -> str:
    shown = "-" if printed is None else str(printed)
    if computed != printed:
        shown += f" ({'-' if computed is None else computed})"
    return shown


def _heat_colour(share: float) -> QColor:
    share = max(0.0, min(1.0, share))
    return QColor(255, int(230 * (1 - share)), int(80 * (1 - share)), int(90 + 130 * share))


def _typical_size(track: Track) -> float:
    sizes = sorted(abs(Polygon(s.polygon).area) ** 0.5 for s in track.spaces[:200])
    return sizes[len(sizes) // 2] if sizes else 20.0
