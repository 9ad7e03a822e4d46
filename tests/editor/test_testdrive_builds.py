"""The test-drive panel's builds (building your car) and team race: typed in the settings as on
the command line, refused with its words when wrong, shown per build in the results, and
replayed as the batch raced them."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QTextTable
from PySide6.QtWidgets import QApplication

from editor.panels import testdrive as drive_panel
from editor.panels.testdrive_report import BUILD_COLUMNS
from trackformat.sim.batch.compare import with_interval

pytestmark = pytest.mark.usefixtures("compiled_kernel")

TEN_TYRES = "tyres=10,brakes=2,gearbox=2,body=2,engine=2,suspension=2"
FRAIL = "tyres=14,brakes=1,gearbox=1,body=1,engine=1,suspension=2"
"""All on tyres: a car that stops rarely and breaks easily."""


def _panel(window) -> drive_panel.TestDrivePanel:  # type: ignore[no-untyped-def]
    panel = window.testdrive_dock.widget()
    assert isinstance(panel, drive_panel.TestDrivePanel)
    return panel


def _line_up(panel: drive_panel.TestDrivePanel, qtbot, builds: str, races: int = 4,  # type: ignore[no-untyped-def]
             ) -> None:
    """Four cars, random and cautious in turn, with ``builds`` typed in as a designer does."""
    panel.bots.setText("random,cautious")
    panel.cars.setValue(4)
    panel.races.setValue(races)
    panel.seed.setValue(7)
    field = panel.settings.builds
    field.clear()
    qtbot.keyClicks(field, builds)


def _run(panel: drive_panel.TestDrivePanel, qtbot) -> dict:  # type: ignore[no-untyped-def,type-arg]
    assert panel.start(), panel.status.text()
    qtbot.waitUntil(lambda: not panel.running(), timeout=60_000)
    assert panel.report is not None, panel.status.text()
    return panel.report


def _shown_table(panel: drive_panel.TestDrivePanel) -> list[list[str]]:
    """The cells of the table in the results' summary, as they read on screen."""
    [table] = [f for f in panel.view.document().rootFrame().childFrames()
               if isinstance(f, QTextTable)]
    return [[table.cellAt(row, column).firstCursorPosition().block().text()
             for column in range(table.columns())] for row in range(table.rows())]


def test_builds_typed_in_the_panel_are_raced_and_shown_per_build(  # type: ignore[no-untyped-def]
        window, ring_file: Path, qtbot) -> None:
    window.open_path(ring_file)
    panel = _panel(window)
    _line_up(panel, qtbot, f"{FRAIL};standard")
    assert not panel.settings.build_problem.isVisibleTo(panel)
    report = _run(panel, qtbot)
    assert report["builds"] == [FRAIL, "standard", FRAIL, "standard"]
    rows = _shown_table(panel)
    assert rows[0] == list(BUILD_COLUMNS)
    expected = []
    for build in (FRAIL, "standard"):
        row = report["by_build"][build]
        expected.append([build.replace(",", ", "), str(row["cars"]), str(row["finished"]),
                         with_interval(row["finish_rate"], row["finish_rate_ci"]),
                         f"{row['wins']}, "
                         f"{with_interval(row['winner_share'], row['winner_share_ci'])}"])
    assert rows[1:] == expected
    assert report["by_build"]["standard"]["cars"] == 8
    assert report["by_build"][FRAIL]["finished"] < report["by_build"]["standard"]["finished"], (
        "the frail build breaks more often: the cars raced with their builds")
    assert "team repairs" not in panel.view.toPlainText()


def test_without_builds_the_summary_has_no_build_table(window, ring_file: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window.open_path(ring_file)
    panel = _panel(window)
    _line_up(panel, qtbot, "", races=2)
    report = _run(panel, qtbot)
    assert "by_build" not in report or not report["by_build"]
    assert "By build" not in panel.view.toPlainText()
    assert not [f for f in panel.view.document().rootFrame().childFrames()
                if isinstance(f, QTextTable)]


def test_a_bad_build_is_said_under_the_field_and_nothing_races(  # type: ignore[no-untyped-def]
        window, ring_file: Path, qtbot) -> None:
    window.open_path(ring_file)
    panel = _panel(window)
    _line_up(panel, qtbot, "tyres=15,brakes=1,gearbox=1,body=1,engine=1,suspension=1")
    message = "car 1's build gives tyres 15: tyres take 1 to 14"
    problem = panel.settings.build_problem
    assert problem.text() == message and problem.isVisibleTo(panel)
    assert not panel.start()
    assert not panel.running() and panel.report is None
    assert panel.status.text() == message
    assert panel.run_button.isEnabled()

    # A name the rules do not know, the command line's words again; then a good build.
    panel.settings.builds.clear()
    qtbot.keyClicks(panel.settings.builds, "standard;wet")
    assert problem.text().startswith("car 2's build: no build named 'wet'")
    panel.settings.builds.clear()
    qtbot.keyClicks(panel.settings.builds, TEN_TYRES)
    assert problem.text() == "" and not problem.isVisibleTo(panel)


def test_the_basic_rules_refuse_a_build_by_name_of_the_rule(window, ring_file: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window.open_path(ring_file)
    panel = _panel(window)
    _line_up(panel, qtbot, TEN_TYRES)
    panel.ruleset.setCurrentText("formule-de-basic")
    assert "no building your car" in panel.settings.build_problem.text()
    assert "only standard" in panel.settings.builds.toolTip()
    assert not panel.start() and not panel.running()
    assert "no building your car" in panel.status.text()


def test_the_builds_tooltip_gives_the_syntax_and_the_limits(window) -> None:  # type: ignore[no-untyped-def]
    tip = _panel(window).settings.builds.toolTip()
    assert "tyres=8,brakes=4,gearbox=2,body=2,engine=2,suspension=2" in tip
    assert "standard" in tip and "';'" in tip
    assert "exactly 20 WP: tyres 1 to 14, brakes 1 to 7" in tip


def test_the_team_race_checkbox_races_with_team_repairs(window, ring_file: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window.open_path(ring_file)
    panel = _panel(window)
    _line_up(panel, qtbot, "", races=2)
    box = panel.settings.team_race
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=QPoint(6, box.height() // 2))
    assert box.isChecked()
    report = _run(panel, qtbot)
    assert report["team_repairs"] == 4
    assert "(formula-d with team repairs (4 WP a team))" in panel.view.toPlainText()

    # The replay races the batch's rules: its teams mend their cars at the pits.
    panel.race_number.setValue(1)
    assert panel.load_replay() and panel.replay is not None
    lines = [line for frame in panel.replay.frames for line in frame.events]
    assert ("Car 1's crew repairs 3 brakes WP, 1 gearbox WP from the team's repair WP; cars "
            "1-2 have no repair WP left") in lines


def test_a_team_race_of_an_odd_number_of_cars_is_refused(window, ring_file: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window.open_path(ring_file)
    panel = _panel(window)
    _line_up(panel, qtbot, "")
    panel.cars.setValue(3)
    panel.settings.team_race.setChecked(True)
    assert not panel.start() and not panel.running()
    assert "3 cars do not make teams of two" in panel.status.text()
    panel.ruleset.setCurrentText("formule-de-basic")
    panel.cars.setValue(4)
    assert not panel.start() and not panel.running()
    assert panel.status.text() == "the formule-de-basic rules have no team race (no team_points)"


def test_the_replay_races_each_car_with_its_build(window, ring_file: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    from editor.replay import record
    from trackformat.rules import load_ruleset
    from trackformat.sim import Board

    window.open_path(ring_file)
    panel = _panel(window)
    _line_up(panel, qtbot, FRAIL, races=2)
    _run(panel, qtbot)
    assert panel.load_replay() and panel.replay is not None
    rules, board = load_ruleset("formula-d"), Board.of(window.document.track)
    spec = panel._spec
    assert spec is not None
    names = {c.id: c.name for c in window.document.track.corners}
    built = record(board, rules, spec.bots, spec.seed, 0, spec.laps, corner_names=names,
                   builds=spec.build_points(rules))
    standard = record(board, rules, spec.bots, spec.seed, 0, spec.laps, corner_names=names)
    assert built.frames != standard.frames, "the builds change this race"
    assert panel.replay.frames == built.frames


def test_builds_and_the_team_race_stay_when_another_track_is_opened(  # type: ignore[no-untyped-def]
        window, ring_file: Path, qtbot) -> None:
    panel = _panel(window)
    _line_up(panel, qtbot, TEN_TYRES)
    panel.settings.team_race.setChecked(True)
    window.open_path(ring_file)
    again = _panel(window)
    assert again is not panel
    assert again.settings.builds.text() == TEN_TYRES and again.settings.team_race.isChecked()


def test_run_stays_in_sight_at_the_default_window_size(window, ring_file: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window.resize(1400, 900)
    window.open_path(ring_file)
    window.testdrive_dock.raise_()
    panel = _panel(window)
    _line_up(panel, qtbot, "tyres=15")  # a long message under the field
    qtbot.waitUntil(lambda: panel.isVisible() and panel.height() > 0)
    QApplication.processEvents()
    assert panel.settings.build_problem.isVisibleTo(panel)
    assert not panel.run_button.visibleRegion().isEmpty(), "Run is in sight, not scrolled away"
    assert not panel.cancel_button.visibleRegion().isEmpty()
    hint = window.minimumSizeHint()
    assert hint.width() <= 1280 and hint.height() <= 700, "the window fits a 1366 x 768 screen"
