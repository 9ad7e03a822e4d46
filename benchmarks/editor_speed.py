"""How fast the editor opens a track, redraws while panning and zooming, refreshes problems,
and shows a live test drive after an edit.

Prints figures, asserts nothing. Runs offscreen (QT_QPA_PLATFORM=offscreen is set if unset):
frames are rendered into an image of the window's size, which is what a screen update costs.

The live test drive is measured on the first track (Monaco): seconds from an edit (a corner's
stops changed through the document) to the corner table showing the new batch's first figures,
the same after a second edit made while the first batch races (what a cancel costs), and the
longest gap between the ticks of a 10 ms timer on the UI thread while the batch races. For
comparison, the same races run in a QThread of the editor's process, with the same timer: the
reason live mode races in a worker process.

    python benchmarks/editor_speed.py           # Monaco, and a generated 5,000-space ring
    python benchmarks/editor_speed.py --track my.json --frames 120
    python benchmarks/editor_speed.py --big 0 --scan 0 --live-seconds 30   # mostly live
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

from PySide6.QtCore import QEventLoop, QObject, QSettings, QThread, QTimer, Signal  # noqa: E402
from PySide6.QtGui import QImage, QPainter  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402
from validate_speed import ring_document  # noqa: E402

from editor.edits import move_spaces, update_corners  # noqa: E402
from trackformat.io import dumps_track, save_track, track_from_document  # noqa: E402
from trackformat.sim.batch.testdrive import Chunk, DriveSpec, prepare, run_chunk  # noqa: E402


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


class Ticks:
    """The gaps between the ticks of a 10 ms timer on the UI thread: a gap much longer than
    10 ms is the event loop stalled (nothing redrawn, no click taken) for that long."""

    def __init__(self) -> None:
        self.gaps: list[float] = []
        self._last = 0.0
        self._timer = QTimer()
        self._timer.setInterval(10)
        self._timer.timeout.connect(self._tick)

    def _tick(self) -> None:
        now = time.perf_counter()
        self.gaps.append(now - self._last)
        self._last = now

    def run(self, seconds: float) -> Ticks:
        """Run the event loop for ``seconds``, recording the gaps."""
        self.gaps.clear()
        self._last = time.perf_counter()
        self._timer.start()
        _spin(seconds)
        self._timer.stop()
        return self

    def text(self) -> str:
        if not self.gaps:
            return "no ticks"
        return (f"longest {max(self.gaps) * 1000:5.0f} ms, median "
                f"{statistics.median(self.gaps) * 1000:4.1f} ms, {len(self.gaps)} ticks")


def _spin(seconds: float) -> None:
    """Run the event loop (as the application's own loop does) for ``seconds``."""
    loop = QEventLoop()
    QTimer.singleShot(int(seconds * 1000), loop.quit)
    loop.exec()


def _until(condition, timeout: float) -> float | None:  # type: ignore[no-untyped-def]
    """Seconds until ``condition()`` holds, the event loop running meanwhile; None if never."""
    started = time.perf_counter()
    loop = QEventLoop()
    poll = QTimer()
    poll.setInterval(2)
    poll.timeout.connect(lambda: condition() and loop.quit())
    QTimer.singleShot(int(timeout * 1000), loop.quit)
    poll.start()
    if not condition():
        loop.exec()
    poll.stop()
    return time.perf_counter() - started if condition() else None


class _Races(QObject):
    """Races of a spec one after the other in a QThread, until told to stop."""

    done = Signal()

    def __init__(self, spec: DriveSpec) -> None:
        super().__init__()
        self.spec, self.stop = spec, False

    def run(self) -> None:
        context = prepare(self.spec)
        index = 0
        while not self.stop:
            run_chunk(context, Chunk(index, index, index + 1))
            index += 1
        self.done.emit()


READING_SECONDS = 3.0
"""How long the designer looks at the first figures before the next edit."""
FRAMES_WHILE_RACING = 60
"""Frames of pan and zoom rendered while a batch races, to see what racing costs the UI."""


def live_drive(window, seconds: float) -> None:  # type: ignore[no-untyped-def]
    """Print the live test drive's figures on the track open in ``window``."""
    panel = window.testdrive_dock.widget()
    track = window.document.track
    if not track.corners or not track.grid:
        print(f"\nlive test drive: {track.metadata.name} has no corner to edit or no grid")
        return
    corner = max(track.corners, key=lambda c: c.stops)
    refreshes: list[tuple[float, int]] = []
    panel.liveShown.connect(lambda done, _total: refreshes.append((time.perf_counter(), done)))

    def showing(stops: int) -> bool:
        names = [panel.corner_table.cell(row, 0).text()
                 for row in range(panel.corner_table.rowCount())]
        row = names.index(corner.name or corner.id) if (corner.name or corner.id) in names else -1
        return row >= 0 and panel.corner_table.cell(row, 1).text() == str(stops)

    def set_stops(stops: int) -> None:
        window.document.edit("stops", lambda t: update_corners(t, {corner.id}, stops=stops))

    # Autosave is paused while the live drive is measured: once a track is edited, it writes
    # it out every few seconds, work of its own (measured apart below).
    autosave = window.autosaver.timer
    autosave.stop()
    started = time.perf_counter()
    panel.settings.live.setChecked(True)  # starts the worker process, races the track as it is
    cold = _until(lambda: bool(refreshes), 120)
    load = f", machine load {os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else ""
    print(f"\nlive test drive on {track.metadata.name} ({panel.settings.live_races.value()} "
          f"races, a full grid of strong drivers; {os.cpu_count()} cores{load})")
    print(f"  Live switched on to the first figures (process start included): "
          f"{_seconds(cold)}")
    stops = corner.stops
    waits = []
    for _ in range(3):
        _spin(READING_SECONDS)
        stops = 1 + stops % 3
        set_stops(stops)
        waits.append(_until(lambda s=stops: showing(s), 60))
    print(f"  edit to the first figures of its batch: "
          f"{', '.join(_seconds(w) for w in waits)} (corner {corner.name or corner.id}'s stops, "
          f"{READING_SECONDS:.0f} s after the last figures)")
    _spin(0.5)
    stops = 1 + stops % 3
    set_stops(stops)
    quick = _until(lambda: showing(stops), 60)
    print(f"  the same, 0.5 s after the last figures (the spare process still starting): "
          f"{_seconds(quick)}")
    first = len(refreshes)
    ticks = Ticks().run(seconds)
    done = refreshes[-1][1] if refreshes else 0
    counted = f"{len(refreshes) - first} refreshes, {done} races done"
    fps = frame_rate(window, FRAMES_WHILE_RACING)
    stops = 1 + stops % 3
    set_stops(stops)
    cancel = _until(lambda: showing(stops), 60)
    print(f"  a newer edit while racing, to its first figures: {_seconds(cancel)}")
    panel.settings.live.setChecked(False)
    print(f"  (whole live measurement {time.perf_counter() - started:.0f} s)")

    spec = panel.settings.live_spec(window.document.track)
    idle = Ticks().run(min(seconds, 5))
    idle_fps = frame_rate(window, FRAMES_WHILE_RACING)
    races = _Races(spec)
    thread = QThread()
    races.moveToThread(thread)
    thread.started.connect(races.run)
    thread.start()
    in_thread = Ticks().run(seconds)
    thread_fps = frame_rate(window, FRAMES_WHILE_RACING)
    races.stop = True
    thread.quit()
    thread.wait()
    print(f"  the UI thread for {seconds:.0f} s (10 ms timer: gaps), then pan and zoom frames:")
    print(f"    idle:                          {idle.text()}; {idle_fps:5.1f} frames/s")
    print(f"    live, races in a process:      {ticks.text()}; {fps:5.1f} frames/s ({counted})")
    print(f"    the same races in a QThread:   {in_thread.text()}; {thread_fps:5.1f} frames/s")
    print(autosave_stalls(window, corner))
    autosave.start()


def autosave_stalls(window, corner) -> str:  # type: ignore[no-untyped-def]
    """Apart from live mode: the UI thread's longest stall while autosave writes the edited
    track out, written on the UI thread (as the editor did) against on autosave's writer
    thread, in turns, 5 writes each."""
    saver = window.autosaver
    on_ui: list[float] = []
    in_thread: list[float] = []
    for turn in range(10):
        stops = 1 + turn % 3
        window.document.edit("stops", lambda t, s=stops: update_corners(t, {corner.id}, stops=s))
        # The edit's own work first (the problems panel checks the track again, debounced).
        _spin(0.6)
        window.validation.wait()
        _spin(0.1)
        ticks = Ticks()
        if turn % 2 == 0:
            QTimer.singleShot(50, lambda: dumps_track(window.document.track))
            on_ui.append(max(ticks.run(0.4).gaps))
        else:
            QTimer.singleShot(50, saver.save_later)
            in_thread.append(max(ticks.run(0.4).gaps))
            saver.wait()
    return (f"  (apart from live mode: autosave writes the edited track out every "
            f"{saver.timer.interval() / 1000:.0f} s; the UI thread's longest stall "
            f"meanwhile, 10 ms timer: written on the UI thread "
            f"{', '.join(f'{g * 1000:.0f}' for g in on_ui)} ms; on the writer thread "
            f"{', '.join(f'{g * 1000:.0f}' for g in in_thread)} ms)")


def _seconds(value: float | None) -> str:
    return "never" if value is None else f"{value:.2f} s"


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
        "--live-seconds",
        type=float,
        default=20,
        help="seconds of live test drive to watch the UI for, on the first track (0: none)",
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
    live_track = tracks[0]
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
        if args.live_seconds > 0 and live_track.is_file():
            window = MainWindow(settings, ask=False)
            window.resize(1400, 900)
            window.show()
            window.open_path(live_track)
            live_drive(window, args.live_seconds)
            window.unsaved_answer = "discard"
            window.close()


if __name__ == "__main__":
    main()
