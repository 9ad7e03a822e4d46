"""How fast the editor opens a track, redraws while panning and zooming, and refreshes problems.

Prints figures, asserts nothing. Runs offscreen (QT_QPA_PLATFORM=offscreen is set if unset):
frames are rendered into an image of the window's size, which is what a screen update costs.

    python benchmarks/editor_speed.py           # Monaco, and a generated 5,000-space ring
    python benchmarks/editor_speed.py --track my.json --frames 120
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from PySide6.QtCore import QSettings  # noqa: E402
from PySide6.QtGui import QImage, QPainter  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402
from validate_speed import ring_document  # noqa: E402

from editor.edits import move_spaces  # noqa: E402
from trackformat.io import save_track, track_from_document  # noqa: E402


def open_time(window, path: Path) -> float:  # type: ignore[no-untyped-def]
    """Seconds from asking to open a track to the board drawn once, picture included."""
    app = QApplication.instance()
    started = time.perf_counter()
    window.open_path(path)
    app.processEvents()
    image = QImage(window.view.viewport().size(), QImage.Format.Format_ARGB32_Premultiplied)
    painter = QPainter(image)
    window.view.render(painter)
    painter.end()
    return time.perf_counter() - started


def frame_rate(window, frames: int) -> float:  # type: ignore[no-untyped-def]
    """Frames per second rendering the view while it pans and zooms in a loop."""
    view = window.view
    view.fit()
    view.zoom(4)  # a designer works zoomed in, where panning matters
    image = QImage(view.viewport().size(), QImage.Format.Format_ARGB32_Premultiplied)
    started = time.perf_counter()
    for frame in range(frames):
        angle = 2 * math.pi * frame / frames
        bar_h, bar_v = view.horizontalScrollBar(), view.verticalScrollBar()
        bar_h.setValue(
            int(
                bar_h.minimum()
                + (bar_h.maximum() - bar_h.minimum()) * (0.5 + 0.4 * math.cos(angle))
            )
        )
        bar_v.setValue(
            int(
                bar_v.minimum()
                + (bar_v.maximum() - bar_v.minimum()) * (0.5 + 0.4 * math.sin(angle))
            )
        )
        if frame % 20 == 10:
            view.zoom(0.5 if frame % 40 == 10 else -0.5)
        painter = QPainter(image)
        view.render(painter)
        painter.end()
    return frames / (time.perf_counter() - started)


def refresh_time(window, repeats: int) -> list[float]:  # type: ignore[no-untyped-def]
    """Seconds from an edit to the problems panel showing the new report."""
    app = QApplication.instance()
    durations = []
    spaces = [s.id for s in window.document.track.spaces[:repeats]]
    for space_id in spaces:
        started = time.perf_counter()
        window.document.edit("nudge", lambda t, s=space_id: move_spaces(t, {s}, 1, 0))
        target = window.document.track
        while (
            window.validation.checked is not target
            or window.problems.report is not window.validation.report
        ):
            app.processEvents()
            time.sleep(0.001)
        durations.append(time.perf_counter() - started)
    return durations


def _with_big_scan(folder: Path, width: int) -> Path:
    """Monaco over a generated scan ``width`` pixels wide (a JPEG, as scans are), scaled to it."""
    import numpy as np
    from PySide6.QtGui import QColor, QPen

    from editor.alignment import transform_track
    from trackformat.io import load_track

    track = load_track(ROOT / "tracks" / "monaco.json")
    factor = width / track.board.width
    height = round(track.board.height * factor)
    picture = QImage(width, height, QImage.Format.Format_RGB32)
    picture.fill(QColor(70, 120, 70))
    painter = QPainter(picture)
    painter.setPen(QPen(QColor(200, 200, 200), 3))
    for x in range(0, width, 37):  # texture, so the JPEG weighs what a real scan does
        painter.drawLine(x, 0, (x * 7) % width, height)
    painter.end()
    scan = folder / "big-scan.jpg"
    picture.save(str(scan), "JPEG", 85)
    scaled = transform_track(track, np.array([[factor, 0.0, 0.0], [0.0, factor, 0.0]]))
    board = scaled.board.model_copy(update={"image": scan.name, "width": width, "height": height})
    path = folder / f"monaco-over-{width}px-scan.json"
    save_track(scaled.model_copy(update={"board": board}), path)
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--track", type=Path, action="append", help="track files (default: Monaco)")
    parser.add_argument("--frames", type=int, default=90)
    parser.add_argument(
        "--big", type=int, default=5000, help="spaces of the generated ring (0: none)"
    )
    parser.add_argument(
        "--scan",
        type=int,
        default=8000,
        help="also open Monaco over a generated JPEG scan this wide (0: none)",
    )
    args = parser.parse_args()

    app = QApplication.instance() or QApplication([])
    from editor.mainwindow import MainWindow

    tracks = args.track or [ROOT / "tracks" / "monaco.json"]
    with tempfile.TemporaryDirectory() as folder:
        if args.big:
            per_lane = args.big // 4
            big = Path(folder) / f"ring-{args.big}.json"
            save_track(track_from_document(ring_document(4, per_lane), "ring"), big)
            tracks.append(big)
        if args.scan:
            tracks.append(_with_big_scan(Path(folder), args.scan))
        settings = QSettings(str(Path(folder) / "settings.ini"), QSettings.Format.IniFormat)
        header = f"{'track':28} {'spaces':>7} {'open s':>8} {'frames/s':>9}"
        print(header + f" {'problems ms (median, max)':>27}")
        for path in tracks:
            if not path.is_file():
                print(f"{path.name:28} missing")
                continue
            window = MainWindow(settings, ask=False)
            window.resize(1400, 900)
            window.show()
            app.processEvents()
            seconds = open_time(window, path)
            fps = frame_rate(window, args.frames)
            window.validation.wait()
            refresh = refresh_time(window, 5)
            print(
                f"{path.name:28} {len(window.document.track.spaces):7d} {seconds:8.2f} {fps:9.1f} "
                f"{statistics.median(refresh) * 1000:14.0f} {max(refresh) * 1000:8.0f}"
            )
            window.unsaved_answer = "discard"
            window.close()
    print(
        "\nopen: load, draw the board and its picture once; frames: pan and zoom rendered "
        "offscreen at 1400 x 900; problems: edit to refreshed problems panel."
    )


if __name__ == "__main__":
    main()
