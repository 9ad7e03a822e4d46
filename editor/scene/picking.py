"""Which element of the board a click, a drag or a rubber band picks.

Kept apart from :class:`editor.scene.board_scene.BoardScene`, which keeps the items in step with
the track: this is the scene as the tools read it, from the items shown and the layers locked.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QPainterPathStroker, QPen, QPolygonF, QTransform
from PySide6.QtWidgets import QGraphicsItem, QGraphicsScene

from editor.scene.items import ELEMENT_ID, CornerItem, LabelItem, SpaceItem
from editor.scene.style import Layer


class PickingScene(QGraphicsScene):
    """A scene whose items carry element ids (``ELEMENT_ID``) in layers that may be locked."""

    layer_items: dict[Layer, list[QGraphicsItem]]
    """The items shown, by layer (kept by the board scene)."""
    locked: set[Layer]
    """The layers whose elements cannot be picked."""

    def _pickable(self, item: QGraphicsItem) -> str | None:
        element = item.data(ELEMENT_ID)
        if element is None or not item.isVisible():
            return None
        if isinstance(item, SpaceItem) and Layer.SPACES in self.locked:
            return None
        if isinstance(item, (CornerItem, LabelItem)) and Layer.CORNERS in self.locked:
            return None
        return str(element)

    def element_at(
        self, point: QPointF, view: QTransform | None = None, reach: float = 0.0
    ) -> str | None:
        """Id of the element a click at a scene point picks: a corner whose label is under it,
        else a corner whose limit line is within ``reach`` board pixels of it, else the topmost
        pickable element under it (a space, or a limit line hit exactly).

        ``view`` is the view's transform: corner labels keep their size on screen, so without it
        they are looked for at their size in board pixels. The label and the band along the
        limit line select the corner while a click inside its limits still selects a space,
        which is edited far more often."""
        under = [
            (item, element)
            for item in self.items(
                point,
                Qt.ItemSelectionMode.IntersectsItemShape,
                Qt.SortOrder.DescendingOrder,
                view or QTransform(),
            )
            if (element := self._pickable(item)) is not None
        ]
        for item, element in under:
            if isinstance(item, LabelItem):
                return element
        corner = self.corner_near(point, reach) if reach > 0 else None
        if corner is not None:
            return corner
        return under[0][1] if under else None

    def corner_near(self, point: QPointF, reach: float) -> str | None:
        """The pickable corner whose limit line passes within ``reach`` board pixels of
        ``point`` (the first found, where the lines of two corners meet)."""
        pen = QPen()
        pen.setWidthF(2 * reach)
        band = QPainterPathStroker(pen)
        for item in self.layer_items[Layer.CORNERS]:
            if (
                isinstance(item, CornerItem)
                and self._pickable(item) is not None
                and band.createStroke(item.path()).contains(point)
            ):
                return str(item.data(ELEMENT_ID))
        return None

    def elements_in(self, area: QPolygonF) -> set[str]:
        """Ids of the pickable elements a rubber band touches (corners by their limit lines:
        a band dragged over spaces next to a corner's label means those spaces)."""
        found = set()
        for item in self.items(area, Qt.ItemSelectionMode.IntersectsItemShape):
            element = self._pickable(item)
            if element is not None and not isinstance(item, LabelItem):
                found.add(element)
        return found

    def space_at(self, point: QPointF) -> str | None:
        for item in self.items(point):
            if isinstance(item, SpaceItem) and self._pickable(item) is not None:
                return item.space.id
        return None
