"""How long one mouse step of a corner drag takes in the Space tool: the reshape and the snap.

Prints figures, asserts nothing. Runs offscreen (QT_QPA_PLATFORM=offscreen is set if unset).
Each step does what the tool does on a mouse move while a corner is held: snap the pointer
(skipping the dragged space's own corners) and reshape the space as one merging undo step.

    python benchmarks/drag_speed.py                 # Monaco, 60 steps
    python benchmarks/drag_speed.py --track my.json --steps 200
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from PySide6.QtCore import QPointF, QSettings  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from editor import edits  # noqa: E402
from editor.scene.snap import snap_targets  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--track", type=Path, default=ROOT / "tracks" / "monaco.json")
    parser.add_argument("--steps", type=int, default=60)
    args = parser.parse_args()

    app = QApplication.instance() or QApplication([])
    from editor.mainwindow import MainWindow

    with tempfile.TemporaryDirectory() as folder:
        settings = QSettings(str(Path(folder) / "settings.ini"), QSettings.Format.IniFormat)
        window = MainWindow(settings, ask=False)
        window.resize(1400, 900)
        window.show()
        app.processEvents()
        window.open_path(args.track)
        document, snapper = window.document, window.scene.snapper
        space = document.track.spaces[len(document.track.spaces) // 2]
        window.view.resetTransform()
        window.view.scale(4.0, 4.0)  # zoomed in, as a designer drags a corner
        window.view.centerOn(QPointF(*space.centre))
        moved = 0
        started = time.perf_counter()
        snap_targets(document.track)
        build = time.perf_counter() - started
        x0, y0 = space.polygon[0]
        steps = []
        for step in range(1, args.steps + 1):
            started = time.perf_counter()
            pos = snapper.snap(QPointF(x0 + step * 0.4, y0 + step * 0.2), exclude=space.id,
                               away_from=(x0, y0))
            outline = list(next(s for s in document.track.spaces if s.id == space.id).polygon)
            outline[0] = (pos.x(), pos.y())
            moved += document.edit(f"Reshape {space.id}",
                                   lambda t, o=outline: edits.set_polygon(t, space.id, o),
                                   merge_key="drag")
            app.processEvents()
            steps.append(time.perf_counter() - started)
        print(f"{args.track.name}: {len(document.track.spaces)} spaces; building the snap points "
              f"once: {build * 1000:.1f} ms")
        print(f"one drag step (snap, reshape), {moved} of {args.steps} steps moving it: median "
              f"{statistics.median(steps) * 1000:.1f} ms, max {max(steps) * 1000:.1f} ms")
        window.validation.wait()
        window.unsaved_answer = "discard"
        window.close()


if __name__ == "__main__":
    main()
