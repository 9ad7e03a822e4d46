"""The test-drive panel: a batch in the background, its report, the heatmap, a replay."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from editor.panels import testdrive as drive_panel
from editor.panels import testdrive_report as drive_panel_report
from editor.scene.style import Layer

pytestmark = pytest.mark.usefixtures("compiled_kernel")


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
    assert "Turns per race" in panel.view.toPlainText()
    table = panel.corner_table
    assert [table.cell(row, 0).text() for row in range(table.rowCount())] == ["North", "South"]
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


def _drive(panel: drive_panel.TestDrivePanel, qtbot, bots: str) -> dict:  # type: ignore[no-untyped-def,type-arg]
    panel.bots.setText(bots)
    panel.cars.setValue(3)
    panel.races.setValue(8)
    panel.seed.setValue(0)
    assert panel.start()
    qtbot.waitUntil(lambda: not panel.running(), timeout=60_000)
    assert panel.report is not None
    return panel.report


def test_the_corner_table_gives_rates_with_95_intervals(window, ring_file: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window.open_path(ring_file)
    panel = _panel(window)
    report = _drive(panel, qtbot, "random")
    table = panel.corner_table
    south = report["corners"][1]
    low, high = south["overshoot_rate_ci"]
    assert table.cell(1, 3).text() == (
        f"{100 * south['overshoot_rate']:.1f}% ({100 * low:.1f}-{100 * high:.1f})")
    assert "(" in table.cell(1, 5).text() and "(" in table.cell(1, 6).text()
    assert not panel.unpin_button.isEnabled() and table.cell(1, 8).text() == ""


def test_pin_marks_the_corners_the_next_drive_changed(window, ring_file: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    """Careful drivers never overshoot; wild ones overshoot South most of the time (73% of
    37 entries with seed 0): beyond both intervals. North (14%) stays within them."""
    window.open_path(ring_file)
    panel = _panel(window)
    before = _drive(panel, qtbot, "cautious")
    assert panel.pin_button.isEnabled()
    panel.pin_button.click()
    assert panel.pinned is before and panel.unpin_button.isEnabled()
    table = panel.corner_table
    assert all(table.cell(row, 8).text() == "" for row in range(2)), "nothing changed yet"

    after = _drive(panel, qtbot, "random")
    south = after["corners"][1]
    assert south["overshoot_rate"] > 0.5
    overshoot, since = table.cell(1, 3), table.cell(1, 8)
    assert since.text().startswith(f"overshoots 0.0% -> {100 * south['overshoot_rate']:.1f}%")
    assert overshoot.background().color() == drive_panel_report.ROSE
    assert since.background().color() == drive_panel_report.ROSE
    assert table.cell(1, 0).font().bold()
    north = [table.cell(0, column) for column in range(table.columnCount())]
    assert north[8].text() == "" and not north[0].font().bold()
    assert all(item.background().style() == Qt.BrushStyle.NoBrush for item in north)
    assert "Since the pinned report" in panel.view.toPlainText()
    assert "cars finishing 100.0% ->" in panel.view.toPlainText()

    panel.unpin_button.click()
    assert panel.pinned is None and table.cell(1, 8).text() == ""
    assert table.cell(1, 3).background().style() == Qt.BrushStyle.NoBrush


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


def test_a_run_on_a_cold_kernel_races_at_once_and_says_the_kernel_compiles(  # type: ignore[no-untyped-def]
        window, ring_file: Path, qtbot, monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from trackformat.io.jsonio import dumps_document
    from trackformat.sim.batch import engines
    from trackformat.sim.batch.report import batch_report
    from trackformat.sim.batch.testdrive import prepare, run_batch

    # A cold kernel on two cores, its compile a process that outlasts the batch.
    monkeypatch.setattr(engines, "kernel_is_cached", lambda spec: False)
    monkeypatch.setattr(engines, "cores", lambda: 2)
    monkeypatch.setattr(engines, "_compiling", {})
    monkeypatch.setattr(engines, "compile_command", lambda: [
        sys.executable, "-c", "import sys, time; sys.stdin.read(); time.sleep(120)"])
    window.open_path(ring_file)
    panel = _panel(window)
    _small_batch(panel)
    said: list[str] = []
    panel.said.connect(said.append)
    try:
        assert panel.start()
        qtbot.waitUntil(lambda: not panel.running(), timeout=60_000)
    finally:
        compiling = next(iter(engines._compiling.values()), None)
        assert compiling is not None, "the Run started the kernel's compile"
        compiling.process.kill()
        compiling.process.wait()
    notice = ("compiling the race kernel in a process of its own, once; the reference engine "
              "races meanwhile (the same races)")
    assert f"Test drive: {notice}" in said
    assert f"Test drive: 4 of 4 races; {notice}" in said
    assert panel.report is not None and panel.progress.value() == 4
    assert panel._spec is not None
    reference = prepare(replace(panel._spec, engine="reference"))
    expected = batch_report(run_batch(reference.spec, 4, context=reference), reference)
    assert dumps_document(panel.report) == dumps_document(expected)


def test_a_real_gponline_board_drives_in_the_panel_as_on_the_reference_engine(  # type: ignore[no-untyped-def]
        window, qtbot) -> None:
    from editor import file_commands
    from tests.corpus import corpus_path
    from trackformat.io.jsonio import dumps_document
    from trackformat.sim.batch.report import batch_report
    from trackformat.sim.batch.testdrive import prepare, run_batch

    # A board someone else drew, imported as a designer imports it, then driven from the panel.
    assert file_commands.import_gponline(window, corpus_path("gponline", "montreal.dat"))
    panel = _panel(window)
    panel.bots.setText("strong,cautious,random")
    panel.cars.setValue(6)
    panel.races.setValue(6)
    panel.seed.setValue(3)
    assert panel.start()
    qtbot.waitUntil(lambda: not panel.running(), timeout=120_000)
    assert panel.report is not None and panel._spec is not None
    reference = prepare(replace(panel._spec, engine="reference"))
    expected = batch_report(run_batch(reference.spec, 6, context=reference), reference)
    assert dumps_document(panel.report) == dumps_document(expected)
    table = panel.corner_table
    assert [table.cell(row, 0).text() for row in range(table.rowCount())] == [
        c["name"] for c in expected["corners"]]
    assert table.rowCount() == len(window.document.track.corners) > 0
    panel.heat.setCurrentText("stops")
    stops = {s: n["stops"] for s, n in expected["spaces"].items() if n["stops"]}
    hottest = max(stops, key=lambda s: stops[s])
    fill = window.scene.space_items[hottest].brush().color()
    assert fill.red() == 255 and fill.green() < 20, "the space most stopped on is deep red"


def test_a_house_ruleset_beyond_the_kernel_is_raced_and_the_status_says_why(  # type: ignore[no-untyped-def]
        window, ring_file: Path, qtbot, tmp_path: Path) -> None:
    import json

    from tests.sim.test_kernel_limits import house_rules, long_sixth_gear
    from trackformat.io.jsonio import dumps_document
    from trackformat.sim.batch.report import batch_report
    from trackformat.sim.batch.testdrive import prepare, run_batch

    rules_file = tmp_path / "long-sixth.json"
    rules_file.write_text(json.dumps(house_rules(long_sixth_gear).model_dump(
        mode="json", by_alias=True)))
    window.open_path(ring_file)
    panel = _panel(window)
    _small_batch(panel)
    panel.settings.ruleset.setCurrentText(str(rules_file))
    said: list[str] = []
    panel.said.connect(said.append)
    assert panel.start()
    qtbot.waitUntil(lambda: not panel.running(), timeout=60_000)
    reason = ("the compiled engine keeps moves of at most 48 spaces, and this ruleset's moves "
              "reach 75 (a die face of 72 and 3 slipstream spaces): the reference engine races "
              "instead (the same races, slower)")
    assert f"Test drive: {reason}" in said
    assert panel.report is not None and panel._spec is not None
    reference = prepare(replace(panel._spec, engine="reference"))
    expected = batch_report(run_batch(reference.spec, 4, context=reference), reference)
    assert dumps_document(panel.report) == dumps_document(expected)


def test_a_fault_of_the_engine_is_said_and_the_panel_can_run_again(  # type: ignore[no-untyped-def]
        window, ring_file: Path, qtbot, monkeypatch: pytest.MonkeyPatch) -> None:
    from editor.panels import testdrive_job

    def broken(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise KeyError("1-0")

    window.open_path(ring_file)
    panel = _panel(window)
    _small_batch(panel)
    monkeypatch.setattr(testdrive_job, "run_batch", broken)
    assert panel.start()
    qtbot.waitUntil(lambda: not panel.running(), timeout=60_000)
    assert window.status_label.text().startswith(
        "Test drive: the race engine failed: KeyError: '1-0'"), window.status_label.text()
    assert panel.run_button.isEnabled()
    monkeypatch.undo()
    assert panel.start()
    qtbot.waitUntil(lambda: not panel.running(), timeout=60_000)
    assert panel.report is not None and panel.report["races"] == 4


def test_a_track_space_in_no_lane_is_said_before_racing(  # type: ignore[no-untyped-def]
        window, tmp_path: Path, qtbot) -> None:
    from tests.factories import edit, ring
    from trackformat.io import save_track

    def unlaned(document):  # type: ignore[no-untyped-def]
        next(s for s in document["spaces"] if s["id"] == "2-18")["lane"] = None

    path = tmp_path / "unlaned.json"
    save_track(edit(ring(), unlaned), path)
    window.open_path(path)
    panel = _panel(window)
    panel.bots.setText("strong")
    panel.cars.setValue(3)
    panel.races.setValue(2)
    asked: list[str] = []
    panel.confirm = lambda text: asked.append(text) or True
    assert not panel.start(), "no race can start: there is nothing to race anyway"
    assert asked == [] and not panel.running() and panel.report is None
    assert window.status_label.text() == (
        "Test drive: This track has 1 error that changes where cars can go (REF003), and no "
        "race can start on it: track space 2-18 is in no lane, and cars can move onto it: lane "
        "changes, slipstreams and contacts are all read by lane, so every track space needs one "
        "(see REF003). Fix it first (see Problems).")
