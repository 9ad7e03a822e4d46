"""Picking a corner's spaces with the Corner tool, and selecting a corner with the Select tool,
played with the mouse and keys on the real window.

The test ring's north corner is spaces 8 to 11 of its three lanes; each test that makes a corner
first takes that one off, as a designer starting on a fresh board would find it."""

from __future__ import annotations

import math
from pathlib import Path

from PySide6.QtCore import QPoint, QPointF, Qt

from editor.scene.items import LabelItem
from editor.scene.style import Layer
from tests.factories import CX, CY, OUTER, edit, ring
from trackformat.io import save_track

LEFT = Qt.MouseButton.LeftButton
SHIFT = Qt.KeyboardModifier.ShiftModifier
NORTH = sorted(f"{lane}-{k}" for lane in "123" for k in range(8, 12))


def _space_point(window, space_id: str) -> QPoint:  # type: ignore[no-untyped-def]
    item = window.scene.space_items[space_id]
    return window.view.mapFromScene(item.sceneBoundingRect().center())


def _open_without_north(window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    def drop_north(document):  # type: ignore[no-untyped-def]
        document["corners"] = [c for c in document["corners"] if c["id"] != "north"]

    path = tmp_path / "no-north.json"
    save_track(edit(ring(), drop_north), path)
    window.open_path(path)
    window.view.fit()
    window.choose_tool("Corner")


def _enter(window, qtbot) -> list[str]:  # type: ignore[no-untyped-def]
    """Press Enter; the spaces of the corner made."""
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key.Key_Return)
    [made] = [c for c in window.document.track.corners if c.id != "south"]
    return sorted(made.spaces)


def test_one_drag_picks_a_three_lane_bend(window, qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    _open_without_north(window, tmp_path)
    viewport = window.view.viewport()
    start, end = _space_point(window, "1-8"), _space_point(window, "3-11")
    qtbot.mousePress(viewport, LEFT, pos=start)
    for step in range(1, 11):
        qtbot.mouseMove(viewport, start + (end - start) * step / 10)
    qtbot.mouseRelease(viewport, LEFT, pos=end)

    assert sorted(window.document.selection) == NORTH
    assert "12 spaces picked (lane 1: 4, lane 2: 4, lane 3: 4)" in window.status_label.text()
    assert _enter(window, qtbot) == NORTH
    assert "(lane 1: 4, lane 2: 4, lane 3: 4)" in window.status_label.text()
    inspector = window.inspector_dock.widget()
    assert inspector.fields["spaces_by_lane"].text() == "lane 1: 4, lane 2: 4, lane 3: 4"


def test_one_drag_per_lane_picks_a_corner_with_slanted_limits(  # type: ignore[no-untyped-def]
    window, qtbot, tmp_path: Path
) -> None:
    _open_without_north(window, tmp_path)
    viewport = window.view.viewport()
    for entry, exit_ in (("1-8", "1-12"), ("2-8", "2-11"), ("3-9", "3-11")):
        start, end = _space_point(window, entry), _space_point(window, exit_)
        qtbot.mousePress(viewport, LEFT, pos=start)
        for step in range(1, 6):
            qtbot.mouseMove(viewport, start + (end - start) * step / 5)
        qtbot.mouseRelease(viewport, LEFT, pos=end)
    assert "12 spaces picked (lane 1: 5, lane 2: 4, lane 3: 3)" in window.status_label.text()
    assert _enter(window, qtbot) == sorted(
        ["1-8", "1-9", "1-10", "1-11", "1-12", "2-8", "2-9", "2-10", "2-11", "3-9", "3-10", "3-11"]
    )


def test_one_click_per_lane_once_the_first_lane_is_picked(  # type: ignore[no-untyped-def]
    window, qtbot, tmp_path: Path
) -> None:
    """The entry and a Shift-click on the exit of the outside lane, then a Shift-click on the
    exit of each other lane takes its stretch from beside the entry."""
    _open_without_north(window, tmp_path)
    viewport = window.view.viewport()
    qtbot.mouseClick(viewport, LEFT, pos=_space_point(window, "1-8"))
    qtbot.mouseClick(viewport, LEFT, SHIFT, _space_point(window, "1-11"))
    assert "4 spaces picked (lane 1: 4)" in window.status_label.text()
    qtbot.mouseClick(viewport, LEFT, SHIFT, _space_point(window, "2-11"))
    assert "8 spaces picked (lane 1: 4, lane 2: 4)" in window.status_label.text()
    qtbot.mouseClick(viewport, LEFT, SHIFT, _space_point(window, "3-11"))
    assert len(window.document.selection) == 12
    # A double-click on the last space makes the corner, as Enter does.
    qtbot.mouseDClick(viewport, LEFT, pos=_space_point(window, "3-11"))
    [made] = [c for c in window.document.track.corners if c.id != "south"]
    assert sorted(made.spaces) == NORTH and window.document.selection == {made.id}


def test_shift_click_takes_a_stretch_of_its_own_lane(  # type: ignore[no-untyped-def]
    window, qtbot, tmp_path: Path
) -> None:
    """Shift-click ranges from the space picked in the clicked lane, not from the last space
    picked, which was in another lane."""
    _open_without_north(window, tmp_path)
    viewport = window.view.viewport()
    qtbot.mouseClick(viewport, LEFT, pos=_space_point(window, "2-8"))
    qtbot.mouseClick(viewport, LEFT, pos=_space_point(window, "1-8"))
    qtbot.mouseClick(viewport, LEFT, SHIFT, _space_point(window, "2-11"))
    assert window.document.selection == {"1-8", "2-8", "2-9", "2-10", "2-11"}
    assert "5 spaces picked (lane 1: 1, lane 2: 4)" in window.status_label.text()


def test_a_click_on_a_picked_space_says_it_takes_it_out(  # type: ignore[no-untyped-def]
    window, qtbot, tmp_path: Path
) -> None:
    _open_without_north(window, tmp_path)
    viewport = window.view.viewport()
    for space_id in ("1-8", "1-9", "1-9"):
        qtbot.mouseClick(viewport, LEFT, pos=_space_point(window, space_id))
    assert window.document.selection == {"1-8"}
    assert window.status_label.text().startswith("Took 1-9 out: 1 space picked (lane 1: 1)")
    assert "click a space to pick it or take it out" in window.tools["Corner"].hint


def _label_point(window, corner_id: str) -> QPoint:  # type: ignore[no-untyped-def]
    """The middle of a corner's label on the screen (the label keeps its size whatever the
    zoom, so its box is in screen pixels around its position)."""
    corner = next(c for c in window.document.track.corners if c.id == corner_id)
    stops = f"{corner.stops} stop{'s' if corner.stops != 1 else ''}  "
    [label] = [
        item
        for item in window.scene.layer_items[Layer.CORNERS]
        if isinstance(item, LabelItem) and item.text.startswith(stops)
    ]
    middle = label.boundingRect().center()
    return window.view.mapFromScene(label.scenePos()) + QPoint(
        round(middle.x()), round(middle.y())
    )


def test_the_select_tool_selects_a_corner_by_its_label_limits_or_a_double_click(  # type: ignore[no-untyped-def]
    window, ring_file: Path, qtbot
) -> None:
    window.open_path(ring_file)
    window.view.fit()
    viewport = window.view.viewport()
    inspector = window.inspector_dock.widget

    qtbot.mouseClick(viewport, LEFT, pos=_label_point(window, "north"))
    assert window.document.selection == {"north"}
    assert "stops" in inspector().fields and window.scene.selection == {"north"}

    # A click inside the limits selects the space, and says how to reach the corner.
    qtbot.mouseClick(viewport, LEFT, pos=_space_point(window, "2-9"))
    assert window.document.selection == {"2-9"}
    assert "double-click it" in window.status_label.text()
    # The second click of a double-click inside the limits selects the corner.
    qtbot.mouseDClick(viewport, LEFT, pos=_space_point(window, "2-9"))
    assert window.document.selection == {"north"}
    assert inspector().fields["spaces_by_lane"].text() == "lane 1: 4, lane 2: 4, lane 3: 4"

    # Just outside the outer limit line, four screen pixels off it, on empty board.
    qtbot.mouseClick(viewport, LEFT, pos=_space_point(window, "1-20"))
    angle = 2 * math.pi * 9.5 / 40
    on_line = window.view.mapFromScene(
        QPointF(CX + OUTER * math.cos(angle), CY + OUTER * math.sin(angle))
    )
    off = on_line + QPoint(round(4 * math.cos(angle)), round(4 * math.sin(angle)))
    assert window.scene.space_at(window.view.mapToScene(off)) is None
    qtbot.mouseClick(viewport, LEFT, pos=off)
    assert window.document.selection == {"north"}

    # And from the inspector of a space in the corner.
    qtbot.mouseClick(viewport, LEFT, pos=_space_point(window, "3-24"))
    assert window.document.selection == {"3-24"}
    inspector().fields["corner"].click()
    qtbot.waitUntil(lambda: window.document.selection == {"south"})


def _select_north(window, qtbot, tmp_path: Path):  # type: ignore[no-untyped-def]
    """Open the ring, select its north corner by a double-click inside it, and give the view
    the keys; the view's viewport, for the clicks after."""
    path = tmp_path / "ring.json"
    save_track(ring(), path)
    window.open_path(path)
    window.view.fit()
    viewport = window.view.viewport()
    qtbot.mouseDClick(viewport, LEFT, pos=_space_point(window, "2-9"))
    assert window.document.selection == {"north"}
    window.view.setFocus()
    return viewport


def test_a_selected_corner_is_reshaped_in_place_by_the_corner_tool(  # type: ignore[no-untyped-def]
    window, qtbot, tmp_path: Path
) -> None:
    # A traced draft's corner that misses part of its bend: select it, press Shift+C, click
    # the spaces to take out or add, Enter. Its stops and name stay; no second corner is made.
    viewport = _select_north(window, qtbot, tmp_path)
    qtbot.keyClick(window.view, Qt.Key.Key_C, Qt.KeyboardModifier.ShiftModifier)
    assert sorted(window.document.selection) == NORTH
    assert window.status_label.text().startswith("Reshaping North: 12 spaces picked")
    for space_id in ("3-11", "1-12"):
        qtbot.mouseClick(viewport, LEFT, pos=_space_point(window, space_id))
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key.Key_Return)
    corners = {c.id: c for c in window.document.track.corners}
    assert sorted(corners) == ["north", "south"]
    north = corners["north"]
    assert sorted(north.spaces) == sorted([*(s for s in NORTH if s != "3-11"), "1-12"])
    assert (north.name, north.stops) == ("North", 1)
    assert window.status_label.text().startswith("Reshaped north (lane 1: 5, lane 2: 4")
    window.undo_action.trigger()
    assert sorted(next(c for c in window.document.track.corners if c.id == "north").spaces) \
        == NORTH, "one undo step"


def test_c_with_a_corner_selected_makes_a_new_corner_and_leaves_the_selected_one_be(  # type: ignore[no-untyped-def]
    window, qtbot, tmp_path: Path
) -> None:
    # Selected to type its stops, then C for the next corner: the next drag must make a new
    # corner, not add its spaces to the one selected.
    viewport = _select_north(window, qtbot, tmp_path)
    qtbot.keyClick(window.view, Qt.Key.Key_C)
    assert not window.status_label.text().startswith("Reshaping")
    qtbot.mouseClick(viewport, LEFT, pos=_space_point(window, "1-14"))
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key.Key_Return)
    corners = {c.id: c for c in window.document.track.corners}
    assert sorted(corners["north"].spaces) == NORTH
    assert len(corners) == 3


def test_shift_c_with_no_corner_selected_says_what_to_select(window, qtbot, tmp_path: Path  # type: ignore[no-untyped-def]
                                                             ) -> None:
    path = tmp_path / "ring.json"
    save_track(ring(), path)
    window.open_path(path)
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key.Key_C, Qt.KeyboardModifier.ShiftModifier)
    assert window.status_label.text().startswith("Select one corner first")
