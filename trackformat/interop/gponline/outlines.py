"""Outlines for imported nodes: GP Online stores points, a track file stores shapes.

A printed board is drawn lane by lane: each lane a strip of road, cut across into spaces half way
between one space and the next, so that every space meets the next one of its lane along an edge
and the spaces of the lanes beside it along its sides. The outlines here are drawn the same way.
Each node owns the stretch of its lane (or of the pit lane, or of a move between the pit lane
and the track) from half way back to the node before it to half way on to the node after it; its
outline is the part of the board nearer to that stretch than to any other node's, cut to the
road around the node (the node and the nodes it moves to or from, widened by a little over half
the usual distance between nodes) and to the board picture.

Cells around the nodes alone (each node's Voronoi cell) were tried first: on real boards, whose
middle lane runs close between the other two, the cells of the outer lanes met across it and cut
a middle-lane space off from the next one, so a move straight on joined spaces that did not touch.
Owning stretches of line instead of points keeps each lane one strip. Every step works on all
the nodes at once, so a board of 10,000 nodes, the most a file may hold, is outlined in seconds.
"""

from __future__ import annotations

import math
from itertools import pairwise

import numpy as np
import shapely
from shapely.geometry import Point, box

from trackformat.interop.gponline.dat import NodeType
from trackformat.interop.gponline.headings import NodeLayout, guessed_heading
from trackformat.model import Space, SpaceKind

MAX_OUTLINE_POINTS = 64
SAMPLES = 8
"""Points each stretch between two nodes of a line is drawn with: enough that the edge between
two lanes is straight to well under a pixel on real boards (nodes 30 px apart)."""
JITTER = 0.01
"""Pixels each point of the Voronoi diagram may be moved, at most (see :func:`_cells`)."""
SIMPLIFY_SHARE = 0.01
"""How far an outline is simplified, as a share of the space's size..."""
SIMPLIFY_MOST = 0.5
"""... and at most, in pixels."""
ROAD_HALF_WIDTH = 0.6
"""How far the road reaches beyond a node's moves, as a share of the usual node spacing."""

Frame = tuple[float, float, float, float]
"""A rectangle (left, top, right, bottom) in board pixels."""


def spacing_of(layout: NodeLayout) -> float:
    """The usual distance between neighbouring nodes: the median length of a move."""
    lengths = sorted(
        math.dist(layout.position(a), layout.position(b)) for a, b in layout.moves.edges
    )
    return lengths[len(lengths) // 2] if lengths else 20.0


def _around(layout: NodeLayout, ids: list[int], half_width: float) -> np.ndarray:
    """The road around each node: the convex hull of the node and the nodes it moves to or from,
    widened by ``half_width``. It holds the node's moves widened the same, and being convex and
    local it cuts a cell in one cheap step (the whole road as one shape cost as much per cell as
    the road itself, which made big boards quadratic)."""
    coords: list[tuple[float, float]] = []
    owner: list[int] = []
    for k, node in enumerate(ids):
        for n in {node, *layout.moves.successors(node), *layout.moves.predecessors(node)}:
            coords.append(layout.position(n))
            owner.append(k)
    hulls = shapely.convex_hull(shapely.multipoints(np.array(coords), indices=np.array(owner)))
    return shapely.buffer(hulls, half_width, quad_segs=4)  # type: ignore[no-any-return]


def _lines(
    layout: NodeLayout, lanes: list[list[int]], lane_of: dict[int, int], chain: list[int],
    spacing: float,
) -> list[tuple[int, int]]:
    """Pairs of nodes one after the other along a line of spaces: each lane, the pit lane, and
    the moves between the pit lane and the lane beside it (the lane of the nearest track node a
    pit node moves to or from: a move on into a further lane crosses that one, like a diagonal
    move, and is no line). A box beside the pit lane is a space of its own, on no line.

    Two nodes of a lane make a stretch of it when one moves to the other, or when one of them is
    blocked (no moves: the lane runs through it) and they are neighbours, at most twice the
    usual spacing apart: a partial lane's list runs on from its blocked end to its start, which
    may lie across the board."""

    def stretch(a: int, b: int) -> bool:
        if layout.moves.has_edge(a, b) or layout.moves.has_edge(b, a):
            return True
        blocked = layout.moves.degree(a) == 0 or layout.moves.degree(b) == 0
        return blocked and math.dist(layout.position(a), layout.position(b)) <= 2 * spacing

    pairs: set[tuple[int, int]] = set()
    for lane in lanes:
        pairs.update(pair for pair in pairwise([*lane, lane[0]]) if stretch(*pair))
    pairs.update(pairwise(chain))
    for pit in chain:
        here = layout.position(pit)
        partners = [(a, b, b) for a, b in layout.moves.out_edges(pit) if b in lane_of]
        partners += [(a, b, a) for a, b in layout.moves.in_edges(pit) if a in lane_of]
        if partners:
            nearest = min(partners, key=lambda m: math.dist(here, layout.position(m[2])))[2]
            pairs.update((a, b) for a, b, track in partners if lane_of[track] == lane_of[nearest])
    unique: dict[frozenset[int], tuple[int, int]] = {}
    for a, b in sorted(pairs):
        unique.setdefault(frozenset((a, b)), (a, b))
    return [pair for pair in unique.values() if pair[0] != pair[1]]


def _owned_points(
    layout: NodeLayout, ids: list[int], lines: list[tuple[int, int]]
) -> tuple[np.ndarray, np.ndarray]:
    """The points each node owns (itself, then the near half of each stretch of line it is on)
    and the index in ``ids`` of each point's owner; points that fall on one another are kept
    once (the first, a node before any stretch)."""
    index = {node: k for k, node in enumerate(ids)}
    points = [np.array([layout.position(i) for i in ids], dtype=float)]
    owners = [np.arange(len(ids))]
    kept = [(a, b) for a, b in lines if a in index and b in index]
    if kept:
        start = np.array([layout.position(a) for a, _ in kept], dtype=float)
        end = np.array([layout.position(b) for _, b in kept], dtype=float)
        share = (np.arange(SAMPLES) + 0.5) / SAMPLES
        along = start[:, None, :] + (end - start)[:, None, :] * share[None, :, None]
        near_start = np.broadcast_to(share < 0.5, (len(kept), SAMPLES))
        first = np.array([index[a] for a, _ in kept])[:, None]
        second = np.array([index[b] for _, b in kept])[:, None]
        points.append(along.reshape(-1, 2))
        owners.append(np.where(near_start, first, second).reshape(-1))
    coords, owner = np.concatenate(points), np.concatenate(owners)
    _, first_seen = np.unique(np.round(coords, 6), axis=0, return_index=True)
    keep = np.sort(first_seen)
    return coords[keep], owner[keep]


def _cells(
    layout: NodeLayout, ids: list[int], lines: list[tuple[int, int]], spacing: float
) -> np.ndarray:
    """Each node's share of the board: the union of the Voronoi cells of the points it owns."""
    coords, owner = _owned_points(layout, ids, lines)
    # Points of a regular board lie on lines and circles, which the Voronoi diagram treats as
    # special cases, several times slower on a big board: a hundredth of a pixel of fixed noise
    # keeps every case ordinary and every outline where it was.
    coords = coords + np.random.default_rng(0).uniform(-JITTER, JITTER, coords.shape)
    margin = 2 * spacing
    frame = box(
        coords[:, 0].min() - margin, coords[:, 1].min() - margin,
        coords[:, 0].max() + margin, coords[:, 1].max() + margin,
    )
    voronoi = shapely.voronoi_polygons(shapely.multipoints(coords), extend_to=frame, ordered=True)
    cells = np.array(list(voronoi.geoms), dtype=object)
    if len(cells) != len(coords) and lines:
        # Points so close that the diagram took two for one (in a hostile file): the cells of
        # the nodes alone, which stand at least a pixel apart, still outline every space.
        return _cells(layout, ids, [], spacing)
    order = np.argsort(owner, kind="stable")
    grouped = shapely.geometrycollections(cells[order], indices=owner[order])
    # A buffer of nothing joins each node's cells, which share their edges exactly, into one.
    return np.asarray(shapely.buffer(grouped, 0.0))


def node_spaces(
    layout: NodeLayout,
    lanes: list[list[int]],
    lane_of: dict[int, int],
    chain: list[int],
    boxes: set[int],
    board: Frame | None = None,
) -> list[Space]:
    """Outlines drawn lane by lane, cut to the road and to ``board`` (see the module docstring).

    A node off ``board`` keeps its outline whole: cut to the board it would lose the node itself,
    and the validator's off-board rule then says that the picture is not the one the nodes were
    placed on."""
    ids = [i for i in layout.nodes if i in layout.moves]
    points = [layout.position(i) for i in ids]
    spacing = spacing_of(layout)
    cells = _cells(layout, ids, _lines(layout, lanes, lane_of, chain, spacing), spacing)
    shapes = shapely.intersection(cells, _around(layout, ids, ROAD_HALF_WIDTH * spacing))
    if board is not None:
        on_board = shapely.intersection(shapes, box(*board))
        inside = shapely.covers(box(*board), shapely.points(np.array(points)))
        shapes = np.where(inside, on_board, shapes)
    # Simplified outlines of neighbours no longer meet exactly: the tolerance follows each
    # space's size, so that what they cover of each other stays a sliver even on the tiny spaces
    # of a hairpin's inside lane.
    tolerance = np.minimum(SIMPLIFY_MOST, SIMPLIFY_SHARE * np.sqrt(shapely.area(shapes)))
    simple = shapely.simplify(shapes, tolerance)
    next_in_lane = {lane[k]: lane[(k + 1) % len(lane)] for lane in lanes for k in range(len(lane))}
    behind_in_lane = {lane[k]: lane[k - 1] for lane in lanes for k in range(len(lane))}
    next_in_pit = {chain[k]: chain[k + 1] for k in range(len(chain) - 1)}
    spaces = []
    for node, point, shape, first_try in zip(
        ids, points, shapes.tolist(), simple.tolist(), strict=True
    ):
        heading = guessed_heading(
            layout, node, next_in_lane.get(node) or next_in_pit.get(node),
            behind_in_lane.get(node), boxes,
        )
        kind = (
            SpaceKind.BOX
            if node in boxes
            else (SpaceKind.PIT if layout.nodes[node].type == NodeType.PIT else SpaceKind.TRACK)
        )
        spaces.append(
            Space(
                id=str(node),
                kind=kind,
                lane=str(lane_of[node] + 1) if kind == SpaceKind.TRACK else None,
                polygon=_outline(shape, first_try, point),
                centre=point,
                heading=round(heading, 2),
            )
        )
    return spaces


def _outline(shape: shapely.Geometry, simple: shapely.Geometry, point: tuple[float, float]
             ) -> list[tuple[float, float]]:
    """The points of a cell's outline, rounded: the piece holding its node when the cuts left
    several, ``simple`` (the cell simplified) unless it has more than
    :data:`MAX_OUTLINE_POINTS` points, then simplified further."""
    if simple.geom_type != "Polygon" or len(simple.exterior.coords) > MAX_OUTLINE_POINTS:
        if shape.geom_type != "Polygon":
            parts = getattr(shape, "geoms", [])
            shape = next((g for g in parts if g.covers(Point(point))), shape.convex_hull)
        size = math.sqrt(shape.area)
        for factor in (1.0, 2.0, 4.0, 8.0):
            simple = shape.simplify(min(SIMPLIFY_MOST, SIMPLIFY_SHARE * size) * factor)
            if len(simple.exterior.coords) <= MAX_OUTLINE_POINTS:
                break
        else:
            simple = shape.convex_hull.simplify(2.0)
    return [(round(x, 2), round(y, 2)) for x, y in list(simple.exterior.coords)[:-1]]
