"""The start grid: the slots marked behind the finish line, or the usual grid when none are read.

Printed boards mark each grid slot on its space behind the finish line: a white bracket and a
number (Monaco), a white bracket (fan boards), a white bar where the space's front line would be.
Whatever the mark's shape, it is much lighter than the space's grey, and it is on some spaces and
not their neighbours. So each space behind the line is measured for the share of it that is much
lighter than its own fill, against the median of its lane there (the edge lines and the lines
between spaces are the same for every space of a lane; a mark is not), and the spaces well above
their lane are the marked ones. The chequered band's white squares are left out of the measure.

The grid is the stretch just behind the line: the marks are taken from the line backwards while
each lies within :data:`RUN` spaces of the one before it (arrows printed further back, before
the corner that ends the straight, are not slots). Fewer than :data:`MIN_SLOTS` marks are not
read as a grid; the draft then has the usual grid of the builder
(:func:`~trackformat.builder.features.staggered_grid`), as a guess.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from trackformat.trace.finish import chequer_mask
from trackformat.trace.frame import RoadFrame
from trackformat.trace.rows import TracedSpace

Outline = Sequence[tuple[float, float]]

REACH = 25.0
"""Space lengths behind the line searched for marks: a grid of ten staggered slots spans 15."""
LIGHT = 0.6
"""A mark's pixel is lighter than its space's fill by this share of the way to white."""
MIN_MARK = 0.002
"""Least share of a space's area by which a marked space is lighter than its lane's median."""
PEAK_SHARE = 0.3
"""A marked space is lighter than its lane by at least this share of the 90th percentile of
all the spaces' excess (the marks' own level: ten marks of some 60 spaces are the top 15%)."""
RUN = 3.0
"""Most space lengths from the line to the pole, and from one slot to the next."""
MIN_SLOTS = 4
"""Fewest marks read as a grid."""

Slot = tuple[int, int]
"""A space as (lane index, index in its lane's row)."""


def light_excess(lightness: np.ndarray, rows: Sequence[Sequence[TracedSpace]],
                 outlines: Sequence[Sequence[Outline]], frame: RoadFrame, origin: float,
                 length: float, lane_width: float) -> dict[Slot, tuple[float, float]]:
    """For each space within :data:`REACH` spaces behind the line, its signed distance from the
    line along the lap and how much more of it is light than of its lane's median there (share
    of its area).

    Parameters
    ----------
    lightness : (H, W) uint8 array
        The picture's lightness.
    rows, outlines
        Each lane's spaces in driving order from the line, and their published outlines (the
        fill grown by half a line: a mark may take the place of a space's line).
    frame : RoadFrame
        The centre line.
    origin : float
        The finish line's position along the lap.
    length, lane_width : float
        A space's length and a lane's width, in pixels.
    """
    # The first space past the line (and the first half of the lap) is never a slot, however
    # near its middle lies to the chequered band.
    window = [(k, i, float(frame.ahead(row[i].s - origin)))
              for k, row in enumerate(rows) for i in range(len(row) // 2, len(row))]
    window = [(k, i, rel) for k, i, rel in window if -REACH * length <= rel < 0]
    if not window:
        return {}
    corners = np.vstack([np.asarray(outlines[k][i], dtype=np.float64) for k, i, _ in window])
    height, width = lightness.shape
    left, top = np.clip(np.floor(corners.min(axis=0)).astype(int) - 2, 0, None)
    right = min(int(np.ceil(corners[:, 0].max())) + 3, width)
    bottom = min(int(np.ceil(corners[:, 1].max())) + 3, height)
    crop = lightness[top:bottom, left:right]
    if crop.size == 0:
        return {}
    band = chequer_mask(np.ascontiguousarray(crop), round(lane_width / 2))
    share: dict[Slot, float] = {}
    for k, i, _ in window:
        polygon = np.round(np.asarray(outlines[k][i]) - (left, top)).astype(np.int32)
        inside = np.zeros(crop.shape, dtype=np.uint8)
        cv2.fillPoly(inside, [polygon], 1)
        values = crop[inside > 0]
        if len(values) == 0:
            continue
        fill = float(np.median(values))
        light = (crop > fill + LIGHT * (255.0 - fill)) & (inside > 0) & ~band
        share[(k, i)] = float(np.count_nonzero(light)) / len(values)
    found: dict[Slot, tuple[float, float]] = {}
    for lane in range(len(rows)):
        mine = [(k, i, rel) for k, i, rel in window if k == lane and (k, i) in share]
        if not mine:
            continue
        median = float(np.median([share[(k, i)] for k, i, _ in mine]))
        found.update({(k, i): (rel, share[(k, i)] - median) for k, i, rel in mine})
    return found


def read_grid(excess: dict[Slot, tuple[float, float]], length: float) -> list[Slot]:
    """The marked spaces behind the line as a grid, pole first; empty when fewer than
    :data:`MIN_SLOTS` are read.

    Parameters
    ----------
    excess : dict
        :func:`light_excess`'s measure.
    length : float
        A space's length.
    """
    if not excess:
        return []
    levels = np.array([value for _, value in excess.values()])
    least = max(MIN_MARK, PEAK_SHARE * float(np.percentile(levels, 90)))
    marked = sorted((slot for slot, (_, value) in excess.items() if value >= least),
                    key=lambda slot: (-excess[slot][0], slot[0]))
    slots: list[Slot] = []
    last = 0.0
    for slot in marked:
        rel = excess[slot][0]
        if last - rel > RUN * length:
            break
        slots.append(slot)
        last = rel
    return slots if len(slots) >= MIN_SLOTS else []


__all__ = ["light_excess", "read_grid"]
