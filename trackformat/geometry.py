"""Shapes of the spaces (shapely), built once per track and queried in bulk.

Both the collision-neighbour graph and the geometry rules need "which spaces touch or overlap";
answering it with one STRtree and vectorised shapely calls keeps a 5,000-space track fast.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

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
    coords = np.array([point for s in spaces for point in s.polygon], dtype=float)
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

        Outlines that share their sides exactly (as the builder makes them) are measured by
        intersecting the boundaries, which is cheap; only pairs that come near without sharing
        exactly (drawn by hand) pay for widening one outline by the tolerance.
        """
        if len(pairs) == 0:
            return np.array([])
        index = np.asarray(pairs)
        a, b = self.polygons[index[:, 0]], self.polygons[index[:, 1]]
        near = shapely.distance(a, b) <= tolerance
        lengths = np.zeros(len(index))
        if not near.any():
            return lengths
        exact = shapely.length(shapely.intersection(shapely.boundary(a[near]),
                                                    shapely.boundary(b[near])))
        lengths[near] = exact
        # Near pairs that share no side: a gap or an overlap (drawn by hand) is measured again
        # with a widened outline; outlines that merely touch at a corner share nothing.
        loose = near.copy()
        loose[near] = (exact <= tolerance) & ~shapely.touches(a[near], b[near])
        if loose.any():
            grown = shapely.buffer(a[loose], tolerance, quad_segs=1, join_style="mitre")
            lengths[loose] = shapely.length(shapely.intersection(grown, shapely.boundary(b[loose])))
        return lengths

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
