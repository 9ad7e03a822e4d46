"""The main window: the board in the middle, panels around it, menus, tools and the file cycle."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QRectF, QSettings, Qt
from PySide6.QtGui import QAction, QActionGroup, QCloseEvent
from PySide6.QtWidgets import (
    QDockWidget,
    QFileDialog,
    QLabel,
    QMainWindow,
    QMenu,
    QMessageBox,
    QScrollArea,
    QUndoView,
)

from editor import (
    autosave,
    board_picture,
    docks,
    file_commands,
    file_places,
    menus,
    new_board,
    recovery,
)
from editor.document import TrackDocument, empty_track
from editor.minimap import Minimap
from editor.panels.inspector import Inspector
from editor.panels.layers import LayersPanel
from editor.panels.problems import ProblemsPanel
from editor.panels.testdrive import TestDrivePanel
from editor.scene.board_scene import BoardScene
from editor.session import last_folder, remember_folder, restore_layout, save_layout
from editor.status_bar import StatusHint, pointer_label
from editor.tools.base import Tool, ToolContext
from editor.tools.registry import tool_classes
from editor.validation import ValidationRunner
from editor.view import BoardView
from trackformat.io import TrackFileError
from trackformat.lint import Diagnostic, Report
from trackformat.model import Track

TRACK_FILTER = "Track files (*.json);;All files (*)"
OPTIONS_HEIGHT = 150
"""Height (px) the tool options panel keeps whatever the tool; longer options scroll."""


class MainWindow(QMainWindow):
    """One window edits one track at a time."""

    # Made by editor.menus.build:
    undo_action: QAction
    redo_action: QAction
    tool_actions: QActionGroup
    recent_menu: QMenu
    # Made by editor.docks.build:
    problems: ProblemsPanel
    undo_view: QUndoView
    layers: LayersPanel
    options_area: QScrollArea
    problems_dock: QDockWidget
    options_dock: QDockWidget
    inspector_dock: QDockWidget
    history_dock: QDockWidget
    layers_dock: QDockWidget
    testdrive_dock: QDockWidget
    # Made by editor.board_aids.BoardAids (in editor.menus.build):
    snap_action: QAction
    snap_label: QLabel
    minimap_action: QAction
    minimap: Minimap

    def __init__(self, settings: QSettings | None = None, ask: bool = True) -> None:
        super().__init__()
        self.settings = settings or QSettings("formula-d-trackkit", "editor")
        self.ask = ask
        """Whether to ask the user (dialogs); tests turn it off and answer through attributes."""
        self.scene = BoardScene(self)
        self.view = BoardView(self.scene, self)
        self.setCentralWidget(self.view)
        self.validation = ValidationRunner(self)
        self.validation.reportReady.connect(self._report_ready)
        self.status_label = StatusHint(self)
        self.counts_label = QLabel("")
        self.statusBar().addWidget(self.status_label, 1)
        self.pointer_label = pointer_label(self)
        self.statusBar().addPermanentWidget(self.pointer_label)
        self.statusBar().addPermanentWidget(self.counts_label)
        self.view.pointerMoved.connect(
            lambda p: self.pointer_label.setText(f"x {p.x():.0f}  y {p.y():.0f}")
        )
        self.scene.scanProblem.connect(self._scan_problem)
        # A rubber band picks on the board; the document holds the selection for everyone.
        self.view.rubberBandPicked.connect(self._rubber_band)
        self.document: TrackDocument = TrackDocument(empty_track(), None, self)
        self.autosave_owner = autosave.new_owner()
        """This window's name in its side files, the same for every track it opens."""
        self.autosaver: autosave.Autosaver | None = None
        self.tools: dict[str, Tool] = {}
        docks.build(self)
        menus.build(self)
        self.set_document(self.document)
        self.resize(1400, 900)
        self.resizeDocks([self.problems_dock], [170], Qt.Orientation.Vertical)  # board first
        restore_layout(self)

    # Documents -------------------------------------------------------------------------------

    def set_document(self, document: TrackDocument) -> None:
        old = self.document
        if old is not document:
            if self.autosaver is not None:
                self.autosaver.close()
            old.deleteLater()
        self.document = document
        document.trackChanged.connect(self._track_changed)
        document.selectionChanged.connect(self.scene.select_ids)
        document.fileStateChanged.connect(self._update_title)
        document.editFailed.connect(self.show_status)
        self.undo_view.setStack(document.undo_stack)
        self.inspector_dock.setWidget(Inspector(document))
        previous = self.testdrive_dock.widget()
        if isinstance(previous, TestDrivePanel):
            previous.shut_down()
        drive = TestDrivePanel(document)
        if isinstance(previous, TestDrivePanel):
            drive.take_settings(previous)
        drive.heatmapChanged.connect(self.scene.show_heatmap)
        drive.confirm = lambda text: (drive.ask_race_anyway(text) if self.ask
                                      else self.confirm_answer)
        drive.replayFrame.connect(self._replay_frame)
        drive.said.connect(self.show_status)
        self.testdrive_dock.setWidget(drive)
        context = ToolContext(document, self.scene, self.show_status)
        self.tools = {cls.name: cls(context) for cls in tool_classes()}
        # Room for every tool's options from the start, so that changing tools never resizes
        # the panels beside the board, nor so the board.
        sizes = [o.minimumSizeHint() for t in self.tools.values() if (o := t.options())]
        scroll_bar = self.options_area.verticalScrollBar().sizeHint().width()
        self.options_dock.setMinimumSize(
            max((z.width() for z in sizes), default=0) + scroll_bar + 12,
            min(max((z.height() for z in sizes), default=0), OPTIONS_HEIGHT) + 24,
        )
        self.scene.clear_all()
        self.scene.show_track(document.track)
        self.autosaver = autosave.Autosaver(document, self.autosave_owner)
        self._bind_undo_actions()
        self.choose_tool("Select")
        self._show_board_picture()
        self.validation.run_now(document.track)
        self.view.fit()
        self.view.setFocus()  # the board, not a field whose focus-out would look like an edit
        self._update_title()

    def open_path(self, path: Path) -> bool:
        """Open a track file; a broken file is reported and the current work kept."""
        if not self.maybe_save():
            return False
        try:
            document = TrackDocument.open(path, self)
        except TrackFileError as err:
            self._error("Cannot open track", err.render())
            return False
        restored = recovery.offer_left_work(document, path.resolve(), self._confirm)
        self.set_document(document)
        saved_here = restored is not None and self.autosaver is not None and (
            self.autosaver.save_now() is not None)  # this window's own copy of the work first
        if restored is not None and saved_here:
            autosave.discard_left(restored)
        menus.remember(self, path)
        return True

    def new_from_scan(self, image: Path) -> bool:
        """Start a track over a board scan (its size comes from the picture)."""
        if not self.maybe_save():
            return False
        size = board_picture.picture_size(self, image)
        if size is None:
            return False
        # Until the track is saved the picture is named by its full path; saving makes it
        # relative to the track file.
        track = empty_track(image.stem, size[0], size[1], image.resolve().as_posix())
        self.set_document(TrackDocument(track, None, self, unsaved=True))
        remember_folder(self.settings, image)  # the picture's folder: where its track will be saved
        return True

    def save(self) -> bool:
        if self.document.path is None:
            return self.save_as()
        return self._save_to(self.document.path)

    def save_as(self, path: Path | None = None) -> bool:
        if path is None:
            proposed = file_places.proposed_path(self.document, self.settings)
            name, _ = QFileDialog.getSaveFileName(self, "Save track", proposed, TRACK_FILTER)
            if not name:
                return False
            path = Path(name)
        return self._save_to(path)

    def _save_to(self, path: Path) -> bool:
        """Write the track to ``path``. A save that fails leaves the document exactly as it
        was: the board picture's path, respelled for the new folder, is put back, so that the
        next save to the original file still names a picture that exists. Over its own file
        changed on disk since it was read or written (another editor saved it), the save asks
        first rather than silently overwriting that other work."""
        if path.resolve() == self.document.path and self.document.changed_on_disk():
            answer = (file_commands.ask_overwrite_changed(self, path) if self.ask
                      else self.changed_on_disk_answer)
            if answer == file_commands.SAVE_ELSEWHERE:
                return self.save_as()
            if answer != file_commands.OVERWRITE:
                self.show_status(f"Not saved: {path.name} was changed on disk by another "
                                 "program; your work is still open")
                return False
        try:
            self.document.save(path)
        except OSError as err:
            self._error("Cannot save", f"{path}: {err.strerror or err}. Your work is still open.")
            return False
        menus.remember(self, path)
        self.show_status(f"Saved {path.name}")
        return True

    def maybe_save(self) -> bool:
        """Ask about unsaved work; False means the user cancelled."""
        if not self.document.modified:
            return True
        if not self.ask:
            return self.unsaved_answer != "cancel" and (
                self.unsaved_answer != "save" or self.save()
            )
        buttons = QMessageBox.StandardButton
        answer = QMessageBox.question(
            self, "Unsaved changes", f"Save the changes to {self.document.title().lstrip('*')}?",
            buttons.Save | buttons.Discard | buttons.Cancel)
        return self.save() if answer == buttons.Save else answer == buttons.Discard

    unsaved_answer = "cancel"
    """What ``maybe_save`` answers when ``ask`` is off: "save", "discard" or "cancel"."""
    changed_on_disk_answer = file_commands.CANCEL
    """What a save over a file changed on disk does when ``ask`` is off (see
    :func:`editor.file_commands.ask_overwrite_changed`)."""

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.maybe_save():
            drive = self.testdrive_dock.widget()
            if isinstance(drive, TestDrivePanel):
                drive.shut_down()
            if self.autosaver is not None:
                self.autosaver.close()
            self.validation.wait(5000)
            save_layout(self)
            event.accept()
        else:
            event.ignore()

    # Reactions -------------------------------------------------------------------------------

    def _track_changed(self, old: Track, new: Track) -> None:
        self.scene.show_track(new)
        if old.board.image != new.board.image:  # a picture set or relinked, or that undone
            self._show_board_picture()
        self.validation.schedule(new)
        self._update_title()

    def _replay_frame(self, frame: object) -> None:
        cars = getattr(frame, "cars", ())
        self.scene.show_cars([(c.car, c.space, c.status) for c in cars])

    def _rubber_band(self, ids: set[str], add: bool) -> None:
        self.document.set_selection(ids | self.document.selection if add else ids)

    def _report_ready(self, report: Report) -> None:
        self.problems.show_report(report)
        self.scene.show_problems(report)
        self.scene.show_corner_paths(report.corner_paths)
        self.counts_label.setText(
            f"{report.errors} errors  {report.warnings} warnings  "
            f"(checked in {self.validation.last_duration * 1000:.0f} ms)"
        )

    def go_to(self, diagnostic: Diagnostic) -> None:
        """Select the diagnostic's culprits and centre the board on them."""
        ids = [i for i in diagnostic.location.elements if i in self.document.element_ids()]
        self.document.set_selection(ids)
        rect = QRectF()
        for element in ids:
            item = self.scene.space_items.get(element)
            if item is not None:
                rect = rect.united(item.sceneBoundingRect())
        if rect.isEmpty() and diagnostic.location.point is not None:
            x, y = diagnostic.location.point
            rect = QRectF(x - 50, y - 50, 100, 100)
        if not rect.isEmpty():
            self.view.centre_on_rect(rect)
        self.show_status(f"{diagnostic.code}: {diagnostic.message}")

    def _update_title(self) -> None:
        self.setWindowTitle(f"{self.document.title()} - Formula D track editor")

    def show_status(self, text: str) -> None:
        self.status_label.setText(text)

    def _scan_problem(self, message: str) -> None:
        self.show_status(message + " (File > Relink board picture)")

    def _show_board_picture(self) -> None:
        """Show the document's board picture, or say why it is left out: a name that cannot be
        a file name leaves the track open without its picture."""
        problem = self.document.picture_problem()
        if problem is not None:
            self.scene.show_scan(None)
            self._scan_problem(problem)
            return
        self.scene.show_scan(self.document.board_image(), self.document.track.board.placement)

    def _bind_undo_actions(self) -> None:
        stack = self.document.undo_stack
        self.undo_action.setEnabled(stack.canUndo())
        self.redo_action.setEnabled(stack.canRedo())
        stack.canUndoChanged.connect(self.undo_action.setEnabled)
        stack.canRedoChanged.connect(self.redo_action.setEnabled)

    def choose_tool(self, name: str) -> None:
        tool = self.tools[name]
        self.view.set_tool(tool)
        # Taken out, not deleted: each tool keeps its options widget for the next time. The
        # dock stays shown (saying when a tool has no options), so the board does not jump.
        self.options_area.takeWidget()
        self.options_area.setWidget(tool.options() or QLabel(f"The {name} tool has no options"))
        self.options_dock.setWindowTitle(f"{name} options")
        for action in self.tool_actions.actions():
            action.setChecked(action.text() == name)

    # Dialogs ---------------------------------------------------------------------------------

    def open_dialog(self) -> None:
        name, _ = QFileDialog.getOpenFileName(
            self, "Open track", last_folder(self.settings), TRACK_FILTER
        )
        if name:
            self.open_path(Path(name))

    def new_blank(self, board: new_board.BlankBoard | None = None) -> bool:
        """Start a track on an empty board (see :mod:`editor.new_board`), asking its size
        unless ``board`` is given."""
        if board is None and self.ask:
            board = new_board.ask_blank_board(self)
        if board is None or not self.maybe_save():
            return False
        self.set_document(TrackDocument(new_board.blank_track(board), None, self))
        self.show_status(f"New blank board, {board.width} x {board.height} px: lay the road "
                         "with the Lanes tool (N)")
        return True

    def with_chosen_picture(self, then: Callable[[Path], object]) -> None:
        """Ask for a board picture, then start a track over it, set or relink it (``then``)."""
        image = board_picture.choose_picture(self)
        if image is not None:
            then(image)

    def set_board_picture(self, image: Path) -> bool:
        """Put another picture under the track without moving the track (see
        :mod:`editor.board_picture`)."""
        return board_picture.set_board_picture(self, image)

    picture_size_answer = board_picture.SCALE_PICTURE
    """What ``set_board_picture`` does with a picture of another size when ``ask`` is off."""

    def relink_scan(self, image: Path) -> bool:
        """Point the track at its board picture moved or renamed, keeping its placement."""
        return board_picture.relink(self, image)

    def recent_files(self) -> list[str]:
        return menus.recent_files(self)

    def _confirm(self, title: str, text: str) -> bool:
        yes = QMessageBox.StandardButton.Yes
        return QMessageBox.question(self, title, text) == yes if self.ask else self.confirm_answer

    confirm_answer = True

    def _error(self, title: str, text: str) -> None:
        self.show_status(text.splitlines()[0] if text else title)
        self.last_error = text
        if self.ask:
            QMessageBox.warning(self, title, text)

    last_error = ""
    last_warnings: tuple[str, ...] = ()
    """The warnings of the last import, export or picture (shown in a message when asking)."""
    last_help = ""
    """The shortcuts the Help menu showed last (HTML)."""
