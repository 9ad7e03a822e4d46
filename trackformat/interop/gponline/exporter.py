"""Track -> GP Online ``.dat``: nodes at the space centres, every move an edge, corners as curves.

GP Online numbers its nodes; a track whose space ids are all plain integers keeps them, any other
track is numbered lane by lane in lap order, then the pit lane and its boxes, and the mapping is
returned so a caller can relate the two files. The text is read back before it is returned (see
:mod:`readback`): an export never gives a file that GP Online or the importer refuses.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from trackformat.graph import TrackGraphs, build_graphs
from trackformat.interop.gponline.dat import (
    JAVA_INT,
    MAX_NODES,
    DatFile,
    DatNode,
    NodeType,
    format_dat,
)
from trackformat.interop.gponline.importer import LARGEST_COORDINATE
from trackformat.interop.gponline.readback import read_back
from trackformat.model import GPOnline, SpaceKind, Track

STOPS_TO_TYPE = {1: NodeType.CURVE_1, 2: NodeType.CURVE_2, 3: NodeType.CURVE_3}


class GPOnlineExportError(ValueError):
    """A track GP Online cannot hold (lane count, stops out of range, no finish line)."""


@dataclass
class ExportResult:
    dat: DatFile
    node_of: dict[str, int]
    """GP Online node number of each space id."""
    warnings: list[str] = field(default_factory=list)
    text: str = ""
    """The file's text, checked to load in GP Online and to import again."""


def _keeps_ids(ids: list[str]) -> bool:
    """Whether the space ids can be GP Online's node numbers as they are: each the plain
    spelling of a number the game reads (``"01"`` would be written as node 1, beside ``"1"``),
    and each once."""
    return len(set(ids)) == len(ids) and all(
        i.isascii() and i.isdigit() and str(int(i)) == i and int(i) < JAVA_INT for i in ids
    )


def _numbering(track: Track, graphs: TrackGraphs, warnings: list[str]) -> dict[str, int]:
    ids = [s.id for s in track.spaces]
    if _keeps_ids(ids):
        return {i: int(i) for i in ids}
    if all(i.isascii() and i.isdigit() for i in ids):
        warnings.append(
            "the space ids are numbers, but not all can be GP Online's node numbers as they are "
            "(a leading zero, or a number too large for the game): the nodes are numbered afresh"
        )
    ordered: list[str] = []
    for lane in graphs.lane_order:
        ordered += graphs.lanes.get(lane, [])
    if track.pit_lane:
        ordered += list(track.pit_lane.spaces) + list(track.pit_lane.boxes)
    ordered += ids
    spaces = set(ids)  # the pit lane may name a space that does not exist: it gets no node
    numbering: dict[str, int] = {}
    for space_id in ordered:
        if space_id in spaces:
            numbering.setdefault(space_id, len(numbering) + 1)
    return numbering


def _corner_positions(track: Track, graphs: TrackGraphs,
                      kept: Mapping[str, Mapping[str, float]],
                      blocked: Collection[str]) -> dict[str, float]:
    """Each corner space's position attribute: the ones ``kept`` by corner from the GP Online
    file the track came from, for a corner whose spaces they still name exactly (its
    ``blocked`` spaces aside, which are no curve nodes); else its place along the corner, in
    half steps scaled to the corner's shortest lane, so that spaces side by side get about
    the same value."""
    positions: dict[str, float] = {}
    for corner in track.corners:
        curve = {s for s in corner.spaces if s not in blocked}
        known = kept.get(corner.id, {})
        if curve and set(known) == curve:
            positions.update(known)
            continue
        inside = set(corner.spaces)
        per_lane = [
            [s for s in graphs.lanes.get(lane, []) if s in inside] for lane in graphs.lane_order
        ]
        per_lane = [run for run in per_lane if run]
        if not per_lane:
            continue
        rows = min(len(run) for run in per_lane)
        for run in per_lane:
            for k, space_id in enumerate(run):
                scaled = 0.0 if len(run) == 1 else k * (rows - 1) / (len(run) - 1)
                positions[space_id] = round(scaled * 2) / 2
    return positions


def _blocked(graphs: TrackGraphs) -> dict[str, list[tuple[str, str]]]:
    """Track spaces with no link at all, each with the moves GP Online's lane needs through it.

    GP Online marks such a space as a blocked node, and its lanes run through blocked nodes: the
    space is written with a move from the space before it in its lane and one to the space after
    it, as the game's own files have them (see the importer)."""
    ahead, behind = graphs.successors("moves"), graphs.predecessors("moves")
    result: dict[str, list[tuple[str, str]]] = {}
    for lane in graphs.lanes.values():
        for k, space_id in enumerate(lane):
            if ahead.get(space_id) or behind.get(space_id) or len(lane) < 3:
                continue
            before, after = lane[k - 1], lane[(k + 1) % len(lane)]
            result[space_id] = [(before, space_id), (space_id, after)]
    return result


def export_track(track: Track, *, image: str | None = None,
                 info_corner: int | None = None) -> ExportResult:
    """The ``.dat`` records of ``track``; raises :class:`GPOnlineExportError` for what GP Online
    cannot hold. The header's info-box corner is ``info_corner``, else the track's GP Online
    setting (:attr:`~trackformat.model.Track.gponline`), else 0; its weather is the track's."""
    warnings: list[str] = []
    # GP Online counts the lanes by their finish nodes; a partial lane that does not reach the
    # line (no finish space) is just more nodes and moves to it.
    if track.finish_line is None or not track.finish_line.spaces:
        raise GPOnlineExportError("GP Online needs one finish-line space per lane")
    crossing = len(track.finish_line.spaces)
    if not 2 <= crossing <= 4 or crossing > len(track.lanes):
        raise GPOnlineExportError(
            f"GP Online tracks have 2 to 4 lanes at the finish line, one finish-line space per "
            f"lane; this one has {len(track.lanes)} lanes and {crossing} finish-line spaces"
        )
    if len(track.spaces) > MAX_NODES:
        raise GPOnlineExportError(
            f"the track has {len(track.spaces):,} spaces; a GP Online file holds at most "
            f"{MAX_NODES:,} nodes"
        )
    for space in track.spaces:
        x, y = (round(c) for c in space.centre)
        if not (0 <= x <= LARGEST_COORDINATE and 0 <= y <= LARGEST_COORDINATE):
            raise GPOnlineExportError(
                f"space {space.id} lies at ({x}, {y}); GP Online's board pixels run from 0 to "
                f"{LARGEST_COORDINATE:,}"
            )
    ids = [space.id for space in track.spaces]
    if len(set(ids)) != len(ids):
        twice = sorted({i for i in ids if ids.count(i) > 1})[:5]
        raise GPOnlineExportError(
            f"space id(s) {', '.join(twice)} name more than one space; GP Online needs each "
            "space once (trackformat validate lists them)"
        )
    graphs = build_graphs(track)
    numbering = _numbering(track, graphs, warnings)
    stops_of: dict[str, int] = {}
    for corner in track.corners:
        if corner.stops not in STOPS_TO_TYPE:
            raise GPOnlineExportError(
                f"corner {corner.id} demands {corner.stops} stops; GP Online curves demand 1 to 3"
            )
        for space_id in corner.spaces:
            stops_of[space_id] = corner.stops
    finish = set(track.finish_line.spaces)
    boxes = set(track.pit_lane.boxes) if track.pit_lane else set()
    pit_lane = set(track.pit_lane.spaces) if track.pit_lane else set()

    blocked = _blocked(graphs)
    nodes = []
    for space in track.spaces:
        if space.kind in (SpaceKind.PIT, SpaceKind.BOX):
            kind = NodeType.PIT
        elif space.id in blocked:
            kind = NodeType.BLOCKED
        elif space.id in stops_of:
            kind = STOPS_TO_TYPE[stops_of[space.id]]
        else:
            kind = NodeType.STRAIGHT
        nodes.append(
            DatNode(
                id=numbering[space.id],
                x=round(space.centre[0]),
                y=round(space.centre[1]),
                type=kind,
                finish=space.id in finish,
            )
        )

    nodes.sort(key=lambda node: node.id)
    pairs = [(link.from_, link.to) for link in track.links]
    if track.pit_lane:
        pairs += [(link.from_, link.to) for link in track.pit_lane.entry + track.pit_lane.exit]
    pairs += [pair for through in blocked.values() for pair in through]
    edges: list[tuple[int, int]] = []
    seen: set[tuple[int, int]] = set()
    for from_, to in pairs:
        if from_ not in numbering or to not in numbering:
            warnings.append(f"link {from_} -> {to} names a missing space; left out")
            continue
        a, b = numbering[from_], numbering[to]
        if a == b or (a, b) in seen:
            continue
        if (b, a) in seen:
            warnings.append(f"link {from_} -> {to} reverses another link; GP Online drops it")
            continue
        seen.add((a, b))
        edges.append((a, b))

    settings = track.gponline or GPOnline()
    attributes = {
        numbering[s]: value
        for s, value in _corner_positions(track, graphs, settings.curve_positions,
                                          blocked).items()
        if s in numbering and s not in blocked  # a blocked node is no curve, whatever it lies in
    }
    garages = set(track.pit_lane.garages) if track.pit_lane else set()
    for garage in sorted(garages - pit_lane):
        warnings.append(f"garage {garage} is not a space of the pit lane; not written as one")
    garages &= pit_lane
    if track.pit_lane and track.pit_lane.spaces and not boxes and not garages:
        warnings.append(
            "the pit lane has neither boxes nor garages, so no pit node is written as a garage; "
            "mark the garages in GP Online's editor"
        )
    for stand in sorted(boxes | garages, key=lambda b: numbering.get(b, 0)):
        if stand in numbering:
            attributes[numbering[stand]] = 1.0

    kept = settings.grid_headings
    grid = [
        (numbering[s], kept[s] if s in kept else round(graphs.spaces[s].heading % 360.0, 1))
        for s in track.grid
        if s in numbering
    ]
    name = image or (PurePosixPath(track.board.image).name if track.board.image else "")
    if not name:
        name = "board.png"
        warnings.append("the track has no board picture; the header names board.png")
    if "." not in name:
        raise GPOnlineExportError(
            f"GP Online needs an image file name with an extension, not {name!r}"
        )
    dat = DatFile(
        image=name,
        info_corner=settings.info_corner if info_corner is None else info_corner,
        rain_probability=settings.rain_probability,
        min_weather_period=settings.min_weather_period,
        nodes=nodes,
        edges=edges,
        attributes=attributes,
        grid=grid,
    )
    text = format_dat(dat)
    problem = read_back(text)
    if problem is not None:
        raise GPOnlineExportError(f"the file was not written, since {problem}")
    return ExportResult(dat, numbering, warnings, text)
