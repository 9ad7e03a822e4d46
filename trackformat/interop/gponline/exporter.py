"""Track -> GP Online ``.dat``: nodes at the space centres, every move an edge, corners as curves.

GP Online numbers its nodes 0 to N - 1; a track whose space ids are those numbers keeps them, any
other track is numbered lane by lane in lap order, then the pit lane, and the mapping is returned
so a caller can relate the two files. What GP Online's builder cannot use is written in its nearest
faithful form, each change named in a warning: team boxes beside the pit lane become garages in
line (:mod:`export_pit`), a designed corner gets the curve distance attributes the builder
needs to tell its lanes apart (:mod:`export_curves`) and an exit it can restart its count from
(:mod:`export_exits`), a pit entry from a corner is left out while one from a straight remains,
a finish line of two is widened by a blocked finish node (:mod:`export_line`), a header value
the game has no name for is replaced (:mod:`export_header`). The text is read back before it
is returned (see :mod:`readback`): by the game's reading loop, by a faithful check of its track
builder, by the importer and for the numbering the game's race needs; an export never gives a
file that GP Online or the importer refuses.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field, replace
from pathlib import Path

from trackformat.graph import TrackGraphs, build_graphs
from trackformat.interop.gponline.dat import (
    JAVA_INT,
    MAX_NODES,
    DatFile,
    DatNode,
    NodeType,
    format_dat,
)
from trackformat.interop.gponline.export_curves import (
    first_positions,
    fitted_positions,
    plan_regions,
)
from trackformat.interop.gponline.export_exits import fit_exits
from trackformat.interop.gponline.export_header import (
    HeaderError,
    header_image,
    header_settings,
    picture_name,
)
from trackformat.interop.gponline.export_line import NOT_WIDENED, widen_line
from trackformat.interop.gponline.export_pit import pit_plan
from trackformat.interop.gponline.gamebuild import MIN_GRID
from trackformat.interop.gponline.gamecheck import game_refusal
from trackformat.interop.gponline.importer import LARGEST_COORDINATE
from trackformat.interop.gponline.readback import read_back
from trackformat.model import GPOnline, SpaceKind, Track

STOPS_TO_TYPE = {1: NodeType.CURVE_1, 2: NodeType.CURVE_2, 3: NodeType.CURVE_3}


class GPOnlineExportError(ValueError):
    """A track GP Online cannot hold (lane count, stops out of range, no finish line), or one
    its builder would refuse, with what and where."""


@dataclass
class ExportResult:
    dat: DatFile
    node_of: dict[str, int]
    """GP Online node number of each space id written (boxes left out have none)."""
    warnings: list[str] = field(default_factory=list)
    text: str = ""
    """The file's text, checked to load in GP Online and to import again."""


def _keeps_ids(ids: list[str]) -> bool:
    """Whether the space ids can be GP Online's node numbers as they are: each the plain
    spelling of a number (``"01"`` would be written as node 1, beside ``"1"``), and together
    0 to N - 1, each once, as the game's race looks each node up by its number as a position
    in its list of nodes (see :func:`~gamecheck.numbering_refusal`)."""
    return all(
        i.isascii() and i.isdigit() and str(int(i)) == i and int(i) < JAVA_INT for i in ids
    ) and sorted(int(i) for i in ids) == list(range(len(ids)))


def _numbering(track: Track, graphs: TrackGraphs, written: set[str],
               warnings: list[str]) -> dict[str, int]:
    """The node number of each ``written`` space."""
    ids = [s.id for s in track.spaces if s.id in written]
    if _keeps_ids(ids):
        return {i: int(i) for i in ids}
    if all(i.isascii() and i.isdigit() for i in ids):
        warnings.append(
            "the space ids are numbers, but not GP Online's node numbers as they are (the game "
            "numbers its nodes 0 to one less than their count, each once, with no leading "
            "zero): the nodes are numbered afresh"
        )
    ordered: list[str] = []
    for lane in graphs.lane_order:
        ordered += graphs.lanes.get(lane, [])
    if track.pit_lane:
        ordered += list(track.pit_lane.spaces)
    ordered += ids
    numbering: dict[str, int] = {}
    for space_id in ordered:  # the pit lane may name a space that does not exist: no node
        if space_id in written:
            numbering.setdefault(space_id, len(numbering))
    return numbering


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


def _refuse_what_cannot_be_held(track: Track) -> None:
    """Refuse a track no GP Online file can hold, before anything is worked out."""
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
    for corner in track.corners:
        if corner.stops not in STOPS_TO_TYPE:
            raise GPOnlineExportError(
                f"corner {corner.id} demands {corner.stops} stops; GP Online curves demand 1 to 3"
            )


def _pit_entries(track: Track, curve_spaces: Collection[str],
                 warnings: list[str]) -> list[tuple[str, str]]:
    """The pit lane's entries GP Online can take: those from a straight.

    The game enters its pit lane only from a straight node; a pit node a curve moves to is
    taken for a straight of the track after the corner, and the track is refused ("unreachable
    node" or "might be missing edges"). An entry from a corner space is left out, with a
    warning, while one from a straight remains; a pit lane entered only from corners is
    written as it is, for the read-back to refuse with the reason."""
    if not track.pit_lane:
        return []
    entries = [(link.from_, link.to) for link in track.pit_lane.entry]
    kept = [(a, b) for a, b in entries if a not in curve_spaces]
    if not kept:
        return entries
    if len(kept) < len(entries):
        warnings.append(
            "GP Online enters its pit lane only from a straight, so the pit entry from a "
            "corner space is left out (cars enter from the straight after it): " + ", ".join(
                f"{a} -> {b}" for a, b in entries if (a, b) not in kept)
        )
    return kept


def _edges(track: Track, numbering: dict[str, int], blocked: dict[str, list[tuple[str, str]]],
           left_out: set[str], entries: list[tuple[str, str]],
           warnings: list[str]) -> list[tuple[int, int]]:
    """Every link, pit entry and exit, and the moves through blocked spaces, as edges."""
    pairs = [(link.from_, link.to) for link in track.links]
    if track.pit_lane:
        pairs += entries + [(link.from_, link.to) for link in track.pit_lane.exit]
    pairs += [pair for through in blocked.values() for pair in through]
    edges: list[tuple[int, int]] = []
    seen: set[tuple[int, int]] = set()
    for from_, to in pairs:
        if from_ in left_out or to in left_out:
            continue  # a box left out (the pit plan's warning says so)
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
    return edges


def export_records(track: Track, *, image: str | None = None,
                   info_corner: int | None = None) -> ExportResult:
    """The ``.dat`` records of ``track`` and their text, not yet read back (see
    :func:`export_track`, which does)."""
    _refuse_what_cannot_be_held(track)
    warnings: list[str] = []
    graphs = build_graphs(track)
    plan = pit_plan(track, warnings)
    written = {s.id for s in track.spaces if s.id not in plan.left_out}
    numbering = _numbering(track, graphs, written, warnings)
    finish = set(track.finish_line.spaces) if track.finish_line else set()
    blocked = _blocked(graphs)
    # Curve nodes are track spaces; a blocked node is no curve, whatever it lies in.
    racing = {s.id for s in track.spaces if s.kind == SpaceKind.TRACK} - set(blocked)
    entry_sources = {k.from_ for k in track.pit_lane.entry} if track.pit_lane else set()
    curves = fit_exits(graphs, {c.id: [s for s in dict.fromkeys(c.spaces) if s in racing]
                                for c in track.corners}, finish | set(blocked), warnings,
                       keep=entry_sources)
    stops = {c.id: c.stops for c in track.corners}
    stops_of = {s: stops[corner] for corner, spaces in curves.items() for s in spaces}
    entries = _pit_entries(track, stops_of, warnings)
    nodes = []
    for space in track.spaces:
        if space.id not in written:
            continue
        if space.kind in (SpaceKind.PIT, SpaceKind.BOX):
            kind = NodeType.PIT
        elif space.id in blocked:
            kind = NodeType.BLOCKED
        elif space.id in stops_of:
            kind = STOPS_TO_TYPE[stops_of[space.id]]
        else:
            kind = NodeType.STRAIGHT
        x, y = (round(c) for c in space.centre)
        nodes.append(DatNode(numbering[space.id], x, y, kind, space.id in finish))
    nodes.sort(key=lambda node: node.id)

    settings = track.gponline or GPOnline()
    positions, plans = plan_regions(graphs, curves, settings.curve_positions)
    positions.update(first_positions(plans))
    attributes = {numbering[s]: v for s, v in positions.items() if s in numbering}
    for garage in plan.garages:
        if garage in numbering:
            attributes[numbering[garage]] = 1.0
    kept = settings.grid_headings
    grid = [
        (numbering[s], kept[s] if s in kept else round(graphs.spaces[s].heading % 360.0, 1))
        for s in track.grid
        if s in numbering
    ]
    try:
        name = header_image(track, image, warnings)
    except HeaderError as err:
        raise GPOnlineExportError(str(err)) from None
    corner, rain, period = header_settings(settings, info_corner, warnings)
    dat = DatFile(name, corner, rain, period, nodes,
                  _edges(track, numbering, blocked, plan.left_out, entries, warnings),
                  attributes, grid)
    lane_of = {numbering[s]: lane for lane in graphs.lane_order for s in graphs.lanes[lane]
               if s in finish and s in numbering}

    def fit(records: DatFile) -> DatFile:
        """``records`` with the designed regions' attributes fitted to the game's distances."""
        found = fitted_positions(format_dat(records), plans, numbering, lane_of) if plans else {}
        # Sorted: the same file for the same track.
        return replace(records, attributes=dict(sorted({**records.attributes, **found}.items())))

    if len(finish) == 2:
        lanes = [[numbering[s] for s in graphs.lanes[lane] if s in numbering]
                 for lane in graphs.lane_order]
        space_of = {node: space for space, node in numbering.items()}
        widened = widen_line(dat, [lane for lane in lanes if lane and lane[0] in lane_of],
                             space_of, lambda d: _built(fit(d)), warnings)
        dat = widened or fit(dat)
    else:
        dat = fit(dat)
    return ExportResult(dat, numbering, warnings, format_dat(dat))


def _built(dat: DatFile) -> tuple[DatFile, str | None]:
    """``dat`` and why GP Online's builder refuses it (None when it takes it)."""
    refusal = game_refusal(format_dat(dat))
    return dat, None if refusal is None else str(refusal)


def export_track(track: Track, *, image: str | None = None,
                 info_corner: int | None = None) -> ExportResult:
    """The ``.dat`` of ``track``, read back; raises :class:`GPOnlineExportError` for what GP
    Online cannot hold or would refuse. The header names ``image``, else the track's picture by
    its file name; its info-box corner is ``info_corner``, else the track's GP Online setting
    (:attr:`~trackformat.model.Track.gponline`), else 0; its weather is the track's."""
    if len(track.grid) < MIN_GRID:
        raise GPOnlineExportError(
            f"the track's grid has {len(track.grid)} slot(s); GP Online needs at least "
            f"{MIN_GRID} (it drops a track with fewer)"
        )
    result = export_records(track, image=image, info_corner=info_corner)
    space_of = {node: space for space, node in result.node_of.items()}
    problem = read_back(result.text, space_of)
    if problem is not None:
        widening = [w for w in result.warnings if w.startswith(NOT_WIDENED)]
        if widening and "Invalid finish line width 2" in problem:
            problem = widening[0]
        raise GPOnlineExportError(f"the file was not written, since {problem}")
    return result


def export_file(track: Track, out: Path, *, picture: Path | None = None,
                image: str | None = None, info_corner: int | None = None) -> ExportResult:
    """Export ``track`` to the ``.dat`` file ``out`` (written whole or not at all), its header
    naming the board picture ``picture`` (a path the caller resolved, e.g. from the track file's
    folder) relative to ``out``'s folder, unless ``image`` names it as it is to be written.

    The command line's ``export gponline`` and the editor's File > Export to GP Online both
    call this. Raises :class:`GPOnlineExportError` with what GP Online cannot hold or would
    refuse (nothing is written), and ``OSError`` when the file cannot be written; the result's
    warnings say what was changed to fit GP Online."""
    from trackformat.io import write_text_atomically

    if image is None and picture is not None:
        image = picture_name(picture, out)
    result = export_track(track, image=image, info_corner=info_corner)
    write_text_atomically(out, result.text)
    return result
