"""The Moves tool's drawing on the board: the spaces a car may end its move on, lit with their
cost, and the cars as markers.

Drawn as items of their own over the spaces rather than as the spaces' fill, so that the
selection, the finish line and the heatmap underneath are left as they were, and taking the
overlay away is removing its items.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import shiboken6
from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QGraphicsItem, QGraphicsPolygonItem, QGraphicsScene

from editor.moves import Landing
from editor.scene import style
from editor.scene.items import LabelItem, SpaceItem

OWN_SPACE_OFFSET = 18.0
"""Screen pixels below the car's marker where the cost of staying put is written."""


def reach_colour(landing: Landing) -> QColor:
    """Free, costly or out of the race: the colour of a lit space."""
    if landing.out:
        return style.REACH_OUT
    return style.REACH_FREE if landing.free else style.REACH_COSTLY


class ReachItem(QGraphicsPolygonItem):
    """A space the car may end its move on, lit over the space itself."""

    def __init__(self, space: SpaceItem, landing: Landing) -> None:
        super().__init__(space.polygon())
        self.space_id = landing.space
        self.landing = landing
        colour = reach_colour(landing)
        self.setBrush(QBrush(colour))
        self.setPen(style.cosmetic_pen(colour.darker(160), 2.0))
        self.setToolTip(landing.details())
        self.setZValue(style.REACH_FILL_Z)
        # Clicks go through to the space underneath: the tool reads spaces, not these.
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)


class CostLabel(LabelItem):
    """The cost written on a lit space ("B2", "T1", "X", "pit")."""

    def __init__(self, landing: Landing) -> None:
        super().__init__(landing.label, reach_colour(landing), style.REACH_TEXT, 8.0)
        self.space_id = landing.space
        self.setToolTip(landing.details())
        self.setZValue(style.REACH_LABEL_Z)


class CarMarker(LabelItem):
    """A car on its space: number 1 is the car that moves, the others are in its way."""

    def __init__(self, number: int, space_id: str) -> None:
        colour = style.CAR_COLOURS[(number - 1) % len(style.CAR_COLOURS)]
        super().__init__(str(number), colour, QColor(255, 255, 255), 10.0)
        self.number, self.space_id = number, space_id
        self.setToolTip(
            f"car 1 on {space_id}: the car whose moves are lit" if number == 1
            else f"car {number} on {space_id}: in the way (Shift-click it to take it off)"
        )
        self.setZValue(style.REACH_CAR_Z)


class ReachOverlay:
    """The items of one look at a car's moves; :meth:`show` replaces them, :meth:`clear`
    removes them."""

    def __init__(self, scene: QGraphicsScene) -> None:
        self.scene = scene
        self.items: list[QGraphicsItem] = []

    def show(
        self,
        spaces: Mapping[str, SpaceItem],
        car: str,
        others: Sequence[str],
        landings: Mapping[str, Landing],
    ) -> None:
        """Light ``landings`` and put the car on ``car`` and the other cars on ``others``
        (spaces not on the board are left out)."""
        self.clear()
        own: CostLabel | None = None
        for space_id, landing in landings.items():
            item = spaces.get(space_id)
            if item is None:
                continue
            self._add(ReachItem(item, landing))
            if landing.label:
                label = CostLabel(landing)
                if space_id == car:
                    own = label  # written under the car's marker, not hidden by it
                else:
                    label.setPos(*item.space.centre)
                    self._add(label)
        for number, space_id in enumerate((car, *others), start=1):
            item = spaces.get(space_id)
            if item is None:
                continue
            marker = CarMarker(number, space_id)
            marker.setPos(*item.space.centre)
            self._add(marker)
            if number == 1 and own is not None:
                own.setParentItem(marker)  # the marker ignores the zoom: the offset is pixels
                own.setPos(0, OWN_SPACE_OFFSET)

    def clear(self) -> None:
        for item in self.items:
            # The scene deletes every item when another track is opened: those are gone.
            if shiboken6.isValid(item) and item.scene() is self.scene:
                self.scene.removeItem(item)
        self.items = []

    def _add(self, item: QGraphicsItem) -> None:
        self.scene.addItem(item)
        self.items.append(item)

    def lit(self) -> dict[str, ReachItem]:
        """The lit spaces shown now, by space id."""
        return {i.space_id: i for i in self.items if isinstance(i, ReachItem)}
