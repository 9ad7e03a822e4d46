"""Autosave to a side file of each editor's own, and recovery after a crash or a kill.

Unsaved work is written every few seconds (only when it changed) to ``.<name>.<owner>.autosave``
beside the track file, or to the user's data folder for a track never saved. ``owner`` names one
editor window (its process and a random part), so two editors on one track never share a side
file: one's save removes only its own, never the other's unsaved work.

While an editor has a side file it holds a lock file beside it (``<side file>.lock``, a
:class:`QLockFile`, which records the process and the machine). Opening a track looks at every
side file of that track: one whose lock can be taken was left by an editor no longer running
(the lock file names a process that has ended, or there is none), and its work is offered back
when it is newer than the file; a side file whose lock is held belongs to an editor still open,
and is neither offered nor ever deleted. Saving the track or closing it cleanly removes the
editor's own side file, so a side file found without a live owner means that session ended
without saving.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import secrets
import sys
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QLockFile, QObject, QStandardPaths, QTimer

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
SUFFIX = ".autosave"
OWNER = re.compile(r"\d+-[0-9a-f]{8}")
"""How :func:`new_owner` names an editor: its process id and 8 random hex digits."""
LOCK_WAIT_MS = 1_000
"""How long a write waits for its own lock, which another editor may be probing just then."""


def new_owner() -> str:
    """A name for one editor window's side files. The process id tells people whose file it
    is; the random part keeps two windows of one process apart, and a new editor apart from a
    dead one that had the same process id before a restart."""
    return f"{os.getpid()}-{secrets.token_hex(4)}"


def untitled_folder() -> Path:
    """Where the side files of tracks never saved go: the user's data folder."""
    return Path(QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation))


def side_file(track_path: Path | None) -> Path:
    """Where the side files of a track go, and their name before an editor's is put in: the
    one ``.<name>.autosave`` that earlier versions of the editor shared (still looked for when
    recovering). Each editor's own is :func:`own_side_file`."""
    if track_path is not None:
        return track_path.with_name(f".{track_path.name}{SUFFIX}")
    return untitled_folder() / f"untitled.track.json{SUFFIX}"


def own_side_file(track_path: Path | None, owner: str) -> Path:
    """Where the editor ``owner`` autosaves a track: ``.<name>.<owner>.autosave``, in the
    folder of :func:`side_file`."""
    shared = side_file(track_path)
    return shared.with_name(f"{shared.name.removesuffix(SUFFIX)}.{owner}{SUFFIX}")


def _lock_file(side: Path) -> QLockFile:
    """The lock its owner holds while ``side`` exists. Its age says nothing (an editor may sit
    open for days), so only a dead owner makes it stale: no stale time. The owner of a lock
    taken on another machine (a shared folder) cannot be checked from here, so its side file
    is only offered back on that machine."""
    lock = QLockFile(str(side.with_name(side.name + ".lock")))
    lock.setStaleLockTime(0)
    return lock


def side_files(track_path: Path) -> list[Path]:
    """Every side file of the track, whichever editor wrote it (the one shared by earlier
    versions of the editor too)."""
    shared = side_file(track_path)
    prefix = shared.name.removesuffix(SUFFIX) + "."
    try:
        names = [entry.name for entry in os.scandir(shared.parent)]
    except OSError:
        return []
    return [shared.with_name(name) for name in names if name == shared.name or (
        name.startswith(prefix) and name.endswith(SUFFIX)
        and OWNER.fullmatch(name[len(prefix):-len(SUFFIX)])
    )]


def owner_alive(side: Path) -> bool:
    """Whether the editor that wrote ``side`` is still running: it holds the lock. A lock
    taken here (no owner, or a dead one) is let go at once."""
    probe = _lock_file(side)
    if not probe.tryLock(0):
        return True
    probe.unlock()
    return False


def discard_left(side: Path) -> bool:
    """Remove a side file left by an editor no longer running; True when it is gone. A live
    editor's side file is never removed: the lock is held while the file goes, so its owner
    cannot start writing it meanwhile."""
    probe = _lock_file(side)
    if not probe.tryLock(0):
        return False
    try:
        side.unlink(missing_ok=True)
    except OSError:
        return False
    finally:
        probe.unlock()
    return True


@dataclass(frozen=True)
class Recovery:
    """Unsaved work a dead editor left for a track."""

    side: Path
    track: Track
    written: float
    """When it was written (seconds since the epoch)."""


def _left(track_path: Path) -> list[tuple[Path, float]]:
    """The side files of the track whose editors are no longer running, with when each was
    written."""
    left = []
    for side in side_files(track_path):
        try:
            written = side.stat().st_mtime
        except OSError:
            continue
        if not owner_alive(side):
            left.append((side, written))
    return left


def _saved(track_path: Path) -> float | None:
    try:
        return track_path.stat().st_mtime
    except OSError:
        return None


def recoverable(track_path: Path) -> list[Recovery]:
    """The unsaved work of editors that ended without saving the track, newest first: their
    side files newer than the track file."""
    saved = _saved(track_path)
    found = []
    for side, written in _left(track_path):
        if saved is not None and written < saved:
            continue
        try:
            found.append(Recovery(side, load_track(side), written))
        except TrackFileError:
            continue  # not a track (any more): left for the user to look at
    return sorted(found, key=lambda r: r.written, reverse=True)


def discard_superseded(track_path: Path) -> None:
    """Remove the side files of dead editors older than the track file: a later save of the
    file superseded them (with a name per editor they would otherwise pile up, where the one
    shared side file of before was simply written over)."""
    saved = _saved(track_path)
    for side, written in _left(track_path):
        if saved is not None and written < saved:
            discard_left(side)


def _show_failure(write: Future[Path | None]) -> None:
    """A write that failed other than by the disk (a fault of the editor's) is shown as a
    slot's failure would be, rather than lost with its future."""
    error = write.exception()
    if error is not None:
        sys.excepthook(type(error), error, error.__traceback__)


class Autosaver(QObject):
    """Writes the document's unsaved work to its owner's side file on a timer, off the UI
    thread.

    Writing out a whole track is pure Python (a large board's text takes a tenth of a second):
    on the UI thread it froze the editor for that long every few seconds of editing. The timer
    takes a snapshot of the track as JSON data on the UI thread (a few ms) and a writer thread
    turns it into text and writes it; the interpreter hands the UI thread its turn every few
    ms meanwhile. A write that a save or a closed document made stale is dropped, never written
    after the side file was discarded (see :meth:`_discard`)."""

    def __init__(
        self, document: TrackDocument, owner: str | None = None, interval_ms: int = INTERVAL_MS
    ) -> None:
        """``owner``: the editor's name in its side files (:func:`new_owner`); one editor
        window keeps one for all the documents it opens."""
        super().__init__(document)
        self.document = document
        self.owner = owner or new_owner()
        self._written_digest = ""
        self._changed = True
        """Whether the track changed since the side file was last written (or compared): a
        snapshot is not taken every tick for nothing."""
        self._path = document.path
        self._lock = threading.Lock()
        """Held while the side file is written or discarded, and around ``_generation``."""
        self._generation = 0
        """Counts the side file's discards: a write taken before the last one is stale."""
        self._held: QLockFile | None = None
        """The lock of the side file, held from its first write until it is discarded."""
        self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="autosave")
        self._pending: Future[Path | None] | None = None
        self.timer = QTimer(self)
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self.save_later)
        self.timer.start()
        document.fileStateChanged.connect(self._file_state)
        document.trackChanged.connect(self._track_changed)

    def side_file(self) -> Path:
        """Where this editor autosaves its document now."""
        return own_side_file(self.document.path, self.owner)

    def _track_changed(self) -> None:
        self._changed = True

    def _snapshot(self) -> tuple[dict[str, Any], Path, int] | None:
        """On the UI thread: the track as JSON data, where it goes, and the generation it
        belongs to; None when there is no unsaved work changed since the last write."""
        if not self.document.modified or not self._changed:
            return None
        self._changed = False
        return (track_to_document(self.document.track), self.side_file(), self._generation)

    def _write(self, snapshot: tuple[dict[str, Any], Path, int]) -> Path | None:
        """Write a snapshot out, unless it is stale or the side file holds it already."""
        document, target, generation = snapshot
        text = dumps_document(document)
        digest = hashlib.sha1(text.encode()).hexdigest()
        with self._lock:
            if generation != self._generation or digest == self._written_digest:
                return None
            if not self._hold(target):
                return None
            try:
                write_text_atomically(target, text)
            except OSError:
                return None  # a read-only folder must not interrupt editing
            self._written_digest = digest
        return target

    def _hold(self, target: Path) -> bool:
        """Take the side file's lock before its first write, so that other editors see its
        owner is alive; False when it cannot be had (a read-only folder)."""
        if self._held is not None:
            return True
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
        except OSError:
            return False
        lock = _lock_file(target)
        if not lock.tryLock(LOCK_WAIT_MS):
            return False
        self._held = lock
        return True

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
        """Remove this editor's side file of ``track_path`` and let its lock go; a write
        already under way is dropped. Other editors' side files are not touched."""
        with self._lock:
            self._generation += 1
            self._written_digest = ""
            # A folder made read-only meanwhile keeps the file: it is found as left over.
            with contextlib.suppress(OSError):
                own_side_file(track_path, self.owner).unlink(missing_ok=True)
            if self._held is not None:
                self._held.unlock()
                self._held = None

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
