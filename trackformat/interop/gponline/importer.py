"""GP Online ``.dat`` -> track: lanes, corners, finish line, grid, pit lane and space outlines.

A ``.dat`` file stores nodes and moves but no lanes, no corner limits and no outlines, so they are
worked out here, whatever order the ids come in (real files number them across the lanes row by
row): lanes as the straight-on moves that best follow the track (:mod:`lanes`), corners as runs
of curve nodes side by side (:mod:`corners`), outlines drawn lane by lane as a printed board's
spaces are (:mod:`outlines`). What a track cannot hold exactly is imported the closest faithful
way: a blocked node stays a space of its lane with no moves, and a move across a lane is kept,
each named in the track's ignore list (:mod:`ignored`); garages in line stay pit-lane spaces,
listed as the pit lane's garages, where the teams stop. Each such decision is returned as a
warning, never taken silently.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from pathlib import Path

import networkx as nx
from pydantic import ValidationError

from trackformat.analysis import corners_in_lap_order, measure_corner
from trackformat.graph import build_graphs
from trackformat.interop.gponline.board import (
    LARGEST_BOARD,
    MAX_IMAGE_NAME,
    picture_size,
    size_holding,
)
from trackformat.interop.gponline.corners import corner_runs
from trackformat.interop.gponline.dat import CURVE_STOPS, DatFile, DatNode, NodeType
from trackformat.interop.gponline.export_line import widening_nodes
from trackformat.interop.gponline.ignored import blocked_spaces, lane_jumps
from trackformat.interop.gponline.lanes import find_lanes
from trackformat.interop.gponline.outlines import node_spaces, spacing_of
from trackformat.interop.gponline.pit import pit_lane_order
from trackformat.interop.gponline.settings import settings_of
from trackformat.model import (
    Board,
    Corner,
    FinishLine,
    Ignore,
    Lane,
    Link,
    Metadata,
    PitLane,
    Space,
    Track,
)

MAX_LANES = 8
"""Most lanes a track may have."""
MAX_NAME = 200
"""Longest track name."""


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


LARGEST_COORDINATE = 99_000
"""Board pixels a node may lie at, at most: a track's board is at most 100,000 pixels wide."""


def _apart(dat: DatFile, source: str, warnings: list[str]) -> dict[int, DatNode]:
    """The nodes by id, each at a place of its own: a node standing exactly on another one is
    moved one pixel to the right (outlines are cells around distinct points), with a warning.
    A node off the picture (negative or huge pixels) cannot make a track."""
    taken: dict[tuple[int, int], int] = {}
    # Where to look for a free pixel next, per point: a pile of nodes on one point is spread
    # in one pass, not searched from its start for every node of the pile.
    next_free: dict[tuple[int, int], int] = {}
    nodes: dict[int, DatNode] = {}
    for n in dat.nodes:
        if not (0 <= n.x <= LARGEST_COORDINATE and 0 <= n.y <= LARGEST_COORDINATE):
            raise GPOnlineImportError(
                f"{source}: line {n.line}: node {n.id} lies at ({n.x}, {n.y}), off the board "
                f"picture: board pixels run from 0 to {LARGEST_COORDINATE:,}"
            )
        x = next_free.get((n.x, n.y), n.x)
        while (x, n.y) in taken:
            x += 1
        next_free[(n.x, n.y)] = x + 1
        if x != n.x:
            warnings.append(
                f"node {n.id} (line {n.line}) stands on node {taken[(n.x, n.y)]}; moved "
                f"{x - n.x} pixel(s) to the right so that each space has an outline of its own"
            )
            n = DatNode(n.id, x, n.y, n.type, n.finish, n.line)
        taken[(x, n.y)] = n.id
        nodes[n.id] = n
    return nodes


def _track_moves(
    moves: nx.DiGraph, nodes: set[int]
) -> tuple[dict[int, list[int]], dict[int, list[int]]]:
    """Successors and predecessors among ``nodes`` only, as plain lists."""
    ahead: dict[int, list[int]] = {n: [] for n in nodes}
    behind: dict[int, list[int]] = {n: [] for n in nodes}
    for a, b in moves.edges:
        if a in nodes and b in nodes:
            ahead[a].append(b)
            behind[b].append(a)
    return ahead, behind


def import_dat(
    dat: DatFile, source: str = "<dat>", board_dir: Path | None = None, name: str | None = None
) -> ImportResult:
    """Turn the records of a ``.dat`` file into a track (see the module docstring)."""
    if name is not None and len(name) > MAX_NAME:
        raise GPOnlineImportError(
            f"the track's name is {len(name):,} characters long; a name may have at most {MAX_NAME}"
        )
    warnings: list[str] = []
    dat = _without_widening(dat, warnings)
    nodes = _apart(dat, source, warnings)
    moves = _clean_edges(dat, warnings)
    layout = _Layout(nodes, moves, warnings)
    for n in dat.nodes:
        if n.type == NodeType.UNKNOWN:
            warnings.append(f"node {n.id} (line {n.line}) has type 0 (unknown); read as a straight")

    blocked = {n.id for n in dat.nodes if n.type == NodeType.BLOCKED}
    pit_nodes = {n.id for n in dat.nodes if n.type == NodeType.PIT}
    lane_nodes = {n.id for n in dat.nodes if n.id not in pit_nodes}
    finish = [
        n.id
        for n in dat.nodes
        if (n.finish or n.type == NodeType.FINISH) and n.id in lane_nodes and n.id not in blocked
    ]
    if not 2 <= len(finish) <= 4:
        raise GPOnlineImportError(
            f"{source}: found {len(finish)} finish-line node(s); the lane count is the number of "
            "finish nodes and must be 2 to 4 (mark them with a trailing F)"
        )
    # Blocked nodes take part in finding the lanes: GP Online's lanes run through them.
    found = find_lanes(
        {n: layout.position(n) for n in lane_nodes}, *_track_moves(moves, lane_nodes), finish
    )
    warnings += found.warnings
    lanes = found.lanes
    if len(lanes) > MAX_LANES:
        raise GPOnlineImportError(
            f"{source}: the nodes' straight-on moves make {len(lanes)} lanes, more than the "
            f"{MAX_LANES} a track may have"
        )
    lane_of = {node: k for k, lane in enumerate(lanes) for node in lane}
    for k, lane in enumerate(lanes):
        stops = [n for n in lane if n in blocked]
        if found.finish[k] is None:
            continue  # find_lanes said so
        if k in found.partial or stops:
            why = f"it passes blocked node(s) {stops}" if stops else "its straight-on moves end"
            warnings.append(
                f"lane {k + 1} ({len(lane)} nodes) is a partial lane: {why}, so it starts and "
                "ends beside another lane"
            )
    for node in sorted(lane_nodes - set(lane_of)):
        moves.remove_node(node)
        kind = "blocked node" if node in blocked else "node"
        warnings.append(f"{kind} {node} has no moves and lies on no lane; dropped")
    lane_nodes &= set(lane_of)
    blocked &= set(lane_of)
    _drop_blocked_moves(moves, blocked, lane_of, warnings)

    chain, boxes, garages = pit_lane_order(dat, moves, pit_nodes, warnings)
    # The board is the picture's pixels when the picture is at hand: the outlines drawn at its
    # edge are cut to it. Without one, the board is sized to hold the outlines (cut at 0, where
    # the picture's pixels begin).
    picture, missing = picture_size(dat, board_dir, warnings)
    frame = (0.0, 0.0, *(picture or (LARGEST_BOARD, LARGEST_BOARD)))
    spaces = node_spaces(layout, lanes, lane_of, chain, set(boxes), frame)
    width, height = picture or size_holding(spaces, missing, warnings)
    by_id = {space.id: space for space in spaces}
    ordered = [str(n) for lane in lanes for n in lane] + [str(n) for n in chain + boxes]
    listed = set(ordered)
    ordered += [space.id for space in spaces if space.id not in listed]
    spaces = [by_id[i] for i in ordered]
    links, entry, exit_ = [], [], []
    for a, b in moves.edges:
        link = Link(**{"from": str(a), "to": str(b)})
        if a in lane_nodes and b in pit_nodes:
            entry.append(link)
        elif a in pit_nodes and b in lane_nodes:
            exit_.append(link)
        else:
            links.append(link)

    racing = lane_nodes - blocked
    curve_type = {
        n.id: n.type for n in dat.nodes if n.type in CURVE_STOPS and n.id in racing
    }
    runs = corner_runs(
        curve_type, _track_moves(moves, racing)[0], lane_of,
        {n: layout.position(n) for n in racing}, spacing_of(layout), dat.attributes,
    )
    runs = _with_blocked(runs, lanes, blocked)
    corners = [
        Corner(
            id=f"c{run[0]}",
            stops=CURVE_STOPS[curve_type[run[0]]],
            spaces=[str(m) for m in run],
        )
        for run in runs
    ]
    ignore = lane_jumps(moves, lane_of, racing, warnings) + blocked_spaces(blocked)
    image: str | None = dat.image
    if len(dat.image) > MAX_IMAGE_NAME:
        warnings.append(
            f"the board picture's name is {len(dat.image):,} characters long, more than the "
            f"{MAX_IMAGE_NAME:,} a track holds; the track names no picture"
        )
        image = None
    try:
        track = _track(
            Metadata(
                name=name or Path(dat.image).stem[:MAX_NAME] or "Imported track",
                notes=f"Imported from GP Online file {Path(source).name}.",
            ),
            Board(image=image, width=width, height=height),
            lanes, spaces, links, corners, found.finish, (chain, boxes, garages), entry, exit_,
            pit_nodes, ignore,
        )
        track = _with_measures(track, dat, warnings)
        track = track.model_copy(update={"gponline": settings_of(dat, track, warnings)})
    except ValidationError as err:
        # Every limit of the format is checked above; this keeps a missed one a message.
        first = err.errors()[0]
        where = "/".join(str(part) for part in first["loc"])
        raise GPOnlineImportError(
            f"{source}: the file makes no valid track: {where}: {first['msg']}"
        ) from None
    return ImportResult(track, warnings)


def _without_widening(dat: DatFile, warnings: list[str]) -> DatFile:
    """``dat`` without its blocked finish nodes: no car can enter one, it only widens the line
    GP Online counts its lanes by (see :mod:`export_line`)."""
    drop = widening_nodes(dat)
    if not drop:
        return dat
    warnings.append(f"blocked finish node(s) {sorted(drop)} only widen the finish line for GP "
                    "Online (no car can enter one); dropped")
    return replace(dat, nodes=[n for n in dat.nodes if n.id not in drop],
                   edges=[e for e in dat.edges if not set(e) & drop],
                   attributes={n: v for n, v in dat.attributes.items() if n not in drop},
                   grid=[g for g in dat.grid if g[0] not in drop])


def _track(
    metadata: Metadata, board: Board, lanes: list[list[int]], spaces: list[Space],
    links: list[Link], corners: list[Corner], finish: list[int | None],
    pit: tuple[list[int], list[int], list[int]], entry: list[Link], exit_: list[Link],
    pit_nodes: set[int], ignore: list[Ignore],
) -> Track:
    """The imported track's record, from the parts worked out by :func:`import_dat`; ``pit``:
    the pit lane's chain, boxes and garages (:func:`pit_lane_order`)."""
    chain, boxes, garages = pit
    return Track(
        metadata=metadata,
        board=board,
        lanes=[Lane(id=str(i + 1)) for i in range(len(lanes))],
        spaces=spaces,
        links=links,
        corners=corners,
        finish_line=FinishLine(spaces=[str(f) for f in finish if f is not None]),
        grid=[],
        pit_lane=PitLane(
            spaces=[str(p) for p in chain],
            entry=entry,
            exit=exit_,
            boxes=[str(b) for b in boxes],
            garages=[str(g) for g in garages],
        )
        if pit_nodes
        else None,
        ignore=ignore,
    )


def _drop_blocked_moves(
    moves: nx.DiGraph, blocked: set[int], lane_of: dict[int, int], warnings: list[str]
) -> None:
    """A blocked node stays a space of its lane (it is printed on the board and GP Online's lane
    runs through it), but no move enters or leaves it: nothing is raced on it."""
    for node in sorted(blocked):
        dropped = [(a, node) for a in moves.predecessors(node)]
        dropped += [(node, b) for b in moves.successors(node)]
        moves.remove_edges_from(dropped)
        warnings.append(
            f"blocked node {node} is kept as a space of lane {lane_of[node] + 1} with no moves "
            "in or out "
            f"(nothing is raced on it); its moves {sorted(dropped)} are dropped"
        )


def _with_blocked(runs: list[list[int]], lanes: list[list[int]], blocked: set[int]
                  ) -> list[list[int]]:
    """A blocked node between two spaces of one corner in its lane lies inside the corner's
    limits: it joins the corner, which stays one unbroken run in that lane."""
    run_of = {node: k for k, run in enumerate(runs) for node in run}
    for lane in lanes:
        racing = [k for k, node in enumerate(lane) if node not in blocked]
        for k, node in enumerate(lane):
            if node not in blocked or not racing:
                continue
            # The nearest raced spaces behind and ahead of it in the lane.
            before = lane[max((r for r in racing if r < k), default=racing[-1])]
            after = lane[min((r for r in racing if r > k), default=racing[0])]
            if before in run_of and run_of.get(after) == run_of[before]:
                runs[run_of[before]] = sorted([*runs[run_of[before]], node])
    return runs


def _with_measures(track: Track, dat: DatFile, warnings: list[str]) -> Track:
    """Name corners in lap order, fill their long/short from the links, order the grid."""
    graphs = build_graphs(track)
    corners = []
    for number, corner in enumerate(corners_in_lap_order(graphs), start=1):
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
