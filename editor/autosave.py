"""Autosave to a side file, and recovery after a crash or a kill.

Unsaved work is written every few seconds (only when it changed) to ``.<name>.autosave`` beside
the track file, or to the user's data folder for a track never saved. Saving the track or closing
it cleanly removes the side file, so a side file found when a track is opened means the last
session ended without saving: the editor offers to restore it.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from PySide6.QtCore import QObject, QStandardPaths, QTimer

from editor.document import TrackDocument
from trackformat.io import TrackFileError, dumps_track, load_track, write_text_atomically
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


class Autosaver(QObject):
    """Writes the document's unsaved work to its side file on a timer."""

    def __init__(self, document: TrackDocument, interval_ms: int = INTERVAL_MS) -> None:
        super().__init__(document)
        self.document = document
        self._written_digest = ""
        self._changed = True
        """Whether the track changed since the side file was last written (or compared): a
        whole track is serialised to be written, which takes a large board most of a second
        on the UI thread, so it is not done every tick for nothing."""
        self._path = document.path
        self.timer = QTimer(self)
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self.save_now)
        self.timer.start()
        document.fileStateChanged.connect(self._file_state)
        document.trackChanged.connect(self._track_changed)

    def _track_changed(self) -> None:
        self._changed = True

    def save_now(self) -> Path | None:
        """Write the side file if there is unsaved work that changed since the last write."""
        if not self.document.modified or not self._changed:
            return None
        self._changed = False
        text = dumps_track(self.document.track)
        digest = hashlib.sha1(text.encode()).hexdigest()
        if digest == self._written_digest:
            return None
        target = side_file(self.document.path)
        try:
            write_text_atomically(target, text)
        except OSError:
            return None  # a read-only folder must not interrupt editing
        self._written_digest = digest
        return target

    def _file_state(self) -> None:
        if self.document.path != self._path:
            discard(self._path)
            self._path = self.document.path
        if not self.document.modified:
            discard(self.document.path)
            self._written_digest = ""
            self._changed = True

    def close(self) -> None:
        """The document is closing cleanly: its side file is not needed any more."""
        self.timer.stop()
        discard(self.document.path)
