"""The document: the one gateway through which the editor changes a track.

It owns the current track (an immutable value), the undo stack, the selection and the file state.
Views and panels never change the track themselves: they call :meth:`TrackDocument.edit` with a
pure function from ``editor.edits`` and listen to the signals. Each edit is one small undo command
holding the versions before and after; unchanged parts are shared between versions, so keeping
them costs little.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from pydantic import ValidationError
from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from editor.edits import EditError
from trackformat.io import load_track, save_track
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
        self, text: str, change: Callable[[Track], Track], merge_key: str | None = None
    ) -> bool:
        """Apply ``change`` as one undoable step named ``text``; False if refused or if it changes
        nothing (no step is recorded then, so the file stays unmodified).

        Commands pushed with the same ``merge_key`` one after another become one step (a drag).
        """
        try:
            new = change(self._track)
        except (EditError, ValidationError, ValueError) as err:
            self.editFailed.emit(_short(err))
            return False
        if new is self._track or new == self._track:
            return False  # an edit that changes nothing is no step and leaves the file clean
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
        return cls(load_track(path), path.resolve(), parent)

    def save(self, path: Path | None = None) -> None:
        """Write the track atomically (a crash mid-write keeps the old file) and mark it clean."""
        target = path or self._path
        if target is None:
            raise ValueError("no file name: use save as")
        save_track(self._track, target)
        self._path = target.resolve()
        self._unsaved = False
        self.undo_stack.setClean()
        self.fileStateChanged.emit()

    def board_image(self) -> Path | None:
        """Where the board picture is, resolved against the track file's folder."""
        image = self._track.board.image
        if not image:
            return None
        base = self._path.parent if self._path else Path.cwd()
        return (base / image).resolve()


def _short(err: Exception) -> str:
    if isinstance(err, ValidationError):
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        return f"{where}: {first['msg']}" if where else str(first["msg"])
    return str(err)
