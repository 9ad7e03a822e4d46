"""The road's own coordinates: how far along the lap a point is, and how far to the right.

Every later stage speaks in these: lanes are bands of lateral offset, a lane's spaces are
ordered by their position along the lap, a corner or the finish line is a stretch or a point of
it. The frame is the traced centre line, resampled to one vertex a pixel, so that projecting a
point is a nearest-vertex look-up.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray
from scipy.spatial import cKDTree  # type: ignore[import-untyped]

Points = NDArray[np.float64]
Values = NDArray[np.float64]


def resample_loop(points: Points, step: float) -> Points:
    """The closed polyline ``points`` resampled to vertices ``step`` apart along it."""
    closed = np.vstack([points, points[:1]])
    lengths = np.hypot(*np.diff(closed, axis=0).T)
    positions = np.concatenate([[0.0], np.cumsum(lengths)])
    total = positions[-1]
    count = max(int(total / step), 8)
    wanted = np.linspace(0.0, total, count, endpoint=False)
    x = np.interp(wanted, positions, closed[:, 0])
    y = np.interp(wanted, positions, closed[:, 1])
    return np.stack([x, y], axis=1)


class RoadFrame:
    """Positions along and across a closed centre line, in the driving direction.

    ``s`` runs from 0 to :attr:`length` along the line in the driving direction; ``d`` is the
    offset to the driver's right (the picture's y axis points down, so right of a car heading
    along +x is +y), which is the builder's convention for lane offsets.
    """

    def __init__(self, points: Points) -> None:
        self.points = resample_loop(points, 1.0)
        count = len(self.points)
        ahead = np.roll(self.points, -1, axis=0)
        steps = np.hypot(*(ahead - self.points).T)
        self.positions = np.concatenate([[0.0], np.cumsum(steps)[:-1]])
        self.length = float(np.sum(steps))
        window = max(2, min(count // 8, 6))
        chord = np.roll(self.points, -window, axis=0) - np.roll(self.points, window, axis=0)
        norm = np.maximum(np.hypot(*chord.T), 1e-9)
        self.tangents = chord / norm[:, None]
        self.normals = np.stack([-self.tangents[:, 1], self.tangents[:, 0]], axis=1)
        self._tree = cKDTree(self.points)

    def reversed(self) -> RoadFrame:
        """The same road driven the other way round."""
        return RoadFrame(self.points[::-1].copy())

    def nearest(self, xy: Points) -> NDArray[np.intp]:
        """Index of the centre-line vertex nearest to each point of ``xy``."""
        _, index = self._tree.query(np.asarray(xy, dtype=np.float64).reshape(-1, 2))
        return np.asarray(index, dtype=np.intp)

    def project(self, xy: Points) -> tuple[Values, Values]:
        """Position along the lap (``s``) and offset to the right (``d``) of each point."""
        xy = np.asarray(xy, dtype=np.float64).reshape(-1, 2)
        index = self.nearest(xy)
        delta = xy - self.points[index]
        along = np.einsum("ij,ij->i", delta, self.tangents[index])
        across = np.einsum("ij,ij->i", delta, self.normals[index])
        return (self.positions[index] + along) % self.length, across

    def vertex(self, s: float) -> int:
        """Index of the vertex at position ``s`` (taken round the lap)."""
        return int(np.searchsorted(self.positions, s % self.length, side="right") - 1)

    def point(self, s: float, d: float = 0.0) -> tuple[float, float]:
        """The picture point at position ``s`` along the lap and ``d`` to the right."""
        k = self.vertex(s)
        base = self.points[k] + self.tangents[k] * (s % self.length - self.positions[k])
        x, y = base + self.normals[k] * d
        return float(x), float(y)

    def heading(self, s: float) -> float:
        """Driving direction at ``s`` in degrees (0 along +x, 90 along +y), in [0, 360)."""
        tx, ty = self.tangents[self.vertex(s)]
        return math.degrees(math.atan2(ty, tx)) % 360.0

    def ahead(self, delta: Values | float) -> Values:
        """Signed distances along the lap folded to the nearer way round."""
        half = self.length / 2
        return np.asarray((np.asarray(delta) + half) % self.length - half, dtype=np.float64)
