"""The shipped Monaco over the real scan of the board, aligned in the editor (needs the corpus).

A designer who owns the board sets their scan under the shipped track and places it with two
point pairs; every space of our Monaco must then sit on its printed space. The printed spaces
are the hand-traced outlines of the corpus (``monaco-board/monaco.svg``, SVG units: 1.4816 per
scan pixel) and their cells (``circuits.js``: centre, lane, forward moves, the finish line).
"""

from __future__ import annotations

import itertools
import math
from pathlib import Path

from PySide6.QtCore import QPointF, Qt
from shapely.geometry import Point, Polygon

from editor.tools.align_tool import MOVE_PICTURE
from tests.corpus import ROOT, corpus_path
from tests.editor.traced import read_outlines
from tests.monaco_board import Board, load_board
from trackformat.graph import build_graphs
from trackformat.io import load_track
from trackformat.model import Placement, Track

UNITS_PER_SCAN_PIXEL = 3704 / 2500
"""The traced SVG's canvas is 3704 units wide over the 2500 px scan: 1.4816."""


def _straight(board: Board, lane: tuple[str, ...], index: int) -> bool:
    """Whether the printed space and the two around it point the same way (within 3°)."""
    angles = [board.cells[lane[i]].heading for i in (index - 1, index, index + 1)]
    return all(abs((a - angles[1] + 180) % 360 - 180) < 3 for a in angles)


def track_lane(track: Track, lane: str) -> list[str]:
    """Our lane in driving order from its finish-line space."""
    order = build_graphs(track).lanes[lane]
    assert track.finish_line is not None
    start = next(s for s in track.finish_line.spaces if s in order)
    at = order.index(start)
    return order[at:] + order[:at]


def _click(window, qtbot, point: tuple[float, float]) -> None:  # type: ignore[no-untyped-def]
    """Click the board point as a user would after zooming in on it (1/8 px per screen px)."""
    view = window.view
    view.resetTransform()
    view.scale(8.0, 8.0)
    view.centerOn(QPointF(*point))
    qtbot.mouseClick(
        view.viewport(), Qt.MouseButton.LeftButton, pos=view.mapFromScene(QPointF(*point))
    )


def test_every_space_of_monaco_sits_on_its_printed_space_of_the_real_scan(
    window, tmp_path: Path, qtbot
) -> None:  # type: ignore[no-untyped-def]
    scan = corpus_path("monaco-board", "monaco.jpg")
    outlines = read_outlines(corpus_path("monaco-board", "monaco.svg"))
    board = load_board(corpus_path("monaco-board", "circuits.js"))
    printed = {str(lane): cells for lane, cells in board.lanes.items()}

    assert window.open_path(ROOT / "tracks" / "monaco.json")
    assert window.set_board_picture(scan)
    ours = {lane: track_lane(window.document.track, lane) for lane in ("1", "2", "3")}
    spaces = {s.id: s for s in window.document.track.spaces}

    # Two pairs in lane 2: the finish line, and the printed space farthest from it on a
    # straight (in a bend the printed spaces are irregular and a centre is a matter of taste).
    lane2 = printed["2"]
    far = max((i for i in range(1, len(lane2) - 1) if _straight(board, lane2, i)),
              key=lambda i: math.dist(board.cells[lane2[0]].centre, board.cells[lane2[i]].centre))
    window.choose_tool("Align")
    tool = window.view.tool
    tool.options()
    tool.mode_box.setCurrentText(MOVE_PICTURE)
    for index in (0, far):
        x, y = board.cells[lane2[index]].centre
        shown = window.document.track.board.placement
        assert shown is not None
        _click(window, qtbot, shown.apply(x / UNITS_PER_SCAN_PIXEL, y / UNITS_PER_SCAN_PIXEL))
        _click(window, qtbot, spaces[ours["2"][index]].centre)
    assert len(tool.pairs) == 2
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key.Key_Return)
    assert "cannot be checked" in window.status_label.text()

    saved = tmp_path / "monaco.json"
    assert window.save_as(saved)
    assert window.open_path(saved)
    placement = load_track(saved).board.placement
    assert isinstance(placement, Placement)
    assert window.document.track.board.placement == placement

    matched: dict[str, list[tuple[str, str]]] = {}
    for lane in ("1", "2", "3"):
        assert len(ours[lane]) == len(printed[lane]), f"lane {lane}: counts differ"
        matched[lane] = list(zip(ours[lane], printed[lane], strict=True))
    chain, boxes = board.pit, board.boxes
    pit_lane = window.document.track.pit_lane
    assert pit_lane is not None
    assert (len(pit_lane.spaces), len(pit_lane.boxes)) == (len(chain), len(boxes))
    matched["pit"] = list(zip(pit_lane.spaces, chain, strict=True)) + list(
        zip(pit_lane.boxes, boxes, strict=True)
    )

    length = sorted(
        math.dist(board.cells[a].centre, board.cells[b].centre)
        for a, b in itertools.pairwise(lane2)
    )[len(lane2) // 2]
    report, off = [], []
    for group, pairs in matched.items():
        worst, outside = 0.0, []
        for space_id, cell_id in pairs:
            px, py = placement.inverse(*spaces[space_id].centre)
            at = Point(px * UNITS_PER_SCAN_PIXEL, py * UNITS_PER_SCAN_PIXEL)
            outline = Polygon(max(outlines[f"path{cell_id}"], key=lambda s: Polygon(s).area))
            distance = at.distance(Point(board.cells[cell_id].centre)) / length
            worst = max(worst, distance)
            if not outline.contains(at):
                outside.append(f"{space_id} ({distance:.2f})")
        report.append(f"{group}: worst {worst:.2f} space lengths from the printed centre, "
                      f"{len(outside)} of {len(pairs)} outside their printed space")
        off += outside
    print("\n".join(report))
    assert not off, "\n".join(report) + "\noutside: " + ", ".join(off[:40])
