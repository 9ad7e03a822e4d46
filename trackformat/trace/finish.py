"""The finish line, from the chequered band printed across the road.

A chequered band is black and white squares side by side: in a window a little smaller than a
lane, about as much of it is black as white, which no other thing printed on the road is (a
white edge line has no black beside it, an arrow no white). Corner signs and logos are
chequered too, but they are off the road; the band is the densest patch of chequer between the
lanes' outer edges.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from trackformat.trace.lanes import LaneFit

DARK, BRIGHT = 70, 200
"""Lightness (0 to 255) below which a pixel is a black square, above which a white one."""
SHARE = 0.2
"""Each of black and white must cover this share of the window round a pixel of chequer."""


@dataclass(frozen=True)
class FinishBand:
    """Where the chequered band crosses the road."""

    s: float
    """Its position along the lap."""
    pixels: int
    """How many pixels of chequer it has (its strength)."""
    lanes: tuple[int, ...]
    """The lanes it crosses."""


def chequer_mask(lightness: NDArray[np.uint8], window: int) -> NDArray[np.bool_]:
    """Pixels where black and white each cover at least :data:`SHARE` of a ``window`` square.

    Parameters
    ----------
    lightness : (H, W) uint8 array
        The picture's lightness.
    window : int
        Side of the square, in pixels: about two squares of the chequer (half a lane).
    """
    size = (max(3, window), max(3, window))
    dark = cv2.boxFilter((lightness < DARK).astype(np.float32), -1, size)
    bright = cv2.boxFilter((lightness > BRIGHT).astype(np.float32), -1, size)
    return np.asarray((dark >= SHARE) & (bright >= SHARE))


def find_finish(lightness: NDArray[np.uint8], fit: LaneFit, space_length: float
                ) -> FinishBand | None:
    """The chequered band across the lanes of ``fit``, or None when there is none.

    The road is cut into stretches of a space; the band is the stretch (with the next) that
    holds the most chequer spread across at least a lane's width, so that a corner sign
    printed at the road's edge is not taken for it.

    Parameters
    ----------
    lightness : (H, W) uint8 array
        The picture's lightness.
    fit : LaneFit
        The lanes along the lap.
    space_length : float
        A space's length: the band is looked for in stretches of one space.
    """
    mask = chequer_mask(lightness, round(fit.width / 2))
    rows, cols = np.nonzero(mask)
    if len(rows) == 0:
        return None
    frame = fit.frame
    s, d = frame.project(np.stack([cols, rows], axis=1).astype(np.float64))
    across = fit.positions(s, d)
    on_road = (across >= -0.5) & (across <= fit.count - 0.5)
    s, across = s[on_road], across[on_road]
    least = 0.25 * fit.width ** 2
    if len(s) < least:
        return None
    bins = max(1, int(frame.length / space_length))
    which = (s / frame.length * bins).astype(int) % bins
    best: tuple[int, int] | None = None
    for b in np.unique(which):
        inside = (which == b) | (which == (b + 1) % bins)
        count = int(np.count_nonzero(inside))
        spread = np.percentile(across[inside], 95) - np.percentile(across[inside], 5)
        if count >= least and spread >= min(1.0, fit.count - 1) and (
                best is None or count > best[1]):
            best = (int(b), count)
    if best is None:
        return None
    inside = (which == best[0]) | (which == (best[0] + 1) % bins)
    lanes = tuple(sorted({round(a) for a in across[inside]}))
    middle = float(np.median(frame.ahead(s[inside] - s[inside][0]))) + float(s[inside][0])
    return FinishBand(s=middle % frame.length, pixels=best[1], lanes=lanes)
