"""The Pit lane tool: lay the pit lane, its entry and exit, and the teams' places to stop.

Each click is one call of :mod:`editor.layout`, so one undo step. A pit lane is often laid over
spaces drawn with the Lanes or Space tool and already linked; the tool's edits go through
:meth:`Tool.edit`, which leaves out a move listed already, so the lane never lists a move twice.

A team's place to stop (a box beside the lane, a garage in it) is made with B over a space, the
Track menu's *Team box or garage* (Ctrl+B) on the selected spaces, or the inspector's check box.
Alt-click does it too, but most window managers keep Alt-click for moving windows, so it is only
a shortcut for those whose desktop lets it through.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QKeyEvent, QMouseEvent

from editor import edits, layout
from editor.document import TrackDocument
from editor.tools.base import Tool, ToolContext
from trackformat.model import Track

SHIFT = Qt.KeyboardModifier.ShiftModifier
CTRL = Qt.KeyboardModifier.ControlModifier
ALT = Qt.KeyboardModifier.AltModifier

MENU_ENTRY = "Team box or garage"
"""The Track menu's entry that makes the selected spaces places to stop (see :mod:`menus`)."""
MENU_KEYS = "Ctrl+B"


def toggle_places_to_stop(track: Track, spaces: Sequence[str]) -> Track:
    """Each of ``spaces`` becomes a team's place to stop, or stops being one: a pit-lane space a
    garage in line (as GP Online draws it), any other space a box beside the lane."""
    for space in spaces:
        pit = track.pit_lane
        if pit is not None and space in pit.spaces:
            track = layout.toggle_garage(track, space)
        else:
            track = layout.toggle_box(track, space)
    return track


def place_to_stop_news(track: Track, space: str) -> str:
    """What ``space`` is now, for the status bar after it was toggled."""
    pit = track.pit_lane
    if pit is not None and space in pit.garages:
        return f"{space} is a garage in line: a team stops there, like at a box"
    if pit is not None and space in pit.spaces:
        return f"{space} is no longer a garage"
    if pit is not None and space in pit.boxes:
        return f"{space} is a team box"
    return f"{space} is no longer a team box"


def toggle_place_to_stop(
    document: TrackDocument, spaces: Sequence[str], say: Callable[[str], None]
) -> bool:
    """Make ``spaces`` places to stop, or take them back, as one undo step, and ``say`` what
    they are now; False when refused (the document says why) or nothing was given."""
    chosen = list(dict.fromkeys(spaces))
    if not chosen:
        say(f"Select a space first: {MENU_KEYS} makes the selected spaces team boxes or garages")
        return False
    pit = document.track.pit_lane
    garages = pit is not None and all(s in pit.spaces for s in chosen)
    text = "Garage" if garages else "Team box" if len(chosen) == 1 else "Team boxes and garages"
    before = document.track
    selected = document.selection
    if not document.edit(
        text, lambda t: edits.without_new_copies(t, toggle_places_to_stop(t, chosen))
    ):
        return False
    # A space drawn by hand became a box under a box's id (see layout.box_id): say and keep
    # selected what it is called now.
    ids = {s.id for s in document.track.spaces}
    gone = [s.id for s in before.spaces if s.id not in ids]
    known = {s.id for s in before.spaces}
    renamed = dict(zip(gone, [s.id for s in document.track.spaces if s.id not in known],
                       strict=False))
    chosen = [renamed.get(s, s) for s in chosen]
    if renamed and selected & renamed.keys():
        document.set_selection({renamed.get(s, s) for s in selected})
    news = [place_to_stop_news(document.track, s) for s in chosen[:3]]
    more = f"; and {len(chosen) - 3} more" if len(chosen) > 3 else ""
    say("; ".join(news) + more)
    return True


def toggle_selected_places_to_stop(document: TrackDocument, say: Callable[[str], None]) -> bool:
    """The menu entry: the selected spaces, in the track's order, become places to stop or
    stop being ones (with any tool, and with no modifier a window manager could take)."""
    chosen = document.selection
    return toggle_place_to_stop(
        document, [s.id for s in document.track.spaces if s.id in chosen], say
    )


class PitTool(Tool):
    name = "Pit lane"
    shortcut = "P"
    hint = (
        "Click pit-lane spaces in driving order; Shift-click a track space to enter from it, "
        "Ctrl-click one to leave onto it; B (or Alt-click) makes the space under the pointer a "
        "team's place to stop, a box beside the lane or a garage in the lane, or takes it back; "
        f"{MENU_KEYS} (Track > {MENU_ENTRY}) does it to the selected spaces"
    )
    cursor = Qt.CursorShape.PointingHandCursor

    def __init__(self, context: ToolContext) -> None:
        super().__init__(context)
        self._pointer: QPointF | None = None
        self._clicked: str | None = None

    def press(self, event: QMouseEvent, pos: QPointF) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        space = self.scene.space_at(pos)
        if space is None:
            return True
        self._clicked = space
        mods = event.modifiers()
        if mods & SHIFT:
            self.edit("Pit entry", lambda t: layout.toggle_pit_entry(t, space))
        elif mods & CTRL:
            self.edit("Pit exit", lambda t: layout.toggle_pit_exit(t, space))
        elif mods & ALT:
            self.toggle_place_to_stop(space)
        else:
            self.edit("Pit-lane space", lambda t: layout.append_pit_space(t, space))
        return True

    def move(self, event: QMouseEvent, pos: QPointF) -> bool:
        self._pointer = pos
        return False

    def key(self, event: QKeyEvent) -> bool:
        """B: the space under the pointer (else the one last clicked) becomes a place to stop,
        or stops being one: a key works on every desktop, where Alt-click often moves the
        window instead."""
        if event.key() != Qt.Key.Key_B or event.modifiers() & (CTRL | ALT):
            return False
        space = self.scene.space_at(self._pointer) if self._pointer is not None else None
        space = space or self._clicked
        if space is None:
            self.context.status("Point at a space and press B to make it a box or a garage")
        else:
            self.toggle_place_to_stop(space)
        return True

    def toggle_place_to_stop(self, space: str) -> None:
        """A pit-lane space becomes a garage in line, any other space a box beside the lane;
        one that already is one stops being it."""
        self._clicked = space
        toggle_place_to_stop(self.document, [space], self.context.status)
