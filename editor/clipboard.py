"""Copy, paste and duplicate of selected spaces, with the links among them.

The spaces travel through the system clipboard as JSON in the track format (the same fields as
in a track file), so they can be pasted into another track or another window of the editor.
Pasted spaces get fresh ids and keep their lanes, kinds and headings; a link is copied when both
its ends are.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError
from PySide6.QtGui import QGuiApplication

from editor import edits
from trackformat.model import Link, Space, Track

if TYPE_CHECKING:
    from editor.document import TrackDocument

Say = Callable[[str], None]
"""Where a command tells the designer what it did (the status bar)."""

STEP = 20.0
"""How far (board pixels) a duplicate lands from its original, right and down."""


def copied(track: Track, ids: Collection[str]) -> dict[str, Any]:
    """The selected spaces and the links among them, as a JSON-ready document."""
    spaces = [s for s in track.spaces if s.id in ids]
    chosen = {s.id for s in spaces}
    links = [k for k in track.links if k.from_ in chosen and k.to in chosen]
    return {
        "spaces": [s.model_dump(mode="json", by_alias=True) for s in spaces],
        "links": [k.model_dump(mode="json", by_alias=True) for k in links],
    }


def pasted(track: Track, document: dict[str, Any], dx: float, dy: float) -> tuple[Track, list[str]]:
    """The track with the copied spaces added, moved by (dx, dy) with fresh ids; and those ids.

    Raises :class:`edits.EditError` when the clipboard holds no spaces of a track."""
    try:
        spaces = [Space.model_validate(s) for s in document.get("spaces", [])]
        links = [Link.model_validate(k) for k in document.get("links", [])]
    except (ValidationError, AttributeError, TypeError):
        raise edits.EditError("the clipboard holds no spaces of a track") from None
    if not spaces:
        raise edits.EditError("the clipboard holds no spaces of a track")
    taken = {s.id for s in track.spaces}
    renamed: dict[str, str] = {}
    for space in spaces:
        renamed[space.id] = edits.fresh_id(taken, f"{space.id}-copy")
        taken.add(renamed[space.id])
    moved = [
        s.model_copy(
            update={
                "id": renamed[s.id],
                "polygon": [(round(x + dx, 2), round(y + dy, 2)) for x, y in s.polygon],
                "centre": (round(s.centre[0] + dx, 2), round(s.centre[1] + dy, 2)),
            }
        )
        for s in spaces
    ]
    relinked = [
        Link.model_validate({"from": renamed[k.from_], "to": renamed[k.to]})
        for k in links
        if k.from_ in renamed and k.to in renamed
    ]
    return edits.add_spaces(track, moved, relinked), [renamed[s.id] for s in spaces]


def _selected_spaces(document: TrackDocument) -> list[str]:
    spaces = {s.id for s in document.track.spaces}
    return [i for i in document.selection if i in spaces]


def copy(document: TrackDocument, say: Say) -> bool:
    """Put the selected spaces on the clipboard; False (and a message) when none is selected."""
    ids = _selected_spaces(document)
    if not ids:
        say("Select the spaces to copy first")
        return False
    # Plain text, not a QMimeData of our own: the clipboard would own a Python-made QMimeData
    # and delete it behind Python's back at exit, which crashes the interpreter.
    QGuiApplication.clipboard().setText(json.dumps(copied(document.track, ids)))
    say(f"Copied {len(ids)} space{'s' if len(ids) != 1 else ''}")
    return True


def _paste_document(copies: dict[str, Any], document: TrackDocument, say: Say) -> bool:
    made: list[str] = []

    def add(track: Track) -> Track:
        new, ids = pasted(track, copies, STEP, STEP)
        made.extend(ids)
        return new

    count = len(copies.get("spaces", [])) if isinstance(copies, dict) else 0
    if document.edit(f"Paste {count} space{'s' if count != 1 else ''}", add):
        document.set_selection(made)
        say(f"Pasted {', '.join(made[:4])}{' ...' if len(made) > 4 else ''}")
        return True
    return False


def paste(document: TrackDocument, say: Say) -> bool:
    """Add the clipboard's spaces, a step right and down of where they were copied from."""
    raw = QGuiApplication.clipboard().text()
    try:
        copies = json.loads(raw) if raw else {}
    except ValueError:
        copies = {}
    if not isinstance(copies, dict) or not copies.get("spaces"):
        say("The clipboard holds no spaces to paste: copy some first (Ctrl+C)")
        return False
    return _paste_document(copies, document, say)


def duplicate(document: TrackDocument, say: Say) -> bool:
    """Copy the selected spaces and paste them at once, a step right and down."""
    ids = _selected_spaces(document)
    if not ids:
        say("Select the spaces to duplicate first")
        return False
    return _paste_document(copied(document.track, ids), document, say)
