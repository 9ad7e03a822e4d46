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


@dataclass
class SpaceShapes:
    """Polygons of a list of spaces, with a spatial index over them."""

    ids: list[str]
    polygons: np.ndarray  # of shapely Polygons, same order as ids
    tree: shapely.STRtree = field(repr=False)
    scale: float
    """Typical size of a space in pixels (median square root of the areas); tolerances follow it."""

    @classmethod
    def of(cls, spaces: Sequence[Space]) -> SpaceShapes:
        polygons = np.array([space_polygon(s) for s in spaces], dtype=object)
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
        )

    def pairs_within(self, distance: float) -> list[tuple[int, int]]:
        """Index pairs (i < j) of spaces at most ``distance`` apart."""
        if len(self.polygons) == 0:
            return []
        left, right = self.tree.query(self.polygons, predicate="dwithin", distance=distance)
        keep = left < right
        return list(zip(left[keep].tolist(), right[keep].tolist(), strict=True))

    def shared_boundary(self, pairs: Sequence[tuple[int, int]], tolerance: float) -> np.ndarray:
        """Length of boundary the two spaces of each pair share, within ``tolerance`` pixels."""
        if not pairs:
            return np.array([])
        index = np.array(pairs)
        a = shapely.buffer(shapely.boundary(self.polygons[index[:, 0]]), tolerance)
        b = shapely.boundary(self.polygons[index[:, 1]])
        return np.asarray(shapely.length(shapely.intersection(a, b)))

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
