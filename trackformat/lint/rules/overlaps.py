"""Finding the spaces that cover one another, with work bounded however the file is drawn.

A sound track has a handful of outlines near each space, so looking at every pair whose boxes
meet is cheap. A hostile or broken file is not: 5,000 copies of one space make 12.5 million
pairs, and measuring each took minutes and gigabytes. So the search

- groups outlines that are identical (the usual way a pile is made: a space pasted many times)
  and looks at one of each group, which costs one pass over the outlines;
- asks the spatial index about a few spaces at a time, so that no single answer is huge, and
  stops after :data:`MAX_CANDIDATES` pairs;
- measures the shared area of at most :data:`MAX_MEASURED` pairs that cross;
- returns clusters: spaces joined by overlaps, each reported once by the rule with a count.

It says whether it stopped early, so that the report never claims more than was checked.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import shapely

MAX_CANDIDATES = 1_000_000
"""Pairs of outlines whose boxes meet that are tested at most (a sound track has about two per
space, so a track of 400,000 spaces is still checked in full)."""
MAX_MEASURED = 20_000
"""Pairs of crossing outlines whose shared area is measured at most."""
QUERY_HITS = 4_000_000
"""Answers the spatial index may give to one question about a batch of spaces: the batch
shrinks as the track grows, so a space covered by every other one cannot ask for too much."""


@dataclass
class Overlap:
    """Two spaces (indices of the outlines) covering one another, and by how much."""

    first: int
    second: int
    shared: float
    smaller: float
    point: tuple[float, float] | None

    @property
    def share(self) -> float:
        """Percent of the smaller space that the other covers."""
        return 100.0 * self.shared / self.smaller if self.smaller > 0 else 100.0


@dataclass
class Cluster:
    """Spaces joined by overlaps (indices of the outlines), with their overlapping pairs."""

    members: list[int]
    pairs: int
    """Overlapping pairs of spaces among the members (all pairs of identical copies count)."""
    largest: Overlap


@dataclass
class OverlapSearch:
    """What the search found, and how much of the track it checked."""

    clusters: list[Cluster] = field(default_factory=list)
    complete: bool = True
    """False when the search stopped at :data:`MAX_CANDIDATES` or :data:`MAX_MEASURED`."""
    candidates: int = 0
    """Pairs of outlines whose boxes meet that were tested."""


def point_in(geometry: shapely.Geometry) -> tuple[float, float] | None:
    """A board point inside ``geometry`` (None for an empty one)."""
    coordinates = shapely.get_coordinates(shapely.point_on_surface(geometry))
    if not len(coordinates):
        return None
    return (round(float(coordinates[0, 0]), 3), round(float(coordinates[0, 1]), 3))


def identical(polygons: np.ndarray, has_area: np.ndarray) -> np.ndarray:
    """For each outline, the index of the first outline with the same points (to a thousandth
    of a pixel, whatever point it starts from and whichever way round it goes); itself when it
    is the first. Outlines without area are never grouped: they cover nothing."""
    first = np.arange(len(polygons))
    chosen = np.flatnonzero(has_area)
    if not len(chosen):
        return first
    normal = shapely.normalize(polygons[chosen])
    counts = shapely.get_num_coordinates(normal)
    # + 0.0 turns -0.0 into 0.0, so that the same point always gives the same bytes.
    points = np.round(shapely.get_coordinates(normal), 3) + 0.0
    ends = np.cumsum(counts)
    seen: dict[bytes, int] = {}
    for index, end, count in zip(chosen.tolist(), ends.tolist(), counts.tolist(), strict=True):
        first[index] = seen.setdefault(points[end - count:end].tobytes(), index)
    return first


def _candidates(shrunk: np.ndarray) -> tuple[np.ndarray, bool]:
    """Index pairs (i < j) of ``shrunk`` outlines whose boxes meet, and whether all were found."""
    tree = shapely.STRtree(shrunk)
    batch = max(1, QUERY_HITS // max(len(shrunk), 1))
    found: list[np.ndarray] = []
    total = 0
    for start in range(0, len(shrunk), batch):
        left, right = tree.query(shrunk[start:start + batch])
        left = left + start
        keep = left < right
        pairs = np.column_stack([left[keep], right[keep]])
        found.append(pairs)
        total += len(pairs)
        if total > MAX_CANDIDATES:
            return np.concatenate(found)[:MAX_CANDIDATES], False
    if not found:
        return np.empty((0, 2), dtype=np.intp), True
    return np.concatenate(found), True


def find_overlaps(polygons: np.ndarray, shrunk: np.ndarray, min_area: float,
                  share: float) -> OverlapSearch:
    """Clusters of outlines in ``polygons`` that cover one another by more than ``share`` of the
    smaller one's area. ``shrunk`` holds the same outlines drawn a little inwards, so that
    neighbours meeting along an edge no longer touch and need no measuring."""
    search = OverlapSearch()
    if not len(polygons):
        return search
    areas = shapely.area(polygons)
    copy_of = identical(polygons, areas >= min_area)
    heads = np.flatnonzero(copy_of == np.arange(len(polygons)))

    pairs, search.complete = _candidates(shrunk[heads])
    search.candidates = len(pairs)
    shapely.prepare(shrunk)
    if len(pairs):
        pairs = heads[pairs]
        pairs = pairs[shapely.intersects(shrunk[pairs[:, 0]], shrunk[pairs[:, 1]])]
    if len(pairs) > MAX_MEASURED:
        pairs, search.complete = pairs[:MAX_MEASURED], False

    overlaps: list[Overlap] = []
    if len(pairs):
        a, b = polygons[pairs[:, 0]], polygons[pairs[:, 1]]
        shared_shapes = shapely.intersection(a, b)
        shared = shapely.area(shared_shapes)
        smaller = np.minimum(areas[pairs[:, 0]], areas[pairs[:, 1]])
        for k in np.flatnonzero(shared > share * smaller).tolist():
            overlaps.append(Overlap(int(pairs[k, 0]), int(pairs[k, 1]), float(shared[k]),
                                    float(smaller[k]), point_in(shared_shapes[k])))
    search.clusters = _clusters(polygons, areas, copy_of, overlaps)
    return search


def _clusters(polygons: np.ndarray, areas: np.ndarray, copy_of: np.ndarray,
              overlaps: list[Overlap]) -> list[Cluster]:
    """Spaces joined by overlaps or by being copies of one another, each cluster once."""
    copies: dict[int, list[int]] = {}
    for index, head in enumerate(copy_of.tolist()):
        if index != head:
            copies.setdefault(head, [head]).append(index)
    parent: dict[int, int] = {}

    def root(node: int) -> int:
        parent.setdefault(node, node)
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    for overlap in overlaps:
        parent[root(overlap.first)] = root(overlap.second)
    for head in copies:
        root(head)

    members: dict[int, list[int]] = {}
    for head in parent:
        members.setdefault(root(head), []).extend(copies.get(head, [head]))
    pairs: dict[int, int] = {}
    largest: dict[int, Overlap] = {}

    def note(overlap: Overlap, count: int) -> None:
        group = root(overlap.first)
        pairs[group] = pairs.get(group, 0) + count
        if group not in largest or overlap.shared > largest[group].shared:
            largest[group] = overlap

    for head, group in copies.items():
        area = float(areas[head])
        note(Overlap(head, group[1], area, area, point_in(polygons[head])),
             len(group) * (len(group) - 1) // 2)
    for overlap in overlaps:
        note(overlap, len(copies.get(overlap.first, [0])) * len(copies.get(overlap.second, [0])))
    return [Cluster(sorted(group), pairs[key], largest[key]) for key, group in members.items()]


def shrunk(polygons: np.ndarray, depth: float) -> np.ndarray:
    """Each outline drawn ``depth`` pixels (about) closer to its centroid, so that neighbours
    meeting along an edge no longer touch. Scaling every point of every outline is one numpy
    step on the coordinates shapely hands over, where an inward buffer costs far more on the
    many-sided outlines of curves."""
    if not len(polygons):
        return polygons
    owner = np.repeat(np.arange(len(polygons)), shapely.get_num_coordinates(polygons))
    # One centre per outline, even an empty one (whose centre has no coordinates, and which has
    # no points to move either), so that the rows line up with the outlines.
    found, which = shapely.get_coordinates(shapely.centroid(polygons), return_index=True)
    centres = np.zeros((len(polygons), 2))
    centres[which] = found
    centres = centres[owner]
    size = np.sqrt(np.maximum(shapely.area(polygons), 1e-9))
    keep = (1.0 - np.minimum(2.0 * depth / size, 0.5))[owner, None]
    return np.asarray(shapely.transform(polygons, lambda xy: centres + (xy - centres) * keep))
