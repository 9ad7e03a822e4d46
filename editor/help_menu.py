"""The Help menu's list of shortcuts, read off the window's own menus and tools so that it can
never disagree with them.

The list is long (every tool's hint is a sentence or two), so it is shown in two columns, in a
dialog no taller than the window and the screen: on 1920 x 1080 it fits whole, and on a smaller
screen the rest scrolls rather than running off the bottom with the Close button.
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape
from itertools import groupby
from typing import TYPE_CHECKING

from PySide6.QtCore import QRect
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QMainWindow,
    QMenu,
    QTextBrowser,
    QVBoxLayout,
)

if TYPE_CHECKING:
    from editor.tools.base import Tool

ON_THE_BOARD = (
    ("Mouse wheel", "zoom around the pointer, out as far as the whole board"),
    ("Space + drag, or middle drag", "pan"),
    ("Esc", "cancel what the tool is doing"),
    ("Enter or double-click", "finish a space, lanes or a corner"),
    ("Arrows (Shift: 10 px)", "nudge the selected spaces (Select tool)"),
    ("Delete", "delete the selection (Select tool)"),
    ("B (or Alt-click)", "make the space under the pointer a box or a garage, or take it back "
     "(Pit lane tool; Ctrl+B: the selected spaces, with any tool)"),
    ("Double-click inside a corner", "select the corner (Select tool; or click its label)"),
    ("Drag or Shift-click", "pick a lane's stretch, or drag across the lanes for a whole bend "
     "(Corner tool)"),
    ("1 to 6", "the car's gear (Moves tool)"),
    ("Up, Down", "the car's roll, down to all faces of its die (Moves tool)"),
    ("Shift-click or right-click", "put another car on a space or take it off (Moves tool)"),
    ("T", "what moves: the picture onto the track, the picture by hand, or the track onto the "
     "picture (Align tool)"),
)

COLUMNS = 2
WIDEST = 1200
"""The dialog's widest (screen pixels): wider, the lines get too long to read."""
SHARE_OF_ROOM = 0.9
"""The most of the screen's (and the window's) width and height the dialog takes."""


def shortcuts(window: QMainWindow, tools: Iterable[Tool]) -> list[tuple[str, str, str]]:
    """(group, keys, what they do) for every tool, every entry with a key of the window's
    menus, and the board."""
    rows = [
        ("Tools", tool.shortcut, f"{tool.name}: {tool.hint}")
        for tool in tools
        if tool.shortcut
    ]
    for menu in window.menuBar().findChildren(QMenu):
        title = menu.title().replace("&", "")
        if title in ("Tools", "Open recent"):
            continue
        for action in menu.actions():
            keys = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
            if keys and not action.menu():
                rows.append((title, keys, action.text().replace("&", "").rstrip(".")))
    rows += [("Board", keys, what) for keys, what in ON_THE_BOARD]
    return rows


def _group_table(group: str, rows: list[tuple[str, str, str]]) -> str:
    body = "".join(
        f"<tr><td><b>{escape(keys)}</b></td><td>{escape(what)}</td></tr>"
        for _group, keys, what in rows
    )
    return (f"<h3>{escape(group)}</h3>"
            f"<table cellpadding=2 cellspacing=0>{body}</table>")


def _columns(groups: list[tuple[str, list[tuple[str, str, str]]]]) -> list[list[str]]:
    """The groups' tables split, whole and in order, into :data:`COLUMNS` columns of about the
    same length (a row's length counted in its characters: the tools' hints wrap)."""
    def length(rows: list[tuple[str, str, str]]) -> int:
        return sum(60 + len(what) for _group, _keys, what in rows) + 120  # 120: the heading

    total = sum(length(rows) for _group, rows in groups)
    columns: list[list[str]] = [[]]
    filled = 0
    for group, rows in groups:
        if filled >= total * len(columns) / COLUMNS and len(columns) < COLUMNS:
            columns.append([])
        columns[-1].append(_group_table(group, rows))
        filled += length(rows)
    return columns


def shortcuts_html(window: QMainWindow, tools: Iterable[Tool]) -> str:
    """The shortcuts by group, the groups in :data:`COLUMNS` columns."""
    rows = shortcuts(window, tools)
    groups = [(group, list(grouped)) for group, grouped in groupby(rows, key=lambda r: r[0])]
    cells = "".join(
        f"<td valign=top width={100 // COLUMNS}%>{''.join(tables)}</td>"
        for tables in _columns(groups)
    )
    return f"<table width=100% cellspacing=8><tr>{cells}</tr></table>"


def shortcuts_dialog(window: QMainWindow, tools: Iterable[Tool],
                     room: QRect | None = None) -> QDialog:
    """The shortcuts in a dialog sized to show them whole when ``room`` (the screen's free
    area, by default) and the window allow it, and never larger than either: the list
    scrolls instead."""
    if room is None:
        room = window.screen().availableGeometry()
    dialog = QDialog(window)
    dialog.setWindowTitle("Keyboard shortcuts")
    text = QTextBrowser(dialog)
    text.setHtml(shortcuts_html(window, tools))
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, dialog)
    buttons.rejected.connect(dialog.reject)
    layout = QVBoxLayout(dialog)
    layout.addWidget(text, 1)
    layout.addWidget(buttons)
    width = min(WIDEST, int(room.width() * SHARE_OF_ROOM))
    # The text's own height at that width, and what goes round it: frames, margins, buttons.
    margins = layout.contentsMargins()
    around_w = margins.left() + margins.right() + 2 * text.frameWidth()
    laid = text.document().clone(dialog)  # the browser lays its own out at its own width
    laid.setTextWidth(width - around_w - text.verticalScrollBar().sizeHint().width())
    around_h = (margins.top() + margins.bottom() + 2 * text.frameWidth()
                + layout.spacing() + buttons.sizeHint().height())
    wanted = int(laid.size().height()) + around_h + 2
    tallest = int(min(room.height(), window.height()) * SHARE_OF_ROOM)
    dialog.resize(width, min(wanted, tallest))
    return dialog


def show_shortcuts(window: QMainWindow, tools: Iterable[Tool], ask: bool) -> str:
    """The shortcuts in a dialog (when ``ask``: dialogs are on); their text, for the window
    to keep."""
    tools = tuple(tools)
    if ask:
        shortcuts_dialog(window, tools).exec()
    return shortcuts_html(window, tools)
