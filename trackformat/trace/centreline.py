"""The road and its centre line: from the space blobs to one closed line round the lap.

The road is the blobs with the thin lines between them closed up (a dilation by about a line's
width, so that kerbs and verges between two legs of a hairpin stay open). Its skeleton is the
centre line with whiskers; whiskers shorter than the road is wide are pruned, and the longest
cycle left, weighted by the road's width so that a wide road wins over a narrow pit lane
beside it, is the lap. Where something printed across the road (a chequered finish band, a
missing space) breaks the skeleton, the pieces are joined end to end across the gaps.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import networkx as nx
import numpy as np
from numpy.typing import NDArray
from scipy import ndimage  # type: ignore[import-untyped]
from scipy.sparse import csgraph  # type: ignore[import-untyped]
from scipy.spatial import cKDTree  # type: ignore[import-untyped]
from skimage.morphology import skeletonize

from trackformat.trace.blobs import Blob, dense_outline
from trackformat.trace.errors import TraceError
from trackformat.trace.frame import Points, resample_loop
from trackformat.trace.palette import Mask

MIN_ROAD_SPACES = 8
"""A road piece must hold at least this many blobs; smaller clusters are scenery."""


def road_mask(blobs: Sequence[Blob], shape: tuple[int, int], line_width: float,
              space_area: float) -> Mask:
    """The road: the insides of ``blobs`` joined across the lines between them.

    Parameters
    ----------
    blobs : list of Blob
        The space candidates.
    shape : (int, int)
        The picture's height and width.
    line_width : float
        Width of the dark lines between spaces, in pixels: the gap closed between blobs.
    space_area : float
        Area of a space: holes smaller than three spaces (arrows, numbers) are filled.
    """
    insides = np.zeros(shape, dtype=np.uint8)
    for blob in blobs:
        contour = np.round(blob.outline).astype(np.int32).reshape(-1, 1, 2)
        cv2.drawContours(insides, [contour], -1, 1, thickness=cv2.FILLED)
    radius = max(1, round(line_width) + 1)
    disk = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))
    joined_up = cv2.morphologyEx(cv2.dilate(insides, disk), cv2.MORPH_CLOSE, disk)
    _, labels, stats, _ = cv2.connectedComponentsWithStats(joined_up, connectivity=8)
    keep = stats[:, cv2.CC_STAT_AREA] >= MIN_ROAD_SPACES * space_area
    keep[0] = False
    road = keep[labels]
    holes = ndimage.binary_fill_holes(road) & ~road
    hole_labels, _ = ndimage.label(holes)
    sizes = np.bincount(hole_labels.ravel())
    small = sizes < 3 * space_area
    small[0] = False
    return np.asarray(road | small[hole_labels], dtype=bool)


def skeleton_graph(mask: Mask) -> nx.Graph:
    """The skeleton of ``mask`` as a graph of pixels ``(row, col)``, 8-connected, with each
    node's ``width`` (distance to the mask's edge) and each edge's ``length``."""
    skeleton = skeletonize(mask)  # type: ignore[no-untyped-call]
    distance = cv2.distanceTransform(mask.astype(np.uint8), cv2.DIST_L2, 5)
    rows, cols = np.nonzero(skeleton)
    graph = nx.Graph()
    for r, c in zip(rows.tolist(), cols.tolist(), strict=True):
        graph.add_node((r, c), width=float(distance[r, c]))
    for dr, dc in ((0, 1), (1, -1), (1, 0), (1, 1)):
        r2, c2 = rows + dr, cols + dc
        inside = (r2 >= 0) & (r2 < mask.shape[0]) & (c2 >= 0) & (c2 < mask.shape[1])
        hit = np.zeros_like(inside)
        hit[inside] = skeleton[r2[inside], c2[inside]]
        length = float(np.hypot(dr, dc))
        graph.add_edges_from(
            ((a, b), (a2, b2), {"length": length})
            for a, b, a2, b2 in zip(rows[hit].tolist(), cols[hit].tolist(), r2[hit].tolist(),
                                    c2[hit].tolist(), strict=True))
    return graph


def prune_whiskers(graph: nx.Graph, shortest: float) -> None:
    """Remove, in place, every branch from a loose end to a fork shorter than ``shortest``."""
    for _ in range(20):
        removed = False
        for end in [n for n, degree in graph.degree() if degree == 1]:
            if end not in graph or graph.degree(end) != 1:
                continue
            branch, length = _branch(graph, end)
            if length < shortest and graph.degree(branch[-1]) >= 3:
                graph.remove_nodes_from(branch[:-1])
                removed = True
        if not removed:
            return


def _branch(graph: nx.Graph, end: tuple[int, int]) -> tuple[list[tuple[int, int]], float]:
    """The pixels from the loose ``end`` to the first fork (included), and the length."""
    path, length, previous = [end], 0.0, None
    here = end
    while True:
        ahead = [n for n in graph.neighbors(here) if n != previous]
        if len(ahead) != 1 or graph.degree(here) > 2:
            return path, length
        length += graph.edges[here, ahead[0]]["length"]
        previous, here = here, ahead[0]
        path.append(here)


def _widest_cycle(graph: nx.Graph) -> list[tuple[int, int]]:
    """The cycle of ``graph`` covering the most road (the sum of its nodes' widths)."""
    best: list[tuple[int, int]] = []
    best_weight = 0.0
    for cycle in nx.cycle_basis(graph):
        weight = sum(graph.nodes[n]["width"] for n in cycle)
        if weight > best_weight:
            best, best_weight = cycle, weight
    return best


def _longest_path(graph: nx.Graph) -> list[tuple[int, int]]:
    """A longest shortest path of the connected ``graph`` (its diameter, found twice over)."""
    nodes = list(graph.nodes)
    matrix = nx.to_scipy_sparse_array(graph, nodelist=nodes, weight="length", format="csr")
    distance = csgraph.dijkstra(matrix, directed=False, indices=0)
    far = int(np.argmax(np.where(np.isfinite(distance), distance, -1.0)))
    distance, previous = csgraph.dijkstra(matrix, directed=False, indices=far,
                                          return_predecessors=True)
    end = int(np.argmax(np.where(np.isfinite(distance), distance, -1.0)))
    path = [end]
    while path[-1] != far:
        path.append(int(previous[path[-1]]))
    return [nodes[k] for k in reversed(path)]


def centre_line(mask: Mask, space_length: float) -> tuple[Points, bool]:
    """The lap's centre line through the road ``mask``, and whether it closed by itself.

    Parameters
    ----------
    mask : (H, W) bool array
        The road.
    space_length : float
        Length of a space in pixels: whiskers shorter than two are pruned, gaps up to four are
        bridged, and the line is smoothed over half a space.

    Returns the closed line as (x, y) points about a pixel apart, and False when pieces had to
    be joined across gaps (the red corner limits and the chequered band cut the road's mask;
    the draft says when a join is a guess). Raises :class:`TraceError` when the road has no
    skeleton at all.
    """
    graph = skeleton_graph(mask)
    prune_whiskers(graph, 2.0 * space_length)
    pieces: list[tuple[Points, float]] = []
    total = graph.number_of_nodes()
    for nodes in sorted(nx.connected_components(graph), key=len, reverse=True):
        part = graph.subgraph(nodes).copy()
        cycle = _widest_cycle(part)
        if len(cycle) >= 0.6 * total:
            return _smooth(_xy(cycle), space_length), True
        if len(nodes) >= space_length:
            path = _longest_path(part)
            width = float(np.median([part.nodes[n]["width"] for n in path]))
            pieces.append((_xy(path), width))
    if not pieces:
        raise TraceError("no road found: the space blobs make no line round a lap")
    widest = max(width for _, width in pieces)
    lines = [line for line, width in pieces if width >= 0.6 * widest]
    lines.sort(key=len, reverse=True)
    return _smooth(joined(lines, 4.0 * space_length, space_length), space_length), False


def _end(line: Points, at_start: bool, reach: float) -> tuple[NDArray[np.float64],
                                                                 NDArray[np.float64]]:
    """An end of ``line`` and the unit direction pointing out of the line there."""
    count = max(2, min(len(line) - 1, int(reach)))
    tip, inner = (line[0], line[count]) if at_start else (line[-1], line[-1 - count])
    out = tip - inner
    return tip, out / max(float(np.hypot(*out)), 1e-9)


def joined(lines: list[Points], max_gap: float, space_length: float) -> Points:
    """``lines`` chained into one, the first line first, each time onto the end of the chain
    the piece that continues it best: near (within ``max_gap``), ahead of it and heading the
    same way. Pieces nothing continues are left out."""
    chain = lines[0]
    left = list(lines[1:])
    while left:
        tip, out = _end(chain, False, space_length)
        best: tuple[float, int, bool] | None = None
        for k, line in enumerate(left):
            for at_start in (True, False):
                end, end_out = _end(line, at_start, space_length)
                gap = end - tip
                distance = float(np.hypot(*gap))
                heading = float(-end_out @ out)
                if distance > max_gap or heading < 0.5:
                    continue
                if distance > 0.25 * space_length and float(gap @ out) < 0.3 * distance:
                    continue
                cost = distance + 2.0 * space_length * (1.0 - heading)
                if best is None or cost < best[0]:
                    best = (cost, k, at_start)
        if best is None:
            break
        _, k, at_start = best
        line = left.pop(k)
        chain = np.vstack([chain, line if at_start else line[::-1]])
    return chain


def _xy(nodes: Sequence[tuple[int, int]]) -> Points:
    """Skeleton pixels (row, col) as picture points (x, y)."""
    return np.array([(c, r) for r, c in nodes], dtype=np.float64)


def _smooth(points: Points, space_length: float) -> Points:
    """The closed line resampled to 1 px and smoothed over half a space length."""
    dense = resample_loop(points, 1.0)
    sigma = max(1.0, 0.5 * space_length)
    smooth = ndimage.gaussian_filter1d(dense, sigma, axis=0, mode="wrap")
    return np.asarray(resample_loop(smooth, 1.0), dtype=np.float64)


def line_width(blobs: Sequence[Blob], space_area: float) -> float:
    """About how wide the dark lines between spaces are: the gap between neighbouring blobs,
    taken from their outlines (the tenth percentile of each sampled blob's distances to the
    outlines around it, where they come within a third of a space; the median of those)."""
    if len(blobs) < 2:
        return 1.0
    outlines = [dense_outline(b.outline) for b in blobs]
    owners = np.concatenate([np.full(len(o), k) for k, o in enumerate(outlines)])
    points = np.concatenate(outlines)
    tree = cKDTree(points)
    gaps: list[float] = []
    reach = 0.3 * float(np.sqrt(space_area))
    for k in range(0, len(blobs), max(1, len(blobs) // 200)):
        blob = blobs[k]
        near = tree.query_ball_point(blob.centre, r=1.5 * float(np.sqrt(blob.area)))
        others = [i for i in near if owners[i] != k]
        if not others:
            continue
        distance, _ = cKDTree(points[others]).query(outlines[k])
        close = distance[distance < reach]
        if len(close):
            gaps.append(float(np.percentile(close, 10)))
    return max(1.0, float(np.median(gaps))) if gaps else 1.0


__all__ = ["centre_line", "joined", "line_width", "prune_whiskers", "road_mask",
           "skeleton_graph"]
