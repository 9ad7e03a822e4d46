"""Accepting a problem as the board prints it: an entry of the track's ignore list, made from the
problems panel.

Some warnings and notes describe the board as it is printed, not a mistake: the printed lines of a
scanned board a little thicker than the validator allows between linked spaces, two lanes not
staggered where the board does not stagger them. The designer checks the board and accepts the
problem: the track's ``ignore`` list (see docs/format.md) gets the diagnostic's code and the
elements it names, with the reason typed, so that the next person who reads the file knows why;
the validator then counts it as ignored. One undo step takes it back.

An error cannot be accepted: a track with one cannot be raced, or races other than as printed.
"""

from __future__ import annotations

from PySide6.QtWidgets import QInputDialog, QWidget

from editor.document import TrackDocument
from trackformat.lint import Diagnostic, Severity
from trackformat.model import Ignore, Track


def acceptable(diagnostic: Diagnostic) -> bool:
    """Whether ``diagnostic`` may be accepted: a warning or a note of a rule of the validator."""
    return diagnostic.severity != Severity.ERROR and diagnostic.code != "INTERNAL"


def accepted(track: Track, diagnostic: Diagnostic, reason: str) -> Track:
    """``track`` with ``diagnostic`` in its ignore list (the same entry is not listed twice)."""
    entry = Ignore(code=diagnostic.code, elements=list(diagnostic.location.elements),
                   reason=reason.strip())
    if any(e.code == entry.code and e.elements == entry.elements for e in track.ignore):
        return track
    return track.model_copy(update={"ignore": [*track.ignore, entry]})


def accept(document: TrackDocument, diagnostic: Diagnostic, reason: str) -> bool:
    """Accept ``diagnostic`` in ``document``'s track, as one undo step; False when it cannot
    be accepted (an error) or is accepted already."""
    if not acceptable(diagnostic):
        return False
    return document.edit(f"Accept {diagnostic.code}",
                         lambda track: accepted(track, diagnostic, reason))


def ask_and_accept(parent: QWidget, document: TrackDocument, diagnostic: Diagnostic) -> bool:
    """Ask why ``diagnostic`` is right as it is, then accept it; False if the user cancels
    (the panel offers errors no *Accept*, and :func:`accept` refuses them anyway)."""
    where = ", ".join(diagnostic.location.elements[:4]) or "the whole track"
    reason, given = QInputDialog.getText(
        parent, f"Accept {diagnostic.code}",
        f"{diagnostic.message}\n\nAccepted for {where}: the track's ignore list keeps it. "
        "Why is it right as it is (as printed on the board, say)?")
    return bool(given) and accept(document, diagnostic, reason)
