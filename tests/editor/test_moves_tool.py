"""The Moves tool on the real window: a car on Monaco, its gear and roll, and the spaces the
race engine lets it end on, lit on the board with their costs."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QAction, QColor, QKeySequence

from editor import edits
from editor.scene import style
from editor.scene.reach import CarMarker, CostLabel, ReachItem
from tests.corpus import ROOT
from tests.factories import edit, ring, space
from trackformat.io import save_track
from trackformat.model import Track
from trackformat.rules import load_ruleset
from trackformat.sim import Board, CarState, RaceState, Wear, faces, legal_moves_by_roll

MONACO = ROOT / "tracks" / "monaco.json"
STRAIGHT = "2-003"
"""A space of Monaco's start-finish straight, before Sainte Dévote."""
AHEAD = "2-006"
"""Three spaces ahead of it in its lane."""
NEXT = "2-004"
"""The space right ahead of it: lit at a cost for a roll of 3 (braking 2)."""


def _point(window, space_id: str) -> QPoint:  # type: ignore[no-untyped-def]
    return window.view.mapFromScene(window.scene.space_items[space_id].sceneBoundingRect().center())


def _pixel(window, space_id: str) -> QColor:  # type: ignore[no-untyped-def]
    """The colour on screen a little off the space's centre (where a cost label may be)."""
    item = window.scene.space_items[space_id]
    centre = item.space.centre
    corner = item.space.polygon[0]
    inside = ((centre[0] * 3 + corner[0]) / 4, (centre[1] * 3 + corner[1]) / 4)
    at = window.view.mapFromScene(*inside)
    return window.view.viewport().grab().toImage().pixelColor(at)


def _engine(track: Track, car: str, gear: int, rolls: tuple[int, ...],
            others: tuple[str, ...] = ()) -> dict[str, tuple[int, int, bool]]:
    """What the engine says, asked directly: each destination with the least brakes and tyres
    of the moves ending there, and whether one of them is free."""
    rules = load_ruleset()
    wear = Wear.of(rules.starting_wear(track.metadata.laps))
    board = Board.of(track)
    cars = [CarState(index=0, space=car, gear=gear, wear=wear, lap=1, started=True,
                     corner=board.corner_of.get(car), stops=1 if car in board.corner_of else 0,
                     box=track.pit_lane.boxes[0] if track.pit_lane else None)]
    cars += [CarState(index=n, space=s, gear=gear, wear=wear, lap=1, started=True)
             for n, s in enumerate(others, start=1)]
    state = RaceState(board=board, rules=rules, laps=track.metadata.laps, cars=tuple(cars))
    found: dict[str, tuple[int, int, bool]] = {}
    for moves in legal_moves_by_roll(state, 0, rolls).values():
        for move in moves:
            free = move.cost.total() == 0 and not move.spin and move.eliminated is None
            best = found.get(move.destination, (99, 99, False))
            found[move.destination] = (
                min(best[0], move.brakes), min(best[1], move.tyres), best[2] or free
            )
    return found


def _lit(window) -> dict[str, QColor]:  # type: ignore[no-untyped-def]
    return {
        item.space_id: item.brush().color()
        for item in window.scene.items() if isinstance(item, ReachItem)
    }


def _labels(window) -> dict[str, str]:  # type: ignore[no-untyped-def]
    return {i.space_id: i.text for i in window.scene.items() if isinstance(i, CostLabel)}


def _cars(window) -> dict[str, str]:  # type: ignore[no-untyped-def]
    return {i.space_id: i.text for i in window.scene.items() if isinstance(i, CarMarker)}


@pytest.fixture
def monaco(window, qtbot):  # type: ignore[no-untyped-def]
    """Monaco open with the Moves tool chosen from the Tools menu, zoomed on the straight."""
    assert window.open_path(MONACO)
    [action] = [a for a in window.tool_actions.actions() if a.text() == "Moves"]
    assert action.shortcut() == QKeySequence("R")
    action.trigger()
    assert window.view.tool.name == "Moves"
    item = window.scene.space_items[STRAIGHT]
    window.view.fitInView(
        item.sceneBoundingRect().adjusted(-120, -120, 120, 120), Qt.AspectRatioMode.KeepAspectRatio
    )
    window.view.setFocus()
    return window


def _gear_and_roll(window, qtbot, gear: int, roll: int | None) -> None:  # type: ignore[no-untyped-def]
    """Choose the gear with its key and the roll with Up from "all faces"."""
    qtbot.keyClick(window.view, getattr(Qt.Key, f"Key_{gear}"))
    panel = window.view.tool.options()
    while panel.roll() is not None:
        qtbot.keyClick(window.view, Qt.Key.Key_Down)
    if roll is not None:
        for _ in range(roll - min(faces(load_ruleset(), gear)) + 1):
            qtbot.keyClick(window.view, Qt.Key.Key_Up)
    assert panel.gear_box.value() == gear and panel.roll() == roll


def _put_car(window, qtbot, space_id: str) -> None:  # type: ignore[no-untyped-def]
    viewport = window.view.viewport()
    qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=_point(window, space_id))


def test_a_car_on_the_straight_lights_exactly_the_engine_moves(monaco, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = monaco
    before = _pixel(window, NEXT)
    _gear_and_roll(window, qtbot, 2, 3)
    assert _lit(window) == {}, "no car, nothing lit"
    _put_car(window, qtbot, STRAIGHT)
    expected = _engine(window.document.track, STRAIGHT, 2, (3,))
    lit = _lit(window)
    assert set(lit) == set(expected) and len(lit) > 5
    for space_id, (_brakes, _tyres, free) in expected.items():
        colour = style.REACH_FREE if free else style.REACH_COSTLY
        assert lit[space_id] == colour, space_id
    labels = _labels(window)
    braking = {s: f"B{b}" for s, (b, _t, free) in expected.items() if b and not free}
    assert braking and labels == braking, "costs labelled on the braking moves, none on free ones"
    assert _cars(window) == {STRAIGHT: "1"}
    assert _pixel(window, NEXT) != before, "the lit space shows on screen"
    assert window.status_label.text().startswith(f"Car on {STRAIGHT}, gear 2, roll 3: ")


def test_another_car_ahead_changes_what_is_lit(monaco, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = monaco
    _gear_and_roll(window, qtbot, 2, 3)
    viewport = window.view.viewport()
    qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=_point(window, STRAIGHT))
    alone = set(_lit(window))
    qtbot.mouseClick(
        viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ShiftModifier,
        _point(window, AHEAD),
    )
    track = window.document.track
    blocked = _engine(track, STRAIGHT, 2, (3,), (AHEAD,))
    assert set(_lit(window)) == set(blocked) != alone
    assert AHEAD not in _lit(window)
    assert _cars(window) == {STRAIGHT: "1", AHEAD: "2"}
    assert "Other cars: 1" in window.view.tool.options().others_label.text()
    # A right-click takes it off again.
    qtbot.mouseClick(viewport, Qt.MouseButton.RightButton, pos=_point(window, AHEAD))
    assert set(_lit(window)) == alone and _cars(window) == {STRAIGHT: "1"}


def test_all_faces_of_the_die_light_every_result(monaco, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = monaco
    _gear_and_roll(window, qtbot, 3, None)
    assert window.view.tool.options().roll_box.text() == "all faces"
    _put_car(window, qtbot, STRAIGHT)
    rolls = tuple(sorted(set(faces(load_ruleset(), 3))))
    assert set(_lit(window)) == set(_engine(window.document.track, STRAIGHT, 3, rolls))
    assert "every face (4-8)" in window.status_label.text()


def test_leaving_the_tool_takes_the_overlay_away(monaco, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = monaco
    before = _pixel(window, NEXT)
    _gear_and_roll(window, qtbot, 2, 3)
    _put_car(window, qtbot, STRAIGHT)
    assert _lit(window) and _pixel(window, NEXT) != before
    window.choose_tool("Select")
    assert _lit(window) == {} and _labels(window) == {} and _cars(window) == {}
    assert _pixel(window, NEXT) == before
    window.choose_tool("Moves")
    assert AHEAD in _lit(window), "coming back shows the car where it was left"
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key.Key_Escape)
    assert _lit(window) == {} and _cars(window) == {}


def test_an_edit_asks_again_and_a_removed_space_takes_the_car_off(monaco, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = monaco
    _gear_and_roll(window, qtbot, 2, 3)
    _put_car(window, qtbot, STRAIGHT)
    assert AHEAD in _lit(window)
    window.document.edit("Delete", lambda t: edits.delete_elements(t, {AHEAD}))
    assert set(_lit(window)) == set(_engine(window.document.track, STRAIGHT, 2, (3,)))
    assert AHEAD not in _lit(window)
    window.document.edit("Delete", lambda t: edits.delete_elements(t, {STRAIGHT}))
    assert _lit(window) == {} and _cars(window) == {}
    assert "2-003 is gone" in window.status_label.text()


def test_a_track_the_engine_cannot_read_is_said_in_the_status_bar(
    window, qtbot, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    broken = tmp_path / "laneless.json"
    save_track(edit(ring(), lambda d: space(d, "2-5").update(lane=None)), broken)
    assert window.open_path(broken)
    window.view.fit()
    window.choose_tool("Moves")
    qtbot.mouseClick(window.view.viewport(), Qt.MouseButton.LeftButton, pos=_point(window, "2-3"))
    assert "Moves: 2-5 is in no lane" in window.status_label.text()
    assert _lit(window) == {} and _cars(window) == {"2-3": "1"}


def test_every_shortcut_is_taken_once(window) -> None:  # type: ignore[no-untyped-def]
    from editor.help_menu import shortcuts

    keys = [keys for group, keys, _what in shortcuts(window, window.tools.values())
            if group != "Board"]
    assert len(keys) == len(set(keys)), sorted(k for k in keys if keys.count(k) > 1)


def test_the_help_lists_the_keys_of_the_moves_and_pit_lane_tools(window) -> None:  # type: ignore[no-untyped-def]
    [entry] = [a for a in window.findChildren(QAction) if a.text() == "Keyboard shortcuts"]
    entry.trigger()  # Help > Keyboard shortcuts (F1)
    shown = window.last_help
    assert "<b>R</b></td><td>Moves:" in shown
    assert "<b>B (or Alt-click)</b></td><td>make the space under the pointer a box" in shown
    assert "<b>1 to 6</b></td><td>the car&#x27;s gear (Moves tool)" in shown


def test_opening_another_track_leaves_no_car_behind(monaco, qtbot, ring_file: Path) -> None:  # type: ignore[no-untyped-def]
    window = monaco
    _put_car(window, qtbot, STRAIGHT)
    assert _lit(window)
    assert window.open_path(ring_file)
    assert _lit(window) == {} and _cars(window) == {}
    window.choose_tool("Moves")
    assert _lit(window) == {}, "a new track starts with no car"
    window.view.fit()
    _put_car(window, qtbot, "2-3")
    assert _cars(window) == {"2-3": "1"} and _lit(window)


def test_a_garage_is_a_place_to_stop_the_car_may_end_on(window, qtbot, ring_file: Path) -> None:  # type: ignore[no-untyped-def]
    from editor import layout

    assert window.open_path(ring_file)
    window.document.edit("Garage", lambda t: layout.toggle_garage(t, "pit-3"))
    window.view.fit()
    window.choose_tool("Moves")
    panel = window.view.tool.options()
    places = [panel.place_box.itemText(i) for i in range(panel.place_box.count())]
    assert places == ["none", "box-1", "box-2", "pit-3"]
    assert panel.place_box.currentText() == "box-1", "the first place, until one is chosen"
    panel.place_box.setCurrentText("pit-3")
    panel.gear_box.setValue(3)
    _put_car(window, qtbot, "3-33")
    assert _labels(window).get("pit-3") == "pit"
    assert _lit(window)["pit-3"] == style.REACH_FREE
    assert "box-1" not in _lit(window), "another team's box is no place to stop"


def test_overshoots_spins_and_eliminations_are_written_on_their_spaces(monaco, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = monaco
    _gear_and_roll(window, qtbot, 4, None)
    window.view.fit()
    _put_car(window, qtbot, "3-140")  # before Anthony Noghes, a one-stop corner
    track = window.document.track
    rules = load_ruleset()
    state = RaceState(
        board=Board.of(track), rules=rules, laps=2,
        cars=(CarState(index=0, space="3-140", gear=4, lap=1, started=True, box="box-1",
                       wear=Wear.of(rules.starting_wear(2))),),
    )
    ends: dict[str, list] = {}
    for moves in legal_moves_by_roll(state, 0, faces(rules, 4)).values():
        for move in moves:
            ends.setdefault(move.destination, []).append(move)
    labels, lit = _labels(window), _lit(window)
    out = {s for s, found in ends.items() if all(m.eliminated for m in found)}
    assert out and {s for s, text in labels.items() if text == "X"} == out
    assert all(lit[s] == style.REACH_OUT for s in out)
    overshooting = {s for s, found in ends.items()
                    if s not in out and all(m.tyres for m in found)}
    assert overshooting and all(
        any(part[0] == "T" for part in labels[s].split()) for s in overshooting
    ), "the tyres points an overshoot costs"
    assert any("spin" in text for text in labels.values())
