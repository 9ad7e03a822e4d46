"""Small things the user saw: the shortcut list taller than the screen, the broken-track dialog's
grammar and its "race anyway" where no race can start, and a replay's cars left on a track
edited since."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QRect, Qt, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox, QPushButton, QTextBrowser, QWidget

from editor import help_menu
from editor.drive_checks import RACE_ANYWAY
from editor.panels import testdrive as drive_panel
from editor.panels.testdrive_replay import STALE
from editor.scene.style import Layer
from tests.factories import drop_links, edit, ring, space
from trackformat.io import save_track
from trackformat.rules import ruleset_from_document


def _when_a_dialog_shows(look: Callable[[QWidget], None]) -> None:
    """Call ``look`` with the modal dialog about to block the test, then close it; a dialog
    left open would hang the test."""
    tries = iter(range(200))

    def poll() -> None:
        dialog = QApplication.activeModalWidget()
        if dialog is None:
            if next(tries, None) is not None:
                QTimer.singleShot(10, poll)
            return
        try:
            look(dialog)
        finally:
            dialog.close()

    QTimer.singleShot(0, poll)


def _panel(window) -> drive_panel.TestDrivePanel:  # type: ignore[no-untyped-def]
    panel = window.testdrive_dock.widget()
    assert isinstance(panel, drive_panel.TestDrivePanel)
    panel.bots.setText("random,cautious")
    panel.cars.setValue(3)
    panel.races.setValue(2)
    return panel


def _open(window, tmp_path: Path, change: Callable[[dict], None]) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "track.json"
    save_track(edit(ring(), change), path)
    assert window.open_path(path)


# F1 --------------------------------------------------------------------------------------------


def test_f1_fits_a_1400_x_900_window_and_the_screen(
    window, qtbot
) -> None:  # type: ignore[no-untyped-def]
    window.resize(1400, 900)
    qtbot.waitUntil(lambda: window.height() == 900, timeout=2000)
    screen = window.screen().availableGeometry()
    seen: dict[str, object] = {}

    def look(dialog: QWidget) -> None:
        text = dialog.findChild(QTextBrowser)
        seen.update(size=dialog.frameGeometry().size(), hint=dialog.sizeHint(),
                    text=text.toPlainText() if text else "",
                    buttons=[b.text().replace("&", "") for b in dialog.findChildren(QPushButton)])

    window.ask = True
    try:
        _when_a_dialog_shows(look)
        window.view.setFocus()
        qtbot.keyClick(window.view, Qt.Key.Key_F1)
    finally:
        window.ask = False
    size, hint = seen["size"], seen["hint"]
    assert size.height() <= min(900, screen.height()), (size, screen)
    assert size.width() <= screen.width() and hint.height() <= screen.height()
    # All of it is there (scrolled to on a small screen), and Close too.
    text = str(seen["text"])
    for tool in window.tools.values():
        assert f"{tool.name}: " in text
    assert "Keyboard shortcuts" in text and "Mouse wheel" in text
    assert seen["buttons"] == ["Close"]


def test_on_a_1920_x_1080_screen_every_shortcut_shows_without_scrolling(
    window, qtbot
) -> None:  # type: ignore[no-untyped-def]
    window.resize(1400, 900)
    qtbot.waitUntil(lambda: window.height() == 900, timeout=2000)
    dialog = help_menu.shortcuts_dialog(window, window.tools.values(), QRect(0, 0, 1920, 1040))
    dialog.show()
    qtbot.waitExposed(dialog)
    text = dialog.findChild(QTextBrowser)
    assert text is not None and text.verticalScrollBar().maximum() == 0
    assert dialog.height() <= 900 and dialog.width() <= 1920
    dialog.close()


# The broken-track dialog -----------------------------------------------------------------------


def test_one_error_is_told_in_the_singular(window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    _open(window, tmp_path, lambda d: d["links"].append({"from": "1-1", "to": "nowhere"}))
    panel = _panel(window)
    asked: list[str] = []
    panel.confirm = lambda text: asked.append(text) or False
    assert not panel.start()
    [warning] = asked
    assert warning.startswith("This track has 1 error that changes where cars can go (REF002)")
    assert "The error: REF002: " in warning
    assert warning.endswith("Fix it first (see Problems), or race anyway?")
    assert panel.status.text().endswith("Fix it first (see Problems).")


def test_the_broken_track_dialog_offers_race_anyway_or_cancel(
    window, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    _open(window, tmp_path, lambda d: drop_links(d, {("1-5", "1-6"), ("1-5", "2-6")}))
    panel = _panel(window)
    seen: dict[str, object] = {}

    def look(dialog: QWidget) -> None:
        assert isinstance(dialog, QMessageBox)
        seen.update(text=dialog.text(),
                    buttons=sorted(b.text().replace("&", "") for b in dialog.buttons()))

    window.ask = True
    try:
        _when_a_dialog_shows(look)
        assert not panel.start(), "closed: not raced"
    finally:
        window.ask = False
    assert seen["buttons"] == sorted([RACE_ANYWAY, "Cancel"])
    assert str(seen["text"]).startswith("This track has 3 errors that change where cars can go")
    assert not panel.running()


def test_a_track_no_race_can_start_on_is_not_offered_a_race(
    window, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    _open(window, tmp_path, lambda d: space(d, "2-18").update(lane=None))  # REF003
    panel = _panel(window)
    asked: list[str] = []
    panel.confirm = lambda text: asked.append(text) or True
    assert not panel.start()
    assert asked == [], "nothing to choose: no race can start"
    said = panel.status.text()
    assert said.startswith("This track has 1 error that changes where cars can go (REF003), "
                           "and no race can start on it: track space 2-18 is in no lane")
    assert "anyway" not in said and said.endswith("Fix it first (see Problems).")
    assert not panel.running()


# The replay ------------------------------------------------------------------------------------


def test_an_edit_takes_the_replay_s_cars_off_the_board(
    window, ring_file: Path, qtbot
) -> None:  # type: ignore[no-untyped-def]
    window.open_path(ring_file)
    panel = _panel(window)
    spec = panel.settings.spec(window.document.track)
    replayer = panel.replayer
    replayer.set_enabled(True)
    replayer.load(window.document.track, ruleset_from_document(spec.ruleset, "rules"), spec)
    panel.slider.setValue(min(3, panel.slider.maximum()))
    cars = window.scene.layer_items[Layer.CARS]
    assert len(cars) == 3 and all(item.scene() is window.scene for item in cars)

    window.choose_tool("Select")
    window.document.set_selection({"1-5"})
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key.Key_Right)  # a nudge: the track is edited
    assert window.document.undo_stack.count() == 1
    assert window.scene.layer_items[Layer.CARS] == []
    assert not any(item.scene() is window.scene for item in cars)
    assert panel.replay is None
    assert [panel.events.item(i).text() for i in range(panel.events.count())] == [STALE]
    assert not panel.slider.isEnabled() and panel.turn_label.text() == ""
    assert panel.replay_button.isEnabled(), "replayed again on the edited track at one click"

    replayer.load(window.document.track, ruleset_from_document(spec.ruleset, "rules"), spec)
    assert panel.slider.isEnabled() and len(window.scene.layer_items[Layer.CARS]) == 3
