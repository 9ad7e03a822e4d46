"""Shapes of the spaces (shapely), built once per track and queried in bulk.

Both the collision-neighbour graph and the geometry rules need "which spaces touch or overlap";
answering it with one STRtree and vectorised shapely calls keeps a 5,000-space track fast.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import chain

import numpy as np
import shapely
from shapely.geometry import Polygon

from trackformat.model.track import Space


def space_polygon(space: Space) -> Polygon:
    """The shapely polygon of a space's outline (possibly invalid: the caller checks)."""
    return Polygon(space.polygon)


def polygons_of(spaces: Sequence[Space]) -> np.ndarray:
    """Shapely polygons of many spaces at once (one vectorised call, not one per space)."""
    if not spaces:
        return np.array([], dtype=object)
    counts = [len(s.polygon) for s in spaces]
    # Straight from the floats into an array: a list of point tuples costs twice as much.
    flat = chain.from_iterable(chain.from_iterable(s.polygon for s in spaces))
    coords = np.fromiter(flat, dtype=float, count=2 * sum(counts)).reshape(-1, 2)
    rings = shapely.linearrings(coords, indices=np.repeat(np.arange(len(spaces)), counts))
    return np.asarray(shapely.polygons(rings))


@dataclass
class SpaceShapes:
    """Polygons of a list of spaces, with a spatial index over them."""

    ids: list[str]
    polygons: np.ndarray  # of shapely Polygons, same order as ids
    tree: shapely.STRtree = field(repr=False)
    scale: float
    """Typical size of a space in pixels (median square root of the areas); tolerances follow it."""
    valid: np.ndarray = field(repr=False, default_factory=lambda: np.array([], dtype=bool))
    """Whether each outline is a valid polygon (invalid ones are repaired in ``polygons``)."""
    _side_cache: (
        tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None
    ) = field(
        default=None, repr=False
    )

    @classmethod
    def of(cls, spaces: Sequence[Space]) -> SpaceShapes:
        polygons = polygons_of(spaces)
        valid = shapely.is_valid(polygons) if len(polygons) else np.array([], dtype=bool)
        areas = shapely.area(polygons[valid]) if len(polygons) else np.array([])
        scale = float(math.sqrt(float(np.median(areas)))) if len(areas) else 1.0
        # Invalid polygons (self-crossing outlines) are made valid for the index only, so that
        # one broken space does not blind every other check; the geometry rules report it.
        repaired = polygons.copy()
        if len(polygons) and not valid.all():
            repaired[~valid] = shapely.make_valid(polygons[~valid])
        return cls(
            ids=[s.id for s in spaces],
            polygons=repaired,
            tree=shapely.STRtree(repaired),
            scale=max(scale, 1e-6),
            valid=valid,
        )

    def candidate_pairs(self, margin: float) -> np.ndarray:
        """Index pairs (i < j), shape (n, 2), whose bounding boxes come within ``margin``.

        Only boxes are compared, which is fast; callers filter the candidates further before
        any exact geometry.
        """
        if len(self.polygons) == 0:
            return np.empty((0, 2), dtype=int)
        b = shapely.bounds(self.polygons)
        grown = shapely.box(b[:, 0] - margin, b[:, 1] - margin, b[:, 2] + margin, b[:, 3] + margin)
        left, right = self.tree.query(grown)
        keep = left < right
        return np.stack([left[keep], right[keep]], axis=1)

    def pairs_within(self, distance: float) -> list[tuple[int, int]]:
        """Index pairs (i < j) of spaces at most ``distance`` apart."""
        pairs = self.candidate_pairs(distance)
        if len(pairs) == 0:
            return []
        near = shapely.dwithin(self.polygons[pairs[:, 0]], self.polygons[pairs[:, 1]], distance)
        return [(int(i), int(j)) for i, j in pairs[near]]

    def shared_boundary(self, pairs: Sequence[tuple[int, int]] | np.ndarray,
                        tolerance: float) -> np.ndarray:
        """Length of boundary the two spaces of each pair share, within ``tolerance`` pixels.

        Measured side against side with numpy rather than by polygon overlay: for every side of
        one space and every side of the other that run along each other (both ends of one
        within ``tolerance`` of the other's line), the length over which they overlap. Only the
        sides of each space that come near the other's bounding box are paired, so a curved
        space of many sides costs little more than a square one. Sides that touch at a corner
        only share nothing; a small gap or overlap drawn by hand still counts.
        """
        if len(pairs) == 0:
            return np.array([])
        index = np.asarray(pairs)
        starts, ends, first, count, unit, length_of = self._sides()
        boxes = shapely.bounds(self.polygons)
        low_corner = np.minimum(starts, ends)
        high_corner = np.maximum(starts, ends)

        def near_sides(own: np.ndarray, other: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            """(pair, side) for the sides of ``own`` that reach the box of ``other``."""
            pair_of = np.repeat(np.arange(len(index)), count[own])
            offset = np.arange(len(pair_of)) - np.repeat(np.cumsum(count[own]) - count[own],
                                                        count[own])
            side = first[own][pair_of] + offset
            box = boxes[other][pair_of]
            near = (
                (low_corner[side, 0] <= box[:, 2] + tolerance)
                & (high_corner[side, 0] >= box[:, 0] - tolerance)
                & (low_corner[side, 1] <= box[:, 3] + tolerance)
                & (high_corner[side, 1] >= box[:, 1] - tolerance)
            )
            return pair_of[near], side[near]

        pair_a, side_a_all = near_sides(index[:, 0], index[:, 1])
        pair_b, side_b_all = near_sides(index[:, 1], index[:, 0])
        count_a = np.bincount(pair_a, minlength=len(index))
        count_b = np.bincount(pair_b, minlength=len(index))
        start_a = np.cumsum(count_a) - count_a
        start_b = np.cumsum(count_b) - count_b
        combos = count_a * count_b
        pair_of = np.repeat(np.arange(len(index)), combos)
        offset = np.arange(int(combos.sum())) - np.repeat(np.cumsum(combos) - combos, combos)
        side_a = side_a_all[start_a[pair_of] + offset // np.maximum(count_b[pair_of], 1)]
        side_b = side_b_all[start_b[pair_of] + offset % np.maximum(count_b[pair_of], 1)]
        a0 = starts[side_a]
        b0, b1 = starts[side_b], ends[side_b]
        ux, uy = unit[side_a, 0], unit[side_a, 1]
        length = length_of[side_a]

        def across(point: np.ndarray) -> np.ndarray:
            rel = point - a0
            return np.asarray(np.abs(ux * rel[:, 1] - uy * rel[:, 0]))

        def position(point: np.ndarray) -> np.ndarray:
            rel = point - a0
            return np.asarray(ux * rel[:, 0] + uy * rel[:, 1])

        parallel = (length > 1e-9) & (across(b0) <= tolerance) & (across(b1) <= tolerance)
        t0, t1 = position(b0), position(b1)
        low = np.maximum(np.minimum(t0, t1), 0.0)
        high = np.minimum(np.maximum(t0, t1), length)
        overlap = np.where(parallel, np.clip(high - low, 0.0, None), 0.0)
        return np.bincount(pair_of, weights=overlap, minlength=len(index))

    def _sides(
        self,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Every side of every outline: start and end points, where each outline's begin and how
        many it has, and each side's direction (a unit vector) and length."""
        if self._side_cache is None:
            coords, owner = shapely.get_coordinates(
                shapely.get_exterior_ring(self.polygons), return_index=True
            )
            # Rings repeat their first point at the end: side k joins point k to point k + 1.
            last = np.r_[owner[1:] != owner[:-1], True]
            keep = ~last
            starts = coords[:-1][keep[:-1]]
            ends = coords[1:][keep[:-1]]
            side_owner = owner[:-1][keep[:-1]]
            count = np.bincount(side_owner, minlength=len(self.polygons))
            first = np.cumsum(count) - count
            along = ends - starts
            length = np.hypot(along[:, 0], along[:, 1])
            unit = np.zeros_like(along)
            usable = length > 1e-9
            unit[usable] = along[usable] / length[usable, None]
            self._side_cache = (starts, ends, first, count, unit, length)
        return self._side_cache

    def overlap_area(self, pairs: Sequence[tuple[int, int]]) -> np.ndarray:
        """Area of the overlap of the two spaces of each pair."""
        if not pairs:
            return np.array([])
        index = np.array(pairs)
        return np.asarray(
            shapely.area(
                shapely.intersection(self.polygons[index[:, 0]], self.polygons[index[:, 1]])
            )
        )


def angle_between(heading_deg: float, dx: float, dy: float) -> float:
    """Unsigned angle in degrees between a heading and the direction (dx, dy)."""
    if dx == 0 and dy == 0:
        return 0.0
    direction = math.degrees(math.atan2(dy, dx))
    diff = (direction - heading_deg + 180.0) % 360.0 - 180.0
    return abs(diff)
