"""The Corner tool: pick the spaces inside a corner's limits, lane by lane, and make the corner.

A corner on a board is a bend of two or three lanes, each lane a stretch of spaces from the
entry to the exit. The tool lets a designer pick it as the board shows it:

- a drag along a lane, from the corner's entry to its exit, picks that lane's stretch: one drag
  per lane picks a corner whose printed limits slant across the lanes, exactly;
- a drag across lanes, from a space where the corner starts to one where it ends, picks, in
  every lane between the two, the stretch level with them: one drag from the entry of the
  outside lane to the exit of the inside lane picks a whole bend with square limits;
- Shift-click the exit of a lane to take its stretch from its entry: the nearest space picked
  in that lane, or, in a lane with nothing picked yet, the space beside where the picked lane
  next to it enters; so one click per lane picks a lane once the first is picked;
- a click picks one space, and a click on a picked space takes it out again (the status bar
  says so), for the odd space a printed corner adds or leaves out.

The status bar counts the spaces picked in each lane; Enter, or a double-click on the last space,
makes the corner. The picking is worked out on the track's graphs by the functions below,
without Qt.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QKeyEvent, QMouseEvent

from editor import layout
from editor.document import TrackDocument
from editor.edits import EditError
from editor.scene.labels import spaces_by_lane
from editor.tools.base import Tool, ToolContext
from trackformat.graph import TrackGraphs, build_graphs
from trackformat.model import Track


def level_with(graphs: TrackGraphs, space: str, lane: str) -> str | None:
    """The space of ``lane`` level with ``space``: walked across the lanes between, each step to
    the space beside (sharing a side) nearest the one before, or the nearest space of the next
    lane where none is beside. None when ``space`` is in no lane."""
    order = graphs.lane_order
    start = graphs.lane_of(space)
    if start not in order or lane not in order:
        return None
    here, there = order.index(start), order.index(lane)
    step = 1 if there > here else -1
    current = space
    for index in range(here + step, there + step, step):
        next_lane = order[index]
        beside = [n for n in graphs.neighbours.neighbors(current) if graphs.lane_of(n) == next_lane]
        candidates = beside or graphs.lanes.get(next_lane, [])
        if not candidates:
            return None
        centre = graphs.spaces[current].centre
        current = min(candidates, key=lambda s: math.dist(graphs.spaces[s].centre, centre))
    return current


def stretch(graphs: TrackGraphs, first: str, last: str) -> list[str]:
    """The spaces of one lane between ``first`` and ``last``, in driving order, whichever way
    round the lane is shorter: the user may drag or Shift-click from the exit back to the entry,
    and a corner never takes half a lane."""
    lane = graphs.lane_of(first)
    if lane is None or lane != graphs.lane_of(last) or lane not in graphs.lanes:
        raise EditError(f"{first} and {last} are not in the same lane")
    order = graphs.lanes[lane]
    a, b = order.index(first), order.index(last)

    def between(x: int, y: int) -> list[str]:
        return order[x : y + 1] if x <= y else order[x:] + order[: y + 1]

    return min(between(a, b), between(b, a), key=len)


def bend(graphs: TrackGraphs, first: str, last: str) -> list[str]:
    """What a drag from ``first`` to ``last`` picks: in each lane from ``first``'s to
    ``last``'s, the stretch from the space level with ``first`` to the one level with
    ``last``."""
    order = graphs.lane_order
    lanes = [graphs.lane_of(first), graphs.lane_of(last)]
    if not all(lane in order for lane in lanes):
        raise EditError("a corner is made of the spaces of the track's lanes")
    low, high = sorted(order.index(str(lane)) for lane in lanes)
    picked: list[str] = []
    for lane in order[low : high + 1]:
        entry, exit_ = level_with(graphs, first, lane), level_with(graphs, last, lane)
        if entry is not None and exit_ is not None:
            picked += stretch(graphs, entry, exit_)
    return picked


def _lane_gap(graphs: TrackGraphs, a: str, b: str) -> int:
    """How many spaces apart ``a`` and ``b`` are along their lane, the short way round."""
    lane = graphs.lanes[str(graphs.lane_of(a))]
    gap = abs(lane.index(a) - lane.index(b))
    return min(gap, len(lane) - gap)


def _entry_of_run(graphs: TrackGraphs, picked: set[str], lane: str, near: str) -> str:
    """The first space, in driving order, of the run of ``picked`` spaces of ``lane`` nearest
    ``near`` (a space of that lane)."""
    order = graphs.lanes[lane]
    closest = min((s for s in order if s in picked), key=lambda s: _lane_gap(graphs, s, near))
    index = order.index(closest)
    for _ in range(len(order) - 1):
        before = order[index - 1]
        if before not in picked:
            break
        index -= 1
    return order[index]


def stretch_to(graphs: TrackGraphs, picked: Sequence[str], space: str) -> list[str]:
    """What a Shift-click on ``space`` takes: its lane's stretch from the nearest space picked in
    that lane; in a lane with none picked, from the space level with the entry of the picked
    stretch in the nearest lane that has one. Raises :class:`EditError` when neither exists."""
    lane = graphs.lane_of(space)
    if lane is None or lane not in graphs.lanes:
        raise EditError(f"{space} is in no lane: a corner's stretches are lanes' spaces")
    chosen = set(picked)
    own = [s for s in picked if graphs.lane_of(s) == lane]
    if own:
        nearest = min(own, key=lambda s: _lane_gap(graphs, s, space))
        return stretch(graphs, nearest, space)
    order = graphs.lane_order
    others = {graphs.lane_of(s) for s in picked} & set(order)
    if not others:
        raise EditError(
            f"pick the entry of lane {lane} first, then Shift-click its exit to take the stretch"
        )
    nearest_lane = min(others, key=lambda k: abs(order.index(str(k)) - order.index(lane)))
    beside = level_with(graphs, space, str(nearest_lane))
    entry = None if beside is None else _entry_of_run(graphs, chosen, str(nearest_lane), beside)
    start = None if entry is None else level_with(graphs, entry, lane)
    if start is None:
        raise EditError(f"no space of lane {lane} is level with the corner's entry")
    return stretch(graphs, start, space)


class CornerTool(Tool):
    name = "Corner"
    shortcut = "C"
    hint = (
        "Drag along a lane from the corner's entry to its exit to pick that stretch, or across "
        "lanes to pick the bend level with both ends; Shift-click a lane's exit to take its "
        "stretch from its entry; click a space to pick it or take it out; Enter (or a "
        "double-click) makes the corner, Esc starts again. Shift+C reshapes the selected "
        "corner"
    )
    cursor = Qt.CursorShape.PointingHandCursor

    def __init__(self, context: ToolContext) -> None:
        super().__init__(context)
        self.picked: list[str] = []
        self._pressed: str | None = None
        """The space the left button went down on, until it is let go."""
        self._over: str | None = None
        """The space under the pointer during a drag."""
        self._graphs: TrackGraphs | None = None
        self.reshaping: str | None = None
        """The corner whose spaces are picked, to be reshaped by Enter (see
        :func:`reshape_selected`): a traced draft's corner that misses part of its bend is
        mended in place, its stops and printed numbers kept."""

    def reshape(self, corner_id: str) -> None:
        """Pick the spaces of the corner ``corner_id``, for Enter to reshape it."""
        corner = next(c for c in self.document.track.corners if c.id == corner_id)
        self.reshaping = corner.id
        self.picked = list(corner.spaces)
        self._show(self.picked, lead=f"Reshaping {corner.name or corner.id}: ")

    def graphs(self) -> TrackGraphs:
        """The track's graphs, built once per version of the track (a drag asks on every
        space the pointer crosses)."""
        track = self.document.track
        if self._graphs is None or self._graphs.track is not track:
            self._graphs = build_graphs(track)
        return self._graphs

    def press(self, event: QMouseEvent, pos: QPointF) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        self._pressed = self._over = self.scene.space_at(pos)
        return True

    def move(self, event: QMouseEvent, pos: QPointF) -> bool:
        if self._pressed is None:
            return False
        space = self.scene.space_at(pos)
        if space is None or space == self._over:
            return True
        self._over = space
        if space == self._pressed:  # dragged back: a click after all
            self._show(self.picked)
            return True
        try:
            dragged = bend(self.graphs(), self._pressed, space)
        except EditError as err:
            self.context.status(str(err))
            return True
        self._show(self._with(dragged), then="let go to pick them")
        return True

    def release(self, event: QMouseEvent, pos: QPointF) -> bool:
        if self._pressed is None or event.button() != Qt.MouseButton.LeftButton:
            return False
        start, self._pressed = self._pressed, None
        end = self.scene.space_at(pos) or self._over
        lead = ""
        try:
            if end is not None and end != start:
                self.picked = self._with(bend(self.graphs(), start, end))
            elif event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
                self.picked = self._with(stretch_to(self.graphs(), self.picked, start))
            elif start in self.picked:
                self.picked.remove(start)
                lead = f"Took {start} out: "
            else:
                self.picked.append(start)
        except EditError as err:
            self.document.set_selection(self.picked)
            self.context.status(str(err))
            return True
        self._show(self.picked, lead)
        return True

    def double_click(self, event: QMouseEvent, pos: QPointF) -> bool:
        """A double-click on a space makes the corner, the space picked (its two clicks took it
        in and out again), as a double-click finishes a space or lanes in the other tools."""
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        space = self.scene.space_at(pos)
        if space is None:
            return False
        self._pressed = self._over = None
        if space not in self.picked:
            self.picked.append(space)
        self.commit()
        return True

    def _with(self, spaces: Iterable[str]) -> list[str]:
        """The picked spaces and ``spaces`` (a drag or a Shift-click only ever adds)."""
        return [*self.picked, *(s for s in dict.fromkeys(spaces) if s not in self.picked)]

    def _show(self, spaces: list[str], lead: str = "", then: str = "") -> None:
        """Show ``spaces`` selected, and in the status bar how many each lane has."""
        self.document.set_selection(spaces)
        count = f"{len(spaces)} space{'s' if len(spaces) != 1 else ''} picked"
        lanes = spaces_by_lane(self.document.track, spaces)
        if not then and self.reshaping is not None:
            then = ("click spaces to take them out or add them, drag to add a stretch; "
                    f"Enter reshapes {self.reshaping}, Esc leaves it as it was")
        then = then or "Enter makes the corner, Esc starts again"
        counted = f"{count} ({lanes})" if lanes else count
        self.context.status(f"{lead}{counted}: {then}")

    def key(self, event: QKeyEvent) -> bool:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.commit()
            return True
        return False

    def commit(self) -> str | None:
        picked, reshaped = list(self.picked), self.reshaping
        made: list[str] = []

        def change(track: Track) -> Track:
            new, corner_id = layout.make_corner(track, picked, reshaped=reshaped)
            made.append(corner_id)
            return new

        if self.edit("Reshape corner" if reshaped else "Make corner", change):
            self.picked, self.reshaping = [], None
            self.document.set_selection(made)
            lanes = spaces_by_lane(self.document.track, picked)
            self.context.status(
                f"Reshaped {made[0]} ({lanes}): check its printed numbers in the inspector"
                if reshaped else
                f"Made {made[0]} ({lanes}): set its stops and printed numbers in the inspector"
            )
            return made[0]
        return None

    def cancel(self) -> None:
        self.reshaping = None
        self.picked = []
        self._pressed = self._over = None
        self.document.set_selection(())
        self.context.status(self.hint)


RESHAPE_ENTRY = "Reshape selected corner"
RESHAPE_KEYS = "Shift+C"
"""Its own key, not C: a designer who selects a corner to type its stops and then presses C
to make the next one must not find the last one's spaces picked."""


def reshape_selected(document: TrackDocument, corner_tool: Callable[[], CornerTool],
                     status: Callable[[str], None]) -> bool:
    """Choose the Corner tool (``corner_tool``) with the selected corner's spaces picked, to
    take spaces out or add them and Enter; say what to select first when the selection is
    not one corner."""
    selection = set(document.selection)
    corners = [c for c in document.track.corners if c.id in selection]
    if len(corners) != 1:
        status("Select one corner first (click its label, or double-click inside it); then "
               f"{RESHAPE_KEYS} picks its spaces to reshape it")
        return False
    corner_tool().reshape(corners[0].id)
    return True
