"""A small closed circuit laid out on a blank board, as a user does it: with the mouse and keys
on the real editor window, tool by tool, from File > New to File > Save.

Shared by the layout test (``tests/editor/test_new_circuit_layout.py``) and the screenshot script
(``tools/layout_screens.py``), so that both play exactly the same clicks. Every step goes through
the view's viewport and the window's shortcuts: tools are chosen by their keys, options typed
into their fields, spaces picked by clicking where they are drawn on the board.

The circuit: a rounded triangle of three straights and three right-handers, three lanes, laid
in three stretches (each a straight and the bend after it), the last one ending on the start of
the lanes; a corner on each bend, given its stops and printed numbers in the inspector; the
finish line half way along the top straight, a grid of ten slots behind it; a pit lane beside
the top straight, its entry and exit, and three team boxes beside it.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from unittest import mock

from PySide6.QtCore import Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from tests.editor.hand import (
    CTRL,
    SHIFT,
    Hand,
    Point,
    centre_of,
    wait_for_check,
)

NAME = "Triangle Park"
BOARD_PRESET = 1
"""The second size File > New offers: the half board, 2100 x 1500 px."""
LANE_WIDTH = 40.0
SPACE_LENGTH = 60
"""Typed into the Lanes tool's *Space length*: about a printed space's length at its width."""

TOP = 230.0
"""The middle of the top straight (board px)."""
START_X = 640.0
STRAIGHT = 760.0
RADIUS = 220.0
TURN = 120.0
"""Each bend turns right by this many degrees: three of them make the lap."""
STOPS = (2, 1, 3)
"""The stops of the three corners, in lap order, typed in the inspector."""
GRID_SLOTS = 10
BOXES = 3


def _heading(degrees: float) -> Point:
    return (math.cos(math.radians(degrees)), math.sin(math.radians(degrees)))


def _right_of(degrees: float) -> Point:
    """The unit vector to the driver's right, heading ``degrees`` (board y grows down)."""
    dx, dy = _heading(degrees)
    return (-dy, dx)


def _plus(a: Point, b: Point, scale: float = 1.0) -> Point:
    return (a[0] + b[0] * scale, a[1] + b[1] * scale)


@dataclass(frozen=True)
class Bend:
    """A right-hander of the middle line: its arc's centre and the angles (degrees) of its start
    and end as seen from the centre."""

    centre: Point
    start: float
    end: float

    def at(self, angle: float, offset: float = 0.0) -> Point:
        """The point of the arc at ``angle``, ``offset`` px to the driver's right of it."""
        radius = RADIUS - offset
        return (self.centre[0] + radius * math.cos(math.radians(angle)),
                self.centre[1] + radius * math.sin(math.radians(angle)))


@dataclass(frozen=True)
class Circuit:
    """The middle line of the circuit, and what the user clicks along it."""

    stretches: list[list[Point]] = field(default_factory=list)
    """Each stretch's clicks along the middle of the road: a straight, then its bend."""
    bends: list[Bend] = field(default_factory=list)
    straights: list[tuple[Point, float]] = field(default_factory=list)
    """Where each straight starts, and its heading."""


def circuit() -> Circuit:
    """The rounded triangle: straight, bend, straight, bend, straight, bend, back to the start."""
    point, heading = (START_X, TOP), 0.0
    stretches, bends, straights = [], [], []
    for _ in range(3):
        straights.append((point, heading))
        end = _plus(point, _heading(heading), STRAIGHT)
        centre = _plus(end, _right_of(heading), RADIUS)
        bend = Bend(centre, heading - 90.0, heading - 90.0 + TURN)
        bends.append(bend)
        # Clicks: the straight's start, a point a space before its end and its end (the road
        # is smoothed through the clicks: without the point before the end, the bend ahead
        # would bow the whole straight), then every 30 degrees round the bend.
        steps = int(TURN // 30)
        before_end = _plus(end, _heading(heading), -SPACE_LENGTH)
        clicks = [point, before_end, end] + [
            bend.at(bend.start + TURN * k / steps) for k in range(1, steps + 1)]
        stretches.append(clicks)
        point, heading = clicks[-1], heading + TURN
    # The last click is the start of the lanes: the lap closes there.
    stretches[-1][-1] = (START_X, TOP)
    return Circuit(stretches, bends, straights)


# The layout, step by step ---------------------------------------------------------------------


Shot = Callable[[str], None]


def new_blank_board(hand: Hand) -> None:
    """File > New (Ctrl+N): name the circuit, pick the half board, OK."""
    from editor.new_board import BlankBoardDialog

    window = hand.window
    answered: list[bool] = []

    def fill_in() -> None:
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, BlankBoardDialog), dialog
        dialog.name.selectAll()
        QTest.keyClicks(dialog.name, NAME)
        hand.actions.append(f"type {NAME}")
        for _ in range(BOARD_PRESET):  # the board's size: the next preset down
            QTest.keyClick(dialog.preset, Qt.Key.Key_Down)
            hand.actions.append("key Down")
        QTest.keyClick(dialog, Qt.Key.Key_Return)
        hand.actions.append("key Return")
        answered.append(True)

    asking, window.ask = window.ask, True
    QTimer.singleShot(0, fill_in)
    hand.key(Qt.Key.Key_N, CTRL)
    window.ask = asking
    assert answered, "Ctrl+N asked nothing"


def lay_lanes(hand: Hand, shot: Shot | None = None) -> None:
    """The Lanes tool (N): three lanes (the default), a space length typed in; each stretch
    clicked along the middle of the road and added with Enter, the last one ending on the start
    of the lanes, which closes the lap. ``shot`` is told "lanes" before that last Enter."""
    window = hand.window
    hand.key(Qt.Key.Key_N)
    tool = window.view.tool
    hand.type_into(tool.length_box, str(SPACE_LENGTH))
    stretches = circuit().stretches
    for number, stretch in enumerate(stretches):
        for point in stretch:
            hand.click(point)
        if number == len(stretches) - 1 and shot is not None:
            shot("lanes")
        hand.key(Qt.Key.Key_Return)


def make_corners(hand: Hand) -> None:
    """The Corner tool (C): one drag per bend, from the outside lane where the bend begins to the
    inside lane where it ends, Enter; then its stops and the numbers to print typed in the
    inspector."""
    window = hand.window
    bends = circuit().bends
    for bend, stops in zip(bends, STOPS, strict=True):
        hand.key(Qt.Key.Key_C)
        # A few degrees into the bend on the outside (lane 1, a lane width to the left of the
        # middle), to a few degrees before its end on the inside (lane 3).
        entry = bend.at(bend.start + 8.0, -LANE_WIDTH)
        exit_ = bend.at(bend.end - 8.0, LANE_WIDTH)
        hand.drag(entry, exit_)
        hand.key(Qt.Key.Key_Return)
        fields = window.inspector_dock.widget().fields
        hand.type_into(fields["stops"], str(stops))
        # The numbers to print beside the corner: those its moves give, as the inspector
        # shows them ("long 18, short 8").
        longest, shortest = re.findall(r"\d+", fields["computed"].text())
        hand.type_into(fields["printed_long"], longest)
        hand.type_into(fields["printed_short"], shortest)


def finish_line_and_grid(hand: Hand) -> None:
    """The Finish line tool (F): one click on the middle lane half way along the top straight.
    The Grid tool (G): the ten spaces behind the line, nearest first."""
    window = hand.window
    (x, y), _ = circuit().straights[0]
    line_x = x + STRAIGHT / 2
    hand.key(Qt.Key.Key_F)
    hand.click((line_x, y))
    track = window.document.track
    assert track.finish_line is not None
    # Behind the line: the spaces of the top straight before their lane's space on the line,
    # nearest the line first (the straight runs along x), as the user reads them off the board.
    line = {s.lane: s.centre[0] for s in track.spaces if s.id in track.finish_line.spaces}
    behind = sorted(
        (s for s in track.spaces
         if s.lane in line and abs(s.centre[1] - y) < 2 * LANE_WIDTH
         and x < s.centre[0] < line[s.lane]),
        key=lambda s: -s.centre[0])
    hand.key(Qt.Key.Key_G)
    for space in behind[:GRID_SLOTS]:
        hand.click(centre_of(window, space.id))


def _outline_box(window, space_id: str) -> tuple[float, float, float, float]:  # type: ignore[no-untyped-def]
    """Left, top, right and bottom of a space of the top straight (which runs along x)."""
    polygon = next(s.polygon for s in window.document.track.spaces if s.id == space_id)
    xs, ys = [p[0] for p in polygon], [p[1] for p in polygon]
    return min(xs), min(ys), max(xs), max(ys)


PIT_FROM, PIT_TO = 2, 10
"""The pit lane runs beside lane 1 of the top straight from the front of its third space to
the back of its eleventh; the pit entry is from the third, the exit onto the eleventh."""


def pit_lane(hand: Hand, shot: Shot | None = None) -> None:
    """Zoom in on the top straight (mouse wheel, middle-button drag). The Lanes tool (N) with
    *Pit lane* ticked: two clicks beside lane 1, where the Lanes tool snaps to the middle of a
    lane alongside the road, Enter. The Pit lane tool (P): Shift-click the track space it is
    entered from, Ctrl-click the one it leads back onto. The Space tool (D): the corners of each
    box beside the pit lane, Enter, then Ctrl+B makes it a team box. Ctrl+0 fits the board."""
    window = hand.window
    (x, y), _ = circuit().straights[0]
    middle = (x + STRAIGHT / 2, y - 2 * LANE_WIDTH)
    hand.wheel(middle, 3)
    hand.pan(hand.screen(middle), window.view.viewport().rect().center())
    lane_one = sorted(
        (s for s in window.document.track.spaces if s.lane == "1" and s.centre[0] > x
         and abs(s.centre[1] - (y - LANE_WIDTH)) < LANE_WIDTH / 4),
        key=lambda s: s.centre[0])
    entry, exit_ = lane_one[PIT_FROM].id, lane_one[PIT_TO].id
    _, top, front, _ = _outline_box(window, entry)
    back, _, _, _ = _outline_box(window, exit_)
    pit_y = top - LANE_WIDTH / 2
    hand.key(Qt.Key.Key_N)
    tool = window.view.tool
    hand.tick(tool.pit_box)
    hand.click((front, pit_y))
    hand.click((back, pit_y))
    hand.key(Qt.Key.Key_Return)
    hand.tick(tool.pit_box)  # back to laying lanes, for next time
    hand.key(Qt.Key.Key_P)
    hand.click(centre_of(window, entry), SHIFT)
    hand.click(centre_of(window, exit_), CTRL)
    # The boxes: above every other pit space, as long as it and a lane wide; their inner
    # corners snap onto the pit space's.
    hand.key(Qt.Key.Key_D)
    pit_spaces = list(window.document.track.pit_lane.spaces)
    for index in range(BOXES):
        left, top, right, _ = _outline_box(window, pit_spaces[1 + 2 * index])
        for corner in ((left, top - LANE_WIDTH), (right, top - LANE_WIDTH), (right, top),
                       (left, top)):
            hand.click(corner)
        hand.key(Qt.Key.Key_Return)
        hand.key(Qt.Key.Key_B, CTRL)
    if shot is not None:
        shot("grid-and-pit")
    hand.key(Qt.Key.Key_0, CTRL)


def save(hand: Hand, path: Path) -> None:
    """File > Save (Ctrl+S): the save dialog answered with ``path``."""
    with mock.patch("editor.mainwindow.QFileDialog.getSaveFileName",
                    return_value=(str(path), "")):
        hand.key(Qt.Key.Key_S, CTRL)


def lay_out(window, path: Path, shot: Shot | None = None,  # type: ignore[no-untyped-def]
            pause_ms: int = 0) -> Hand:
    """The whole layout, from a blank board to the saved file; ``shot`` is told the name of each
    main step once it is done (the screenshot script saves a picture)."""
    hand = Hand(window, pause_ms)

    def say(name: str) -> None:
        if shot is not None:
            started = time.perf_counter()
            wait_for_check(window)  # the problems panel and the corner labels up to date
            shot(name)
            hand.shot_seconds += time.perf_counter() - started

    new_blank_board(hand)
    say("blank-board")
    lay_lanes(hand, say)
    say("lap-closed")
    make_corners(hand)
    say("corners")
    finish_line_and_grid(hand)
    pit_lane(hand, say)
    # The Select tool (S), and a click on the empty board inside the circuit: nothing half
    # done, nothing selected.
    hand.key(Qt.Key.Key_S)
    bends = circuit().bends
    hand.click((sum(b.centre[0] for b in bends) / 3, sum(b.centre[1] for b in bends) / 3))
    wait_for_check(window)
    say("no-problems")
    save(hand, path)
    return hand
