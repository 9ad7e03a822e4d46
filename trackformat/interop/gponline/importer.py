"""GP Online ``.dat`` -> track: lanes, corners, finish line, grid, pit lane and space outlines.

A ``.dat`` file stores nodes and moves but no lanes, no corner limits and no outlines, so they are
worked out here: lanes by walking straight ahead from each finish node, corners as runs of curve
nodes, outlines as the Voronoi cells of the nodes cut to the road. Whatever had to be inferred or
was dropped is returned as a warning, never decided silently.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import networkx as nx

from trackformat.analysis import measure_corner
from trackformat.graph import build_graphs
from trackformat.interop.gponline.dat import CURVE_STOPS, DatFile, DatNode, NodeType
from trackformat.interop.gponline.outlines import node_spaces
from trackformat.model import (
    Board,
    Corner,
    FinishLine,
    Lane,
    Link,
    Metadata,
    PitLane,
    Track,
)

MARGIN = 60
"""Pixels added around the nodes when the board picture's size is unknown."""


class GPOnlineImportError(ValueError):
    """A ``.dat`` file whose content cannot make a track (too few finish nodes, no lanes)."""


@dataclass
class ImportResult:
    track: Track
    warnings: list[str] = field(default_factory=list)


@dataclass
class _Layout:
    """The node graph being interpreted, with the warnings gathered on the way."""

    nodes: dict[int, DatNode]
    moves: nx.DiGraph
    warnings: list[str]

    def position(self, node: int) -> tuple[float, float]:
        n = self.nodes[node]
        return (float(n.x), float(n.y))


def _clean_edges(dat: DatFile, warnings: list[str]) -> nx.DiGraph:
    """The move graph without loops, the reverse of an edge dropped (as the game does)."""
    graph = nx.DiGraph()
    graph.add_nodes_from(n.id for n in dat.nodes)
    for a, b in dat.edges:
        if a == b:
            warnings.append(f"edge {a} -> {b} is a loop onto the same node; dropped")
        elif graph.has_edge(b, a):
            warnings.append(f"edge {a} -> {b} reverses edge {b} -> {a}; dropped")
        elif graph.has_edge(a, b):
            warnings.append(f"edge {a} -> {b} is listed twice")
        else:
            graph.add_edge(a, b)
    return graph


def _lateral(
    origin: tuple[float, float], direction: tuple[float, float], point: tuple[float, float]
) -> float:
    """Signed offset of ``point`` to the right of the line through ``origin`` along ``direction``
    (board y points down, so "right" is the driver's right)."""
    dx, dy = point[0] - origin[0], point[1] - origin[1]
    norm = math.hypot(*direction) or 1.0
    return (dx * -direction[1] + dy * direction[0]) / norm


def _direction(
    layout: _Layout, node: int, previous: int | None, ahead: Iterable[int]
) -> tuple[float, float]:
    x, y = layout.position(node)
    if previous is not None:
        px, py = layout.position(previous)
        return (x - px, y - py)
    points = [layout.position(a) for a in ahead]
    if not points:
        return (1.0, 0.0)
    return (
        sum(p[0] for p in points) / len(points) - x,
        sum(p[1] for p in points) / len(points) - y,
    )


def _order_finish(layout: _Layout, finish: list[int], track_nodes: set[int]) -> list[int]:
    """Finish nodes from the driver's left to right."""
    directions = [
        _direction(layout, f, None, [s for s in layout.moves.successors(f) if s in track_nodes])
        for f in finish
    ]
    mean = (sum(d[0] for d in directions), sum(d[1] for d in directions))
    origin = layout.position(finish[0])
    return sorted(finish, key=lambda f: _lateral(origin, mean, layout.position(f)))


def _walk_lane(
    layout: _Layout, start: int, lane: int, lanes: int, track_nodes: set[int]
) -> list[int]:
    """Follow the straight-ahead successor from ``start`` until the walk comes back to it."""
    order = [start]
    previous: int | None = None
    current = start
    while True:
        ahead = [s for s in layout.moves.successors(current) if s in track_nodes]
        if not ahead:
            break
        direction = _direction(layout, current, previous, ahead)
        origin = layout.position(current)
        by_side = sorted(ahead, key=lambda s: _lateral(origin, direction, layout.position(s)))
        if len(by_side) == 1:
            nxt = by_side[0]
        elif len(by_side) >= 3:
            nxt = by_side[len(by_side) // 2]
        elif lane == 0:
            nxt = by_side[0]
        elif lane == lanes - 1:
            nxt = by_side[-1]
        else:
            nxt = min(by_side, key=lambda s: abs(_lateral(origin, direction, layout.position(s))))
        if nxt == start or nxt in order:
            break
        previous, current = current, nxt
        order.append(current)
    return order


def import_dat(
    dat: DatFile, source: str = "<dat>", board_dir: Path | None = None, name: str | None = None
) -> ImportResult:
    """Turn the records of a ``.dat`` file into a track (see the module docstring)."""
    warnings: list[str] = []
    nodes = {n.id: n for n in dat.nodes}
    moves = _clean_edges(dat, warnings)
    layout = _Layout(nodes, moves, warnings)

    blocked = {n.id for n in dat.nodes if n.type == NodeType.BLOCKED}
    for b in sorted(blocked):
        entered = [p for p in moves.predecessors(b)]
        if entered:
            warnings.append(
                f"blocked node {b} is entered from {entered}; nothing may enter a blocked node"
            )
    if blocked:
        warnings.append(
            f"{len(blocked)} blocked node(s) dropped: they only keep narrow parts aligned"
        )
    moves.remove_nodes_from(blocked)
    for n in dat.nodes:
        if n.type == NodeType.UNKNOWN:
            warnings.append(f"node {n.id} (line {n.line}) has type 0 (unknown); read as a straight")

    pit_nodes = {n.id for n in dat.nodes if n.type == NodeType.PIT}
    track_nodes = {n.id for n in dat.nodes if n.id not in pit_nodes and n.id not in blocked}
    finish = [
        n.id for n in dat.nodes if (n.finish or n.type == NodeType.FINISH) and n.id in track_nodes
    ]
    if not 2 <= len(finish) <= 4:
        raise GPOnlineImportError(
            f"{source}: found {len(finish)} finish-line node(s); the lane count is the number of "
            "finish nodes and must be 2 to 4 (mark them with a trailing F)"
        )
    finish = _order_finish(layout, finish, track_nodes)
    lane_count = len(finish)
    lane_of: dict[int, int] = {}
    lanes: list[list[int]] = []
    for lane, start in enumerate(finish):
        walk = _walk_lane(layout, start, lane, lane_count, track_nodes)
        kept = []
        for node in walk:
            if node in lane_of:
                warnings.append(
                    f"node {node} lies on the walks of lanes {lane_of[node] + 1} and {lane + 1}; "
                    f"kept in lane {lane_of[node] + 1}"
                )
                continue
            lane_of[node] = lane
            kept.append(node)
        lanes.append(kept)
    for node in sorted(track_nodes - set(lane_of)):
        nearest = min(lane_of, key=lambda o: math.dist(layout.position(o), layout.position(node)))
        lane_of[node] = lane_of[nearest]
        lanes[lane_of[node]].append(node)
        warnings.append(
            f"node {node} is on no lane's straight-ahead walk; put in lane {lane_of[node] + 1}, "
            "the lane of the nearest node"
        )

    garages = {n for n in pit_nodes if n in dat.attributes}
    chain_nodes = pit_nodes - garages
    for garage in sorted(garages):
        after = [s for s in moves.successors(garage) if s in chain_nodes]
        for p in [p for p in moves.predecessors(garage) if p in chain_nodes]:
            if any(x in chain_nodes for x in moves.successors(p)):
                continue
            for s in after:
                moves.add_edge(p, s)
                warnings.append(
                    f"garage {garage} stood in line in the pit lane; it is now a box beside it, "
                    f"and pit node {p} links straight to {s}"
                )
    chain = _pit_chain(moves, chain_nodes, track_nodes, warnings)

    spaces = node_spaces(layout, lanes, lane_of, chain, garages)
    links, entry, exit_ = [], [], []
    for a, b in moves.edges:
        link = Link(**{"from": str(a), "to": str(b)})
        if a in track_nodes and b in pit_nodes:
            entry.append(link)
        elif a in pit_nodes and b in track_nodes:
            exit_.append(link)
        else:
            links.append(link)

    corners = _corners(dat, moves, track_nodes)
    width, height = _board_size(dat, board_dir, warnings)
    track = Track(
        metadata=Metadata(
            name=name or Path(dat.image).stem or "Imported track",
            notes=f"Imported from GP Online file {Path(source).name}.",
        ),
        board=Board(image=dat.image, width=width, height=height),
        lanes=[Lane(id=str(i + 1)) for i in range(lane_count)],
        spaces=spaces,
        links=links,
        corners=corners,
        finish_line=FinishLine(spaces=[str(f) for f in finish]),
        grid=[],
        pit_lane=PitLane(
            spaces=[str(p) for p in chain],
            entry=entry,
            exit=exit_,
            boxes=[str(g) for g in sorted(garages, key=lambda g: _chain_place(moves, g, chain))],
        )
        if pit_nodes
        else None,
    )
    track = _with_measures(track, dat, warnings)
    return ImportResult(track, warnings)


def _pit_chain(
    moves: nx.DiGraph, chain_nodes: set[int], track_nodes: set[int], warnings: list[str]
) -> list[int]:
    """The pit nodes in driving order: from the one entered from the track along the moves."""
    sub = moves.subgraph(chain_nodes)
    if not nx.is_directed_acyclic_graph(sub):
        warnings.append(
            "the pit lane's moves loop back on themselves; pit nodes kept in file order"
        )
        return sorted(chain_nodes)
    return list(nx.topological_sort(sub))


def _chain_place(moves: nx.DiGraph, garage: int, chain: list[int]) -> int:
    places = [chain.index(p) for p in moves.predecessors(garage) if p in chain]
    return min(places, default=len(chain))


def _corners(dat: DatFile, moves: nx.DiGraph, track_nodes: set[int]) -> list[Corner]:
    """Runs of curve nodes of the same type are one corner each.

    Two curve nodes are in the same run when a move joins them or when they stand side by side
    (a move from or to the same node), so a corner one space long in every lane is one corner.
    """
    curve_type = {n.id: n.type for n in dat.nodes if n.type in CURVE_STOPS and n.id in track_nodes}
    runs = nx.Graph()
    runs.add_nodes_from(curve_type)
    runs.add_edges_from(
        (a, b)
        for a, b in moves.edges
        if a in curve_type and b in curve_type and curve_type[a] == curve_type[b]
    )
    # Side by side in neighbouring lanes, two curve nodes share a space ahead or behind.
    for node in moves.nodes:
        for around in (list(moves.predecessors(node)), list(moves.successors(node))):
            curves = [n for n in around if n in curve_type]
            runs.add_edges_from(
                (a, b) for a, b in itertools.pairwise(curves) if curve_type[a] == curve_type[b]
            )
    corners = []
    for component in nx.connected_components(runs):
        members = sorted(component)
        corners.append(
            Corner(
                id=f"c{members[0]}",
                name="",
                stops=CURVE_STOPS[curve_type[members[0]]],
                spaces=[str(m) for m in members],
            )
        )
    return corners


def _with_measures(track: Track, dat: DatFile, warnings: list[str]) -> Track:
    """Name corners in lap order, fill their long/short from the links, order the grid."""
    graphs = build_graphs(track)
    order = sorted(track.corners, key=lambda c: min(graphs.progress.get(s, 0) for s in c.spaces))
    corners = []
    for number, corner in enumerate(order, start=1):
        measure = measure_corner(graphs, corner)
        corners.append(
            corner.model_copy(
                update={
                    "id": f"corner-{number}",
                    "name": f"Corner {number}",
                    "printed_long": measure.long,
                    "printed_short": measure.short,
                }
            )
        )
    if corners:
        warnings.append(
            "the file has no printed long/short numbers; each corner's are set to the paths its "
            "links allow"
        )
    grid: list[str] = []
    if dat.grid:
        to_line = nx.multi_source_dijkstra_path_length(
            graphs.circuit.reverse(copy=False), set(graphs.finish)
        )
        slots = [str(node) for node, _angle in dat.grid if str(node) in graphs.spaces]
        unplaced = [s for s in slots if s not in to_line]
        if unplaced:
            warnings.append(f"grid slots {unplaced} cannot reach the finish line; put last")
        grid = sorted(slots, key=lambda s: (to_line.get(s, math.inf), slots.index(s)))
    else:
        warnings.append("the file has no grid section; the track has no start grid yet")
    return track.model_copy(update={"corners": corners, "grid": grid})


def _board_size(dat: DatFile, board_dir: Path | None, warnings: list[str]) -> tuple[int, int]:
    if board_dir is not None:
        picture = board_dir / dat.image
        if picture.is_file():
            try:
                from PIL import Image

                with Image.open(picture) as image:
                    return image.size
            except OSError as err:
                warnings.append(
                    f"board picture {picture.name} cannot be read ({err}); size guessed"
                )
    width = max((n.x for n in dat.nodes), default=0) + MARGIN
    height = max((n.y for n in dat.nodes), default=0) + MARGIN
    warnings.append(
        f"board picture {dat.image} not found beside the file; "
        f"board size set to {width} x {height} from the nodes"
    )
    return width, height
