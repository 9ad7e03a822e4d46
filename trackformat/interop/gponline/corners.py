"""Corners of a GP Online track: runs of curve nodes, side by side across the lanes.

A ``.dat`` file marks each curve node with its stop count (its type) but says nothing of where
one corner ends and the next begins. A corner is a run of curve nodes of one type: two of them
belong together when a move joins them, or when one is the nearest node of another lane to the
other (they stand side by side, even in a corner whose lanes have no lane changes).

Each curve node's attribute is its position in its corner, counted from 0 at the corner's start,
in half steps across the lanes. It never goes back along a move inside a corner (on twelve real
boards), so a move onto a smaller position starts another corner of the same type right after
the first, and nodes side by side have positions close together.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from trackformat.interop.gponline.dat import NodeType
from trackformat.interop.gponline.lanes import Buckets, Position

SIDE_REACH = 2.0
"""How far, in usual distances between nodes, a node of another lane may stand to be beside."""
SIDE_POSITIONS = 2.0
"""How far apart the positions in their corner of two curve nodes side by side may be."""


def corner_runs(
    curve_type: Mapping[int, NodeType],
    successors: Mapping[int, Sequence[int]],
    lane_of: Mapping[int, int],
    position: Mapping[int, Position],
    spacing: float,
    place: Mapping[int, float],
) -> list[list[int]]:
    """The corners' nodes, each corner's sorted, as groups of curve nodes (see the module
    docstring); ``lane_of`` gives the lane of every track node, ``place`` the position in its
    corner of each curve node that has one."""
    parent = {node: node for node in curve_type}

    def root(node: int) -> int:
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    def join(a: int, b: int) -> None:
        if a in curve_type and b in curve_type and curve_type[a] == curve_type[b]:
            parent[root(a)] = root(b)

    for a in curve_type:
        for b in successors.get(a, ()):
            if place.get(b, math.inf) >= place.get(a, -math.inf):
                join(a, b)
    buckets = Buckets(position, [n for n in position if n in lane_of])
    reach = SIDE_REACH * spacing
    for a in curve_type:
        beside = [
            (math.dist(point, position[a]), node)
            for node, point in buckets.near(position[a], reach)
            if lane_of.get(node) != lane_of.get(a)
        ]
        if beside:
            distance, nearest = min(beside)
            apart = abs(place.get(a, 0.0) - place.get(nearest, 0.0))
            if distance <= reach and apart <= SIDE_POSITIONS:
                join(a, nearest)
    runs: dict[int, list[int]] = {}
    for node in sorted(curve_type):
        runs.setdefault(root(node), []).append(node)
    return list(runs.values())
