"""A warning the board prints as it is (a traced draft's thick printed line between two spaces,
say) is accepted from the problems panel: the track's ignore list keeps it with the reason typed,
the panel no longer lists it and counts it as ignored, the saved file holds it, and Undo brings
it back. An error cannot be accepted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from editor import accept_problem
from tests.editor.hand import checked, shown_problems
from tests.factories import edit, ring
from trackformat.io import save_track


def _open(window, qtbot, tmp_path: Path, *links: tuple[str, str]) -> Path:  # type: ignore[no-untyped-def]
    def add(document):  # type: ignore[no-untyped-def]
        document["links"] += [{"from": a, "to": b} for a, b in links]
    path = tmp_path / "odd.json"
    save_track(edit(ring(), add), path)
    window.open_path(path)
    qtbot.waitUntil(lambda: checked(window), timeout=10000)
    return path


def _click_row(window, qtbot, code: str) -> None:  # type: ignore[no-untyped-def]
    panel = window.problems
    row = next(r for r in range(panel.rows()) if panel.diagnostic_at(r).code == code)
    rect = panel.view.visualRect(panel.proxy.index(row, 2))
    qtbot.mouseClick(panel.view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())


def test_a_warning_accepted_is_kept_in_the_file_and_left_out_of_the_list(  # type: ignore[no-untyped-def]
        window, qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _open(window, qtbot, tmp_path, ("1-5", "1-9"))
    before = [p[1] for p in shown_problems(window)]
    assert "GEOM003" in before
    asked: list[str] = []

    def answer(parent, title, text):  # type: ignore[no-untyped-def]
        asked.append(text)
        return "the board prints it so", True
    monkeypatch.setattr(accept_problem.QInputDialog, "getText", answer)

    _click_row(window, qtbot, "GEOM003")
    assert window.problems.accept_button.isEnabled()
    qtbot.mouseClick(window.problems.accept_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: checked(window), timeout=10000)
    assert "1-5, 1-9" in asked[0]
    assert [p[1] for p in shown_problems(window)] == [c for c in before if c != "GEOM003"]
    assert "1 ignored" in window.problems.summary.text()

    window.save()
    saved = json.loads(path.read_text())
    assert saved["ignore"] == [{"code": "GEOM003", "elements": ["1-5", "1-9"],
                                "reason": "the board prints it so"}]
    window.undo_action.trigger()
    qtbot.waitUntil(lambda: checked(window), timeout=10000)
    assert [p[1] for p in shown_problems(window)] == before


def test_an_error_cannot_be_accepted(window, qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    _open(window, qtbot, tmp_path, ("1-20", "3-21"))
    _click_row(window, qtbot, "LAP002")
    assert window.problems.current().severity.value == "error"
    assert not window.problems.accept_button.isEnabled()
    assert not window.problems.accept_action.isEnabled()
