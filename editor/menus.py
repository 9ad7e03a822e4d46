"""The main window's menus, toolbar and recent files.

Kept apart from the window's behaviour: this module only wires menu entries and shortcuts to
what the window already does.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QMenu

from editor import (
    board_aids,
    clipboard,
    file_commands,
    file_places,
    help_menu,
    session,
    trace_board,
)
from editor.tools import corner_tool, pit_tool
from editor.tools.registry import tool_classes

if TYPE_CHECKING:
    from editor.mainwindow import MainWindow

MAX_RECENT = 8


def _action(
    window: MainWindow,
    menu: QMenu,
    text: str,
    slot: Callable[[], object],
    shortcut: QKeySequence.StandardKey | str | None = None,
) -> QAction:
    action = QAction(text, window)
    if shortcut is not None:
        action.setShortcut(QKeySequence(shortcut))
    action.triggered.connect(lambda _checked=False: slot())
    menu.addAction(action)
    return action


def build(window: MainWindow) -> None:
    """Menus File, Edit, View, Tools, Track and Help, and the tools' toolbar."""
    bar = window.menuBar()
    file = bar.addMenu("&File")
    keys = QKeySequence.StandardKey
    _action(window, file, "New blank board...", window.new_blank, keys.New)
    _action(window, file, "New from board picture...",
            lambda: window.with_chosen_picture(window.new_from_scan), "Ctrl+Shift+N")
    _action(window, file, "Open...", window.open_dialog, keys.Open)
    window.recent_menu = file.addMenu("Open recent")
    refresh_recent(window)
    _action(window, file, "Save", window.save, keys.Save)
    _action(window, file, "Save as...", window.save_as, keys.SaveAs)
    _action(window, file, "Set board picture...",
            lambda: window.with_chosen_picture(window.set_board_picture))
    _action(window, file, "Relink board picture...",
            lambda: window.with_chosen_picture(window.relink_scan))
    _action(window, file, "Trace board picture...", lambda: trace_board.trace_board_picture(
        trace_board.TraceParts(window, window.document, window.validation, window.problems,
                               window.scene, window.view, window.show_status,
                               session.last_folder(window.settings))))
    file.addSeparator()
    _action(window, file, "Import GP Online...", lambda: file_commands.import_gponline(window))
    _action(window, file, "Export to GP Online...", lambda: file_commands.export_gponline(window))
    _action(window, file, "Render a picture...", lambda: file_commands.render_picture(window))
    _action(window, file, "Print board...", lambda: _print_board(window), keys.Print)
    _action(window, file, "Export JSON Schema...", lambda: file_commands.export_schema(window))
    file.addSeparator()
    _action(window, file, "Quit", window.close, keys.Quit)

    edit = bar.addMenu("&Edit")
    window.undo_action = _action(
        window, edit, "Undo", lambda: window.document.undo_stack.undo(), keys.Undo
    )
    window.redo_action = _action(
        window, edit, "Redo", lambda: window.document.undo_stack.redo(), keys.Redo
    )
    edit.addSeparator()
    _action(window, edit, "Copy", lambda: clipboard.copy(window.document, window.show_status),
            keys.Copy)
    _action(window, edit, "Paste",
            lambda: clipboard.paste(window.document, window.show_status), keys.Paste)
    _action(window, edit, "Duplicate",
            lambda: clipboard.duplicate(window.document, window.show_status), "Ctrl+D")
    edit.addSeparator()
    _action(
        window,
        edit,
        "Select all spaces",
        lambda: window.document.set_selection(s.id for s in window.document.track.spaces),
        keys.SelectAll,
    )

    view = bar.addMenu("&View")
    _action(window, view, "Zoom in", lambda: window.view.zoom(1), keys.ZoomIn)
    _action(window, view, "Zoom out", lambda: window.view.zoom(-1), keys.ZoomOut)
    _action(window, view, "Fit board", lambda: window.view.fit(), "Ctrl+0")
    view.addSeparator()
    aids = board_aids.BoardAids(window.settings, window.scene, window.view, window.statusBar(),
                                view, window)
    window.snap_action, window.snap_label = aids.snap_action, aids.snap_label
    window.minimap_action, window.minimap = aids.minimap_action, aids.minimap
    view.addSeparator()
    for dock in (
        window.problems_dock,
        window.inspector_dock,
        window.history_dock,
        window.layers_dock,
        window.options_dock,
        window.testdrive_dock,
    ):
        view.addAction(dock.toggleViewAction())

    tools_menu = bar.addMenu("&Tools")
    window.tool_actions = QActionGroup(window)
    toolbar = window.addToolBar("Tools")
    toolbar.setObjectName("Tools")
    for cls in tool_classes():
        action = QAction(cls.name, window, checkable=True)
        action.setShortcut(cls.shortcut)
        action.setStatusTip(cls.hint)
        action.triggered.connect(lambda _on, name=cls.name: window.choose_tool(name))
        window.tool_actions.addAction(action)
        tools_menu.addAction(action)
        toolbar.addAction(action)

    track = bar.addMenu("T&rack")
    _action(
        window, track, "Check now", lambda: window.validation.run_now(window.document.track), "F5"
    )
    _action(window, track, "Test drive", window.testdrive_dock.raise_, "F6")
    track.addSeparator()
    # The Pit lane tool's B and Alt-click act on the space under the pointer; this acts on the
    # selection with any tool, and on desktops whose window manager keeps Alt-click.
    _action(
        window,
        track,
        pit_tool.MENU_ENTRY,
        lambda: pit_tool.toggle_selected_places_to_stop(window.document, window.show_status),
        pit_tool.MENU_KEYS,
    ).setStatusTip(
        "Make the selected spaces team boxes (beside the pit lane) or garages (in it), or take "
        "them back"
    )

    _action(
        window,
        track,
        corner_tool.RESHAPE_ENTRY,
        lambda: corner_tool.reshape_selected(window.document, lambda: _corner_tool(window),
                                             window.show_status),
        corner_tool.RESHAPE_KEYS,
    ).setStatusTip("Pick the selected corner's spaces in the Corner tool: click spaces out or "
                   "in, Enter reshapes it, its stops and printed numbers kept")

    helps = bar.addMenu("&Help")
    _action(window, helps, "Keyboard shortcuts", lambda: _show_shortcuts(window), "F1")


def _show_shortcuts(window: MainWindow) -> None:
    """Help > Keyboard shortcuts; the text kept in the window's ``last_help``."""
    window.last_help = help_menu.show_shortcuts(window, window.tools.values(), window.ask)


def _corner_tool(window: MainWindow) -> corner_tool.CornerTool:
    """The Corner tool, chosen."""
    window.choose_tool(corner_tool.CornerTool.name)
    tool = window.tools[corner_tool.CornerTool.name]
    assert isinstance(tool, corner_tool.CornerTool)
    return tool


def _print_board(window: MainWindow) -> None:
    """File > Print board... on the track as it is now (the PDF library is loaded then, not
    when the editor starts)."""
    from editor import print_board

    print_board.print_board(window, window.document.track, window.document.path, window.settings,
                            file_places.proposed_path(window.document, window.settings, ".pdf"),
                            window.show_status)


def recent_files(window: MainWindow) -> list[str]:
    value = window.settings.value("recent", [])
    return [str(v) for v in (value if isinstance(value, list) else [value] if value else [])]


def remember(window: MainWindow, path: Path) -> None:
    """Put ``path`` first in the recent files, and its folder first for the file dialogs."""
    text = str(path.resolve())
    session.remember_folder(window.settings, path)
    recent = [text] + [r for r in recent_files(window) if r != text]
    window.settings.setValue("recent", recent[:MAX_RECENT])
    refresh_recent(window)


def refresh_recent(window: MainWindow) -> None:
    window.recent_menu.clear()
    for entry in recent_files(window):
        action = window.recent_menu.addAction(entry)
        action.triggered.connect(lambda _c=False, e=entry: window.open_path(Path(e)))
