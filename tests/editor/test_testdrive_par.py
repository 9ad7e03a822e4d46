"""The test-drive panel's Par: solved in a process of its own on a click, shown on the row above
the summary, set against the par before an edit, read from the cache with no click, and a
track no race can start on said why, in words."""

from __future__ import annotations

import math
import multiprocessing
import os
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from editor import edits
from editor.panels import testdrive as drive_panel
from editor.panels.testdrive_par import ParRow
from editor.panels.testdrive_par_solve import par_text
from tests.par.rings import short_ring, small_rules
from trackformat.io import save_track
from trackformat.model import Track
from trackformat.par import cached_par, par_report
from trackformat.rules import load_ruleset
from trackformat.sim.kernel.cache import cache_folder

pytestmark = pytest.mark.usefixtures("compiled_kernel")

COMPILED = os.environ.get("NUMBA_CACHE_DIR") or str(cache_folder())
"""Where this test process keeps compiled code, read before any test moves the cache folder."""
SOLVE_MS = 240_000
"""Time given a solve of a short ring: seconds on a quiet machine (a process to start, its
imports, compiled code to load), more on a busy one, a minute or two if par's code compiles
first (a fresh cache, a new version)."""


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Pars kept in the test's own cache folder, by the panel's process too, which finds the
    compiled code where this process keeps it."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", COMPILED)
    folder = tmp_path / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(folder))
    return folder


def par_processes() -> list[multiprocessing.process.BaseProcess]:
    return [p for p in multiprocessing.active_children() if p.name == "par"]


def expected_par(track: Track, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> float:
    """``par_report``'s par of ``track`` (its own laps, the default rules), solved here in a
    cache folder of its own: nothing the panel's process kept."""
    with monkeypatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(tmp_path / "expected"))
        report, cached = par_report(track, load_ruleset(), track.metadata.laps)
    assert not cached
    return float(report["par"])


def open_track(window, track: Track, tmp_path: Path) -> ParRow:  # type: ignore[no-untyped-def]
    path = tmp_path / "track.json"
    save_track(track, path)
    window.resize(1400, 900)  # the editor's own size
    assert window.open_path(path)
    window.testdrive_dock.raise_()
    panel = window.testdrive_dock.widget()
    assert isinstance(panel, drive_panel.TestDrivePanel)
    assert panel.par.button.isVisible() and panel.par.label.isVisible()
    return panel.par


def click_par(row: ParRow, qtbot) -> None:  # type: ignore[no-untyped-def]
    assert row.button.text() == "Par"
    qtbot.mouseClick(row.button, Qt.MouseButton.LeftButton)


def solved(row: ParRow, qtbot) -> str:  # type: ignore[no-untyped-def]
    """The row's text once the solve started by a click has answered."""
    assert row.button.text() == "Stop", "a solve runs in the background: the click is back"
    assert row.label.text().startswith("solving par (2\N{NO-BREAK SPACE}laps)...")
    qtbot.waitUntil(lambda: row.button.text() == "Par", timeout=SOLVE_MS)
    return row.label.text()


def test_a_click_solves_par_in_the_background_and_shows_it(
        window, tmp_path: Path, qtbot, cache: Path,  # type: ignore[no-untyped-def]
        monkeypatch: pytest.MonkeyPatch) -> None:
    track = short_ring()
    expected = expected_par(track, tmp_path, monkeypatch)
    row = open_track(window, track, tmp_path)
    qtbot.waitUntil(lambda: row.label.text() == "par not solved yet", timeout=5_000)
    click_par(row, qtbot)
    assert solved(row, qtbot) == f"par {expected:.2f} turns (2\N{NO-BREAK SPACE}laps)"
    assert f"par {expected:.2f} turns" in window.status_label.text()

    # Kept: the same track opened again shows its par at once, with no click.
    again = open_track(window, track, tmp_path)
    assert again is not row
    qtbot.waitUntil(lambda: again.label.text().startswith("par "), timeout=5_000)
    assert again.label.text() == row.label.text()


def test_after_an_edit_the_row_sets_the_new_par_against_the_old(
        window, tmp_path: Path, qtbot, cache: Path,  # type: ignore[no-untyped-def]
        monkeypatch: pytest.MonkeyPatch) -> None:
    old = expected_par(short_ring(), tmp_path, monkeypatch)
    row = open_track(window, short_ring(), tmp_path)
    click_par(row, qtbot)
    assert solved(row, qtbot).startswith(f"par {old:.2f} turns")

    # The first corner made a two-stop corner, as the inspector's Stops box does it.
    assert window.document.edit("Edit 1 corner(s)",
                                lambda t: edits.update_corners(t, ["one"], stops=2))
    qtbot.waitUntil(lambda: row.label.text().startswith("before the edit: "), timeout=5_000)
    assert f"par {old:.2f} turns" in row.label.text()
    new = expected_par(window.document.track, tmp_path / "edited", monkeypatch)
    assert abs(new - old) > 0.01, "the edit changes the par"

    click_par(row, qtbot)
    text = solved(row, qtbot)
    assert text.startswith(f"par {old:.2f} -> {new:.2f} turns ({new - old:+.2f}, 2")

    # An undo brings back a track already solved: its par, and the change, with no click.
    window.document.undo_stack.undo()
    qtbot.waitUntil(lambda: row.label.text().startswith(f"par {new:.2f} -> {old:.2f} turns"),
                    timeout=5_000)


def test_a_track_no_race_can_start_on_says_why(
        window, tmp_path: Path, qtbot, cache: Path) -> None:  # type: ignore[no-untyped-def]
    row = open_track(window, short_ring().model_copy(update={"grid": []}), tmp_path)
    click_par(row, qtbot)
    assert row.button.text() == "Par" and not par_processes(), "said at once, nothing solved"
    assert row.label.text().startswith("no par: the track has 0 grid slots")
    assert "Traceback" not in row.label.toolTip()
    whole = window.status_label.text()
    assert whole.startswith("Test drive: no par: the track has 0 grid slots")
    assert "cannot start" in whole and "\n" not in whole


def test_the_rows_rules_and_laps_are_the_panels(
        window, tmp_path: Path, qtbot, cache: Path) -> None:  # type: ignore[no-untyped-def]
    # A ring too tight for the small rules' tyres: no line avoids every risk of elimination.
    tight = short_ring(per_lane=16, corners=(("one", 3, 2, 1), ("two", 7, 3, 2),
                                             ("three", 12, 3, 3)))
    rules = tmp_path / "small.json"
    rules.write_text(small_rules().model_dump_json(), encoding="utf-8")
    row = open_track(window, tight, tmp_path)
    panel = window.testdrive_dock.widget()
    panel.ruleset.setCurrentText(str(rules))
    panel.laps.setValue(1)
    click_par(row, qtbot)
    qtbot.waitUntil(lambda: row.button.text() == "Par", timeout=SOLVE_MS)
    assert row.label.text() == "no par (1\N{NO-BREAK SPACE}lap): every line risks elimination"
    assert cached_par(tight, small_rules(), 1) == math.inf

    panel.ruleset.setCurrentText(str(tmp_path / "missing.json"))
    click_par(row, qtbot)
    assert row.label.text().startswith("no par: the rules cannot be read: ")


def test_stop_and_closing_the_window_end_a_solve(
        window, tmp_path: Path, qtbot, cache: Path) -> None:  # type: ignore[no-untyped-def]
    row = open_track(window, short_ring(), tmp_path)
    qtbot.waitUntil(lambda: row.label.text() == "par not solved yet", timeout=5_000)
    click_par(row, qtbot)
    assert par_processes()
    qtbot.mouseClick(row.button, Qt.MouseButton.LeftButton)  # Stop
    assert row.button.text() == "Par"
    qtbot.waitUntil(lambda: row.label.text() == "par not solved yet", timeout=5_000)
    qtbot.waitUntil(lambda: not par_processes(), timeout=10_000)

    click_par(row, qtbot)
    assert row.button.text() == "Stop" and par_processes()
    window.unsaved_answer = "discard"
    window.close()
    assert not par_processes(), "closing the window ends the solve"


def test_the_words_of_the_row() -> None:
    two = "2\N{NO-BREAK SPACE}laps"
    assert par_text(36.4651, 2) == f"par 36.47 turns ({two})"
    assert par_text(37.1234, 2, 36.4651) == f"par 36.47 -> 37.12 turns (+0.66, {two})"
    assert par_text(math.inf, 1) == "no par (1\N{NO-BREAK SPACE}lap): every line risks elimination"
    assert par_text(math.inf, 2, 36.4651).startswith("par 36.47 -> none")
    assert par_text(36.4651, 2, math.inf) == f"par none -> 36.47 turns ({two})"
