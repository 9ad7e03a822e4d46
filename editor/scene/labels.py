"""Small helpers of the board's drawing: label texts, heat colours, the size of a space."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable

from PySide6.QtGui import QColor
from shapely.geometry import Polygon

from trackformat.model import Space, Track


def printed_and_computed(printed: int | None, computed: int | None) -> str:
    """A printed number, with the computed one beside it in brackets when they differ."""
    shown = "-" if printed is None else str(printed)
    if computed != printed:
        shown += f" ({'-' if computed is None else computed})"
    return shown


def heat_colour(share: float) -> QColor:
    """Pale yellow for a little, deep red for the most (``share`` of the largest value)."""
    share = max(0.0, min(1.0, share))
    return QColor(255, int(230 * (1 - share)), int(80 * (1 - share)), int(90 + 130 * share))


def typical_size(track: Track) -> float:
    """The usual size of a space in pixels (for arrow heads and tiles)."""
    sizes = sorted(abs(Polygon(s.polygon).area) ** 0.5 for s in track.spaces[:200])
    return sizes[len(sizes) // 2] if sizes else 20.0


def slot_width(space: Space) -> float:
    """The width of a grid slot's space (its outline's shorter side, in board pixels): the
    most its number may take on the board."""
    outline = Polygon(space.polygon).minimum_rotated_rectangle
    xs, ys = outline.exterior.coords.xy
    sides = [math.dist((xs[k], ys[k]), (xs[k + 1], ys[k + 1])) for k in range(2)]
    return min(sides)


def spaces_by_lane(track: Track, spaces: Iterable[str]) -> str:
    """How many of ``spaces`` each lane has, in lane order: "lane 1: 4, lane 2: 4, lane 3: 3"
    (a corner's stretches, which the designer checks against the printed board)."""
    lane_of = {s.id: s.lane for s in track.spaces}
    counts = Counter(lane_of.get(s) for s in spaces)
    parts = [f"lane {lane.id}: {counts[lane.id]}" for lane in track.lanes if counts[lane.id]]
    if counts[None]:
        parts.append(f"{counts[None]} in no lane")
    return ", ".join(parts)


Point = tuple[float, float]
Rect = tuple[float, float, float, float]
"""Left, top, right and bottom, in board pixels."""

LABEL_GAP = 3.0
"""Screen pixels between a corner's limits and its label."""
TURNS = (0.0, 30.0, -30.0, 60.0, -60.0, 90.0, -90.0, 120.0, -120.0, 150.0, -150.0, 180.0)
"""The ways a label may stand off its corner, in degrees from the outside of the bend, tried
in this order: the outside first, as boards print a corner's stops."""


def label_rect(anchor: Point, direction: Point, size: Point, scale: float, gap: float) -> Rect:
    """The board rectangle a label ``size`` screen pixels big covers, standing off ``anchor``
    in ``direction`` by ``gap`` screen pixels (as :meth:`LabelItem.stand_off` puts it), at
    ``scale`` screen pixels a board pixel."""
    width, height = size
    dx, dy = direction
    reach = width / 2 * abs(dx) + height / 2 * abs(dy) + gap
    x, y = anchor[0] + dx * reach / scale, anchor[1] + dy * reach / scale
    half_w, half_h = width / 2 / scale, height / 2 / scale
    return (x - half_w, y - half_h, x + half_w, y + half_h)


def place_label(
    size: Point,
    outward: Point,
    edge_at: Callable[[Point], Point],
    covered: Callable[[Rect], int],
    bounds: Rect,
    scale: float,
) -> tuple[Point, Point, float]:
    """Where a corner's label goes at this zoom: the point of the corner's limits it stands
    against, the way it stands off and how far (screen pixels).

    A label keeps its size on the screen, so zoomed out it covers far more of the board than the
    corner it names. The first of the ways round the corner (the outside of the bend first, see
    :data:`TURNS`), close to the limits and then further off, whose label lies on the board
    (``bounds``) and covers nothing (``covered``, the spaces and labels it would lie over, by the
    corner's edge in that direction, ``edge_at``) is taken; where the board leaves no such room,
    the one that covers least."""
    best: tuple[int, Point, Point, float] | None = None
    for gap in (LABEL_GAP, LABEL_GAP + size[1], LABEL_GAP + 2.5 * size[1]):
        for turn in TURNS:
            angle = math.radians(turn)
            direction = (outward[0] * math.cos(angle) - outward[1] * math.sin(angle),
                         outward[0] * math.sin(angle) + outward[1] * math.cos(angle))
            anchor = edge_at(direction)
            left, top, right, bottom = label_rect(anchor, direction, size, scale, gap)
            if left < bounds[0] or top < bounds[1] or right > bounds[2] or bottom > bounds[3]:
                continue
            hits = covered((left, top, right, bottom))
            if hits == 0:
                return anchor, direction, gap
            if best is None or hits < best[0]:
                best = (hits, anchor, direction, gap)
    if best is None:
        return edge_at(outward), outward, LABEL_GAP
    return best[1], best[2], best[3]
