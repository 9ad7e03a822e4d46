"""The editor's questions name their answers, Enter takes the safe one, Cancel is always there."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMessageBox

from editor import file_commands


def _answer(then: str) -> list[list[str]]:
    """Answer the next question by pressing Enter, or by clicking the button labelled
    ``then``; the labels of the buttons it showed."""
    shown: list[list[str]] = []

    def press() -> None:
        box = QApplication.activeModalWidget()
        assert isinstance(box, QMessageBox)
        shown.append([button.text() for button in box.buttons()])
        if then == "Enter":
            QTest.keyClick(box, Qt.Key.Key_Return)
        else:
            next(b for b in box.buttons() if b.text() == then).click()

    QTimer.singleShot(0, press)
    return shown


def test_saving_over_a_file_changed_on_disk_offers_named_answers(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "ring.json"
    shown = _answer("Enter")
    assert file_commands.ask_overwrite_changed(None, path) == file_commands.SAVE_ELSEWHERE
    assert sorted(shown[0]) == sorted(["Overwrite", "Save as...", "Cancel"])
    _answer("Overwrite")
    assert file_commands.ask_overwrite_changed(None, path) == file_commands.OVERWRITE
    _answer("Cancel")
    assert file_commands.ask_overwrite_changed(None, path) == file_commands.CANCEL
