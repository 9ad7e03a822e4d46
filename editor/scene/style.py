"""Colours, pens and stacking order of what the board shows, in one place."""

from __future__ import annotations

from enum import StrEnum

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor, QPen


class Layer(StrEnum):
    """The board's layers, each shown, hidden or locked as a whole."""

    SCAN = "scan"
    SPACES = "spaces"
    LINKS = "links"
    CORNERS = "corners"
    GRID_PIT = "grid and pit"
    PROBLEMS = "problems"
    HEATMAP = "heatmap"
    CARS = "cars"


Z_ORDER = {
    Layer.SCAN: -100.0,
    Layer.SPACES: 0.0,
    Layer.HEATMAP: 5.0,
    Layer.CORNERS: 10.0,
    Layer.LINKS: 20.0,
    Layer.GRID_PIT: 30.0,
    Layer.PROBLEMS: 40.0,
    Layer.CARS: 50.0,
}

CAR_COLOURS = [
    QColor(220, 30, 30),
    QColor(30, 90, 220),
    QColor(20, 150, 60),
    QColor(240, 160, 0),
    QColor(140, 40, 180),
    QColor(0, 170, 190),
    QColor(230, 90, 170),
    QColor(110, 80, 40),
    QColor(90, 90, 90),
    QColor(250, 240, 40),
]
"""Car colours by car number (the game's ten cars)."""
CAR_OUT = QColor(150, 150, 150)

SPACE_FILL = {
    "track": QColor(235, 235, 235, 110),
    "pit": QColor(120, 170, 230, 120),
    "box": QColor(90, 120, 220, 150),
}
GARAGE_FILL = QColor(40, 70, 200, 170)
"""A pit-lane space that is a team's garage in line (GP Online's): a box's blue, deeper."""
FINISH_FILL = QColor(40, 40, 40, 150)
SELECTED_FILL = QColor(255, 200, 40, 170)
SPACE_PEN = QPen(QColor(30, 30, 30, 200), 0)  # cosmetic: one pixel whatever the zoom
LINK_COLOUR = QColor(20, 90, 200, 200)
CORNER_LINK_COLOUR = QColor(210, 30, 30, 230)
CORNER_RED = QColor(215, 25, 30)
CORNER_WHITE = QColor(250, 250, 250)
STOPS_BOX = QColor(250, 215, 0)
PROBLEM_ERROR = QColor(230, 20, 20, 220)
PROBLEM_WARNING = QColor(240, 150, 0, 220)
OFF_BOARD = QColor(200, 203, 208)
"""Round the board: what lies beyond its edges, where no space may go (GEOM004)."""
BOARD_FILL = QColor(255, 255, 255)
"""The board itself where no picture covers it (a blank board, File > New)."""
BOARD_EDGE = QColor(110, 110, 110)
GRID_TEXT = QColor(255, 255, 255)
GRID_BACK = QColor(20, 20, 20, 200)


def cosmetic_pen(
    colour: QColor, width: float = 1.5, style: Qt.PenStyle = Qt.PenStyle.SolidLine
) -> QPen:
    pen = QPen(colour, width, style)
    pen.setCosmetic(True)
    return pen


def brush(colour: QColor) -> QBrush:
    return QBrush(colour)

# The Moves tool's overlay: where the car may end its move, drawn over the spaces (never as
# their fill, so that the selection, the finish line and the heatmap stay as they are).
REACH_FREE = QColor(30, 200, 120, 150)
"""A space the car may end on at no cost."""
REACH_COSTLY = QColor(150, 60, 235, 150)
"""A space the car may end on only by paying wear points (braking, an overshoot, a spin)."""
REACH_OUT = QColor(165, 0, 35, 170)
"""A space the car may end on only by leaving the race."""
REACH_TEXT = QColor(255, 255, 255)
REACH_FILL_Z = 6.0
"""Above the spaces, under the corners' limits and the arrows, which still show through."""
REACH_LABEL_Z = 45.0
REACH_CAR_Z = 55.0
"""The cars of the Moves tool, above everything else the board draws."""
