"""From a road to spaces: where each lane is cut across, and the outline of every space.

A *strip* is a run of spaces side by side with nothing else: a lane of the circuit, the pit lane,
the row of team boxes. Its spaces lie between two edge lines offset from the road's centre line
and are separated by *cuts* straight across the road at given positions. Strips that touch share
their edge line, and that line carries the cuts of both strips as vertices, so the outlines of two
neighbouring spaces run through exactly the same points: the spaces tile the road with no gap and
no overlap however differently the two lanes are cut.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import pairwise

import numpy as np
from shapely.geometry import Polygon

from trackformat.builder.errors import BuildError
from trackformat.builder.road import Point, Road

DECIMALS = 2
"""Coordinates are rounded to 0.01 px: far below what anyone can see, and files stay small."""


@dataclass(frozen=True)
class Strip:
    """A row of spaces at ``offset`` (to the driver's right) cut at ``cuts`` (road positions)."""

    name: str
    offset: float
    width: float
    cuts: tuple[float, ...]
    """Road positions of the space boundaries, increasing: ``len(cuts) - 1`` spaces."""
    taper: float = 0.0
    """Share of the first and last space by which their side away from the track (``outer``) is
    cut short: a pit lane branches off and rejoins the track at a slant, not square."""
    outer: str = "right"
    """The side of the strip away from the track, ``"left"`` or ``"right"``."""

    def tapered(self, index: int) -> tuple[float, float]:
        """Where space ``index`` starts and ends along its outer side."""
        a, b = self.cuts[index], self.cuts[index + 1]
        start = a + self.taper * (b - a) if index == 0 else a
        end = b - self.taper * (b - a) if index == len(self.cuts) - 2 else b
        return start, end

    @property
    def left(self) -> float:
        return self.offset - self.width / 2

    @property
    def right(self) -> float:
        return self.offset + self.width / 2


@dataclass(frozen=True)
class SpaceShape:
    """The outline, centre and heading of one space of a strip, and where it lies on the road."""

    strip: str
    index: int
    polygon: tuple[Point, ...]
    centre: Point
    heading: float
    start: float
    """Road position of the cut behind the space (unwrapped, as in the strip's cuts)."""
    end: float
    """Road position of the cut ahead of the space."""

    @property
    def middle(self) -> float:
        return (self.start + self.end) / 2

    @cached_property
    def outline(self) -> Polygon:
        """The outline as a shapely polygon, for distances between spaces."""
        return Polygon(self.polygon)


def even_cuts(
    road: Road, offset: float, start: float, end: float, count: int, *, squeeze: float = 1.0
) -> list[float]:
    """``count + 1`` cut positions from ``start`` to ``end``, equally spaced along the lane.

    Equal along the lane's own line, not the centre line: on the inside of a bend the lane is
    shorter, so the same number of spaces there are shorter too, as printed boards have them.
    ``squeeze`` above 1 makes that stronger (each piece of lane weighs its length times the
    ratio of lane to centre-line length to the power ``squeeze - 1``): printed boards pinch the
    inside of a tight bend harder than its length alone would, which is what lets a car that
    keeps to the inside of each half of an S-bend use fewer spaces than any single lane.
    """
    if count < 1:
        raise BuildError(f"a stretch needs at least one space, got {count}")
    if end <= start:
        raise BuildError(f"a stretch must run forward: from {start:.2f} to {end:.2f}")
    first = road.lane_distance(offset, start, squeeze=squeeze)
    last = road.lane_distance(offset, end, squeeze=squeeze)
    cuts = [start]
    for k in range(1, count):
        cuts.append(road.position_at_lane_distance(
            offset, first + (last - first) * k / count, squeeze=squeeze))
    cuts.append(end)
    return cuts


def unwrapped(road: Road, origin: float, position: float) -> float:
    """``position`` moved by whole laps to lie in [origin, origin + length) on a closed road."""
    if not road.closed:
        return position
    return origin + (position - origin) % road.length


def anchored_cuts(
    road: Road,
    offset: float,
    count: int,
    anchors: Mapping[int, float],
    *,
    full_lap: bool,
    squeeze: float = 1.0,
) -> tuple[float, ...]:
    """The cuts of a strip of ``count`` spaces whose boundaries ``anchors`` are pinned.

    ``anchors`` maps a boundary index (0 is behind space 0, ``count`` ahead of the last space) to
    a road position. Boundary 0 must be given; a full lap of a closed road ends where it starts,
    otherwise boundary ``count`` must be given too. Between anchors spaces are equal (see
    :func:`even_cuts` for ``squeeze``).
    """
    if 0 not in anchors:
        raise BuildError(f"strip at offset {offset:g}: boundary 0 must be anchored")
    origin = anchors[0]
    pinned = {i: unwrapped(road, origin, p) for i, p in anchors.items() if i != count}
    pinned[0] = origin
    if full_lap:
        if not road.closed:
            raise BuildError("only a closed road has a full lap")
        pinned[count] = origin + road.length
    elif count in anchors:
        pinned[count] = unwrapped(road, origin, anchors[count])
        if road.closed and pinned[count] == origin:
            pinned[count] = origin + road.length
    else:
        raise BuildError(f"strip at offset {offset:g}: boundary {count} (its end) must be anchored")
    order = sorted(pinned)
    if order[0] < 0 or order[-1] > count:
        raise BuildError(f"strip at offset {offset:g}: anchors outside boundaries 0..{count}")
    cuts: list[float] = [origin]
    for a, b in pairwise(order):
        if pinned[b] <= pinned[a]:
            raise BuildError(
                f"strip at offset {offset:g}: boundary {b} (at {pinned[b]:.1f}) is not ahead of "
                f"boundary {a} (at {pinned[a]:.1f})"
            )
        cuts += even_cuts(road, offset, pinned[a], pinned[b], b - a, squeeze=squeeze)[1:]
    return tuple(cuts)


def fit_anchors(
    road: Road,
    offset: float,
    count: int,
    fixed: Mapping[int, float],
    targets: Mapping[int, float],
    *,
    pull: float,
    full_lap: bool,
) -> dict[int, float]:
    """Positions of the ``targets`` boundaries that keep the lane's spaces as even as possible.

    A lane's corner limits should sit beside the other lanes' limits (``targets``), but its spaces
    should also all be about one length; where the printed counts disagree with a straight cut
    across the road, the limit is let slide. The compromise is a least-squares fit: each stretch
    between anchors costs the square of how far its spaces are from the lane's mean length, each
    moved anchor ``pull`` times the square of how far it moved. Returns fixed and fitted anchors.
    """
    if 0 not in fixed:
        raise BuildError(f"strip at offset {offset:g}: boundary 0 must be fixed")
    origin = fixed[0]
    sigma_fixed = {
        i: road.lane_distance(offset, unwrapped(road, origin, p)) for i, p in fixed.items()
    }
    if full_lap:
        sigma_fixed[count] = sigma_fixed[0] + road.lane_length(offset)
    if count not in sigma_fixed:
        raise BuildError(f"strip at offset {offset:g}: boundary {count} must be fixed")
    free = sorted(i for i in targets if i not in sigma_fixed)
    for i in free:
        if not 0 < i < count:
            raise BuildError(f"strip at offset {offset:g}: boundary {i} is outside 1..{count - 1}")
    mean = (sigma_fixed[count] - sigma_fixed[0]) / count
    column = {i: k for k, i in enumerate(free)}
    order = sorted(set(sigma_fixed) | set(free))
    size = len(free)
    matrix = np.zeros((size, size))
    rhs = np.zeros(size)
    for a, b in pairwise(order):
        n = b - a
        # cost (x_b - x_a - n * mean)^2 / n, differentiated for each free end
        weight = 1.0 / n
        target_gap = n * mean
        for end, sign in ((b, 1.0), (a, -1.0)):
            if end not in column:
                continue
            row = column[end]
            for other, other_sign in ((b, 1.0), (a, -1.0)):
                if other in column:
                    matrix[row, column[other]] += weight * sign * other_sign
                else:
                    rhs[row] -= weight * sign * other_sign * sigma_fixed[other]
            rhs[row] += weight * sign * target_gap
    for i in free:
        row = column[i]
        matrix[row, row] += pull
        rhs[row] += pull * road.lane_distance(offset, unwrapped(road, origin, targets[i]))
    solved = np.linalg.solve(matrix, rhs) if size else np.zeros(0)
    sigma = dict(sigma_fixed)
    for i in free:
        sigma[i] = float(solved[column[i]])
    for a, b in pairwise(order):
        if sigma[b] - sigma[a] < 0.3 * (b - a) * mean:
            raise BuildError(
                f"strip at offset {offset:g}: boundaries {a} and {b} end up "
                f"{sigma[b] - sigma[a]:.1f} px apart for {b - a} spaces; the counts between them "
                "cannot fit the road there"
            )
    fitted = {i: road.position_at_lane_distance(offset, sigma[i]) for i in order}
    fitted[0] = origin
    if full_lap:
        del fitted[count]
    return fitted


class _Edge:
    """One edge line shared by the strips beside it, with every strip's cuts as vertices."""

    def __init__(self, road: Road, offset: float, hard: Sequence[float], tolerance: float) -> None:
        self.road = road
        wrapped = sorted({road.wrap(p) for p in hard})
        soft = road.positions[:-1] if road.closed else road.positions
        positions = sorted(set(wrapped) | set(soft))
        hard_set = set(wrapped)
        points = [road.offset_point(p, offset) for p in positions]
        keep = _simplify(points, [p in hard_set for p in positions], tolerance, road.closed)
        self.positions = [p for p, k in zip(positions, keep, strict=True) if k]
        self.points = [q for q, k in zip(points, keep, strict=True) if k]
        self.index = {p: i for i, p in enumerate(self.positions)}

    def run(self, start: float, end: float) -> list[Point]:
        """The edge's vertices from cut ``start`` to cut ``end`` (both ends included)."""
        a, b = self.index[self.road.wrap(start)], self.index[self.road.wrap(end)]
        if b > a:
            return self.points[a : b + 1]
        if not self.road.closed:
            raise BuildError(f"a space from {start:.1f} to {end:.1f} runs backwards")
        return self.points[a:] + self.points[: b + 1]


def _simplify(points: list[Point], hard: list[bool], tolerance: float, closed: bool) -> list[bool]:
    """Which vertices to keep: every hard one, and the soft ones the shape needs (Douglas-Peucker).

    Done once per edge, so both strips beside an edge get the same vertices.
    """
    keep = list(hard)
    anchors = [i for i, h in enumerate(hard) if h]
    if not anchors:
        return [True] * len(points)
    count = len(points)
    spans = list(pairwise(anchors))
    if closed:
        spans.append((anchors[-1], anchors[0] + count))
    else:
        keep[0] = keep[-1] = True
        spans = [(0, anchors[0]), *spans, (anchors[-1], count - 1)]
    for a, b in spans:
        _douglas_peucker(points, a, b, tolerance, keep)
    return keep


def _douglas_peucker(
    points: list[Point], a: int, b: int, tolerance: float, keep: list[bool]
) -> None:
    count = len(points)
    stack = [(a, b)]
    while stack:
        i, j = stack.pop()
        if j - i < 2:
            continue
        p, q = points[i % count], points[j % count]
        worst, where = -1.0, -1
        for k in range(i + 1, j):
            d = _distance_to_segment(points[k % count], p, q)
            if d > worst:
                worst, where = d, k
        if worst > tolerance:
            keep[where % count] = True
            stack += [(i, where), (where, j)]


def _distance_to_segment(p: Point, a: Point, b: Point) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    if length2 == 0:
        return math.dist(p, a)
    t = max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2))
    return math.dist(p, (a[0] + t * dx, a[1] + t * dy))


def _rounded(point: Point) -> Point:
    return (round(point[0], DECIMALS) + 0.0, round(point[1], DECIMALS) + 0.0)


def _outline(left: list[Point], right: list[Point]) -> tuple[Point, ...]:
    """Left edge forward, right edge back, rounded, without repeated points."""
    outline: list[Point] = []
    for point in (*left, *reversed(right)):
        rounded = _rounded(point)
        if not outline or outline[-1] != rounded:
            outline.append(rounded)
    if len(outline) > 1 and outline[0] == outline[-1]:
        outline.pop()
    return tuple(outline)


def shape_strips(
    road: Road, strips: Sequence[Strip], *, tolerance: float = 0.2
) -> dict[str, list[SpaceShape]]:
    """The spaces of every strip, outlined so that touching strips share their edges exactly.

    ``tolerance`` (px) is how far a straight outline segment may stray from the curved edge.
    """
    edges: dict[float, list[float]] = {}
    for strip in strips:
        if strip.width <= 0:
            raise BuildError(f"strip {strip.name!r}: width must be positive")
        if len(strip.cuts) < 2:
            raise BuildError(f"strip {strip.name!r}: needs at least one space")
        for a, b in pairwise(strip.cuts):
            if b <= a:
                raise BuildError(f"strip {strip.name!r}: cut at {b:.2f} is not ahead of {a:.2f}")
        if strip.cuts[-1] - strip.cuts[0] > road.length + 1e-9 and road.closed:
            raise BuildError(f"strip {strip.name!r}: runs more than one lap")
        if not 0 <= strip.taper < 0.5 or strip.outer not in ("left", "right"):
            raise BuildError(f"strip {strip.name!r}: taper must be in [0, 0.5), outer a side")
        for side, edge in (("left", strip.left), ("right", strip.right)):
            cuts = list(strip.cuts)
            if strip.taper and side == strip.outer:
                cuts += [strip.tapered(0)[0], strip.tapered(len(strip.cuts) - 2)[1]]
            edges.setdefault(round(edge, 6), []).extend(cuts)
    lines = {key: _Edge(road, key, cuts, tolerance) for key, cuts in edges.items()}
    shapes: dict[str, list[SpaceShape]] = {}
    for strip in strips:
        left, right = lines[round(strip.left, 6)], lines[round(strip.right, 6)]
        row: list[SpaceShape] = []
        for index, (a, b) in enumerate(pairwise(strip.cuts)):
            outer_a, outer_b = strip.tapered(index)
            left_run = left.run(*(outer_a, outer_b) if strip.outer == "left" else (a, b))
            right_run = right.run(*(outer_a, outer_b) if strip.outer == "right" else (a, b))
            # The middle of the space: halfway between its (possibly slanted) ends.
            start = road.lane_distance(strip.offset, (a + outer_a) / 2)
            end = road.lane_distance(strip.offset, (b + outer_b) / 2)
            middle = road.position_at_lane_distance(strip.offset, (start + end) / 2)
            frame = road.frame(middle)
            centre = road.offset_point(middle, strip.offset)
            row.append(
                SpaceShape(
                    strip=strip.name,
                    index=index,
                    polygon=_outline(left_run, right_run),
                    centre=_rounded(centre),
                    heading=round(frame.heading, DECIMALS) % 360.0,
                    start=a,
                    end=b,
                )
            )
        shapes[strip.name] = row
    return shapes
