"""The colours the spaces are printed in, found from the picture alone.

A printed board fills every space with one flat grey and separates spaces with thin dark lines,
so a mask of that grey falls apart into one blob per space: many blobs of about the same size.
That is what picks the colour out of a busy picture (buildings, water, crowds): of the most
frequent low-saturation colours, the one whose mask makes the most blobs of one size. Boards
shade some stretches differently (Monaco's tunnel is darker, its pit lane a neutral grey), so
further colours are kept when their masks add blobs of the same size where the first did not.
Nothing here knows a particular board: the colours, their tolerance and the size of a space are
all measured.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from trackformat.trace.errors import TraceError

Lab = NDArray[np.uint8]
"""A picture in OpenCV's 8-bit CIELAB: L scaled to 0..255, a and b offset by 128."""
Mask = NDArray[np.bool_]

TOLERANCES = (6, 9, 12, 16, 20)
"""Tolerances tried around a fill colour (largest difference in any Lab channel): a clean
scan needs little, a dithered GIF-like picture or a noisy JPEG more."""
SIZE_SPREAD = 2.5
"""Blobs within this factor of each other's area count as "the same size"."""


@dataclass(frozen=True)
class Palette:
    """The fill colours of the spaces, the tolerance around them, and the size of a space."""

    colours: tuple[tuple[int, int, int], ...]
    """Lab colours, the main fill first; a pixel belongs to the first colour it is near."""
    tolerance: int
    """Largest difference in any Lab channel between a pixel and its fill colour."""
    space_area: float
    """Typical area of the fill inside one space, in pixels (lines excluded)."""
    min_area: float
    """Smallest blob worth looking at: below, it is noise, text or a sliver."""
    spaces_seen: int
    """How many blobs of one size the main colour makes: how well the palette fits."""


def to_lab(image: NDArray[np.uint8]) -> Lab:
    """The BGR ``image`` in OpenCV's 8-bit Lab, where distances match what the eye sees."""
    return np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2LAB), dtype=np.uint8)


def candidate_colours(
    lab: Lab, *, count: int = 16, quantum: int = 6, max_chroma: float = 40.0
) -> NDArray[np.int32]:
    """The ``count`` most frequent low-saturation colours of ``lab``, most frequent first.

    Parameters
    ----------
    lab : (H, W, 3) uint8 array
        The picture in Lab.
    count : int
        How many colours to return at most.
    quantum : int
        Width of the colour bins: printed flats vary by a few units in a scan.
    max_chroma : float
        Road greys are at most faintly tinted; saturated colours (water, grass) are skipped.

    Returns a (K, 3) array of Lab colours (bin centres).
    """
    sample = lab[::2, ::2].reshape(-1, 3).astype(np.int32) // quantum
    keys = (sample[:, 0] * 64 + sample[:, 1]) * 64 + sample[:, 2]
    values, counts = np.unique(keys, return_counts=True)
    colours = np.stack([values // 4096, values // 64 % 64, values % 64], axis=1)
    colours = colours * quantum + quantum // 2
    chroma = np.hypot(colours[:, 1] - 128.0, colours[:, 2] - 128.0)
    keep = (chroma < max_chroma) & (colours[:, 0] > 40) & (colours[:, 0] < 245)
    order = np.argsort(-counts[keep], kind="stable")[:count]
    return np.asarray(colours[keep][order], dtype=np.int32)


def colour_mask(lab: Lab, colour: NDArray[np.int32] | tuple[int, int, int],
                tolerance: int) -> Mask:
    """Pixels within ``tolerance`` of ``colour`` in every Lab channel."""
    centre = np.asarray(colour, dtype=np.int32)
    low = np.clip(centre - tolerance, 0, 255).astype(np.uint8)
    high = np.clip(centre + tolerance, 0, 255).astype(np.uint8)
    return np.asarray(cv2.inRange(lab, low, high) > 0)


def shrunk(mask: Mask, factor: int) -> NDArray[np.uint8]:
    """``mask`` as 0/1 bytes made ``factor`` times smaller, a pixel kept only when all it
    covers were set: the thin lines between spaces stay open, and a big picture is searched
    four or nine times faster."""
    as_bytes = mask.astype(np.uint8)
    if factor == 1:
        return as_bytes
    eroded = cv2.erode(as_bytes, np.ones((factor, factor), dtype=np.uint8),
                       anchor=(0, 0), borderType=cv2.BORDER_CONSTANT, borderValue=0)
    return np.ascontiguousarray(eroded[::factor, ::factor])


def blob_areas(mask: Mask, min_area: float, max_area: float, factor: int = 1
               ) -> NDArray[np.int32]:
    """Areas of the compact blobs of ``mask`` (4-connected) between the two areas.

    A blob is compact when it fills at least 35% of its bounding box: spaces do, the thin
    outlines and speckle that a colour also matches elsewhere do not. With ``factor`` above 1
    the mask is first :func:`shrunk` and the areas are scaled back to full-size pixels.
    """
    small = shrunk(mask, factor)
    _, _, stats, _ = cv2.connectedComponentsWithStats(small, connectivity=4)
    stats = stats[1:]
    area = stats[:, cv2.CC_STAT_AREA] * factor * factor
    box = stats[:, cv2.CC_STAT_WIDTH] * stats[:, cv2.CC_STAT_HEIGHT] * factor * factor
    keep = (area >= min_area) & (area <= max_area) & (area >= 0.35 * box)
    return np.asarray(area[keep], dtype=np.int32)


def same_size_run(areas: NDArray[np.int32], spread: float = SIZE_SPREAD) -> tuple[int, float]:
    """The largest group of ``areas`` within a factor ``spread`` of each other.

    Returns how many there are and their median area (0 and 0.0 when ``areas`` is empty).
    """
    if len(areas) == 0:
        return 0, 0.0
    logs = np.sort(np.log(areas.astype(np.float64)))
    ends = np.searchsorted(logs, logs + np.log(spread), side="right")
    sizes = ends - np.arange(len(logs))
    best = int(np.argmax(sizes))
    return int(sizes[best]), float(np.exp(np.median(logs[best : ends[best]])))


def find_palette(lab: Lab, *, min_spaces: int = 12, expected_area: float | None = None
                 ) -> Palette:
    """The fill colours of the spaces of the board in ``lab``.

    Parameters
    ----------
    lab : (H, W, 3) uint8 array
        The picture in Lab.
    min_spaces : int
        Fewest same-size blobs the main colour must make: fewer, and there is no board here.
    expected_area : float, optional
        The area of a space's fill if the caller knows it: colours whose blobs are not within
        a factor 3 of it are passed over.

    Raises :class:`TraceError` (without a file name: the caller adds it) when no colour makes
    enough blobs of one size.
    """
    pixels = lab.shape[0] * lab.shape[1]
    min_area = max(24.0, 1.5e-5 * pixels)
    max_area = 0.05 * pixels
    factor = scan_factor(pixels)
    scored: list[tuple[int, float, NDArray[np.int32]]] = []
    for colour in candidate_colours(lab):
        runs, area = same_size_run(blob_areas(colour_mask(lab, colour, 9), min_area, max_area,
                                              factor))
        if expected_area is None or expected_area / 3 <= area <= expected_area * 3:
            scored.append((runs, area, colour))
    scored.sort(key=lambda item: -item[0])
    if not scored or scored[0][0] < min_spaces:
        raise TraceError("no road found: no grey of the picture falls into the many blobs of "
                         "one size that printed spaces make")
    _, _, main = scored[0]
    tolerance, space_area, seen = _best_tolerance(lab, main, min_area, max_area)
    colours = [main]
    taken = colour_mask(lab, main, tolerance)
    for runs, area, colour in scored[1:]:
        if runs < 3 or not space_area / 1.8 < area < space_area * 1.8:
            continue
        if min(int(np.abs(colour - other).max()) for other in colours) <= tolerance:
            continue  # a shade of a colour already kept, which its tolerance covers
        mask = colour_mask(lab, colour, tolerance) & ~taken
        added = blob_areas(mask, space_area / 2, space_area * 2, factor)
        if len(added) >= 3:
            colours.append(colour)
            taken |= mask
    return Palette(
        colours=tuple((int(c[0]), int(c[1]), int(c[2])) for c in colours),
        tolerance=tolerance,
        space_area=space_area,
        min_area=min_area,
        spaces_seen=seen,
    )


def scan_factor(pixels: int) -> int:
    """How much smaller the masks are searched for colours: 1 up to 2.5 Mpx, then 2, then 3
    from 10 Mpx (a space of a board that size still covers hundreds of pixels)."""
    return 1 if pixels <= 2_500_000 else 2 if pixels <= 10_000_000 else 3


def _best_tolerance(lab: Lab, colour: NDArray[np.int32], min_area: float,
                    max_area: float) -> tuple[int, float, int]:
    """The tolerance around ``colour`` that makes the most blobs of one size, that size and
    how many blobs.

    Measured at full size, since the thin lines between blobs decide it. A wider tolerance
    takes in more of each space (a dithered fill falls apart with a narrow one) but at last
    leaks across the lines; the narrowest that makes 95% as many blobs as the best is taken.
    """
    runs = [same_size_run(blob_areas(colour_mask(lab, colour, tolerance), min_area, max_area))
            for tolerance in TOLERANCES]
    most = max(count for count, _ in runs)
    for tolerance, (count, area) in zip(TOLERANCES, runs, strict=True):
        if count >= 0.95 * most:
            return tolerance, area, count
    raise AssertionError("unreachable: the best tolerance reaches its own count")


def fill_masks(lab: Lab, palette: Palette) -> list[Mask]:
    """One mask per fill colour; a pixel near two colours goes to the first."""
    masks: list[Mask] = []
    taken = np.zeros(lab.shape[:2], dtype=bool)
    for colour in palette.colours:
        mask = colour_mask(lab, colour, palette.tolerance) & ~taken
        taken |= mask
        masks.append(mask)
    return masks
