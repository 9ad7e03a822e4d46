"""Space candidates: the blobs of fill colour, each with its outline and the ink inside it.

A blob is the fill of one printed space, bounded by the dark lines around it; what is printed
inside (arrows, grid numbers) leaves holes, which are filled back and kept apart as the blob's
*ink*, the material the arrows are read from. Blobs far from a space's size or shape (text,
window panes, a stretch where a line is missing and two spaces ran together, which the lanes
stage splits) are sorted out here by size and shape alone; whether a blob is on the road at all
is the road stage's question.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np
from numpy.typing import NDArray

from trackformat.trace.palette import Mask, Palette

Points = NDArray[np.float64]
"""An (N, 2) array of picture points (x, y)."""

MIN_SHARE = 0.35
"""Smallest blob kept, as a share of a space's area: a space cut by a long arrow in two."""
MAX_SHARE = 2.8
"""Largest blob kept, as a share of a space's area: two or (rarely) three spaces run
together where the line between them did not print or was missed."""
INK_CONTRAST = 25
"""Ink (arrows, numbers) is at least this much darker or lighter than the fill, in Lab
lightness units (printed boards draw black arrows, the project's own pictures white ones)."""
MIN_SOLIDITY = 0.45
"""Share of its convex hull a blob's fill must cover. Spaces are convex, but a big arrow
takes a good part of a small space; a blob filling less than this is something else."""


@dataclass(frozen=True)
class Blob:
    """The fill of one printed space (or of two run together), as found in the picture."""

    index: int
    """Position in the list of blobs; also its label in :func:`blob_labels`' image."""
    fill: int
    """Which fill colour of the palette it is made of."""
    area: float
    """Pixels inside its outline, ink included."""
    centre: tuple[float, float]
    """Centre of the area inside its outline."""
    outline: Points
    """The convex hull of its fill, in order around it."""
    shape: Points
    """The fill's own outline with the notches of arrows and numbers closed: it follows a
    bend's concave side, where the hull cuts across the line into the next space."""
    ink: Points
    """Pixels inside the outline, away from its edge, much darker or lighter than the fill:
    arrows, numbers."""


def find_blobs(masks: Sequence[Mask], palette: Palette, lightness: NDArray[np.uint8]
               ) -> list[Blob]:
    """The space-sized, space-shaped blobs of the fill ``masks``.

    Parameters
    ----------
    masks : list of (H, W) bool arrays
        One mask per fill colour, as :func:`~trackformat.trace.palette.fill_masks` makes them.
    palette : Palette
        Gives the typical area of a space and the fills' lightness.
    lightness : (H, W) uint8 array
        The picture's L channel: ink is what is much darker or lighter than the fill.
    """
    low = max(palette.min_area, MIN_SHARE * palette.space_area)
    high = MAX_SHARE * palette.space_area
    blobs: list[Blob] = []
    for fill, mask in enumerate(masks):
        count, labels, stats, _ = cv2.connectedComponentsWithStats(
            mask.astype(np.uint8), connectivity=4)
        for label in range(1, count):
            area = stats[label, cv2.CC_STAT_AREA]
            width, height = stats[label, cv2.CC_STAT_WIDTH], stats[label, cv2.CC_STAT_HEIGHT]
            if not low <= area <= high or area < 0.35 * width * height:
                continue
            left, top = stats[label, cv2.CC_STAT_LEFT], stats[label, cv2.CC_STAT_TOP]
            window = labels[top : top + height, left : left + width] == label
            contrast = np.abs(lightness[top : top + height, left : left + width].astype(np.int16)
                              - palette.colours[fill][0])
            blob = _blob(len(blobs), fill, window, contrast > INK_CONTRAST, (left, top))
            if blob is not None:
                blobs.append(blob)
    return blobs


def _blob(index: int, fill: int, window: Mask, inked: Mask, origin: tuple[int, int]
          ) -> Blob | None:
    """The blob whose fill is ``window`` (a bounding-box crop at ``origin``), or None when its
    fill is too ragged to be a space.

    The blob's outline is the convex hull of its fill: printed spaces are convex or nearly so
    (an annulus sector in a bend bulges a little), and the hull closes the notches an arrow
    or a number bites into the fill where it touches the space's edge.
    """
    padded = np.pad(window, 1).astype(np.uint8)
    contours, _ = cv2.findContours(padded, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    contour = max(contours, key=cv2.contourArea)
    hull = cv2.convexHull(contour)
    area = float(cv2.contourArea(hull))
    if area <= 0 or float(np.count_nonzero(window)) / area < MIN_SOLIDITY:
        return None
    inside = np.zeros_like(padded)
    cv2.drawContours(inside, [hull], -1, 1, thickness=cv2.FILLED)
    # Ink lies away from the edge, where the hull takes in bits of the lines around.
    core = cv2.erode(inside, np.ones((5, 5), dtype=np.uint8))
    ink_rows, ink_cols = np.nonzero((core > 0) & np.pad(inked, 1) & (padded == 0))
    shift = np.array([origin[0] - 1, origin[1] - 1], dtype=np.float64)
    moments = cv2.moments(hull)
    centre = (moments["m10"] / moments["m00"] + shift[0],
              moments["m01"] / moments["m00"] + shift[1])
    outline = hull.reshape(-1, 2).astype(np.float64) + shift
    ink = np.stack([ink_cols, ink_rows], axis=1).astype(np.float64) + shift
    return Blob(index=index, fill=fill, area=area, centre=centre, outline=outline,
                shape=_closed_shape(padded, area) + shift, ink=ink)


def _closed_shape(padded: NDArray[np.uint8], area: float) -> Points:
    """The outline of the fill ``padded`` once notches up to a sixth of the space's width
    are closed and holes filled, simplified to half a pixel."""
    radius = max(2, round(0.12 * np.sqrt(area)))
    disk = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))
    margin = np.pad(padded, radius)
    closed = cv2.morphologyEx(margin, cv2.MORPH_CLOSE, disk)
    contours, _ = cv2.findContours(closed, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    contour = cv2.approxPolyDP(max(contours, key=cv2.contourArea), 0.5, True)
    return np.asarray(contour.reshape(-1, 2) - radius, dtype=np.float64)


def dense_outline(outline: Points, step: float = 1.0) -> Points:
    """The closed polygon ``outline`` with points added along its edges, ``step`` apart at
    most: a hull's corners alone say little about how close two neighbours come."""
    ahead = np.roll(outline, -1, axis=0)
    counts = np.maximum(1, np.ceil(np.hypot(*(ahead - outline).T) / step)).astype(int)
    edge = np.repeat(np.arange(len(outline)), counts)
    t = (np.arange(len(edge)) - np.repeat(np.cumsum(counts) - counts, counts)) / counts[edge]
    return np.asarray(outline[edge] + (ahead[edge] - outline[edge]) * t[:, None])


def blob_labels(blobs: Sequence[Blob], shape: tuple[int, int]) -> NDArray[np.int32]:
    """An image of ``shape`` where each blob's inside holds its index + 1, the rest 0."""
    labels = np.zeros(shape, dtype=np.int32)
    for blob in blobs:
        contour = np.round(blob.outline).astype(np.int32).reshape(-1, 1, 2)
        cv2.drawContours(labels, [contour], -1, blob.index + 1, thickness=cv2.FILLED)
    return labels


def neighbours(blobs: Sequence[Blob], reach: float) -> list[set[int]]:
    """For each blob (by position in ``blobs``), the positions of the blobs whose insides
    come within ``reach`` pixels of its outline."""
    if not blobs:
        return []
    corners = np.vstack([b.outline for b in blobs])
    margin = int(np.ceil(reach)) + 2
    left, top = np.floor(corners.min(axis=0)).astype(int) - margin
    right, bottom = np.ceil(corners.max(axis=0)).astype(int) + margin
    labels = np.zeros((bottom - top + 1, right - left + 1), dtype=np.int32)
    shift = np.array([left, top], dtype=np.float64)
    contours = [np.round(b.outline - shift).astype(np.int32).reshape(-1, 1, 2) for b in blobs]
    for k, contour in enumerate(contours):
        cv2.drawContours(labels, [contour], -1, k + 1, thickness=cv2.FILLED)
    thickness = max(1, round(2 * reach))
    found: list[set[int]] = []
    for k, contour in enumerate(contours):
        x, y, w, h = cv2.boundingRect(contour)
        x0, y0 = max(x - margin, 0), max(y - margin, 0)
        window = labels[y0 : y + h + margin, x0 : x + w + margin]
        ring = np.zeros(window.shape, dtype=np.uint8)
        cv2.drawContours(ring, [contour - np.array([x0, y0], dtype=np.int32)], -1, 1,
                         thickness=thickness)
        near = {int(v) - 1 for v in np.unique(window[ring > 0]) if v}
        near.discard(k)
        found.append(near)
    return found


def supported(blobs: Sequence[Blob], line_width: float, least: int = 2) -> list[Blob]:
    """The blobs with at least ``least`` neighbours across a line's width, renumbered.

    Spaces tile the road, so each has a space behind and ahead of it (and usually beside it)
    with only a printed line between them; a blob of the fill colour in the scenery (a grey
    roof, a patch of road in an aerial photo) has none, or one across the road's edge. Blobs
    are dropped until every one left has its neighbours.
    """
    kept = list(blobs)
    reach = 2.0 * line_width + 2.0
    while True:
        near = neighbours(kept, reach)
        keep = [b for b, n in zip(kept, near, strict=True) if len(n) >= least]
        if len(keep) == len(kept):
            break
        kept = keep
    return [replace(b, index=k) for k, b in enumerate(kept)]
