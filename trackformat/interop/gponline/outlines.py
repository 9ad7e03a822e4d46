"""Outlines for imported nodes: GP Online stores points, a track file stores shapes.

Each node's outline is its Voronoi cell among all nodes, cut to the road around the node: the
node and the nodes it moves to or from, widened by a little over half the usual distance between
nodes. Cells of neighbouring nodes share their edges, so the outlines tile the road without
overlaps, as printed spaces do; at the road's edges each cell stops a little past its moves.
Every step works on all the nodes at once, so a board of 16,000 nodes is outlined in seconds.
"""

from __future__ import annotations

import math
from typing import Protocol

import networkx as nx
import numpy as np
import shapely
from shapely.geometry import Point, box

from trackformat.interop.gponline.dat import DatNode, NodeType
from trackformat.model import Space, SpaceKind

MAX_OUTLINE_POINTS = 64


class NodeLayout(Protocol):
    nodes: dict[int, DatNode]
    moves: nx.DiGraph

    def position(self, node: int) -> tuple[float, float]: ...


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


def _heading(layout: NodeLayout, node: int, ahead: int | None, behind: int | None) -> float:
    """The driving direction at ``node``: towards the next space of its lane when a move leads
    there; at the end of a partial lane, on from the space behind it in the lane; for a space
    with no moves (a blocked one), along its lane all the same; else towards any space it moves
    to."""
    moves = layout.moves
    here = layout.position(node)
    origin, target = here, None
    if ahead is not None and (moves.has_edge(node, ahead) or moves.degree(node) == 0):
        target = layout.position(ahead)
    elif behind is not None and moves.has_edge(behind, node):
        origin, target = layout.position(behind), here
    else:
        following = next(iter(moves.successors(node)), None)
        target = layout.position(following) if following is not None else None
    if target is None:
        return 0.0
    return math.degrees(math.atan2(target[1] - origin[1], target[0] - origin[0]))


def node_spaces(
    layout: NodeLayout,
    lanes: list[list[int]],
    lane_of: dict[int, int],
    chain: list[int],
    garages: set[int],
) -> list[Space]:
    """Outlines: each node's Voronoi cell, cut to the road around it (see the module docstring)."""
    ids = [i for i in layout.nodes if i in layout.moves]
    points = [layout.position(i) for i in ids]
    # The usual distance between neighbouring nodes: the median length of a move.
    lengths = sorted(
        math.dist(layout.position(a), layout.position(b)) for a, b in layout.moves.edges
    )
    spacing = lengths[len(lengths) // 2] if lengths else 20.0
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    margin = 2 * spacing
    frame = box(min(xs) - margin, min(ys) - margin, max(xs) + margin, max(ys) + margin)
    cells = shapely.voronoi_polygons(
        shapely.multipoints(np.array(points)), extend_to=frame, ordered=True
    )
    shapes = shapely.intersection(
        np.array(list(cells.geoms), dtype=object), _around(layout, ids, 0.6 * spacing)
    )
    simple = shapely.simplify(shapes, 0.5)
    next_in_lane = {lane[k]: lane[(k + 1) % len(lane)] for lane in lanes for k in range(len(lane))}
    behind_in_lane = {lane[k]: lane[k - 1] for lane in lanes for k in range(len(lane))}
    next_in_pit = {chain[k]: chain[k + 1] for k in range(len(chain) - 1)}
    spaces = []
    for node, point, shape in zip(ids, points, simple.tolist(), strict=True):
        if shape.geom_type != "Polygon":
            parts = getattr(shape, "geoms", [])
            shape = next((g for g in parts if g.contains(Point(point))), shape.convex_hull)
        outline = [(round(x, 2), round(y, 2)) for x, y in list(shape.exterior.coords)[:-1]]
        if len(outline) > MAX_OUTLINE_POINTS:
            outline = [
                (round(x, 2), round(y, 2))
                for x, y in list(shape.convex_hull.simplify(2.0).exterior.coords)[:-1]
            ]
        heading = _heading(
            layout,
            node,
            next_in_lane.get(node) or next_in_pit.get(node),
            behind_in_lane.get(node),
        )
        kind = (
            SpaceKind.BOX
            if node in garages
            else (SpaceKind.PIT if layout.nodes[node].type == NodeType.PIT else SpaceKind.TRACK)
        )
        spaces.append(
            Space(
                id=str(node),
                kind=kind,
                lane=str(lane_of[node] + 1) if kind == SpaceKind.TRACK else None,
                polygon=outline,
                centre=point,
                heading=round(heading, 2),
            )
        )
    return spaces
