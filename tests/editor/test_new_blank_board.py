"""File > New blank board: a circuit started with no picture, on a board of a chosen size."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QKeySequence
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from editor.new_board import PRESETS, BlankBoard, BlankBoardDialog
from trackformat.io import load_track


def _file_action(window, text: str):  # type: ignore[no-untyped-def]
    file_menu = window.menuBar().actions()[0].menu()
    return next(a for a in file_menu.actions() if a.text() == text)


def test_ctrl_n_is_a_blank_board_and_the_picture_one_has_its_own_key(window) -> None:  # type: ignore[no-untyped-def]
    blank = _file_action(window, "New blank board...")
    pictured = _file_action(window, "New from board picture...")
    assert blank.shortcut() == QKeySequence(QKeySequence.StandardKey.New)
    assert pictured.shortcut() == QKeySequence("Ctrl+Shift+N")


def test_the_dialog_offers_the_printed_sizes_and_takes_a_typed_one(qtbot) -> None:  # type: ignore[no-untyped-def]
    dialog = BlankBoardDialog()
    qtbot.addWidget(dialog)
    assert dialog.board() == BlankBoard("New circuit", *next(iter(PRESETS.values())))
    dialog.preset.setCurrentText(list(PRESETS)[2])
    assert (dialog.width_box.value(), dialog.height_box.value()) == list(PRESETS.values())[2]
    dialog.name.selectAll()
    QTest.keyClicks(dialog.name, "Loop of the Lakes")
    dialog.width_box.setValue(2500)
    assert dialog.preset.currentText() == "Other size"
    assert dialog.board() == BlankBoard("Loop of the Lakes", 2500, list(PRESETS.values())[2][1])


def test_a_blank_board_from_the_menu_opens_empty_and_saves(
        window, qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    window.ask = True  # the menu asks for the board, as it does for a user

    def fill_in() -> None:
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, BlankBoardDialog)
        dialog.name.setText("Small Loop")
        dialog.preset.setCurrentText(list(PRESETS)[1])
        QTest.keyClick(dialog, Qt.Key.Key_Return)

    QTimer.singleShot(0, fill_in)
    _file_action(window, "New blank board...").trigger()
    track = window.document.track
    width, height = list(PRESETS.values())[1]
    assert (track.metadata.name, track.board.width, track.board.height) == ("Small Loop", width,
                                                                            height)
    assert track.spaces == [] and track.board.image is None
    assert window.scene.board_rect().width() == width
    assert "lay the road with the Lanes tool (N)" in window.status_label.text()
    assert window.windowTitle().startswith("untitled - Small Loop")
    window.ask = False
    out = tmp_path / "small-loop.json"
    assert window.save_as(out)
    saved = load_track(out)
    assert (saved.board.width, saved.board.height) == (width, height)
