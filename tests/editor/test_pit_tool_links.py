"""The Pit lane tool laid over spaces already linked lists every move once, and the Arrow tool
takes one copy of a move listed twice out, leaving the move: played with the mouse and keys on
the real window, checked in the saved file with the validator (REF005: a link listed twice)."""

from __future__ import annotations

import itertools
from collections import Counter
from pathlib import Path

from PySide6.QtCore import QPoint, Qt

from tests.factories import edit, ring
from trackformat.io import load_track, save_track
from trackformat.lint import validate
from trackformat.model import Track

LEFT = Qt.MouseButton.LeftButton
SHIFT = Qt.KeyboardModifier.ShiftModifier
CTRL = Qt.KeyboardModifier.ControlModifier
PIT = [f"pit-{i}" for i in range(7)]


def _space_point(window, space_id: str) -> QPoint:  # type: ignore[no-untyped-def]
    item = window.scene.space_items[space_id]
    return window.view.mapFromScene(item.sceneBoundingRect().center())


def _listings(track: Track) -> Counter[tuple[str, str]]:
    """Every move as listed in the file: /links, the pit entry and the pit exit."""
    listed = Counter((k.from_, k.to) for k in track.links)
    if track.pit_lane is not None:
        listed.update((k.from_, k.to) for k in [*track.pit_lane.entry, *track.pit_lane.exit])
    return listed


def _duplicate_links(path: Path) -> list[str]:
    """The validator's REF005 messages about the saved file."""
    report = validate(load_track(path))
    return [d.message for d in report.diagnostics if d.code == "REF005"]


def _ring_without_pit_lane(tmp_path: Path) -> Path:
    """The test ring whose pit spaces, boxes and the moves between them were drawn (with the
    Lanes, Space and Arrow tools) but not yet made a pit lane."""

    def drop_pit_lane(document):  # type: ignore[no-untyped-def]
        document["pit_lane"] = None

    path = tmp_path / "drawn.json"
    save_track(edit(ring(), drop_pit_lane), path)
    return path


def test_laying_a_pit_lane_over_linked_spaces_lists_every_move_once(  # type: ignore[no-untyped-def]
    window, qtbot, tmp_path: Path
) -> None:
    window.open_path(_ring_without_pit_lane(tmp_path))
    window.view.fit()
    window.choose_tool("Pit lane")
    viewport = window.view.viewport()
    for space_id in PIT:
        qtbot.mouseClick(viewport, LEFT, pos=_space_point(window, space_id))
    qtbot.mouseClick(viewport, LEFT, SHIFT, _space_point(window, "3-35"))
    qtbot.mouseClick(viewport, LEFT, CTRL, _space_point(window, "3-3"))
    window.view.setFocus()
    for box in ("box-1", "box-2"):  # their moves to and from the lane are drawn already
        qtbot.mouseMove(viewport, _space_point(window, box))
        qtbot.keyClick(window.view, Qt.Key.Key_B)

    pit = window.document.track.pit_lane
    assert pit.spaces == PIT and pit.boxes == ["box-1", "box-2"]
    assert [(k.from_, k.to) for k in pit.entry] == [("3-35", "pit-0")]
    assert [(k.from_, k.to) for k in pit.exit] == [("pit-6", "3-3")]
    listed = _listings(window.document.track)
    assert all(listed[(a, b)] == 1 for a, b in itertools.pairwise(PIT))
    assert max(listed.values()) == 1, [pair for pair, n in listed.items() if n > 1]
    saved = tmp_path / "pit.json"
    assert window.save_as(saved)
    assert _duplicate_links(saved) == []


def test_a_pit_entry_drawn_first_as_an_arrow_is_listed_once(  # type: ignore[no-untyped-def]
    window, ring_file: Path, qtbot, tmp_path: Path
) -> None:
    """A move into the pit lane drawn with the Arrow tool, then made the pit entry with the Pit
    lane tool, is listed in the pit entry only (where REF005 wants it), not in /links too."""
    window.open_path(ring_file)
    window.view.fit()
    viewport = window.view.viewport()
    window.choose_tool("Arrow")
    qtbot.mouseClick(viewport, LEFT, pos=_space_point(window, "2-35"))
    qtbot.mouseClick(viewport, LEFT, pos=_space_point(window, "pit-0"))
    assert "Added link 2-35 -> pit-0" in window.status_label.text()
    window.choose_tool("Pit lane")
    qtbot.mouseClick(viewport, LEFT, SHIFT, _space_point(window, "2-35"))

    track = window.document.track
    assert ("2-35", "pit-0") in {(k.from_, k.to) for k in track.pit_lane.entry}
    assert ("2-35", "pit-0") not in {(k.from_, k.to) for k in track.links}
    saved = tmp_path / "entry.json"
    assert window.save_as(saved)
    assert _duplicate_links(saved) == []


def test_the_arrow_tool_takes_one_copy_of_a_move_listed_twice(  # type: ignore[no-untyped-def]
    window, qtbot, tmp_path: Path
) -> None:
    """A file written by an editor that listed pit-1 -> pit-2 twice: one Arrow click cleans it
    and the move stays; a second click removes the move."""

    def list_twice(document):  # type: ignore[no-untyped-def]
        document["links"].append({"from": "pit-1", "to": "pit-2"})

    path = tmp_path / "twice.json"
    save_track(edit(ring(), list_twice), path)
    assert len(_duplicate_links(path)) == 1
    window.open_path(path)
    window.view.fit()
    window.choose_tool("Arrow")
    viewport = window.view.viewport()

    def click_arrow() -> None:
        qtbot.mouseClick(viewport, LEFT, pos=_space_point(window, "pit-1"))
        qtbot.mouseClick(viewport, LEFT, pos=_space_point(window, "pit-2"))

    click_arrow()
    assert _listings(window.document.track)[("pit-1", "pit-2")] == 1
    assert "removed one copy, the move stays listed once" in window.status_label.text()
    saved = tmp_path / "cleaned.json"
    assert window.save_as(saved)
    assert _duplicate_links(saved) == []
    assert ("pit-1", "pit-2") in {(k.from_, k.to) for k in load_track(saved).links}

    click_arrow()
    assert _listings(window.document.track)[("pit-1", "pit-2")] == 0
    assert "Removed link pit-1 -> pit-2" in window.status_label.text()
    window.document.undo_stack.undo()
    assert _listings(window.document.track)[("pit-1", "pit-2")] == 1
