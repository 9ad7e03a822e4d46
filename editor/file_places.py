"""Where the editor's save dialogs start and what file name they propose.

A designer keeps a track beside its board picture (the file names the picture relative to
itself), so a new track's dialog opens in the picture's folder with a name made from the
track's name; a saved track's opens beside its own file. Only the dialog's starting point is
decided here: writing the file is the window's save logic.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QSettings

from editor.session import last_folder

if TYPE_CHECKING:
    from editor.document import TrackDocument


def file_stem(name: str, fallback: str = "track") -> str:
    """A file name from a track's name: "Circuit de Monaco" -> "circuit-de-monaco"."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    stem = re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")
    return stem[:80] or fallback


def start_folder(document: TrackDocument, settings: QSettings) -> Path | None:
    """The track file's folder, else the board picture's, else the folder last worked in."""
    if document.path is not None and document.path.parent.is_dir():
        return document.path.parent
    picture = document.board_image()
    if picture is not None and picture.parent.is_dir():
        return picture.parent
    folder = last_folder(settings)
    return Path(folder) if folder else None


def proposed_path(document: TrackDocument, settings: QSettings, suffix: str = ".json") -> str:
    """What a save dialog shows first: the track file itself (Save as), or a file named after
    the track in :func:`start_folder`, with ``suffix``."""
    if document.path is not None and suffix == ".json":
        return str(document.path)
    stem = file_stem(document.track.metadata.name)
    if document.path is not None:
        stem = document.path.stem
    folder = start_folder(document, settings)
    name = f"{stem}{suffix}"
    return str(folder / name) if folder is not None else name
