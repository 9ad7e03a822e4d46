"""A corner's stops, read from the figure in the yellow box printed beside it.

Boards print each corner's stops (1, 2 or 3) as a dark figure on a small yellow box near the
corner. The boxes are found by colour and shape (a solid yellow patch about a space in size
with a dark glyph in it); the glyph is compared with the figures 1, 2 and 3 drawn by a font,
upright and slanted (boards print them either way), and the best match is read if it beats
the next by a margin. Each box goes to the nearest corner, one box per corner. A figure read
is still a guess: the draft reports every corner's stops for the designer to check.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np
from numpy.typing import NDArray
from PIL import Image, ImageDraw, ImageFont

from trackformat.trace.palette import Lab

FIGURES = (1, 2, 3)
"""The stops a corner can demand."""
GLYPH = 16
"""Side of the square a glyph is compared at, in pixels."""
MIN_SCORE = 0.45
"""Least correlation of a glyph with a figure for it to be read: printed figures match at
0.5 to 0.8, dark marks on yellow scenery (windows of a yellow house) below 0.35."""
MARGIN = 0.05
"""How much better than the runner-up the best figure must match to be read."""
REACH = 8.0
"""Furthest a corner's box lies from the corner's middle, in space lengths."""


@dataclass(frozen=True)
class YellowBox:
    """A yellow box with a figure read from it."""

    centre: tuple[float, float]
    figure: int
    score: float
    """How well the glyph matches the figure (correlation, up to 1)."""


def normalised_glyph(ink: NDArray[np.bool_]) -> NDArray[np.float64]:
    """``ink`` cropped to its ink, padded square (so that a narrow 1 stays narrow), scaled to
    :data:`GLYPH` pixels and centred to zero mean and unit norm, for correlation."""
    rows, cols = np.nonzero(ink)
    if len(rows) == 0:
        return np.zeros((GLYPH, GLYPH))
    crop = ink[rows.min() : rows.max() + 1, cols.min() : cols.max() + 1].astype(np.float32)
    side = max(crop.shape)
    square = np.zeros((side, side), dtype=np.float32)
    top, left = (side - crop.shape[0]) // 2, (side - crop.shape[1]) // 2
    square[top : top + crop.shape[0], left : left + crop.shape[1]] = crop
    small = cv2.resize(square, (GLYPH, GLYPH), interpolation=cv2.INTER_AREA).astype(np.float64)
    small -= small.mean()
    norm = float(np.linalg.norm(small))
    return small / norm if norm > 0 else small


@cache
def templates() -> tuple[tuple[int, NDArray[np.float64]], ...]:
    """The figures 1 to 3 drawn by Pillow's own font, upright and slanted, normalised."""
    font = ImageFont.load_default(size=64)
    found: list[tuple[int, NDArray[np.float64]]] = []
    for figure in FIGURES:
        picture = Image.new("L", (96, 96), 0)
        ImageDraw.Draw(picture).text((48, 48), str(figure), fill=255, font=font, anchor="mm")
        upright = np.asarray(picture) > 127
        for shear in (0.0, 0.25):
            matrix = np.array([[1.0, -shear, shear * 48], [0.0, 1.0, 0.0]], dtype=np.float32)
            slanted = cv2.warpAffine(upright.astype(np.uint8), matrix, (96, 96)) > 0
            found.append((figure, normalised_glyph(slanted)))
    return tuple(found)


def read_figure(ink: NDArray[np.bool_]) -> tuple[int, float] | None:
    """The figure 1, 2 or 3 that the glyph ``ink`` shows and how well it matches, or None when
    none matches by :data:`MIN_SCORE` and beats the others by :data:`MARGIN`."""
    glyph = normalised_glyph(ink)
    best: dict[int, float] = {}
    for figure, template in templates():
        best[figure] = max(best.get(figure, -1.0), float(np.sum(glyph * template)))
    ranked = sorted(best.items(), key=lambda item: -item[1])
    (figure, score), (_, runner_up) = ranked[0], ranked[1]
    return (figure, score) if score >= MIN_SCORE and score - runner_up >= MARGIN else None


def yellow_boxes(lab: Lab, space_area: float) -> list[YellowBox]:
    """The yellow boxes of ``lab`` with a figure read in them.

    Parameters
    ----------
    lab : (H, W, 3) uint8 array
        The picture in Lab.
    space_area : float
        A space's area: a box is a tenth of a space to four spaces in size.
    """
    yellow = ((lab[..., 2] > 165) & (lab[..., 0] > 120)).astype(np.uint8)
    count, _, stats, centres = cv2.connectedComponentsWithStats(yellow, connectivity=8)
    found: list[YellowBox] = []
    for k in range(1, count):
        x, y, w, h, area = (int(v) for v in stats[k])
        if not (0.1 * space_area <= area <= 4 * space_area and 0.5 <= w / h <= 2
                and area >= 0.4 * w * h):
            continue
        box = lab[y : y + h, x : x + w, 0]
        ink = _largest(box < 100)
        if ink is None:
            continue
        height = np.ptp(np.nonzero(ink)[0]) + 1
        if height < 0.4 * h:
            continue
        read = read_figure(ink)
        if read is not None:
            found.append(YellowBox(centre=(float(centres[k][0]), float(centres[k][1])),
                                   figure=read[0], score=read[1]))
    return found


def _largest(mask: NDArray[np.bool_]) -> NDArray[np.bool_] | None:
    """The largest 8-connected part of ``mask`` (None when it has under 8 pixels)."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8),
                                                               connectivity=8)
    if count < 2:
        return None
    biggest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    if stats[biggest, cv2.CC_STAT_AREA] < 8:
        return None
    return np.asarray(labels == biggest)


def corner_figures(corners: Sequence[Sequence[tuple[float, float]]],
                   boxes: Sequence[YellowBox], space_length: float) -> list[YellowBox | None]:
    """For each corner (the centres of its spaces), the box read for it: the nearest to any of
    its spaces within :data:`REACH` space lengths, each box given to one corner, nearest pairs
    first (a long corner's box stands beside some of its spaces, far from its middle)."""
    pairs: list[tuple[float, int, int]] = []
    for i, centres in enumerate(corners):
        points = np.asarray(centres, dtype=np.float64).reshape(-1, 2)
        for j, box in enumerate(boxes):
            gaps = np.hypot(points[:, 0] - box.centre[0], points[:, 1] - box.centre[1])
            pairs.append((float(gaps.min()) if len(gaps) else np.inf, i, j))
    pairs.sort()
    chosen: list[YellowBox | None] = [None] * len(corners)
    used: set[int] = set()
    for distance, i, j in pairs:
        if distance > REACH * space_length:
            break
        if chosen[i] is None and j not in used:
            chosen[i] = boxes[j]
            used.add(j)
    return chosen
