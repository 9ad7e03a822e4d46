"""The test-drive panel: a batch in the background, its report, the heatmap, a replay."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QApplication

from editor.panels import testdrive as drive_panel
from editor.scene.style import Layer


def _panel(window) -> drive_panel.TestDrivePanel:  # type: ignore[no-untyped-def]
    panel = window.testdrive_dock.widget()
    assert isinstance(panel, drive_panel.TestDrivePanel)
    return panel


def _small_batch(panel: drive_panel.TestDrivePanel, races: int = 4) -> None:
    panel.bots.setText("random,cautious")
    panel.cars.setValue(3)
    panel.races.setValue(races)
    panel.seed.setValue(7)


def test_a_batch_runs_in_the_background_and_reports(window, ring_file: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window.open_path(ring_file)
    panel = _panel(window)
    _small_batch(panel)
    assert panel.start()
    assert panel.running() and not panel.run_button.isEnabled()
    qtbot.waitUntil(lambda: not panel.running(), timeout=60_000)
    report = panel.report
    assert report is not None and report["races"] == 4 and report["cars"] == 3
    assert set(report["winner_share"]) == {"random", "cautious"}
    assert "North" in panel.view.toPlainText() and "Turns per race" in panel.view.toPlainText()
    assert panel.progress.value() == 4


def test_heatmap_and_replay_show_on_the_board(window, ring_file: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window.open_path(ring_file)
    panel = _panel(window)
    _small_batch(panel)
    panel.start()
    qtbot.waitUntil(lambda: not panel.running(), timeout=60_000)
    panel.heat.setCurrentText("stops")
    painted = [i for i in window.scene.space_items.values() if i.heat is not None]
    assert painted, "spaces where cars stopped are tinted"
    panel.heat.setCurrentText("none")
    assert all(i.heat is None for i in window.scene.space_items.values())

    assert panel.load_replay()
    assert panel.replay is not None and len(panel.replay.frames) > 3
    cars = window.scene.layer_items[Layer.CARS]
    assert len(cars) == 3
    first = [c.pos() for c in cars]
    panel.forward.click()
    panel.forward.click()
    QApplication.processEvents()
    moved = window.scene.layer_items[Layer.CARS]
    assert [c.pos() for c in moved] != first
    assert panel.turn_label.text().startswith("turn 2")
    panel.back.click()
    assert panel.turn_label.text().startswith("turn 1")


def test_cancel_stops_a_long_batch(window, ring_file: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window.open_path(ring_file)
    panel = _panel(window)
    _small_batch(panel, races=5000)
    panel.start()
    qtbot.waitUntil(lambda: panel.progress.value() > 0, timeout=60_000)
    panel.cancel()
    qtbot.waitUntil(lambda: not panel.running(), timeout=60_000)
    assert panel.status.text() == "cancelled" and panel.report is None


def test_bad_settings_are_explained(window, ring_file: Path) -> None:  # type: ignore[no-untyped-def]
    window.open_path(ring_file)
    panel = _panel(window)
    panel.bots.setText("nobody")
    assert not panel.start()
    assert "unknown bot 'nobody'" in panel.status.text()
    panel.bots.setText("random")
    panel.ruleset.setCurrentText("/no/such/rules.json")
    assert not panel.start()
    assert "rules.json" in panel.status.text()


def test_report_html_escapes_names() -> None:
    report = {
        "track": "<b>",
        "races": 1,
        "cars": 1,
        "laps": 1,
        "ruleset": "r",
        "turns": {"per_race": {"mean": 1, "median": 1, "p90": 1}},
        "finish_rate": 1.0,
        "dnf": {},
        "winner_share": {"random": 1.0},
        "corners": [],
    }
    assert "&lt;b&gt;" in drive_panel.report_html(report)


def test_a_broken_track_is_warned_about_before_racing(window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from tests.factories import drop_links, edit, ring
    from trackformat.io import save_track

    path = tmp_path / "cut.json"
    save_track(edit(ring(), lambda d: drop_links(d, {("1-5", "1-6"), ("1-5", "2-6")})), path)
    window.open_path(path)
    panel = _panel(window)
    _small_batch(panel)
    asked: list[str] = []
    panel.confirm = lambda text: asked.append(text) or False
    assert not panel.start()
    assert not panel.running()
    [warning] = asked
    assert "REACH003" in warning and "would mean nothing" in warning
    assert "REACH003" in panel.status.text()
    panel.confirm = lambda text: True
    assert panel.start(), "the designer may race anyway"
    panel.cancel()


def test_the_editor_and_the_command_line_drive_with_the_same_defaults(window) -> None:  # type: ignore[no-untyped-def]
    from trackformat.cli import build_parser

    args = build_parser().parse_args(["testdrive", "track.json"])
    panel = _panel(window)
    assert panel.bots.text() == args.bot == "strong"
    assert panel.races.value() == args.races
    assert panel.seed.value() == args.seed
    assert panel.cars.value() == args.cars


def test_why_a_drive_cannot_start_is_said_in_the_status_bar(
    window, ring_file: Path, qtbot
) -> None:  # type: ignore[no-untyped-def]
    window.open_path(ring_file)
    window.document.edit("No grid", lambda t: t.model_copy(update={"grid": []}))
    panel = _panel(window)
    _small_batch(panel)
    panel.start()
    qtbot.waitUntil(lambda: not panel.running(), timeout=60_000)
    assert panel.report is None
    text = window.status_label.text()
    assert text.startswith("Test drive: ") and "grid" in text, text


def test_the_drive_settings_stay_when_another_track_is_opened(
    window, ring_file: Path
) -> None:  # type: ignore[no-untyped-def]
    panel = _panel(window)
    _small_batch(panel, races=12)
    window.open_path(ring_file)
    again = _panel(window)
    assert again is not panel
    assert (again.bots.text(), again.cars.value(), again.races.value(), again.seed.value()) == (
        "random,cautious", 3, 12, 7
    )
