"""The corner labels of the board: placed off the spaces, for the zoom the view shows them at.

A label keeps its size on the screen (it ignores the view's zoom), so the share of the board it
covers changes with the zoom: at "fit the board" a label beside a hairpin may cover the spaces of
the bend. Each label therefore tries places around its corner and takes the first that covers no
space and no label placed before it and stays on the board (see
:func:`editor.scene.labels.place_label`), and the labels are placed again when the view zooms.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QObject, QRectF, QTimer
from PySide6.QtWidgets import QGraphicsScene
from shapely import STRtree
from shapely.geometry import Polygon, box
from shapely.geometry.base import BaseGeometry

from editor.scene.drawings import CornerDrawing, corner_label, edge_towards
from editor.scene.items import LabelItem
from editor.scene.labels import label_rect, place_label
from trackformat.model import Space, Track

REPLACE_AFTER = 0.02
"""How far (a share of the scale) the view's zoom moves before the labels are placed again."""


class CornerLabels(QObject):
    """Which label each corner has and where it goes, for one scene."""

    def __init__(self, scene: QGraphicsScene, show: Callable[[list[LabelItem]], None]) -> None:
        """``show`` puts the labels placed in the scene, in place of the ones shown before."""
        super().__init__(scene)
        self.scene = scene
        self.show = show
        self.scale = 1.0
        """The view's zoom (screen pixels a board pixel) the labels were placed for."""
        self.drawings: dict[str, CornerDrawing] = {}
        """Where each corner's label goes from (its outline), by corner id."""
        self.paths: dict[str, tuple[int | None, int | None]] = {}
        """The computed long and short of each corner, shown beside the printed numbers."""
        self._due = False
        self._tree: tuple[list[Space], STRtree] | None = None

    def clear(self) -> None:
        self.drawings = {}
        self.paths = {}

    def place(self, track: Track, board: QRectF) -> None:
        """Make and place the label of every drawn corner of ``track`` on ``board``."""
        views = self.scene.views()
        if views:
            self.scale = float(views[0].transform().m11())
        labels = [(corner_label(corner, self.paths.get(corner.id)), self.drawings[corner.id])
                  for corner in track.corners if corner.id in self.drawings]
        if self._tree is None or self._tree[0] is not track.spaces:
            self._tree = (track.spaces, space_tree(track.spaces))
        place_corner_labels(labels, self._tree[1], board, self.scale)
        self.show([label for label, _ in labels])

    def zoomed(self, scale: float, again: Callable[[], None]) -> None:
        """The view paints at ``scale``: when it moved, ``again`` (which calls :meth:`place`)
        runs once this paint is done."""
        if self._due or abs(scale / self.scale - 1) <= REPLACE_AFTER:
            return
        self._due = True

        def run() -> None:
            self._due = False
            again()

        QTimer.singleShot(0, self, run)


def space_tree(spaces: Sequence[Space]) -> STRtree:
    """The spaces' outlines, to find those a label would cover."""
    return STRtree([Polygon(s.polygon) for s in spaces])


def place_corner_labels(
    labels: Sequence[tuple[LabelItem, CornerDrawing]],
    spaces: STRtree,
    board: QRectF,
    scale: float,
) -> None:
    """Stand each corner's label off its limits where, at ``scale`` (screen pixels a board
    pixel), it covers no space (``spaces``, see :func:`space_tree`) and no label placed before
    it and stays on the ``board`` (see :func:`editor.scene.labels.place_label`)."""
    placed: list[BaseGeometry] = []
    bounds = (board.left(), board.top(), board.right(), board.bottom())

    def covered(rect: tuple[float, float, float, float]) -> int:
        area = box(*rect)
        hits = len(spaces.query(area, predicate="intersects"))
        return hits + sum(1 for other in placed if area.intersects(other))

    for label, drawn in labels:
        size = (label.boundingRect().width(), label.boundingRect().height())

        def edge_at(direction: tuple[float, float], shape: BaseGeometry = drawn.shape) -> (
                tuple[float, float]):
            return edge_towards(shape, direction)

        anchor, direction, gap = place_label(size, drawn.outward, edge_at, covered, bounds, scale)
        label.setPos(*anchor)
        label.stand_off(direction, gap)
        placed.append(box(*label_rect(anchor, direction, size, scale, gap)))



