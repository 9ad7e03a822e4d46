"""The centre line of a road: smoothing it, and the frame at any position along it.

Every lane, cut and space of a built track is placed from one :class:`Road`, so that adjacent
lanes agree exactly on the line they share. A position on the road is the distance along the
centre line in board pixels; on a closed road positions wrap round, and a stretch that crosses the
start of the line is written with positions beyond the length (unwrapped).
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from trackformat.builder.errors import BuildError

Point = tuple[float, float]
"""A board point in pixels, y pointing down."""


def smooth_line(points: Sequence[Point], *, closed: bool, samples: int = 8) -> list[Point]:
    """A smooth line through ``points``, ``samples`` vertices per segment (blended circular arcs).

    Digitised centre lines are coarse (a point every space or two); spaces cut from the straight
    segments between them would kink at every point. Each segment is drawn as a blend of the two
    circles through it and its neighbours (the one through the point behind, the one through the
    point ahead): the line never bends tighter than those circles, where a cubic spline through a
    sharp hairpin overshoots into a cusp. Knot ``j`` of the input is vertex ``j * samples`` of the
    output, so positions measured on the input stay findable.
    """
    count = len(points)
    if count < (3 if closed else 2):
        raise BuildError(f"a centre line needs at least {3 if closed else 2} points, got {count}")
    if samples < 1:
        raise BuildError(f"samples per segment must be at least 1, got {samples}")

    def knot(j: int) -> Point | None:
        if closed:
            return points[j % count]
        return points[j] if 0 <= j < count else None

    out: list[Point] = []
    segments = count if closed else count - 1
    for j in range(segments):
        p0, p1, p2, p3 = knot(j - 1), knot(j), knot(j + 1), knot(j + 2)
        assert p1 is not None and p2 is not None
        behind = _Arc.through(p0, p1, p2, start=1) if p0 is not None else None
        ahead = _Arc.through(p1, p2, p3, start=0) if p3 is not None else None
        for m in range(samples):
            t = m / samples
            a = behind.at(t) if behind else None
            b = ahead.at(t) if ahead else None
            if a is None:
                a = b if b is not None else _lerp(p1, p2, t)
            if b is None:
                b = a
            weight = math.sin(math.pi * t / 2) ** 2
            out.append(_lerp(a, b, weight))
    if not closed:
        out.append(points[-1])
    return out


def _lerp(a: Point, b: Point, t: float) -> Point:
    return (a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]))


@dataclass(frozen=True)
class _Arc:
    """The arc between two of three points, on the circle through all three (or a line)."""

    first: Point
    second: Point
    centre: Point | None
    radius: float
    angle: float
    sweep: float

    @classmethod
    def through(cls, a: Point, b: Point, c: Point, *, start: int) -> _Arc:
        """The arc from the ``start``-th to the next of (a, b, c): b to c (1) or a to b (0)."""
        first, second = (b, c) if start == 1 else (a, b)
        cross = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
        chord = math.dist(first, second)
        span = max(math.dist(a, b), math.dist(b, c), math.dist(a, c))
        if abs(cross) <= 1e-9 * span * span:
            return cls(first, second, None, math.inf, 0.0, 0.0)
        d = 2 * cross
        a2, b2, c2 = a[0] ** 2 + a[1] ** 2, b[0] ** 2 + b[1] ** 2, c[0] ** 2 + c[1] ** 2
        ox = (a2 * (b[1] - c[1]) + b2 * (c[1] - a[1]) + c2 * (a[1] - b[1])) / d
        oy = (a2 * (c[0] - b[0]) + b2 * (a[0] - c[0]) + c2 * (b[0] - a[0])) / d
        radius = math.dist((ox, oy), a)
        if radius > 1e4 * max(chord, 1e-9):
            return cls(first, second, None, math.inf, 0.0, 0.0)
        angle1 = math.atan2(first[1] - oy, first[0] - ox)
        angle2 = math.atan2(second[1] - oy, second[0] - ox)
        # Go round the circle the way a -> b -> c does (cross > 0: increasing angles).
        sweep = (angle2 - angle1) % (2 * math.pi) if cross > 0 else -(
            (angle1 - angle2) % (2 * math.pi))
        return cls(first, second, (ox, oy), radius, angle1, sweep)

    def at(self, t: float) -> Point:
        if self.centre is None:
            return _lerp(self.first, self.second, t)
        angle = self.angle + t * self.sweep
        return (
            self.centre[0] + self.radius * math.cos(angle),
            self.centre[1] + self.radius * math.sin(angle),
        )


def turning_radius(a: Point, b: Point, c: Point) -> float:
    """Radius of the circle through three consecutive vertices (infinite when they are in line)."""
    cross = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    if cross == 0:
        return math.inf
    return math.dist(a, b) * math.dist(b, c) * math.dist(c, a) / (2 * abs(cross))


def limit_curvature(
    points: Sequence[Point], *, closed: bool, min_radius: float, max_rounds: int = 5000
) -> list[Point]:
    """Round off the bends of a line that are tighter than ``min_radius``.

    The inside edge of a road lies half the road's width from its centre line; where the centre
    line turns tighter than that, the edge folds back on itself and the spaces there would cross.
    Smoothing only the offending vertices (and their neighbours) widens those bends and leaves the
    rest of the line, and so the rest of the track, where the designer put it.
    """
    line = [(float(x), float(y)) for x, y in points]
    count = len(line)
    if count < 3:
        return line
    for _ in range(max_rounds):
        tight = [
            i for i in range(count)
            if (closed or 0 < i < count - 1)
            and turning_radius(line[i - 1], line[i], line[(i + 1) % count]) < min_radius
        ]
        if not tight:
            return line
        marked = {(i + d) % count for i in tight for d in (-2, -1, 0, 1, 2)}
        if not closed:
            marked -= {0, count - 1}
        smoothed = list(line)
        for i in marked:
            before, after = line[i - 1], line[(i + 1) % count]
            smoothed[i] = (
                0.5 * line[i][0] + 0.25 * (before[0] + after[0]),
                0.5 * line[i][1] + 0.25 * (before[1] + after[1]),
            )
        line = smoothed
    raise BuildError(
        f"the centre line still turns tighter than a radius of {min_radius:g} px after smoothing; "
        "widen the bend or narrow the lanes"
    )


@dataclass(frozen=True)
class Frame:
    """Where a position on the road is, which way the road runs there, and its right-hand side."""

    point: Point
    direction: Point
    """Unit vector along the driving direction."""
    right: Point
    """Unit vector to the driver's right (y points down, so this is (-dy, dx))."""

    @property
    def heading(self) -> float:
        """Driving direction in degrees: 0 along +x, 90 along +y (down the board)."""
        return math.degrees(math.atan2(self.direction[1], self.direction[0])) % 360.0


class Road:
    """A centre line with positions measured along it, and the lines offset beside it.

    Offsets are signed distances to the driver's right: a three-lane road with lanes 36 px apart
    has its lane centres at -36, 0 and 36.
    """

    def __init__(
        self,
        points: Sequence[Point],
        *,
        closed: bool,
        directions: Mapping[int, Point] | None = None,
    ) -> None:
        """``directions`` pins the driving direction at some vertices (by index) instead of the
        one taken from their neighbours: where a road must leave square from a given cut."""
        line = [(float(x), float(y)) for x, y in points]
        if closed and len(line) > 1 and line[0] == line[-1]:
            line.pop()
        if len(line) < 2:
            raise BuildError("a road needs at least two distinct points")
        self.points = line
        self.closed = closed
        count = len(line)
        stops = count if closed else count - 1
        self.positions = [0.0]
        for i in range(stops):
            step = math.dist(line[i], line[(i + 1) % count])
            if step == 0:
                raise BuildError(f"the centre line repeats point {i} at {line[i]}")
            self.positions.append(self.positions[-1] + step)
        self.length = self.positions[-1]
        self._tangents = [self._vertex_tangent(i) for i in range(count)]
        for i, (dx, dy) in (directions or {}).items():
            norm = math.hypot(dx, dy)
            if not 0 <= i < count or norm == 0:
                raise BuildError(f"a road's direction is pinned at vertex {i}, which it lacks, "
                                 "or is no direction")
            self._tangents[i] = (dx / norm, dy / norm)
        self._lane_cache: dict[tuple[float, float], list[float]] = {}

    def _vertex_tangent(self, i: int) -> Point:
        count = len(self.points)
        if self.closed:
            a, b = self.points[i - 1], self.points[(i + 1) % count]
        else:
            a, b = self.points[max(i - 1, 0)], self.points[min(i + 1, count - 1)]
        dx, dy = b[0] - a[0], b[1] - a[1]
        norm = math.hypot(dx, dy)
        return (dx / norm, dy / norm)

    def wrap(self, position: float) -> float:
        """The position folded into [0, length) on a closed road, clamped on an open one."""
        if self.closed:
            folded = position % self.length
            return 0.0 if folded >= self.length else folded
        return min(max(position, 0.0), self.length)

    def _locate(self, position: float) -> tuple[int, float]:
        """Segment index and fraction along it of a position."""
        s = self.wrap(position)
        i = bisect.bisect_right(self.positions, s) - 1
        i = min(max(i, 0), len(self.positions) - 2)
        span = self.positions[i + 1] - self.positions[i]
        return i, (s - self.positions[i]) / span

    def frame(self, position: float) -> Frame:
        """The point, direction and right-hand normal at a position."""
        i, f = self._locate(position)
        count = len(self.points)
        a, b = self.points[i], self.points[(i + 1) % count]
        ta, tb = self._tangents[i], self._tangents[(i + 1) % count]
        dx, dy = ta[0] + f * (tb[0] - ta[0]), ta[1] + f * (tb[1] - ta[1])
        norm = math.hypot(dx, dy) or 1.0
        direction = (dx / norm, dy / norm)
        point = (a[0] + f * (b[0] - a[0]), a[1] + f * (b[1] - a[1]))
        return Frame(point, direction, (-direction[1], direction[0]))

    def offset_point(self, position: float, offset: float) -> Point:
        """The point ``offset`` pixels to the right of the centre line at ``position``."""
        frame = self.frame(position)
        return (
            frame.point[0] + offset * frame.right[0],
            frame.point[1] + offset * frame.right[1],
        )

    def _lane_distances(self, offset: float, squeeze: float = 1.0) -> list[float]:
        """Distance along the line at ``offset`` to each vertex (one lap plus the closing one).

        With ``squeeze`` other than 1, each piece of the line counts its length times (its
        length / the centre line's length there) to the power ``squeeze - 1``: see
        :func:`trackformat.builder.lanes.even_cuts`.
        """
        key = (offset, squeeze)
        cached = self._lane_cache.get(key)
        if cached is not None:
            return cached
        count = len(self.points)
        shifted = [
            (p[0] - offset * t[1], p[1] + offset * t[0])
            for p, t in zip(self.points, self._tangents, strict=True)
        ]
        distances = [0.0]
        for i in range(len(self.positions) - 1):
            step = math.dist(shifted[i], shifted[(i + 1) % count])
            if squeeze != 1.0:
                centre = self.positions[i + 1] - self.positions[i]
                step = centre * (step / centre) ** squeeze
            distances.append(distances[-1] + step)
        self._lane_cache[key] = distances
        return distances

    def folds(self, offset: float) -> list[float]:
        """Positions (the middles of the pieces of road) where the line at ``offset`` runs
        backwards: the road turns tighter there than ``offset``, so on the inside of that bend
        the edge of the road folds over itself and the spaces cut across it cross."""
        count = len(self.points)
        shifted = [
            (p[0] - offset * t[1], p[1] + offset * t[0])
            for p, t in zip(self.points, self._tangents, strict=True)
        ]
        found = []
        for i in range(len(self.positions) - 1):
            j = (i + 1) % count
            (ax, ay), (bx, by) = self.points[i], self.points[j]
            (sx, sy), (ex, ey) = shifted[i], shifted[j]
            if (ex - sx) * (bx - ax) + (ey - sy) * (by - ay) < 0:
                found.append((self.positions[i] + self.positions[i + 1]) / 2)
        return found

    def lane_distance(self, offset: float, position: float, *, squeeze: float = 1.0) -> float:
        """Distance travelled along the line at ``offset`` from position 0 to ``position``.

        Unwrapped positions give unwrapped distances (a lap more per road length), so the
        distance between two positions is a plain difference.
        """
        distances = self._lane_distances(offset, squeeze)
        laps = math.floor(position / self.length) if self.closed else 0
        i, f = self._locate(position)
        within = distances[i] + f * (distances[i + 1] - distances[i])
        return within + laps * distances[-1]

    def lane_length(self, offset: float, *, squeeze: float = 1.0) -> float:
        """Length of the whole line at ``offset`` (one lap on a closed road)."""
        return self._lane_distances(offset, squeeze)[-1]

    def position_at_lane_distance(
        self, offset: float, distance: float, *, squeeze: float = 1.0
    ) -> float:
        """The road position where the line at ``offset`` has travelled ``distance`` from 0."""
        distances = self._lane_distances(offset, squeeze)
        total = distances[-1]
        laps = math.floor(distance / total) if self.closed else 0
        within = distance - laps * total if self.closed else min(max(distance, 0.0), total)
        i = bisect.bisect_right(distances, within) - 1
        i = min(max(i, 0), len(distances) - 2)
        span = distances[i + 1] - distances[i]
        f = (within - distances[i]) / span if span > 0 else 0.0
        position = self.positions[i] + f * (self.positions[i + 1] - self.positions[i])
        return position + laps * self.length
