"""Corners, from the red and white kerbs and the red limit lines printed round them.

On a printed board every corner is outlined in red: red and white kerbs along both edges of the
road, and a red line stepped across the lanes at each end (the corner's limits). With the white
gaps between the kerb's red blocks closed, that outline is a ring, and the spaces inside it are
the corner's. The stops a corner demands are printed in its yellow box beside the road; the
tracer does not read figures, so it leaves the stops at 0 and says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray
from scipy import ndimage  # type: ignore[import-untyped]

from trackformat.trace.palette import Lab, Mask

MIN_REDNESS = 150
"""Lab a (offset 128) above which a pixel is the kerbs' red: a printed red is near 175."""
MIN_SPACES = 2
"""A red ring holding fewer spaces than this is not a corner (a red roof, a logo)."""


@dataclass(frozen=True)
class CornerArea:
    """The inside of one corner's red outline, and the spaces in it."""

    members: tuple[int, ...]
    """Positions (in the list of spaces given) of the spaces inside it."""
    centre: tuple[float, float]
    """Middle of the area, where a message about the corner points."""


def red_mask(lab: Lab) -> Mask:
    """Pixels of the kerbs' and limit lines' red (neither dark nor washed out)."""
    a, lightness = lab[..., 1], lab[..., 0]
    return np.asarray((a > MIN_REDNESS) & (lightness > 40) & (lightness < 230))


def corner_labels(red: Mask, gap: float) -> tuple[NDArray[np.int32], int]:
    """Label image of the areas red outlines enclose, with the outlines themselves.

    Parameters
    ----------
    red : (H, W) bool array
        The red pixels.
    gap : float
        The longest white block of a kerb, in pixels: red closer than this is one outline.

    Returns the labels (0 outside every area) and how many areas there are.
    """
    radius = max(1, round(gap / 2))
    disk = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))
    closed = cv2.dilate(red.astype(np.uint8), disk) > 0
    filled = ndimage.binary_fill_holes(closed)
    labels, count = ndimage.label(filled & ~closed)
    return np.asarray(labels, dtype=np.int32), int(count)


def find_corners(red: Mask, centres: Sequence[tuple[float, float]], space_length: float
                 ) -> list[CornerArea]:
    """The corners outlined in ``red``, with the positions of the ``centres`` inside each.

    Parameters
    ----------
    red : (H, W) bool array
        The red pixels.
    centres : list of (x, y)
        The centres of the traced spaces.
    space_length : float
        A space's length: the white blocks of a kerb are shorter than a third of it.
    """
    labels, count = corner_labels(red, 0.35 * space_length)
    if count == 0 or not centres:
        return []
    points = np.round(np.asarray(centres, dtype=np.float64)).astype(int)
    height, width = labels.shape
    inside = ((points[:, 0] >= 0) & (points[:, 0] < width) & (points[:, 1] >= 0)
              & (points[:, 1] < height))
    area_of = np.zeros(len(points), dtype=np.int32)
    area_of[inside] = labels[points[inside, 1], points[inside, 0]]
    found: list[CornerArea] = []
    for area in range(1, count + 1):
        members = tuple(int(k) for k in np.flatnonzero(area_of == area))
        if len(members) >= MIN_SPACES:
            middle = np.asarray(centres, dtype=np.float64)[list(members)].mean(axis=0)
            found.append(CornerArea(members=members,
                                    centre=(float(middle[0]), float(middle[1]))))
    return found
