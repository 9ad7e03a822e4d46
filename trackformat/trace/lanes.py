"""Which lane each space is in: bands of offset across the road, found along the whole lap.

The centre line runs down the middle of the road's mask, which is not always the middle of the
lanes: where spaces are missing on one side, or where a pit lane runs alongside, the mask is
lopsided. So the lanes are fitted, not assumed: along the lap, in overlapping windows, the
lanes' offset from the centre line is the one that puts the blobs there nearest to lane
middles, and from window to window it may only drift (a Viterbi path over candidate offsets),
so where a pit lane beside the road makes two placements equally good, the one that continues
the road before and after wins.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from trackformat.trace.blobs import Blob
from trackformat.trace.frame import RoadFrame

OUTSIDE_COST = 0.4
"""What a blob outside every lane costs a placement, against at most 0.25 (a quarter of a lane
width squared) for a blob inside one."""
DRIFT_COST = 4.0
"""What moving the lanes sideways by one lane width costs between neighbouring windows."""
MAX_OFF_MIDDLE = 0.35
"""A blob further than this share of a lane width from its lane's middle is in no lane."""


@dataclass(frozen=True)
class Placed:
    """A blob in road coordinates."""

    blob: Blob
    s: float
    """Position of its centre along the lap."""
    d: float
    """Offset of its centre to the driver's right of the centre line."""
    back: float
    """How far its outline reaches behind its centre, along the lap (positive)."""
    front: float
    """How far its outline reaches ahead of its centre, along the lap (positive)."""
    across: float
    """Its width across the road."""


def place(blobs: Sequence[Blob], frame: RoadFrame) -> list[Placed]:
    """Every blob in road coordinates (its extents measured on the frame at its centre)."""
    placed: list[Placed] = []
    for blob in blobs:
        s, d = frame.project(np.array([blob.centre]))
        k = frame.nearest(np.array([blob.centre]))[0]
        offset = blob.outline - np.array(blob.centre)
        along = offset @ frame.tangents[k]
        across = offset @ frame.normals[k]
        placed.append(Placed(blob=blob, s=float(s[0]), d=float(d[0]), back=float(-along.min()),
                             front=float(along.max()),
                             across=float(across.max() - across.min())))
    return placed


def lane_width(placed: Sequence[Placed], gap: float) -> float:
    """The width of a lane: a typical space's width across the road plus the line beside it."""
    return float(np.median([p.across for p in placed])) + gap


def lane_offsets(count: int, width: float) -> NDArray[np.float64]:
    """Offsets of the lane middles from the road's middle, the driver's left lane first."""
    return np.asarray((np.arange(count) - (count - 1) / 2) * width, dtype=np.float64)


def placement_cost(d: NDArray[np.float64], shifts: NDArray[np.float64], count: int,
                   width: float) -> NDArray[np.float64]:
    """How badly ``count`` lanes of ``width``, their middle ``shifts`` to the right of the
    centre line (one cost per shift), fit blobs at offsets ``d``: squared distance to a lane
    middle in lane widths, :data:`OUTSIDE_COST` for a blob outside every lane."""
    x = (d[None, :] - shifts[:, None]) / width + (count - 1) / 2
    inside = (x >= -0.5) & (x <= count - 0.5)
    near = np.clip(np.round(x), 0, count - 1)
    return np.asarray(np.sum(np.where(inside, (x - near) ** 2, OUTSIDE_COST), axis=1),
                      dtype=np.float64)


def lane_shifts(placed: Sequence[Placed], frame: RoadFrame, count: int, width: float,
                step: float) -> NDArray[np.float64]:
    """The lanes' sideways shift from the centre line at frame positions ``0, step, 2 step``…

    Parameters
    ----------
    placed : list of Placed
        The blobs.
    frame : RoadFrame
        The centre line.
    count : int
        Number of lanes.
    width : float
        Lane width in pixels.
    step : float
        Spacing of the windows along the lap; each window spans three steps either side.
    """
    s = np.array([p.s for p in placed])
    d = np.array([p.d for p in placed])
    windows = max(1, int(frame.length / step))
    centres = np.arange(windows) * frame.length / windows
    candidates = np.linspace(-(count / 2 + 0.5) * width, (count / 2 + 0.5) * width,
                             int(count * 20 + 21))
    costs = np.zeros((windows, len(candidates)))
    for w, centre in enumerate(centres):
        near = np.abs(frame.ahead(s - centre)) <= 3 * step
        if np.any(near):
            costs[w] = placement_cost(d[near], candidates, count, width)
    drift = DRIFT_COST * np.abs(candidates[:, None] - candidates[None, :]) / width
    return np.asarray(candidates[_viterbi(costs, drift)], dtype=np.float64)


def _viterbi(costs: NDArray[np.float64], drift: NDArray[np.float64]) -> NDArray[np.intp]:
    """The cheapest sequence of states: ``costs[t, i]`` for being in state ``i`` at step
    ``t``, ``drift[i, j]`` for moving from ``i`` to ``j`` between steps."""
    steps, states = costs.shape
    total = costs[0].copy()
    back = np.zeros((steps, states), dtype=np.intp)
    for t in range(1, steps):
        options = total[:, None] + drift
        back[t] = np.argmin(options, axis=0)
        total = options[back[t], np.arange(states)] + costs[t]
    path = np.zeros(steps, dtype=np.intp)
    path[-1] = int(np.argmin(total))
    for t in range(steps - 1, 0, -1):
        path[t - 1] = back[t, path[t]]
    return path


@dataclass(frozen=True)
class LaneFit:
    """The lanes as fitted along the lap: their number, width and sideways shift."""

    frame: RoadFrame
    count: int
    width: float
    shifts: NDArray[np.float64]
    """Shift of the lanes' middle to the right of the centre line, window by window."""

    def shift(self, s: float) -> float:
        """The lanes' shift at position ``s``, interpolated between windows round the lap."""
        return float(self.shifts_at(np.array([s]))[0])

    def shifts_at(self, s: NDArray[np.float64]) -> NDArray[np.float64]:
        """:meth:`shift` at each of the positions ``s``."""
        windows = len(self.shifts)
        at = (s % self.frame.length) / self.frame.length * windows
        return np.asarray(np.interp(at, np.arange(windows + 1),
                                    np.append(self.shifts, self.shifts[0])), dtype=np.float64)

    def positions(self, s: NDArray[np.float64], d: NDArray[np.float64]) -> NDArray[np.float64]:
        """:meth:`position` of each point (``s``, ``d``)."""
        return np.asarray((d - self.shifts_at(s)) / self.width + (self.count - 1) / 2,
                          dtype=np.float64)

    def middle(self, lane: int, s: float) -> float:
        """Offset of the middle of ``lane`` (0 = the driver's left) at ``s``."""
        return self.shift(s) + (lane - (self.count - 1) / 2) * self.width

    def position(self, s: float, d: float) -> float:
        """Where offset ``d`` at ``s`` lies across the lanes: 0.0 is the middle of the first
        lane, 1.0 of the second, and so on (fractions between them)."""
        return (d - self.shift(s)) / self.width + (self.count - 1) / 2

    def lane_of(self, placed: Placed) -> int | None:
        """The lane a blob is in, None when it is in none (outside the road, or astride)."""
        x = self.position(placed.s, placed.d)
        k = round(x)
        return k if 0 <= k < self.count and abs(x - k) <= MAX_OFF_MIDDLE else None


def fit_lanes(placed: Sequence[Placed], frame: RoadFrame, count: int, width: float,
              step: float) -> LaneFit:
    """The ``count`` lanes of ``width`` that the blobs fit best (see :func:`lane_shifts`)."""
    return LaneFit(frame=frame, count=count, width=width,
                   shifts=lane_shifts(placed, frame, count, width, step))
