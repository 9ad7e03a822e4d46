"""Autosave to a side file, and recovery after a crash or a kill.

Unsaved work is written every few seconds (only when it changed) to ``.<name>.autosave`` beside
the track file, or to the user's data folder for a track never saved. Saving the track or closing
it cleanly removes the side file, so a side file found when a track is opened means the last
session ended without saving: the editor offers to restore it.
"""

from __future__ import annotations

import hashlib
import sys
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QStandardPaths, QTimer

from editor.document import TrackDocument
from trackformat.io import (
    TrackFileError,
    dumps_document,
    load_track,
    track_to_document,
    write_text_atomically,
)
from trackformat.model import Track

INTERVAL_MS = 5_000


def side_file(track_path: Path | None) -> Path:
    """Where the autosave of a track lives."""
    if track_path is not None:
        return track_path.with_name(f".{track_path.name}.autosave")
    folder = Path(QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation))
    return folder / "untitled.track.json.autosave"


def recoverable(track_path: Path | None) -> Track | None:
    """The autosaved track left by an unclean exit, if there is one newer than the file."""
    side = side_file(track_path)
    if not side.is_file():
        return None
    saved_later = (
        track_path is not None
        and track_path.is_file()
        and side.stat().st_mtime < track_path.stat().st_mtime
    )
    if saved_later:
        return None
    try:
        return load_track(side)
    except TrackFileError:
        return None


def discard(track_path: Path | None) -> None:
    side_file(track_path).unlink(missing_ok=True)


def _show_failure(write: Future[Path | None]) -> None:
    """A write that failed other than by the disk (a fault of the editor's) is shown as a
    slot's failure would be, rather than lost with its future."""
    error = write.exception()
    if error is not None:
        sys.excepthook(type(error), error, error.__traceback__)


class Autosaver(QObject):
    """Writes the document's unsaved work to its side file on a timer, off the UI thread.

    Writing out a whole track is pure Python (a large board's text takes a tenth of a second):
    on the UI thread it froze the editor for that long every few seconds of editing. The timer
    takes a snapshot of the track as JSON data on the UI thread (a few ms) and a writer thread
    turns it into text and writes it; the interpreter hands the UI thread its turn every few
    ms meanwhile. A write that a save or a closed document made stale is dropped, never written
    after the side file was discarded (see :meth:`_discard`)."""

    def __init__(self, document: TrackDocument, interval_ms: int = INTERVAL_MS) -> None:
        super().__init__(document)
        self.document = document
        self._written_digest = ""
        self._changed = True
        """Whether the track changed since the side file was last written (or compared): a
        snapshot is not taken every tick for nothing."""
        self._path = document.path
        self._lock = threading.Lock()
        """Held while the side file is written or discarded, and around ``_generation``."""
        self._generation = 0
        """Counts the side file's discards: a write taken before the last one is stale."""
        self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="autosave")
        self._pending: Future[Path | None] | None = None
        self.timer = QTimer(self)
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self.save_later)
        self.timer.start()
        document.fileStateChanged.connect(self._file_state)
        document.trackChanged.connect(self._track_changed)

    def _track_changed(self) -> None:
        self._changed = True

    def _snapshot(self) -> tuple[dict[str, Any], Path, int] | None:
        """On the UI thread: the track as JSON data, where it goes, and the generation it
        belongs to; None when there is no unsaved work changed since the last write."""
        if not self.document.modified or not self._changed:
            return None
        self._changed = False
        return (track_to_document(self.document.track), side_file(self.document.path),
                self._generation)

    def _write(self, snapshot: tuple[dict[str, Any], Path, int]) -> Path | None:
        """Write a snapshot out, unless it is stale or the side file holds it already."""
        document, target, generation = snapshot
        text = dumps_document(document)
        digest = hashlib.sha1(text.encode()).hexdigest()
        with self._lock:
            if generation != self._generation or digest == self._written_digest:
                return None
            try:
                write_text_atomically(target, text)
            except OSError:
                return None  # a read-only folder must not interrupt editing
            self._written_digest = digest
        return target

    def save_later(self) -> Future[Path | None] | None:
        """Snapshot the unsaved work now and write it on the writer thread (the timer's tick);
        the write's future (its side file, or None when nothing was written), or None when
        there was nothing to write."""
        snapshot = self._snapshot()
        if snapshot is None:
            return None
        self._pending = self._writer.submit(self._write, snapshot)
        self._pending.add_done_callback(_show_failure)
        return self._pending

    def save_now(self) -> Path | None:
        """Write the side file now, if there is unsaved work that changed since the last
        write: the side file, or None."""
        self.wait()
        snapshot = self._snapshot()
        return self._write(snapshot) if snapshot is not None else None

    def wait(self) -> None:
        """Return once the writer thread has nothing left to write."""
        pending = self._pending
        if pending is not None:
            pending.result()

    def _discard(self, track_path: Path | None) -> None:
        """Remove the side file of ``track_path``; a write already under way is dropped."""
        with self._lock:
            self._generation += 1
            self._written_digest = ""
            discard(track_path)

    def _file_state(self) -> None:
        if self.document.path != self._path:
            self._discard(self._path)
            self._path = self.document.path
        if not self.document.modified:
            self._discard(self.document.path)
            self._changed = True

    def close(self) -> None:
        """The document is closing cleanly: its side file is not needed any more."""
        self.timer.stop()
        self._discard(self.document.path)
        self._writer.shutdown(wait=True)
