"""Live test drives: with Live on, every edit races the edited track again in a worker process,
and the corner table and the heatmap show the figures as they come; a newer edit drops the
batch being raced; a track that cannot be raced is not, and the panel says why."""

from __future__ import annotations

import dataclasses
import queue
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt, QTimer

from editor.edits import update_corners
from editor.panels import live_worker
from editor.panels import testdrive as drive_panel
from editor.panels import testdrive_report as drive_panel_report
from editor.scene.labels import heat_colour
from tests.factories import drop_links, edit, ring
from trackformat.rules import load_ruleset
from trackformat.sim.batch.report import batch_report
from trackformat.sim.batch.testdrive import DriveSpec, prepare, run_batch

pytestmark = pytest.mark.usefixtures("compiled_kernel")

WAIT = 60_000
"""Milliseconds a test waits for the worker process (it starts cold in each test)."""


def _panel(window) -> drive_panel.TestDrivePanel:  # type: ignore[no-untyped-def]
    panel = window.testdrive_dock.widget()
    assert isinstance(panel, drive_panel.TestDrivePanel)
    return panel


def _go_live(window, ring_file: Path, races: int) -> drive_panel.TestDrivePanel:  # type: ignore[no-untyped-def]
    """The ring open, one lap a race, Live on with ``races`` races a batch."""
    window.open_path(ring_file)
    panel = _panel(window)
    panel.laps.setValue(1)
    panel.settings.live_races.setValue(races)
    panel.settings.live.setChecked(True)
    return panel


def _names(panel: drive_panel.TestDrivePanel) -> list[str]:
    table = panel.corner_table
    return [table.cell(row, 0).text() for row in range(table.rowCount())]


def _finished(panel: drive_panel.TestDrivePanel, races: int) -> bool:
    return panel.status.text() == f"live: {races} races done"


def _rename_north(window, name: str) -> None:  # type: ignore[no-untyped-def]
    assert window.document.edit("Rename", lambda t: update_corners(t, {"north"}, name=name))


def test_an_edit_races_again_and_the_table_and_heatmap_show_it(
    window, ring_file: Path, qtbot
) -> None:  # type: ignore[no-untyped-def]
    panel = _go_live(window, ring_file, races=3)
    said: list[str] = []
    panel.said.connect(said.append)
    panel.heat.setCurrentText("stops")
    qtbot.waitUntil(lambda: _finished(panel, 3), timeout=WAIT)
    assert _names(panel) == ["North", "South"], "switching Live on races the track as it is"

    seen: set[tuple[str, str]] = set()
    timer = QTimer()  # what the UI shows whenever its event loop gets to run
    timer.timeout.connect(lambda: seen.add((panel.status.text(),
                                            panel.corner_table.cell(1, 1).text())))
    timer.start(5)
    assert window.document.edit("Stops", lambda t: update_corners(t, {"south"}, stops=3))
    assert panel.corner_table.cell(1, 1).text() == "2", "the edit returns before any race"
    qtbot.waitUntil(lambda: panel.corner_table.cell(1, 1).text() == "3", timeout=WAIT)
    timer.stop()
    assert ("live: racing 3 races...", "2") in seen, "the UI ran on while the edit was raced"
    qtbot.waitUntil(lambda: _finished(panel, 3), timeout=WAIT)
    assert "Test drive: live: 1 of 3 races" in said, "the figures come chunk by chunk"
    assert panel.progress.text() == "3 of 3 races"

    report = panel.report
    assert report is not None and report["races"] == 3 and report["cars"] == 10
    assert report["bots"] == ["strong"] * 10, "a full grid of strong drivers"
    south = report["corners"][1]
    assert south["stops"] == 3
    low, high = south["overshoot_rate_ci"]
    assert panel.corner_table.cell(1, 3).text() == (
        f"{100 * south['overshoot_rate']:.1f}% ({100 * low:.1f}-{100 * high:.1f})"
    )
    stops = {space: counts["stops"] for space, counts in report["spaces"].items()
             if counts["stops"]}
    most = max(stops.values())
    brushes = {space: item.brush().color() for space, item in window.scene.space_items.items()
               if item.heat is not None}
    assert brushes == {space: heat_colour(n / most) for space, n in stops.items()}, (
        "the board is painted with the edited track's batch")


def test_a_newer_edit_drops_the_batch_being_raced(window, ring_file: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    """Batches of 10,000 races, so that the first is still racing at the second edit."""
    panel = _go_live(window, ring_file, races=10_000)
    qtbot.waitUntil(lambda: "of 10000 races" in panel.status.text(), timeout=WAIT)
    _rename_north(window, "First")
    qtbot.waitUntil(lambda: _names(panel)[0] == "First", timeout=WAIT)
    live = panel.live_drive
    assert live is not None and live.running()
    racing = live.processes()[0]

    shown: list[tuple[str, int]] = []
    panel.liveShown.connect(lambda done, _total: shown.append((_names(panel)[0], done)))
    _rename_north(window, "Second")
    assert racing not in live.processes(), "the edit stopped the batch racing the old track"
    qtbot.waitUntil(lambda: not racing.is_alive(), timeout=WAIT)
    qtbot.waitUntil(lambda: len(shown) >= 3, timeout=WAIT)
    assert [name for name, _ in shown] == ["Second"] * len(shown), shown
    assert shown[0][1] == 1, "the new batch starts from its first race"
    assert "of 10000 races" in panel.status.text()

    panel.settings.live.setChecked(False)
    assert panel.live_drive is None and panel.status.text() == "live off"
    before = list(shown)
    qtbot.wait(300)
    assert shown == before, "Live off: nothing more comes"


def test_an_unraceable_edit_says_why_and_races_nothing(window, ring_file: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    panel = _go_live(window, ring_file, races=2)
    asked: list[str] = []
    panel.confirm = lambda text: asked.append(text) or True
    qtbot.waitUntil(lambda: _finished(panel, 2), timeout=WAIT)
    shown: list[int] = []
    panel.liveShown.connect(lambda done, _total: shown.append(done))

    cut = {("1-5", "1-6"), ("1-5", "2-6")}
    assert window.document.edit("Cut", lambda t: edit(t, lambda d: drop_links(d, cut)))
    qtbot.waitUntil(lambda: "not raced" in panel.status.text(), timeout=WAIT)
    status = panel.status.text()
    assert status == ("live: not raced: 3 errors change where cars can go (REACH002, REACH003, "
                      "REACH004); see Problems")
    assert panel.live_drive is not None and not panel.live_drive.running()

    assert window.document.edit("No grid", lambda t: t.model_copy(update={"grid": []}))
    qtbot.waitUntil(lambda: "grid" in panel.status.text(), timeout=WAIT)
    assert panel.status.text() == (
        "live: not raced: the track has no grid: place the grid to race it"
    )
    assert window.status_label.text() == f"Test drive: {panel.status.text()}"
    qtbot.wait(300)
    assert shown == [] and asked == [], "nothing raced, and no dialog"
    assert _names(panel) == ["North", "South"], "the last figures stay until a race is possible"

    window.document.undo_stack.undo()
    window.document.undo_stack.undo()
    qtbot.waitUntil(lambda: _finished(panel, 2), timeout=WAIT)
    assert shown[-1] == 2, "the next edit races again"


def test_run_and_live_take_turns(window, ring_file: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    """Run stops the live batch; with Live on, an edit stops a Run batch racing the track as it
    was, and the edited track is raced live."""
    panel = _go_live(window, ring_file, races=2)
    qtbot.waitUntil(lambda: _finished(panel, 2), timeout=WAIT)
    panel.bots.setText("random")
    panel.races.setValue(5000)
    assert panel.start()
    assert panel.live_drive is not None and not panel.live_drive.running()
    qtbot.waitUntil(lambda: panel.progress.value() > 0, timeout=WAIT)

    _rename_north(window, "After")
    qtbot.waitUntil(lambda: not panel.running(), timeout=WAIT)
    qtbot.waitUntil(lambda: _finished(panel, 2), timeout=WAIT)
    assert _names(panel) == ["After", "South"]
    assert panel.report is not None and panel.report["bots"] == ["strong"] * 10


def test_live_off_does_nothing_on_edit(window, ring_file: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window.open_path(ring_file)
    panel = _panel(window)
    assert not panel.settings.live.isChecked()
    _rename_north(window, "Nord")
    qtbot.wait(300)
    assert panel.live_drive is None and panel.report is None
    assert panel.status.text() == "" and panel.corner_table.rowCount() == 0


def test_pinned_figures_are_compared_with_the_live_ones(window, ring_file: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    """Strong drivers overshoot South (2 stops) almost every time; asked for one stop, they
    overshoot it less than half the time: beyond both intervals, even in 6 races."""
    panel = _go_live(window, ring_file, races=6)
    qtbot.waitUntil(lambda: _finished(panel, 6), timeout=WAIT)
    panel.pin_button.click()
    assert panel.pin_label.text() == "pinned: 6 races"
    before = panel.report
    assert before is not None and before["corners"][1]["overshoot_rate"] > 0.9

    assert window.document.edit("Stops", lambda t: update_corners(t, {"south"}, stops=1))
    qtbot.waitUntil(lambda: panel.corner_table.cell(1, 1).text() == "1", timeout=WAIT)
    qtbot.waitUntil(lambda: _finished(panel, 6), timeout=WAIT)
    after = panel.report
    assert after is not None
    table = panel.corner_table
    was, now = (r["corners"][1]["overshoot_rate"] for r in (before, after))
    assert table.cell(1, 8).text() == f"overshoots {100 * was:.1f}% -> {100 * now:.1f}%"
    assert table.cell(1, 3).background().color() == drive_panel_report.FELL
    assert table.cell(1, 0).font().bold()
    assert table.cell(0, 8).text() == ""
    assert table.cell(0, 3).background().style() == Qt.BrushStyle.NoBrush


def test_live_stays_on_for_the_next_track_and_ends_with_the_window(
    window, ring_file: Path, qtbot
) -> None:  # type: ignore[no-untyped-def]
    panel = _go_live(window, ring_file, races=1)
    qtbot.waitUntil(lambda: _finished(panel, 1), timeout=WAIT)
    assert panel.live_drive is not None
    first = panel.live_drive.processes()
    assert first and all(p.is_alive() for p in first)
    window.open_path(ring_file)
    again = _panel(window)
    assert again is not panel and again.settings.live.isChecked()
    assert again.settings.live_races.value() == 1
    assert not any(p.is_alive() for p in first), "the old panel's processes ended"
    qtbot.waitUntil(lambda: _finished(again, 1), timeout=WAIT)
    assert again.live_drive is not None
    processes = again.live_drive.processes()
    assert len(processes) == 2, "the one that raced, and a spare for the next edit"
    window.unsaved_answer = "discard"
    window.close()
    assert not any(p.is_alive() for p in processes), "closing the window ends them"


# The worker's side, without the editor --------------------------------------------------------


def _spec() -> DriveSpec:
    return DriveSpec.of(ring(), load_ruleset("formula-d"), ("strong",) * 4, 3, laps=1)


def test_the_last_live_report_is_the_report_of_one_batch(monkeypatch: pytest.MonkeyPatch) -> None:
    """Races cut in growing chunks (1, 2, 4) give the report of the same races run in
    ``run_batch``'s own chunks: every race keeps its seed, and the counts merge exactly."""
    monkeypatch.setattr(live_worker, "CHUNK_SECONDS", 1e9)  # always grow
    spec = _spec()
    sent: list[Any] = []
    assert live_worker.race(live_worker.LiveRequest(5, spec, 7), queue.Queue(), sent.append) is None
    assert [(a.generation, a.done, a.total) for a in sent] == [(5, 1, 7), (5, 3, 7), (5, 7, 7)]
    context = prepare(spec)
    assert sent[-1].report == batch_report(run_batch(spec, 7, context=context), context)


def test_a_newer_message_stops_the_batch_between_chunks() -> None:
    inbox: queue.Queue[Any] = queue.Queue()
    newer = live_worker.LiveRequest(2, _spec(), 5)
    sent: list[Any] = []

    def send(answer: Any) -> None:
        sent.append(answer)
        inbox.put(live_worker.STOP)
        inbox.put(newer)  # the last message waiting is the one that counts

    assert live_worker.race(live_worker.LiveRequest(1, _spec(), 50), inbox, send) is newer
    assert [(a.generation, a.done) for a in sent] == [(1, 1)]


def test_a_race_that_cannot_start_is_refused_with_the_reason() -> None:
    spec = dataclasses.replace(_spec(), laps=0)
    sent: list[Any] = []
    assert live_worker.race(live_worker.LiveRequest(3, spec, 5), queue.Queue(), sent.append) is None
    assert sent == [live_worker.LiveRefused(3, "a race needs at least one lap, not 0")]


def test_a_cold_kernel_is_said_while_the_reference_engine_races_live(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from trackformat.sim.batch import engines

    monkeypatch.setattr(engines, "kernel_is_cached", lambda spec: False)
    monkeypatch.setattr(engines, "cores", lambda: 2)
    monkeypatch.setattr(engines, "_compiling", {})
    monkeypatch.setattr(engines, "compile_command", lambda: [
        sys.executable, "-c", "import sys, time; sys.stdin.read(); time.sleep(60)"])
    sent: list[Any] = []
    try:
        assert live_worker.race(live_worker.LiveRequest(4, _spec(), 3), queue.Queue(),
                                sent.append) is None
    finally:
        compiling = next(iter(engines._compiling.values()), None)
        assert compiling is not None
        compiling.process.kill()
        compiling.process.wait()
    assert sent[0] == live_worker.LiveNotice(
        4, "compiling the race kernel in a process of its own, once; the reference engine "
           "races meanwhile (the same races)")
    assert all(isinstance(a, live_worker.LiveReport) for a in sent[1:]) and sent[-1].done == 3
    reference = prepare(dataclasses.replace(_spec(), engine="reference"))
    assert sent[-1].report == batch_report(run_batch(reference.spec, 3, context=reference),
                                           reference)


def test_the_panel_shows_what_the_engines_say_live(window, ring_file: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    panel = _go_live(window, ring_file, races=2)
    qtbot.waitUntil(lambda: _finished(panel, 2), timeout=WAIT)
    assert panel.live_drive is not None
    panel.live_drive.noticed.emit("the race kernel is being compiled by another process")
    assert panel.status.text() == "live: the race kernel is being compiled by another process"
    assert window.status_label.text() == f"Test drive: {panel.status.text()}"
