"""Re-aligning a track to its scan: the transform from matched points, applied to the track.

Coordinates in a track file are the scan's pixels. When a scan is replaced (a better scan, another
resolution, a slightly rotated photo), the designer clicks two or three points of the track and
where each lies on the new scan; the track is moved onto the scan, never the scan onto the track,
so coordinates stay the scan's pixels. Two pairs fix a similarity (move, turn, scale alike), three
an affine map (also shear and unequal scales, for a photo taken at a slant).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from editor.edits import EditError

__all__ = ["EditError", "Pair", "fit_transform", "residuals", "transform_track"]
from trackformat.model import Space, Track

Pair = tuple[tuple[float, float], tuple[float, float]]
"""A point of the track and where it belongs on the scan."""


def fit_transform(pairs: Sequence[Pair]) -> np.ndarray:
    """The 2x3 matrix taking each track point to its scan point (least squares past three)."""
    if len(pairs) < 2:
        raise EditError("match at least two points of the track with the scan")
    source = np.array([p for p, _ in pairs], dtype=float)
    target = np.array([q for _, q in pairs], dtype=float)
    if len(pairs) == 2:
        (ax, ay), (bx, by) = source
        (cx, cy), (dx, dy) = target
        before = complex(bx - ax, by - ay)
        after = complex(dx - cx, dy - cy)
        if abs(before) < 1e-9:
            raise EditError("the two track points are the same point")
        turn = after / before  # rotation and scale as one complex number
        shift = complex(cx, cy) - turn * complex(ax, ay)
        return np.array([[turn.real, -turn.imag, shift.real], [turn.imag, turn.real, shift.imag]])
    design = np.hstack([source, np.ones((len(pairs), 1))])
    if np.linalg.matrix_rank(design) < 3:
        raise EditError("the track points lie on one line: pick points spread over the board")
    solution, *_ = np.linalg.lstsq(design, target, rcond=None)
    return np.asarray(solution.T)


def _apply(matrix: np.ndarray, x: float, y: float) -> tuple[float, float]:
    nx_ = matrix[0, 0] * x + matrix[0, 1] * y + matrix[0, 2]
    ny_ = matrix[1, 0] * x + matrix[1, 1] * y + matrix[1, 2]
    return (round(float(nx_), 2), round(float(ny_), 2))


def _heading(matrix: np.ndarray, heading: float) -> float:
    dx, dy = math.cos(math.radians(heading)), math.sin(math.radians(heading))
    tx = matrix[0, 0] * dx + matrix[0, 1] * dy
    ty = matrix[1, 0] * dx + matrix[1, 1] * dy
    return round(math.degrees(math.atan2(ty, tx)) % 360.0, 2)


def transform_track(track: Track, matrix: np.ndarray) -> Track:
    """Every outline, centre and heading of the track moved by ``matrix``."""

    def moved(space: Space) -> Space:
        return space.model_copy(
            update={
                "polygon": [_apply(matrix, x, y) for x, y in space.polygon],
                "centre": _apply(matrix, *space.centre),
                "heading": _heading(matrix, space.heading),
            }
        )

    return track.model_copy(update={"spaces": [moved(s) for s in track.spaces]})


def residuals(pairs: Sequence[Pair], matrix: np.ndarray) -> list[float]:
    """How far (pixels) each matched track point lands from its scan point: the fit's quality."""
    return [math.dist(_apply(matrix, *p), q) for p, q in pairs]
