"""Outlines for imported nodes: GP Online stores points, a track file stores shapes.

Each node's outline is its Voronoi cell among all nodes, cut to the road: the moves widened by a
little over half the usual distance between nodes. Cells of neighbouring nodes share their edges,
so the outlines tile the road without gaps or overlaps, as printed spaces do.
"""

from __future__ import annotations

import math
from typing import Protocol

import networkx as nx
import shapely
from shapely.geometry import LineString, MultiPoint, Point

from trackformat.interop.gponline.dat import DatNode, NodeType
from trackformat.model import Space, SpaceKind

MAX_OUTLINE_POINTS = 64


class NodeLayout(Protocol):
    nodes: dict[int, DatNode]
    moves: nx.DiGraph

    def position(self, node: int) -> tuple[float, float]: ...


def node_spaces(
    layout: NodeLayout,
    lanes: list[list[int]],
    lane_of: dict[int, int],
    chain: list[int],
    garages: set[int],
) -> list[Space]:
    """Outlines: each node's Voronoi cell, cut to the road (the moves widened by half a lane)."""
    ids = [i for i in layout.nodes if i in layout.moves]
    points = [layout.position(i) for i in ids]
    # The usual distance between neighbouring nodes: the median length of a move.
    lengths = sorted(
        math.dist(layout.position(a), layout.position(b)) for a, b in layout.moves.edges
    )
    spacing = lengths[len(lengths) // 2] if lengths else 20.0
    segments = [LineString([layout.position(a), layout.position(b)]) for a, b in layout.moves.edges]
    segments += [Point(p) for p in points]
    road = shapely.union_all([g.buffer(0.6 * spacing) for g in segments])
    cells = shapely.voronoi_polygons(MultiPoint(points), extend_to=road.envelope, ordered=True)
    next_in_lane = {lane[k]: lane[(k + 1) % len(lane)] for lane in lanes for k in range(len(lane))}
    next_in_pit = {chain[k]: chain[k + 1] for k in range(len(chain) - 1)}
    spaces = []
    for node, point, cell in zip(ids, points, cells.geoms, strict=True):
        shape = cell.intersection(road)
        if shape.geom_type != "Polygon":
            parts = getattr(shape, "geoms", [])
            shape = next((g for g in parts if g.contains(Point(point))), shape.convex_hull)
        shape = shapely.simplify(shape, 0.5)
        outline = [(round(x, 2), round(y, 2)) for x, y in list(shape.exterior.coords)[:-1]]
        if len(outline) > MAX_OUTLINE_POINTS:
            outline = [
                (round(x, 2), round(y, 2))
                for x, y in list(shape.convex_hull.simplify(2.0).exterior.coords)[:-1]
            ]
        ahead = next_in_lane.get(node) or next_in_pit.get(node)
        if ahead is None:
            ahead = next(iter(layout.moves.successors(node)), None)
        if ahead is not None:
            ax, ay = layout.position(ahead)
            heading = math.degrees(math.atan2(ay - point[1], ax - point[0]))
        else:
            heading = 0.0
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
