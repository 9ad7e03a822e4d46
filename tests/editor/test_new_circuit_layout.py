"""Issue 32's goal, as a test: a small closed circuit laid out on a blank board with the mouse and
keys on the real window, from File > New to File > Save, with no link drawn by hand, ending with
the problems panel showing no error and no warning and a saved file that validates clean.

The clicks are those of :mod:`tests.editor.new_circuit`, which ``tools/layout_screens.py`` plays
too for the screenshots of docs/editor.md. The tests after the first check what the user sees of
the three defects the layout found: a pit lane clicked beside the road overlapped it or left a
gap (the Lanes tool now snaps beside the road), a box drawn by hand kept a lane's id
("1-new-1"), and a blank board did not show where it ends; the last, of the issue's corner
labels that covered the board at fit zoom.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor
from shapely.geometry import Polygon

from editor import lanes
from editor.scene import style
from editor.scene.items import LabelItem
from editor.scene.style import Layer
from tests.editor import new_circuit
from tests.editor.hand import CTRL, SHIFT, Hand, shown_problems
from trackformat.io import load_track
from trackformat.lint import Severity, validate

DRAWN_BY_HAND = ("Add link", "Remove link", "Remove a copy of link")
"""The Arrow tool's edits, as the History panel names them."""


def test_a_small_circuit_is_laid_out_on_a_blank_board_and_saved_with_no_problem(  # type: ignore[no-untyped-def]
    window, qtbot, tmp_path: Path
) -> None:
    seen: dict[str, dict[str, str]] = {}

    def look(step: str) -> None:
        """What the window shows after each main step (the screenshot script saves it)."""
        seen[step] = {
            "status": window.status_label.text(),
            "snap": window.snap_label.text(),
            "summary": window.problems.summary.text(),
            "counts": window.counts_label.text(),
            "title": window.windowTitle(),
        }

    saved = tmp_path / "triangle-park.json"
    hand = new_circuit.lay_out(window, saved, look)

    # File > New: an empty board of the size picked, the status bar pointing at the Lanes tool.
    assert seen["blank-board"]["title"].startswith("untitled - Triangle Park")
    assert "lay the road with the Lanes tool (N)" in seen["blank-board"]["status"]
    # The last stretch ends on the start of the lanes (the snap says so), and Enter closes the
    # lap: no lane end is left open.
    assert seen["lanes"]["snap"] == "snap: middle of the road at the start of lanes 1, 2, 3"
    assert seen["lanes"]["status"].startswith(
        "the stretch ends on the start of lanes 1, 2, 3 (1-000, 2-000 and 3-000)")
    assert seen["lap-closed"]["status"].endswith("the lap is closed")
    assert seen["corners"]["status"].startswith("Made corner-3 (lane 1: ")
    # The pit lane's two clicks were snapped beside lane 1, where it touches the track.
    pit_clicks = [a for a in hand.actions if "[snap: beside lane 1 at " in a]
    assert len(pit_clicks) == 2, hand.actions
    assert not any(a.startswith("key A") for a in hand.actions), "the Arrow tool was never used"

    # The problems panel, as the user reads it: its summary, the error and warning counts in
    # the status bar, and the rows it shows.
    shown = seen["no-problems"]
    assert shown["summary"].startswith("0 errors, 0 warnings"), shown
    assert shown["counts"].startswith("0 errors  0 warnings"), shown
    rows = shown_problems(window)
    assert rows and all(severity == Severity.INFO.value for severity, _, _ in rows), rows
    assert [code for _, code, _ in rows] == ["PATH004"], "only the lap's length, a note"

    # Saved with Ctrl+S: the title loses its star, and the file is the circuit laid out.
    assert saved.is_file() and not window.windowTitle().startswith("*")
    assert window.windowTitle().startswith("triangle-park.json")
    track = load_track(saved)
    report = validate(track)
    assert (report.errors, report.warnings) == (0, 0), report.to_text()
    assert [c.stops for c in track.corners] == list(new_circuit.STOPS)
    for corner in track.corners:  # its limits across all three lanes, its numbers printed
        assert {s.split("-")[0] for s in corner.spaces} == {"1", "2", "3"}, corner
        assert corner.printed_long is not None and corner.printed_short is not None
    assert len(track.grid) == new_circuit.GRID_SLOTS == 10
    assert track.finish_line is not None and len(track.finish_line.spaces) == 3
    pit = track.pit_lane
    assert pit is not None and len(pit.spaces) >= 5
    assert pit.boxes == ["box-1", "box-2", "box-3"]
    assert len(pit.entry) == 1 and len(pit.exit) == 1
    assert not lanes.open_ends(track) and not lanes.open_starts(track)
    # No link drawn by hand: every edit was a tool's, none the Arrow tool's.
    stack = window.document.undo_stack
    edits = [stack.text(i) for i in range(stack.count())]
    assert not [e for e in edits if e.startswith(DRAWN_BY_HAND)], edits
    assert len(hand.actions) < 120, f"{len(hand.actions)} clicks and keys"


def _straight_with_pit_tool(window) -> Hand:  # type: ignore[no-untyped-def]
    """A blank board, one straight of three lanes (x 400 to 1200, the middle of the road at
    y 500), and the Lanes tool ready to lay a pit lane."""
    hand = Hand(window)
    new_circuit.new_blank_board(hand)
    hand.key(Qt.Key.Key_N)
    hand.click((400.0, 500.0))
    hand.click((1200.0, 500.0))
    hand.key(Qt.Key.Key_Return)
    hand.tick(window.view.tool.pit_box)
    return hand


def test_the_lanes_tool_snaps_a_pit_lane_beside_the_road_so_that_it_touches_it(  # type: ignore[no-untyped-def]
    window, qtbot
) -> None:
    """Clicked a few pixels off the line where it would touch lane 1 (as a hand clicks at fit
    zoom), the pit lane snaps onto it: it neither overlaps the track (GEOM002) nor leaves a gap
    that keeps its entry and exit from touching the track (GEOM003)."""
    hand = _straight_with_pit_tool(window)
    track = window.document.track
    lane_one = sorted((s for s in track.spaces if s.lane == "1"), key=lambda s: s.centre[0])
    edge = min(y for _, y in lane_one[0].polygon)  # lane 1's outer edge (the driver's left)
    front = max(x for x, _ in lane_one[2].polygon)
    back = min(x for x, _ in lane_one[-3].polygon)
    middle = edge - new_circuit.LANE_WIDTH / 2
    hand.hover((front + 3.0, middle + 4.0))
    assert window.snap_label.text() == "snap: beside lane 1 at 1-002, on its left"
    hand.click((front + 3.0, middle + 4.0))
    hand.click((back - 2.0, middle - 3.0))
    hand.key(Qt.Key.Key_Return)
    hand.key(Qt.Key.Key_P)
    hand.click(lane_one[2].centre, SHIFT)
    hand.click(lane_one[-3].centre, CTRL)
    track = window.document.track
    pit = [s for s in track.spaces if s.lane is None]
    assert pit and track.pit_lane is not None and track.pit_lane.spaces == [s.id for s in pit]
    road = Polygon([(front, edge), (back, edge), (back, edge + 1), (front, edge + 1)])
    assert all(Polygon(s.polygon).intersection(road).area == 0 for s in pit)
    shared = sum(Polygon(s.polygon).intersection(Polygon(t.polygon)).length
                 for s in pit for t in lane_one)
    assert abs(shared - (back - front)) < 0.5, "the pit lane touches lane 1 all along"
    codes = {d.code for d in validate(track).diagnostics}
    assert not codes & {"GEOM002", "GEOM003", "PATH003"}, codes
    # Laying the road itself (Pit lane unticked), nothing snaps beside it.
    hand.key(Qt.Key.Key_N)
    hand.tick(window.view.tool.pit_box)
    assert not window.view.tool.settings.pit
    hand.hover((front + 3.0, middle + 4.0))
    assert "beside" not in window.snap_label.text()


def test_a_box_drawn_by_hand_takes_a_box_id(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    """The Space tool names a space after the lane it is drawn beside ("1-new-1"); made a team
    box with Ctrl+B, it is in no lane, and is named as the boards name boxes."""
    hand = _straight_with_pit_tool(window)
    track = window.document.track
    lane_one = sorted((s for s in track.spaces if s.lane == "1"), key=lambda s: s.centre[0])
    edge = min(y for _, y in lane_one[0].polygon)
    width = new_circuit.LANE_WIDTH
    hand.click((max(x for x, _ in lane_one[2].polygon), edge - width / 2))
    hand.click((min(x for x, _ in lane_one[-3].polygon), edge - width / 2))
    hand.key(Qt.Key.Key_Return)
    pit = window.document.track.pit_lane.spaces
    left, top, right, _ = new_circuit._outline_box(window, pit[1])
    hand.key(Qt.Key.Key_D)
    for corner in ((left, top - width), (right, top - width), (right, top), (left, top)):
        hand.click(corner)
    hand.key(Qt.Key.Key_Return)
    assert window.document.selection == {"1-new-1"}
    hand.key(Qt.Key.Key_B, CTRL)
    assert window.status_label.text() == "box-1 is a team box"
    assert window.document.selection == {"box-1"}
    assert window.inspector_dock.widget().fields["kind"].currentText() == "box"
    assert window.document.track.pit_lane.boxes == ["box-1"]
    codes = {d.code for d in validate(window.document.track).diagnostics}
    assert not codes & {"PIT001", "REF003", "GEOM003"}, codes
    # Undone, it is the space drawn, as it was; taken back with Ctrl+B, it keeps its new id.
    window.document.undo_stack.undo()
    assert "1-new-1" in window.scene.space_items and "box-1" not in window.scene.space_items
    window.document.undo_stack.redo()
    window.document.set_selection({"box-1"})
    hand.key(Qt.Key.Key_B, CTRL)
    assert window.status_label.text() == "box-1 is no longer a team box"


def test_a_blank_board_shows_where_it_ends(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    """No picture shows the board's edges on a blank board: the board is drawn white with its
    edge, what lies round it grey."""
    hand = Hand(window)
    new_circuit.new_blank_board(hand)
    qtbot.wait(20)
    shot = window.view.viewport().grab().toImage()
    board = window.document.track.board

    def colour(point: tuple[float, float]) -> QColor:
        at = hand.screen(point)
        return QColor(shot.pixel(at.x(), at.y()))

    assert colour((board.width / 2, board.height / 2)) == style.BOARD_FILL
    corner = window.view.mapToScene(0, 0)
    assert corner.x() < 0 and corner.y() < 0, "fitted, the view shows a margin round the board"
    assert QColor(shot.pixel(0, 0)) == style.OFF_BOARD


# Issue 32, item 10: corner labels that cover the board at fit zoom ---------------------------


@pytest.mark.parametrize("size", [(1400, 900), (1200, 800)])
def test_at_fit_no_corner_label_of_monaco_covers_a_space_or_leaves_the_board(  # type: ignore[no-untyped-def]
    window, qtbot, size: tuple[int, int]
) -> None:
    """A corner's label keeps its size on the screen, so at fit zoom it covers a good piece of
    the board: on Monaco the label of Loews lay over the spaces of the hairpin, and that of
    Anthony Noghes was cut off by the board's left edge. Each stands off its corner where it
    covers no space and stays on the board, and moves again as the view zooms."""
    window.resize(*size)
    window.open_path(MONACO)
    window.view.fit()
    qtbot.waitUntil(lambda: _labels_placed_for_view(window), timeout=5000)
    board = window.scene.board_rect()
    track = window.document.track
    labels = _corner_labels(window)
    assert len(labels) == len(track.corners)
    for label in labels:
        area = _on_board(window, label)
        covered = [s.id for s in track.spaces if area.contains(QPointF(*s.centre))]
        assert not covered, f"{label.text!r} covers {covered}"
        assert board.contains(area), f"{label.text!r} leaves the board"
    # Zoomed in, a label covers less of the board: it stands right outside its bend again.
    window.view.zoom(4)
    qtbot.waitUntil(lambda: _labels_placed_for_view(window), timeout=5000)
    for label in _corner_labels(window):
        area = _on_board(window, label)
        assert not [s.id for s in track.spaces if area.contains(QPointF(*s.centre))]


MONACO = Path(__file__).resolve().parents[2] / "tracks" / "monaco.json"


def _labels_placed_for_view(window) -> bool:  # type: ignore[no-untyped-def]
    return abs(window.scene.label_scale / window.view.scale_factor() - 1) < 0.01


def _corner_labels(window) -> list[LabelItem]:  # type: ignore[no-untyped-def]
    return [i for i in window.scene.layer_items[Layer.CORNERS] if isinstance(i, LabelItem)]


def _on_board(window, label: LabelItem) -> QRectF:  # type: ignore[no-untyped-def]
    """The board rectangle a label covers as the view draws it."""
    on_screen = label.deviceTransform(window.view.viewportTransform()).mapRect(
        label.boundingRect())
    return window.view.mapToScene(on_screen.toAlignedRect()).boundingRect()
