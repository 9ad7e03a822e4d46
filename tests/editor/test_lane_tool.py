"""The lane tool on the real window: space length with a live count, stagger, joins at bends."""

from __future__ import annotations

import math

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from shapely.geometry import Polygon


def _click_along(window, qtbot, clicks: list[QPoint], hover: QPoint) -> None:  # type: ignore[no-untyped-def]
    viewport = window.view.viewport()
    for click in clicks:
        qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=click)
    qtbot.mouseMove(viewport, hover)


def _previewed_spaces(tool) -> int:  # type: ignore[no-untyped-def]
    """Closed outlines drawn by the preview (the clicked line is drawn open, not counted)."""
    return sum(1 for polygon in tool.preview_item.path().toSubpathPolygons()
               if polygon.isClosed() and polygon.size() > 3)


def _shown_counts(tool) -> list[int]:  # type: ignore[no-untyped-def]
    """The spaces per lane the options panel shows, as "12, 12, 11 (60, 60, 59 px each)"."""
    return [int(n) for n in tool.count_label.text().split(" (")[0].split(", ")]


def test_a_space_length_shows_a_live_count_and_a_stagger_offsets_lanes(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    window.view.fit()
    window.choose_tool("Lanes")
    tool = window.view.tool
    tool.lanes_box.setValue(3)
    tool.length_box.setValue(60.0)
    tool.stagger_edit.setText("0.5")
    assert not tool.counts_edit.isEnabled()
    assert tool.settings.space_length == 60.0 and tool.settings.stagger == (0.5,)
    viewport = window.view.viewport()
    assert tool.count_label.text() == "click along the road to see them"
    _click_along(window, qtbot, [QPoint(150, 400), QPoint(700, 400)], QPoint(700, 400))
    counts = _shown_counts(tool)
    assert len(counts) == 3 and _previewed_spaces(tool) == sum(counts)
    # The count follows the road as it is clicked: a longer stretch gets more spaces.
    qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=QPoint(1000, 400))
    longer = _shown_counts(tool)
    assert all(b > a for a, b in zip(counts, longer, strict=True))
    assert _previewed_spaces(tool) == sum(longer)
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key.Key_Return)
    spaces = {s.id: s for s in window.document.track.spaces}
    assert [sum(1 for s in spaces.values() if s.lane == lane) for lane in "123"] == longer
    step = math.dist(spaces["1-001"].centre, spaces["1-002"].centre)
    assert step == pytest.approx(60.0, rel=0.05)
    # Lane 2 lies half a space ahead of lanes 1 and 3.
    ahead = spaces["2-000"].centre[0] - spaces["1-000"].centre[0]
    assert ahead == pytest.approx(step / 2, rel=0.05)
    assert spaces["3-000"].centre[0] == pytest.approx(spaces["1-000"].centre[0],
                                                                    abs=0.5)


def test_a_second_stretch_joined_at_a_bend_does_not_overlap_the_first(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    window.view.fit()
    window.choose_tool("Lanes")
    tool = window.view.tool
    tool.lanes_box.setValue(2)
    tool.counts_edit.setText("8")
    _click_along(window, qtbot, [QPoint(150, 300), QPoint(350, 300), QPoint(550, 300)],
                 QPoint(550, 300))
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key.Key_Return)
    # The next stretch starts where the first ended and turns down at once.
    _click_along(window, qtbot, [QPoint(553, 302), QPoint(700, 360), QPoint(780, 480)],
                 QPoint(780, 480))
    qtbot.keyClick(window.view, Qt.Key.Key_Return)
    track = window.document.track
    assert len(track.spaces) == 32 and len(window.scene.space_items) == 32
    outlines = {s.id: Polygon(s.polygon) for s in track.spaces}
    overlap = sum(a.intersection(b).area for i, a in enumerate(outlines.values())
                  for b in list(outlines.values())[i + 1:])
    assert overlap < 1.0
    width = tool.spacing_box.value()
    for lane in "12":
        shared = outlines[f"{lane}-007"].intersection(outlines[f"{lane}-008"])
        assert shared.length == pytest.approx(width, rel=0.01)


def _board_clicks(window, qtbot, points: list[tuple[float, float]]) -> None:  # type: ignore[no-untyped-def]
    """Click at board points (as the board is shown now), then hover on the last."""
    _click_along(window, qtbot, [window.view.mapFromScene(QPointF(*p)) for p in points],
                 window.view.mapFromScene(QPointF(*points[-1])))


HAIRPIN = [(300.0, 400.0), (900.0, 400.0), (940.0, 440.0), (900.0, 480.0), (300.0, 480.0)]
"""A hairpin on a radius of 40 px: room for one lane, not three (board pixels)."""


def test_a_bend_too_tight_for_the_lanes_is_shown_said_and_refused(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    window.view.fit()
    window.choose_tool("Lanes")
    tool = window.view.tool
    _board_clicks(window, qtbot, HAIRPIN)
    said = window.status_label.text()
    assert said.startswith("lane 3 folds over itself on this bend (3-")
    assert said.endswith("click a wider bend, or lay fewer lanes")
    assert not tool.fold_item.path().isEmpty(), "the spaces that fold are filled red"
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key.Key_Return)
    assert window.document.track.spaces == [] and window.document.undo_stack.count() == 0
    assert window.status_label.text().startswith("lane 3 folds over itself")
    # One lane fits the same bend: the warning goes, and Enter adds it.
    tool.lanes_box.setValue(1)
    assert tool.fold_item.path().isEmpty()
    qtbot.keyClick(window.view, Qt.Key.Key_Return)
    assert len(window.document.track.spaces) == 10


def test_the_pit_lane_is_laid_as_pit_spaces_with_ids_of_their_own(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    window.view.fit()
    window.choose_tool("Lanes")
    tool = window.view.tool
    _board_clicks(window, qtbot, [(300.0, 400.0), (1100.0, 400.0)])
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key.Key_Return)
    tool.pit_box.setChecked(True)
    assert not tool.lanes_box.isEnabled() and not tool.stagger_edit.isEnabled()
    said = window.status_label.text()
    assert "pit lane is entered from" in said and "close the lap" not in said
    tool.counts_edit.setText("8")
    _board_clicks(window, qtbot, [(400.0, 520.0), (1000.0, 520.0)])
    assert tool.count_label.text().startswith("8 (")
    qtbot.keyClick(window.view, Qt.Key.Key_Return)
    track = window.document.track
    pit = [s for s in track.spaces if s.lane is None]
    assert [s.id for s in pit] == [f"pit-{n:03d}" for n in range(8)]
    assert track.pit_lane is not None and track.pit_lane.spaces == [s.id for s in pit]
    assert sum(1 for s in track.spaces if s.lane == "1") == 10, "lane 1 is left as it was"
    assert "Pit lane tool" in window.status_label.text()


def test_a_first_straight_laid_with_the_defaults_is_staggered_as_boards_are(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    from trackformat.lint import validate

    window.view.fit()
    window.choose_tool("Lanes")
    tool = window.view.tool
    assert tool.stagger_edit.text() == "0.5" and tool.settings.stagger == (0.5,)
    _board_clicks(window, qtbot, [(300.0, 400.0), (1300.0, 400.0)])
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key.Key_Return)
    report = validate(window.document.track, codes=["LAP006"])
    assert len(window.document.track.spaces) == 30 and report.warnings == 0, report.to_text()
