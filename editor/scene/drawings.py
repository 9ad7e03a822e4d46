"""What the board draws from a track, apart from keeping the scene in step with it.

Each function here turns part of a track (or of a report, or of a replay frame) into graphics
items; :class:`editor.scene.board_scene.BoardScene` decides when to call them and which items to
keep. Kept apart so that the scene holds only the bookkeeping of an incremental redraw.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import NamedTuple

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QColor, QPainter, QPainterPath
from PySide6.QtWidgets import QGraphicsPathItem
from shapely.geometry import LineString, Polygon
from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union

from editor.scene import style
from editor.scene.items import ELEMENT_ID, LabelItem, ProblemMarker, arrow_path
from editor.scene.labels import printed_and_computed
from trackformat.lint import Report, Severity
from trackformat.model import Corner, Space, Track

TILE_SPACES = 12
"""Arrows are grouped in square tiles this many spaces wide."""

TileKey = tuple[bool, int, int]
"""An arrow tile: whether its arrows touch a corner, and the tile's column and row."""
Arrow = tuple[tuple[float, float], tuple[float, float]]
"""An arrow from one space centre to another."""


def board_background(painter: QPainter, exposed: QRectF, board: QRectF) -> None:
    """Under everything: grey off the board, the board white with its edge drawn, so that a
    blank board (no picture to show where it ends) shows where spaces may be laid."""
    painter.fillRect(exposed, style.OFF_BOARD)
    if board.isEmpty():
        return
    painter.fillRect(board.intersected(exposed), style.BOARD_FILL)
    painter.setPen(style.cosmetic_pen(style.BOARD_EDGE, 1.0))
    painter.drawRect(board)


def arrow_tiles(track: Track, size: float) -> dict[TileKey, list[Arrow]]:
    """The track's links and pit lane links as arrows, grouped by the board tile they start in.

    One path item per tile and kind: the view then skips the tiles off screen instead of
    clipping one huge path on every frame, and an edit redraws only the tiles whose arrows
    changed."""
    centres = {s.id: s.centre for s in track.spaces}
    in_corner = {s for c in track.corners for s in c.spaces}
    links = list(track.links)
    if track.pit_lane:
        links += list(track.pit_lane.entry) + list(track.pit_lane.exit)
    tiles: dict[TileKey, list[Arrow]] = {}
    tile = size * TILE_SPACES
    for link in links:
        if link.from_ in centres and link.to in centres:
            start, end = centres[link.from_], centres[link.to]
            key = (
                link.from_ in in_corner or link.to in in_corner,
                int(start[0] // tile),
                int(start[1] // tile),
            )
            tiles.setdefault(key, []).append((start, end))
    return tiles


def tile_item(key: TileKey, arrows: list[Arrow], size: float) -> QGraphicsPathItem:
    """The path item of one tile's arrows (corner arrows drawn bolder)."""
    item = QGraphicsPathItem(
        arrow_path([(QPointF(*a), QPointF(*b)) for a, b in arrows], size * 0.25)
    )
    colour, width = (style.CORNER_LINK_COLOUR, 1.6) if key[0] else (style.LINK_COLOUR, 1.0)
    item.setPen(style.cosmetic_pen(colour, width))
    return item


class CornerDrawing(NamedTuple):
    """A corner's limits, and where its label goes: beside the limits on the outside of the
    bend, as boards print a corner's stops, so that the label hides none of its spaces."""

    outline: QPainterPath
    label_at: tuple[float, float]
    """The point of the limits the label stands against."""
    outward: tuple[float, float]
    """The unit direction, from that point, the label stands off in."""
    shape: BaseGeometry
    """The limits' outline (for standing the label off another side, see
    :func:`editor.scene.corner_labels.place_corner_labels`)."""


def corner_outline(members: Sequence[Space | None]) -> CornerDrawing | None:
    """The outline around a corner's spaces and where its label goes; None when none of its
    spaces exists."""
    shapes = [Polygon(s.polygon) for s in members if s is not None]
    shapes = [p if p.is_valid else p.buffer(0) for p in shapes]
    if not shapes:
        return None
    outline = unary_union([p.buffer(0.5) for p in shapes])
    path = QPainterPath()
    for part in getattr(outline, "geoms", [outline]):
        ring = list(part.exterior.coords)
        path.moveTo(QPointF(*ring[0]))
        for x, y in ring[1:]:
            path.lineTo(QPointF(x, y))
    outward = _outside_of_bend(outline, [s for s in members if s is not None])
    return CornerDrawing(path, edge_towards(outline, outward), outward, outline)


def _outside_of_bend(outline: BaseGeometry, members: Sequence[Space]) -> tuple[float, float]:
    """The unit direction from a corner's middle to the outside of its bend.

    The hull of a bend fills its inside, so the hull's centre lies inwards of the corner's own;
    a straight stretch has no inside, and its label goes on the left of the way cars drive."""
    centre, hull = outline.centroid, outline.convex_hull.centroid
    dx, dy = centre.x - hull.x, centre.y - hull.y
    size = math.sqrt(max(outline.area, 1.0))
    if math.hypot(dx, dy) < size * 0.01 and members:
        angle = math.atan2(
            sum(math.sin(math.radians(s.heading)) for s in members),
            sum(math.cos(math.radians(s.heading)) for s in members),
        )
        dx, dy = math.sin(angle), -math.cos(angle)
    length = math.hypot(dx, dy)
    return (dx / length, dy / length) if length > 1e-9 else (0.0, -1.0)


def edge_towards(outline: BaseGeometry, direction: tuple[float, float]) -> tuple[float, float]:
    """Where a ray from the middle of ``outline`` in ``direction`` leaves it for the last time."""
    centre = outline.centroid
    reach = math.sqrt(outline.envelope.area) * 4 + 10
    ray = LineString(
        [(centre.x, centre.y), (centre.x + direction[0] * reach, centre.y + direction[1] * reach)]
    )
    crossing = ray.intersection(outline.boundary)
    points = [
        (x, y) for part in getattr(crossing, "geoms", [crossing]) for x, y in part.coords
    ]
    if not points:
        return (centre.x, centre.y)
    return max(points, key=lambda p: math.dist(p, (centre.x, centre.y)))


def corner_label(corner: Corner, computed: tuple[int | None, int | None] | None) -> LabelItem:
    """A corner's stops and its printed long/short paths, with the computed ones beside them
    where they differ (``computed`` None: not measured yet)."""
    long = printed_and_computed(
        corner.printed_long, computed[0] if computed else corner.printed_long
    )
    short = printed_and_computed(
        corner.printed_short, computed[1] if computed else corner.printed_short
    )
    stops = f"{corner.stops} stop{'s' if corner.stops != 1 else ''}"
    label = LabelItem(f"{stops}  {long}/{short}", style.STOPS_BOX, QColor(0, 0, 0))
    # The label stands for its corner: a click on it selects the corner (Select tool), a far
    # bigger target than the limit line, and one that is not a space.
    label.setData(ELEMENT_ID, corner.id)
    label.setToolTip(f"{corner.name or corner.id}: click to select the corner")
    return label


def problem_markers(report: Report) -> list[ProblemMarker]:
    """A marker for each warning and error that has a place on the board."""
    markers = []
    for diagnostic in report.diagnostics:
        if diagnostic.severity == Severity.INFO or diagnostic.location.point is None:
            continue
        colour = (
            style.PROBLEM_ERROR if diagnostic.severity == Severity.ERROR else style.PROBLEM_WARNING
        )
        marker = ProblemMarker(
            colour, f"{diagnostic.code}: {diagnostic.message}", diagnostic.location.elements
        )
        marker.setPos(*diagnostic.location.point)
        markers.append(marker)
    return markers


def car_labels(
    cars: Sequence[tuple[int, str, str]], centres: Mapping[str, tuple[float, float]]
) -> list[LabelItem]:
    """Cars as (number, space id, status) drawn on their spaces; cars off the board are left
    out."""
    labels = []
    for number, space, status in cars:
        if space not in centres:
            continue
        colour = style.CAR_COLOURS[number % len(style.CAR_COLOURS)]
        out = status in ("eliminated",)
        label = LabelItem(
            str(number + 1), style.CAR_OUT if out else colour, QColor(255, 255, 255), 10.0
        )
        label.setPos(*centres[space])
        label.setToolTip(f"car {number + 1}: {status} on {space}")
        labels.append(label)
    return labels
