"""The document: the one gateway through which the editor changes a track.

It owns the current track (an immutable value), the undo stack, the selection and the file state.
Views and panels never change the track themselves: they call :meth:`TrackDocument.edit` with a
pure function from ``editor.edits`` and listen to the signals. Each edit is one small undo command
holding the versions before and after; unchanged parts are shared between versions, so keeping
them costs little.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError
from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from editor.edits import EditError, without_new_copies
from trackformat.io import load_track, save_track
from trackformat.lint.rules.board_picture import shown_name, why_not_a_file_name
from trackformat.model import Board, Metadata, Track

MERGEABLE = 1
"""QUndoCommand id shared by commands that may merge; they merge when their keys match."""


def empty_track(
    name: str = "New track", width: int = 2000, height: int = 1400, image: str | None = None
) -> Track:
    """A track with nothing on it yet: its name, its board's size and picture (if any)."""
    return Track(
        metadata=Metadata(name=name),
        board=Board(image=image, width=width, height=height),
        lanes=[],
        spaces=[],
    )


def relative_path(image: Path, folder: Path) -> str:
    """``image`` named from ``folder`` (as the track file names its board picture), or in full
    where no relative name exists (another drive on Windows)."""
    try:
        return Path(os.path.relpath(image, folder)).as_posix()
    except ValueError:
        return image.as_posix()


@dataclass(frozen=True)
class DiskStamp:
    """What a track file held when the editor last read or wrote it, to tell at the next save
    whether something else (another editor, a sync tool) has written it since.

    The time and size decide quickly; when they differ, the content's digest decides, so that a
    file touched or copied back unchanged does not count as changed."""

    mtime_ns: int
    size: int
    digest: str

    @classmethod
    def of(cls, path: Path) -> DiskStamp | None:
        """The stamp of the file at ``path`` now; None when it cannot be read."""
        try:
            status = os.stat(path)
            with open(path, "rb") as stream:
                digest = hashlib.sha256(stream.read()).hexdigest()
        except (OSError, ValueError):
            return None
        return cls(status.st_mtime_ns, status.st_size, digest)

    def differs_from(self, path: Path) -> bool:
        """Whether the file at ``path`` now holds something else than when stamped. A file
        gone since is no conflict: a save then loses nothing."""
        try:
            status = os.stat(path)
        except FileNotFoundError:
            return False
        except (OSError, ValueError):
            return True
        if (status.st_mtime_ns, status.st_size) == (self.mtime_ns, self.size):
            return False
        now = DiskStamp.of(path)
        return now is None or now.digest != self.digest


@dataclass(frozen=True)
class FileState:
    """The file a document is attached to: its path (None: never saved), the file as the
    document last read or wrote it, and whether the track exists only in memory."""

    path: Path | None
    on_disk: DiskStamp | None
    unsaved: bool


class TrackCommand(QUndoCommand):
    """Replace the track by ``after``; undo puts ``before`` back."""

    def __init__(
        self, document: TrackDocument, text: str, before: Track, after: Track, merge_key: str | None
    ) -> None:
        super().__init__(text)
        self.document = document
        self.before = before
        self.after = after
        self.merge_key = merge_key

    def redo(self) -> None:
        self.document._replace(self.after)

    def undo(self) -> None:
        self.document._replace(self.before)

    def id(self) -> int:
        return MERGEABLE if self.merge_key else -1

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, TrackCommand) or other.merge_key != self.merge_key:
            return False
        self.after = other.after
        return True


class NewTrackCommand(TrackCommand):
    """Put a wholly new track (a trace's draft) in place of the old one and forget the file,
    so that Save asks where: the new track never goes over the old one's file. Undone, the old
    track comes back with its file, as it was (saved or not), unless the new one has been saved
    somewhere since: then the file is the one last saved, as after any undo."""

    def __init__(self, document: TrackDocument, text: str, before: Track, after: Track) -> None:
        super().__init__(document, text, before, after, None)
        self.file = document.file_state()

    def redo(self) -> None:
        self.document._replace(self.after)
        if self.document.path == self.file.path:  # not saved elsewhere since
            self.document.detach()

    def undo(self) -> None:
        if self.document.path is None:  # still the unsaved new track: its file back first,
            self.document.attach(self.file)  # so that the old picture is found from it
        self.document._replace(self.before)


class TrackDocument(QObject):
    """A track being edited; see the module docstring."""

    trackChanged = Signal(object, object)
    """(old track, new track) after every change, edit, undo or redo."""
    selectionChanged = Signal(object)
    """The new selection, a frozenset of element ids."""
    fileStateChanged = Signal()
    """The path or the saved/unsaved state changed."""
    editFailed = Signal(str)
    """An edit was refused; the message says why."""

    def __init__(
        self,
        track: Track,
        path: Path | None = None,
        parent: QObject | None = None,
        *,
        unsaved: bool = False,
    ):
        """``unsaved``: the track exists only in memory (imported, or started over a picture),
        so it counts as modified until saved, even with nothing to undo: closing it asks to
        save rather than losing it."""
        super().__init__(parent)
        self._track = track
        self._path = path
        self._unsaved = unsaved
        self._on_disk: DiskStamp | None = None
        """The file as last read or written by this document (see :meth:`changed_on_disk`)."""
        self._selection: frozenset[str] = frozenset()
        self.undo_stack = QUndoStack(self)
        self.undo_stack.cleanChanged.connect(self._clean_changed)

    def _clean_changed(self, _clean: bool) -> None:
        self.fileStateChanged.emit()

    # The track -------------------------------------------------------------------------------

    @property
    def track(self) -> Track:
        return self._track

    def edit(
        self, text: str, change: Callable[[Track], Track], merge_key: str | None = None,
        *, new_track: bool = False
    ) -> bool:
        """Apply ``change`` as one undoable step named ``text``; False if refused or if it changes
        nothing (no step is recorded then, so the file stays unmodified).

        Commands pushed with the same ``merge_key`` one after another become one step (a drag).
        ``new_track``: the change makes a wholly new track, which the step detaches from the
        file until undone (:class:`NewTrackCommand`).
        """
        try:
            # Whatever made the change (a tool, a paste, a join), a move is listed once.
            new = without_new_copies(self._track, change(self._track))
        except (EditError, ValidationError, ValueError) as err:
            self.editFailed.emit(_short(err))
            return False
        if new is self._track or new == self._track:
            return False  # an edit that changes nothing is no step and leaves the file clean
        if new_track:
            self.undo_stack.push(NewTrackCommand(self, text, self._track, new))
        else:
            self.undo_stack.push(TrackCommand(self, text, self._track, new, merge_key))
        return True

    def _replace(self, track: Track) -> None:
        old, self._track = self._track, track
        self.trackChanged.emit(old, track)
        alive = self.element_ids()
        if not self._selection <= alive:
            self.set_selection(self._selection & alive)

    def element_ids(self) -> frozenset[str]:
        """Ids of everything selectable: spaces and corners."""
        return frozenset(s.id for s in self._track.spaces) | frozenset(
            c.id for c in self._track.corners
        )

    # Selection -------------------------------------------------------------------------------

    @property
    def selection(self) -> frozenset[str]:
        return self._selection

    def set_selection(self, ids: Iterable[str]) -> None:
        selection = frozenset(ids)
        if selection != self._selection:
            self._selection = selection
            self.selectionChanged.emit(selection)

    # File ------------------------------------------------------------------------------------

    @property
    def path(self) -> Path | None:
        return self._path

    @property
    def modified(self) -> bool:
        """Whether there is work a save would keep: edits since the last save, or a track that
        was never written to a file (see ``unsaved``)."""
        return self._unsaved or not self.undo_stack.isClean()

    def title(self) -> str:
        """Window title: the track's name and file, with a star when there is unsaved work."""
        name = self._path.name if self._path else "untitled"
        return f"{'*' if self.modified else ''}{name} - {self._track.metadata.name}"

    @classmethod
    def open(cls, path: Path, parent: QObject | None = None) -> TrackDocument:
        """Load a track file (raises ``TrackFileError`` with a located message)."""
        document = cls(load_track(path), path.resolve(), parent)
        document._on_disk = DiskStamp.of(path)
        return document

    def save(self, path: Path | None = None) -> None:
        """Write the track atomically (a crash mid-write keeps the old file) and mark it clean."""
        target = path or self._path
        if target is None:
            raise ValueError("no file name: use save as")
        # The board picture is stored relative to the track file, so that the pair can move
        # together: a save elsewhere respells it, a save that fails leaves it as it was.
        track = self._track
        image = self.board_image()
        if image is not None:
            spelled = relative_path(image, target.resolve().parent)
            if spelled != track.board.image:
                board = track.board.model_copy(update={"image": spelled})
                track = track.model_copy(update={"board": board})
        save_track(track, target)
        self._track = track  # the same picture, named from the new folder: not an edit to undo
        self._path = target.resolve()
        self._on_disk = DiskStamp.of(self._path)
        self._unsaved = False
        self.undo_stack.setClean()
        self.fileStateChanged.emit()

    def detach(self) -> None:
        """Forget the file: the track becomes an unsaved one, so that Save asks where to write
        it. A command that puts a wholly new track in the window (a trace) detaches it, so that
        a Save cannot write the new track over the file of the old one."""
        if self._path is None:
            return
        image = self.board_image()
        if image is not None and image.as_posix() != self._track.board.image:
            # Named in full until saved (saving makes it relative again): not an edit to undo.
            board = self._track.board.model_copy(update={"image": image.as_posix()})
            self._track = self._track.model_copy(update={"board": board})
        self._path = None
        self._on_disk = None
        self._unsaved = True
        self.fileStateChanged.emit()

    def file_state(self) -> FileState:
        """The file the document is attached to, as :meth:`attach` puts it back."""
        return FileState(self._path, self._on_disk, self._unsaved)

    def attach(self, state: FileState) -> None:
        """Attach the document to the file of ``state`` again (undoing :meth:`detach`)."""
        self._path, self._on_disk, self._unsaved = state.path, state.on_disk, state.unsaved
        self.fileStateChanged.emit()

    def changed_on_disk(self) -> bool:
        """Whether the track's file holds something else than this document last read or
        wrote: saving now would overwrite another program's (or another editor's) save."""
        return (self._path is not None and self._on_disk is not None
                and self._on_disk.differs_from(self._path))

    def board_image(self) -> Path | None:
        """Where the board picture is, resolved against the track file's folder; None when the
        track names none, or names one that cannot be looked for (:meth:`picture_problem`)."""
        found = self._locate_picture()
        return found if isinstance(found, Path) else None

    def picture_problem(self) -> str | None:
        """Why the named board picture cannot even be looked for, naming it: its name cannot
        be a file name, or the system refuses to look it up. None otherwise (a picture that is
        merely missing is the board's to report)."""
        found = self._locate_picture()
        return found if isinstance(found, str) else None

    def _locate_picture(self) -> Path | str | None:
        """The board picture's path, or why there is none to look at. Looking up a name the
        file system cannot hold raises (a NUL, a part over 255 bytes) rather than saying "not
        found", and it must never stop a track from opening: such a name is caught here, once,
        for everything that looks for the picture."""
        image = self._track.board.image
        if not image:
            return None
        reason = why_not_a_file_name(image)
        if reason is not None:
            return (f"board picture left out: its name {shown_name(image)} cannot be a file "
                    f"name: {reason}")
        base = self._path.parent if self._path else Path.cwd()
        try:
            path = (base / image).resolve()
            path.is_file()  # raises what any later look at the picture would
        except (OSError, ValueError) as err:
            why = getattr(err, "strerror", None) or str(err)
            return (f"board picture left out: its name {shown_name(image)} cannot be looked "
                    f"up here ({why})")
        return path


def _short(err: Exception) -> str:
    if isinstance(err, ValidationError):
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        return f"{where}: {first['msg']}" if where else str(first["msg"])
    return str(err)
