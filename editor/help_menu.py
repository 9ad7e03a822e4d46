"""The Help menu's list of shortcuts, read off the window's own menus and tools so that it can
never disagree with them."""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QMenu, QMessageBox

if TYPE_CHECKING:
    from editor.mainwindow import MainWindow

ON_THE_BOARD = (
    ("Mouse wheel", "zoom around the pointer"),
    ("Space + drag, or middle drag", "pan"),
    ("Esc", "cancel what the tool is doing"),
    ("Enter or double-click", "finish a space, lanes or a corner"),
    ("Arrows (Shift: 10 px)", "nudge the selected spaces (Select tool)"),
    ("Delete", "delete the selection (Select tool)"),
    ("B (or Alt-click)", "make the space under the pointer a box or a garage, or take it back "
     "(Pit lane tool)"),
    ("1 to 6", "the car's gear (Moves tool)"),
    ("Up, Down", "the car's roll, down to all faces of its die (Moves tool)"),
    ("Shift-click or right-click", "put another car on a space or take it off (Moves tool)"),
)


def shortcuts(window: MainWindow) -> list[tuple[str, str, str]]:
    """(group, keys, what they do) for every tool, every menu entry with a key, and the board."""
    rows = [
        ("Tools", tool.shortcut, f"{tool.name}: {tool.hint}")
        for tool in window.tools.values()
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


def shortcuts_html(window: MainWindow) -> str:
    body = "".join(
        f"<tr><td>{escape(group)}</td><td><b>{escape(keys)}</b></td><td>{escape(what)}</td></tr>"
        for group, keys, what in shortcuts(window)
    )
    return f"<table cellpadding=2>{body}</table>"


def show_shortcuts(window: MainWindow) -> None:
    """The shortcuts in a dialog (in the status bar's last message when dialogs are off)."""
    window.last_help = shortcuts_html(window)
    if window.ask:
        box = QMessageBox(window)
        box.setWindowTitle("Keyboard shortcuts")
        box.setTextFormat(box.textFormat().RichText)
        box.setText(window.last_help)
        box.exec()
