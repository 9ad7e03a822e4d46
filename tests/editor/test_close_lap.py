"""Closing a lap with the Lanes tool, as a designer does it: a small circuit laid stretch by
stretch with the mouse on the real board, the last stretch ending on the start of the lanes."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QApplication
from shapely import STRtree
from shapely.geometry import Polygon

from editor import lanes
from trackformat.io import load_track
from trackformat.lint import validate
from trackformat.model import Track

Point = tuple[float, float]

CIRCUIT: list[list[Point]] = [
    # The start straight, left to right along the top of the board.
    [(400.0, 300.0), (1200.0, 300.0)],
    # A long right-hander down the right-hand side.
    [(1200.0, 300.0), (1450.0, 450.0), (1500.0, 700.0), (1350.0, 1000.0)],
    # The bottom straight and the long bend up the left, back onto the start straight.
    [(1350.0, 1000.0), (900.0, 1100.0), (500.0, 1000.0), (250.0, 700.0), (300.0, 420.0),
     (400.0, 300.0)],
]
"""Three stretches of a small closed loop, in board pixels, in the driving direction."""

TOOL_MADE = ("REACH", "LAP", "GEOM")
"""The validator's codes for what laying lanes can get wrong: links that do not come round
(REACH), lanes level or links backwards (LAP), spaces apart, crossing or misshapen (GEOM). The
others (GRID, PIT, corners) are about what the designer has not laid yet."""


def _screen(window, point: Point) -> QPoint:  # type: ignore[no-untyped-def]
    return window.view.mapFromScene(QPointF(*point))


def _hover(window, at: QPoint) -> None:  # type: ignore[no-untyped-def]
    """The pointer moved over the board to ``at``, no button held (sent to the viewport itself,
    as QTest's moves may go to a window of an earlier test)."""
    viewport = window.view.viewport()
    QApplication.sendEvent(viewport, QMouseEvent(
        QEvent.Type.MouseMove, QPointF(at), QPointF(viewport.mapToGlobal(at)),
        Qt.MouseButton.NoButton, Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier,
    ))


def _click(  # type: ignore[no-untyped-def]
    window, qtbot, point: Point, keys: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier
) -> None:
    at = _screen(window, point)
    _hover(window, at)
    qtbot.mouseClick(window.view.viewport(), Qt.MouseButton.LeftButton, keys, pos=at)


def _centre(window, space_id: str) -> Point:  # type: ignore[no-untyped-def]
    """Where a space is drawn on the board."""
    centre = window.scene.space_items[space_id].sceneBoundingRect().center()
    return (centre.x(), centre.y())


def _lay(window, qtbot, stretch: list[Point]) -> None:  # type: ignore[no-untyped-def]
    """Click along the middle of the road, then Enter."""
    for point in stretch:
        _click(window, qtbot, point)
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key.Key_Return)


def _overlap(track: Track) -> float:
    """The largest area (px²) two spaces of the track lie over each other."""
    outlines = [Polygon(s.polygon) for s in track.spaces]
    tree = STRtree(outlines)
    pairs = zip(*tree.query(outlines, predicate="intersects"), strict=True)
    return max((outlines[i].intersection(outlines[j]).area for i, j in pairs if i < j),
               default=0.0)


def _lane_cycle(track: Track, lane: str) -> list[str]:
    """The lane's spaces in driving order from its space 000, following the one move on in the
    lane from each, until it comes back round."""
    in_lane = {s.id for s in track.spaces if s.lane == lane}
    onward: dict[str, list[str]] = {}
    for link in track.links:
        if link.from_ in in_lane and link.to in in_lane:
            onward.setdefault(link.from_, []).append(link.to)
    order = [f"{lane}-000"]
    while True:
        following = onward.get(order[-1], [])
        assert len(following) == 1, f"{order[-1]} moves on in its lane to {following}"
        if following[0] == order[0]:
            return order
        assert following[0] not in order, f"lane {lane} loops back onto {following[0]}"
        order.append(following[0])


def test_the_last_stretch_laid_onto_the_start_of_the_lanes_closes_the_lap(
    window, qtbot, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    window.view.fit()
    window.choose_tool("Lanes")
    tool = window.view.tool
    assert tool.stagger_edit.text() == "0.5", "the printed boards' stagger is the default"
    document = window.document
    _lay(window, qtbot, CIRCUIT[0])
    _lay(window, qtbot, CIRCUIT[1])
    assert "close the lap" in window.status_label.text()
    # The last stretch: the snap lands the last click on the start of the lanes, and the
    # preview says what Enter does.
    for point in CIRCUIT[2][:-1]:
        _click(window, qtbot, point)
    _hover(window, _screen(window, CIRCUIT[2][-1]))
    assert window.snap_label.text() == "snap: middle of the road at the start of lanes 1, 2, 3"
    _click(window, qtbot, CIRCUIT[2][-1])
    assert window.status_label.text().startswith(
        "the stretch ends on the start of lanes 1, 2, 3 (1-000, 2-000 and 3-000)")
    steps = document.undo_stack.count()
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key.Key_Return)
    assert document.undo_stack.count() == steps + 1, "closing the lap is one undoable step"
    assert window.status_label.text().endswith("the lap is closed")
    assert not lanes.open_ends(document.track) and not lanes.open_starts(document.track)

    # The finish line across the start, in one click with the Finish line tool: on the
    # staggered start, each lane's first space past the line (not the one half a space behind).
    window.choose_tool("Finish line")
    _click(window, qtbot, _centre(window, "1-000"))
    assert document.track.finish_line is not None
    assert document.track.finish_line.spaces == ["1-000", "2-000", "3-000"]
    saved = tmp_path / "small-circuit.json"
    assert window.save_as(saved)
    track = load_track(saved)

    # No space lies over another: the last ones meet the first edge to edge.
    assert _overlap(track) < 0.5
    counts = [sum(1 for s in track.spaces if s.lane == lane) for lane in "123"]
    assert counts == [30, 30, 30]
    for lane in "123":
        last = f"{lane}-029"
        assert _lane_cycle(track, lane)[-1] == last
        shared = Polygon(next(s.polygon for s in track.spaces if s.id == last)).intersection(
            Polygon(next(s.polygon for s in track.spaces if s.id == f"{lane}-000")))
        assert shared.length == pytest.approx(40.0, abs=0.5), "they share their whole cut"
    # The lane changes across the start are those of the rest of the stagger: lane 2, half a
    # space ahead, moves across onto the first spaces of lanes 1 and 3.
    moves = {(k.from_, k.to) for k in track.links}
    assert {("2-029", "1-000"), ("2-029", "3-000"), ("1-029", "2-029"),
            ("3-029", "2-029")} <= moves
    assert ("1-029", "2-000") not in moves
    report = validate(track)
    made = [d for d in report.diagnostics if d.code.startswith(TOOL_MADE)]
    assert not made, report.to_text()

    # Back to before the last stretch (the finish line undone too), the lap is open again, as
    # REACH004 says; one step on, it is closed.
    document.undo_stack.setIndex(steps)
    assert lanes.open_ends(document.track)
    assert any(d.code == "REACH004" for d in validate(document.track).diagnostics)
    document.undo_stack.redo()
    assert not lanes.open_ends(document.track)


def test_a_closing_stretch_by_space_length_fits_a_whole_number_of_spaces(
    window, qtbot
) -> None:  # type: ignore[no-untyped-def]
    """With a space length, the last stretch gets as many spaces as come nearest, each a
    little longer or shorter, so that the last one ends where the first begins."""
    window.view.fit()
    window.choose_tool("Lanes")
    tool = window.view.tool
    tool.lanes_box.setValue(2)
    tool.length_box.setValue(70.0)
    for stretch in CIRCUIT:
        _lay(window, qtbot, stretch)
    track = window.document.track
    assert window.status_label.text().endswith("the lap is closed")
    assert _overlap(track) < 0.5
    for lane in "12":
        assert len(_lane_cycle(track, lane)) == sum(1 for s in track.spaces if s.lane == lane)
    made = [d for d in validate(track).diagnostics if d.code.startswith(TOOL_MADE)
            and d.code != "LAP004"]  # no finish line laid here
    assert not made, [d.message for d in made]
