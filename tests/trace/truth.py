"""The boards of the corpus traced by hand, as :class:`~trackformat.trace.score.Truth`.

Two sources, each read by code that is not the tracer's: Monaco's ``circuits.js`` (through
:mod:`tests.monaco_board`, in SVG units: a scan pixel is 1.4816 units) and the GP Online
``.dat`` files, whose nodes are the printed spaces in their pictures' pixels (lanes from the
project's importer, moves the file's edges). Tests and the benchmark only: the corpus is never
read by the program.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from tests.monaco_board import load_board
from trackformat.interop.gponline import import_dat, read_dat_file
from trackformat.io import load_track
from trackformat.trace.score import Truth

ROOT = Path(__file__).resolve().parent.parent.parent
"""The project's folder."""

MONACO_UNITS_PER_PIXEL = 1.4816
"""SVG units of ``circuits.js`` per pixel of ``monaco.jpg`` (3704 units over 2500 px)."""

BOARDS = {
    "monaco": ("monaco-board", "monaco.jpg"),
    "valencia": ("gponline", "valencia.png"),
    "curitiba": ("gponline", "curitiba.png"),
}
"""Board name -> (corpus folder, picture) of the boards traced in the corpus."""


def _step(centres: np.ndarray, lanes: list[int | None], moves: list[tuple[int, int]]) -> float:
    """Median length of the moves straight on along a lane."""
    steps = [float(np.hypot(*(centres[a] - centres[b]))) for a, b in moves
             if lanes[a] is not None and lanes[a] == lanes[b]]
    return float(np.median(steps))


def monaco_truth(corpus: Path) -> Truth:
    """The Monaco board of ``corpus/monaco-board/circuits.js``, in the scan's pixels.

    The trace has no corners and no grid; they are the shipped ``tracks/monaco.json``'s (built
    from the board's facts and checked against this trace, docs/monaco.md), matched to the
    trace's cells by lane and lap order from the finish line. The pit lane is the trace's own
    (its cells in no lane, from the entry; the five team boxes aside).
    """
    board = load_board(corpus / "monaco-board" / "circuits.js")
    keys = list(board.cells)
    index = {key: k for k, key in enumerate(keys)}
    centres = np.array([board.cells[key].centre for key in keys]) / MONACO_UNITS_PER_PIXEL
    lanes = [board.cells[key].lane for key in keys]
    moves = sorted({(index[a], index[b]) for a, b in board.moves()})
    cell_of = {ours: index[key] for key, ours in board.our_ids().items()}
    shipped = load_track(ROOT / "tracks" / "monaco.json")
    corners = [[cell_of[space] for space in corner.spaces if space in cell_of]
               for corner in shipped.corners]
    return Truth(centres=centres, lanes=lanes, moves=moves,
                 space_length=_step(centres, lanes, moves), corners=corners,
                 stops=[corner.stops for corner in shipped.corners],
                 pit=[index[key] for key in board.pit],
                 grid=[cell_of[slot] for slot in shipped.grid if slot in cell_of])


def gponline_truth(corpus: Path, name: str) -> Truth:
    """The board ``corpus/gponline/<name>.dat``: its nodes, their lanes, its edges, and (read
    by the project's importer) its pit lane and grid."""
    path = corpus / "gponline" / f"{name}.dat"
    dat = read_dat_file(path)
    track = import_dat(dat, str(path)).track
    lane_number = {lane.id: k + 1 for k, lane in enumerate(track.lanes)}
    lane_of = {space.id: lane_number.get(space.lane) if space.lane else None
               for space in track.spaces}
    index = {node.id: k for k, node in enumerate(dat.nodes)}
    centres = np.array([(node.x, node.y) for node in dat.nodes], dtype=np.float64)
    lanes = [lane_of.get(str(node.id)) for node in dat.nodes]
    moves = sorted({(index[a], index[b]) for a, b in dat.edges
                    if a != b and a in index and b in index})
    corners = [[index[int(space)] for space in corner.spaces] for corner in track.corners]
    pit = track.pit_lane.spaces if track.pit_lane is not None else []
    return Truth(centres=centres, lanes=lanes, moves=moves,
                 space_length=_step(centres, lanes, moves), corners=corners,
                 stops=[corner.stops for corner in track.corners],
                 pit=[index[int(space)] for space in pit],
                 grid=[index[int(slot)] for slot in track.grid])


def board_truth(corpus: Path, name: str) -> Truth:
    """The hand-traced truth of one board of :data:`BOARDS`."""
    return monaco_truth(corpus) if name == "monaco" else gponline_truth(corpus, name)


def picture_path(corpus: Path, name: str) -> Path:
    """The picture of one board of :data:`BOARDS`."""
    folder, picture = BOARDS[name]
    return corpus / folder / picture
