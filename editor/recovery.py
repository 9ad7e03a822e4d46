"""Offering back the work an editor of the same track left when it ended without saving.

Each editor window keeps its own side file (:mod:`editor.autosave`); when a track is opened, the
side files of editors no longer running that are newer than the track are what can be offered.
The newest is offered; the others stay and are offered at the next opening while they are still
newer than the file. Side files of editors still open are never offered nor removed.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from editor import autosave
from editor.document import TrackDocument


def offer_left_work(document: TrackDocument, track_path: Path,
                    confirm: Callable[[str, str], bool]) -> Path | None:
    """Ask (through ``confirm(title, text)``) whether to restore the newest work left for
    ``track_path``, and put it into ``document`` as one undoable step if so.

    Returns the side file restored from, which the caller removes once its own window has
    written the work to its own side file (so that a crash in between loses nothing); None when
    nothing was restored. A side file declined is removed at once."""
    autosave.discard_superseded(track_path)
    left = autosave.recoverable(track_path)
    if not left:
        return None
    newest = left[0]
    written = datetime.fromtimestamp(newest.written).strftime("%Y-%m-%d %H:%M")
    others = f", the newest of {len(left)}" if len(left) > 1 else ""
    if confirm(
        "Recover unsaved work",
        f"{track_path.name} has unsaved changes from an editor that did not close cleanly "
        f"(last written {written}){others}. Restore them?",
    ):
        document.edit("Recover autosaved work", lambda _t: newest.track)
        return newest.side
    autosave.discard_left(newest.side)
    return None
