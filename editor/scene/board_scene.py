"""The board: a QGraphicsScene that shows a track over its scan and follows the document.

The scene redraws incrementally: a space item is touched only when its ``Space`` object changed
(edits share unchanged objects between versions), and the arrows, corners and labels, which are a
few items each, are rebuilt when the spaces or links they depend on change.

This module keeps that bookkeeping (which items are shown, for which layer, selected or not);
the picking of elements under the pointer is :mod:`editor.scene.picking`'s, the placing of the
corner labels :mod:`editor.scene.corner_labels`', and the items themselves are made in
:mod:`editor.scene.drawings` (arrows, corner outlines and labels, problem markers, cars) and
:mod:`editor.scene.items`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QRect, QRectF, Signal
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QGraphicsItem, QGraphicsPathItem, QGraphicsPixmapItem

from editor.scene import style
from editor.scene.corner_labels import CornerLabels
from editor.scene.drawings import (
    Arrow,
    TileKey,
    arrow_tiles,
    board_background,
    car_labels,
    corner_outline,
    problem_markers,
    tile_item,
)
from editor.scene.items import ELEMENT_ID, CornerItem, LabelItem, SpaceItem
from editor.scene.labels import heat_colour, slot_width, typical_size
from editor.scene.picking import PickingScene
from editor.scene.scan import pixmap_size, read_scan, scan_transform
from editor.scene.snap import Snapper
from editor.scene.style import Layer
from trackformat.lint import Report
from trackformat.model import Placement, Track


class BoardScene(PickingScene):
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
        self._link_tiles: dict[TileKey, tuple[list[Arrow], QGraphicsPathItem]] = {}
        """Arrow path items by tile, with the arrows each was drawn from."""
        self._corner_items: dict[str, tuple[Any, Any, CornerItem]] = {}
        """Each corner's outline item, with the corner and its spaces it was drawn from."""
        self.heat: dict[str, float] = {}
        self.corner_labels = CornerLabels(self, self._show_corner_labels)
        self.selection: set[str] = set()
        """Ids the document has selected; rebuilt items are selected from it."""
        self.snapper = Snapper(self)

    # Track -----------------------------------------------------------------------------------

    def show_track(self, track: Track) -> None:
        """Bring the scene up to ``track``, touching only what changed (items made anew take
        their selected state from :attr:`selection`)."""
        old = self.track
        self.track = track
        spaces_changed = old is None or old.spaces is not track.spaces
        if spaces_changed:
            self._sync_spaces(track)

        def changed(*parts: str) -> bool:
            """Whether the spaces or one of ``parts`` of the track are new (edits replace what
            they change, so identity tells)."""
            return spaces_changed or any(getattr(old, p) is not getattr(track, p) for p in parts)

        if changed("links", "pit_lane"):
            self._rebuild_links(track)
        if changed("corners", "links"):
            self._rebuild_corners(track)
        if changed("grid", "finish_line", "pit_lane"):
            self._rebuild_grid(track)
        if old is not None and old.board.placement != track.board.placement:
            self.place_scan(track.board.placement)
        self._update_rect()

    def _update_rect(self) -> None:
        if self.track is None:
            return
        rect = self.itemsBoundingRect().united(self.board_rect())
        # Room around the board, so that a space at its edge can still be centred in the view.
        margin = max(rect.width(), rect.height()) / 2
        self.setSceneRect(rect.adjusted(-margin, -margin, margin, margin))

    def drawBackground(self, painter: QPainter, rect: QRectF | QRect) -> None:
        board = QRectF() if self.track is None else QRectF(
            0, 0, self.track.board.width, self.track.board.height)
        board_background(painter, QRectF(rect), board)
        if self.track is not None:  # the labels keep their size on the screen
            self.corner_labels.zoomed(painter.worldTransform().m11(), self._replace_labels)

    def _replace_labels(self) -> None:
        if self.track is not None:
            self._rebuild_corner_labels(self.track)

    @property
    def label_scale(self) -> float:
        """The view's zoom the corner labels were placed for."""
        return self.corner_labels.scale

    def board_rect(self) -> QRectF:
        """The board, and the board picture where it is placed: what "fit board" shows."""
        rect = QRectF()
        if self.track is not None:
            rect = QRectF(0, 0, self.track.board.width, self.track.board.height)
        if self.scan_item is not None:
            rect = rect.united(self.scan_item.sceneBoundingRect())
        return rect

    def _sync_spaces(self, track: Track) -> None:
        seen = set()
        finish = set(track.finish_line.spaces) if track.finish_line else set()
        garages = set(track.pit_lane.garages) if track.pit_lane else set()
        for space in track.spaces:
            if space.id in seen:
                continue
            seen.add(space.id)
            item = self.space_items.get(space.id)
            if item is None:
                item = SpaceItem(space)
                if space.id in self.selection:
                    item.selected = True
                    item.restyle()
                self._add(item, Layer.SPACES)
                self.space_items[space.id] = item
            elif item.space is not space:
                item.show_space(space)
            item.mark(space.id in finish, space.id in garages)
        for space_id in [i for i in self.space_items if i not in seen]:
            self._remove(self.space_items.pop(space_id), Layer.SPACES)

    def _rebuild_links(self, track: Track) -> None:
        size = typical_size(track)
        tiles = arrow_tiles(track, size)
        for key in [k for k in self._link_tiles if tiles.get(k) != self._link_tiles[k][0]]:
            self._remove(self._link_tiles.pop(key)[1], Layer.LINKS)
        for key, pairs in tiles.items():
            if key in self._link_tiles:
                continue
            item = tile_item(key, pairs, size)
            self._add(item, Layer.LINKS)
            self._link_tiles[key] = (pairs, item)

    def _rebuild_corners(self, track: Track) -> None:
        spaces = {s.id: s for s in track.spaces}
        wanted = {c.id: (c, tuple(spaces.get(i) for i in c.spaces)) for c in track.corners}
        for corner_id in list(self._corner_items):
            shown = self._corner_items[corner_id]
            now = wanted.get(corner_id)
            same = (
                now is not None
                and now[0].spaces == shown[0].spaces
                and all(a is b for a, b in zip(now[1], shown[1], strict=True))
            )
            if not same:
                self._remove(self._corner_items.pop(corner_id)[2], Layer.CORNERS)
                self.corner_labels.drawings.pop(corner_id, None)
        for corner_id, (corner, members) in wanted.items():
            if corner_id in self._corner_items:
                self._corner_items[corner_id] = (corner, members, self._corner_items[corner_id][2])
                continue
            drawn = corner_outline(members)
            if drawn is None:
                continue
            corner_item = CornerItem(corner.id, drawn.outline)
            corner_item.selected = corner.id in self.selection
            self._add(corner_item, Layer.CORNERS)
            self._corner_items[corner_id] = (corner, members, corner_item)
            self.corner_labels.drawings[corner.id] = drawn
        self._rebuild_corner_labels(track)

    def show_corner_paths(self, paths: Mapping[str, tuple[int | None, int | None]]) -> None:
        """The computed long and short of each corner (from the validator, which measures them
        off the UI thread), shown beside the printed numbers."""
        self.corner_labels.paths = dict(paths)
        if self.track is not None:
            self._rebuild_corner_labels(self.track)

    def _rebuild_corner_labels(self, track: Track) -> None:
        self.corner_labels.place(track, self.board_rect())

    def _show_corner_labels(self, labels: list[LabelItem]) -> None:
        for item in [i for i in self.layer_items[Layer.CORNERS] if isinstance(i, LabelItem)]:
            self._remove(item, Layer.CORNERS)
        for label in labels:
            self._add(label, Layer.CORNERS)

    def _rebuild_grid(self, track: Track) -> None:
        for item in self.layer_items[Layer.GRID_PIT]:
            self.removeItem(item)
        self.layer_items[Layer.GRID_PIT] = []
        spaces = {s.id: s for s in track.spaces}
        for number, slot in enumerate(track.grid, start=1):
            if slot in spaces:
                label = LabelItem(str(number), style.GRID_BACK, style.GRID_TEXT, 8.0,
                                  most=slot_width(spaces[slot]))
                label.setPos(*spaces[slot].centre)
                self._add(label, Layer.GRID_PIT)
        finish = set(track.finish_line.spaces) if track.finish_line else set()
        garages = set(track.pit_lane.garages) if track.pit_lane else set()
        for space_id, item in self.space_items.items():
            item.mark(space_id in finish, space_id in garages)

    def clear_all(self) -> None:
        """Forget the shown track (before showing another one)."""
        self.clear()
        self.snapper.forget()
        self.track = None
        self.space_items = {}
        self.layer_items = {layer: [] for layer in Layer}
        self._link_tiles = {}
        self._corner_items = {}
        self.scan_item = None
        self.heat = {}
        self.corner_labels.clear()

    # Problems and heatmap --------------------------------------------------------------------

    def show_problems(self, report: Report) -> None:
        for item in self.layer_items[Layer.PROBLEMS]:
            self.removeItem(item)
        self.layer_items[Layer.PROBLEMS] = []
        for marker in problem_markers(report):
            self._add(marker, Layer.PROBLEMS)

    def show_heatmap(self, values: Mapping[str, float]) -> None:
        """Tint spaces by value (0 = none, the maximum = deep red); empty clears the heatmap."""
        self.heat = dict(values)
        top = max(self.heat.values(), default=0.0) or 1.0
        for space_id, item in self.space_items.items():
            value = self.heat.get(space_id, 0.0)
            item.heat = (
                None if value <= 0 or Layer.HEATMAP in self.hidden else heat_colour(value / top)
            )
            item.restyle()  # the fill is the item's brush: a repaint alone shows the old one

    def show_cars(self, cars: Sequence[tuple[int, str, str]]) -> None:
        """Cars as (number, space id, status) on their spaces; empty hides them."""
        for item in self.layer_items[Layer.CARS]:
            self.removeItem(item)
        self.layer_items[Layer.CARS] = []
        centres = {s.id: s.centre for s in self.track.spaces} if self.track else {}
        for label in car_labels(cars, centres):
            self._add(label, Layer.CARS)

    # Scan ------------------------------------------------------------------------------------

    def show_scan(self, path: Path | None, placement: Placement | None = None) -> bool:
        """Show the board picture at ``path`` where ``placement`` puts it on the board; False
        (and scanProblem) when it cannot be shown."""
        if self.scan_item is not None:
            self._remove(self.scan_item, Layer.SCAN)
            self.scan_item = None
        self.scan_path = path
        if path is None:
            return True
        item = read_scan(path, placement, self.scan_opacity)
        if isinstance(item, str):
            self.scanProblem.emit(item)
            return False
        self.scan_item = item
        self._add(item, Layer.SCAN)
        self._update_rect()
        return True

    def place_scan(self, placement: Placement | None) -> None:
        """Draw the board picture through ``placement`` (picture pixels to board pixels)."""
        if self.scan_item is not None:
            self.scan_item.setTransform(scan_transform(placement))
            self._update_rect()

    def scan_size(self) -> tuple[int, int] | None:
        """The shown board picture's size in its own pixels, if one is shown."""
        return None if self.scan_item is None else pixmap_size(self.scan_item)

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
        """A locked layer's elements cannot be picked on the board (they still show)."""
        (self.locked.add if locked else self.locked.discard)(layer)

    def _add(self, item: QGraphicsItem, layer: Layer) -> None:
        item.setZValue(style.Z_ORDER[layer])
        item.setVisible(layer not in self.hidden)
        self.addItem(item)
        self.layer_items[layer].append(item)

    def _remove(self, item: QGraphicsItem, layer: Layer) -> None:
        self.removeItem(item)
        self.layer_items[layer].remove(item)

    # Selection -------------------------------------------------------------------------------

    def select_ids(self, ids: Iterable[str]) -> None:
        """Show ``ids`` as selected (the document's selection)."""
        wanted = set(ids)
        changed = wanted ^ self.selection
        self.selection = wanted
        for element in changed:
            item = self.space_items.get(element)
            if item is not None:
                item.selected = element in wanted
                item.restyle()
        for corner in self.layer_items[Layer.CORNERS]:
            if isinstance(corner, CornerItem):
                selected = corner.data(ELEMENT_ID) in wanted
                if selected != corner.selected:
                    corner.selected = selected
                    corner.update()

