"""Lay out a small circuit on a blank board in a real editor window, and photograph each step.

    xvfb-run -a -s "-screen 0 1600x1000x24" .venv/bin/python tools/layout_screens.py
    QT_QPA_PLATFORM=offscreen .venv/bin/python tools/layout_screens.py

Plays the clicks and keys of the layout test (``tests/editor/new_circuit.py``, shared with
``tests/editor/test_new_circuit_layout.py``) on the editor at its default size, saves a picture of
the window after each main step as ``docs/images/layout-*.png`` (for the section "Lay out a new
circuit" of docs/editor.md), saves the track, checks it, and prints how long the layout took:
the wall time of the clicks and keys and the editor's answers to them, the screenshots (and the
wait for the check before each) left out.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from PySide6.QtCore import QSettings  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

OUT = ROOT / "docs" / "images"
SIZE = (1400, 900)
"""The editor's default window size."""
STEPS = {
    "blank-board": "layout-1-blank-board.png",
    "lanes": "layout-2-lanes.png",
    "lap-closed": "layout-3-lap-closed.png",
    "corners": "layout-4-corners.png",
    "grid-and-pit": "layout-5-grid-and-pit.png",
    "no-problems": "layout-6-no-problems.png",
}
"""The main steps of the layout, and the picture each is saved as."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help="folder for the pictures")
    parser.add_argument("--pause", type=int, default=0, metavar="MS",
                        help="wait this long after each click or key, to watch it")
    args = parser.parse_args(argv)
    app = QApplication.instance() or QApplication(sys.argv[:1])

    from editor.mainwindow import MainWindow
    from tests.editor import new_circuit
    from trackformat.io import load_track
    from trackformat.lint import validate

    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        settings = QSettings(str(Path(folder) / "settings.ini"), QSettings.Format.IniFormat)
        window = MainWindow(settings, ask=False)
        window.resize(*SIZE)
        window.show()
        window.raise_()
        window.activateWindow()
        for _ in range(10):
            app.processEvents()

        def shot(step: str) -> None:
            for _ in range(3):
                app.processEvents()
            path = args.out / STEPS[step]
            window.grab().save(str(path))
            print(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}: "
                  f"{window.status_label.text()[:90]}")

        saved = Path(folder) / "triangle-park.json"
        started = time.perf_counter()
        hand = new_circuit.lay_out(window, saved, shot, pause_ms=args.pause)
        took = time.perf_counter() - started - hand.shot_seconds
        report = validate(load_track(saved))
        track = load_track(saved)
        print(f"laid out {track.metadata.name!r}: {len(track.spaces)} spaces, "
              f"{len(track.corners)} corners (stops {[c.stops for c in track.corners]}), "
              f"{len(track.grid)} grid slots, a pit lane of {len(track.pit_lane.spaces)} "
              f"spaces and {len(track.pit_lane.boxes)} boxes" if track.pit_lane else "")
        print(f"saved file: {report.errors} errors, {report.warnings} warnings; "
              f"problems panel: {window.problems.summary.text()}")
        print(f"layout: {len(hand.actions)} clicks, drags and keys in {took:.1f} s of wall time "
              f"(screenshots left out: {hand.shot_seconds:.1f} s)")
        window.validation.wait()
        window.unsaved_answer = "discard"
        window.close()
    return 0 if (report.errors, report.warnings) == (0, 0) else 1


if __name__ == "__main__":
    sys.exit(main())
