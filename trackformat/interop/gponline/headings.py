"""The driving direction of an imported space, guessed from where the nodes lie.

A ``.dat`` file has no headings: the direction along a node's lane is the natural guess, but at a
tight bend, or at one of GP Online's moves across a lane, a move out of the node can point more
than a right angle away from it, and the validator would take that move for one drawn backwards
(the heading rule beyond 90°, the lap rule beyond 100°). A move the file holds does go forward, so
the guess is turned, as little as it takes, until every move out of the node lies ahead of it.
"""

from __future__ import annotations

import math
from typing import Protocol

import networkx as nx

from trackformat.interop.gponline.dat import DatNode, NodeType

AHEAD = 80.0
"""Degrees a move may turn from its space's guessed heading: under the validator's right angle,
with room for the rounding of the file's whole-pixel positions."""


class NodeLayout(Protocol):
    """The nodes of a ``.dat`` being imported, with their moves."""

    nodes: dict[int, DatNode]
    moves: nx.DiGraph

    def position(self, node: int) -> tuple[float, float]: ...


def _direction(origin: tuple[float, float], target: tuple[float, float]) -> float:
    return math.degrees(math.atan2(target[1] - origin[1], target[0] - origin[0]))


def _turn(angle: float) -> float:
    """An angle in degrees brought into (-180, 180]."""
    turned = math.fmod(angle, 360.0)
    if turned > 180.0:
        turned -= 360.0
    elif turned <= -180.0:
        turned += 360.0
    return turned


def _lane_heading(layout: NodeLayout, node: int, ahead: int | None, behind: int | None
                  ) -> float | None:
    """Towards the next space of its lane when a move leads there; at the end of a partial lane,
    on from the space behind it in the lane; for a space with no moves (a blocked one), along its
    lane all the same; else towards any space it moves to."""
    moves = layout.moves
    here = layout.position(node)
    if ahead is not None and (moves.has_edge(node, ahead) or moves.degree(node) == 0):
        return _direction(here, layout.position(ahead))
    if behind is not None and moves.has_edge(behind, node):
        return _direction(layout.position(behind), here)
    following = next(iter(moves.successors(node)), None)
    return None if following is None else _direction(here, layout.position(following))


def guessed_heading(
    layout: NodeLayout, node: int, ahead: int | None, behind: int | None, boxes: set[int]
) -> float:
    """The heading of ``node`` in degrees: along its lane, turned as little as it takes for every
    move out of it to lie within :data:`AHEAD` degrees (see the module docstring); where the moves
    spread too wide for that, the middle of their spread.

    Moves into a box and from the track into the pit lane are left out, as the validator leaves
    them out: a car pulls into its box, and turns into the pit lane, sideways."""
    heading = _lane_heading(layout, node, ahead, behind)
    if heading is None:
        return 0.0
    is_track = layout.nodes[node].type != NodeType.PIT
    here = layout.position(node)
    turns = [
        _turn(_direction(here, layout.position(s)) - heading)
        for s in layout.moves.successors(node)
        if s not in boxes and not (is_track and layout.nodes[s].type == NodeType.PIT)
        and layout.position(s) != here
    ]
    if not turns:
        return heading
    low, high = max(turns) - AHEAD, min(turns) + AHEAD
    # The least turn that brings every move ahead, if there is one; else the spread's middle.
    shift = min(max(0.0, low), high) if low <= high else (max(turns) + min(turns)) / 2
    return _turn(heading + shift)
