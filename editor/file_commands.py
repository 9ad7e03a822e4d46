"""The File menu's entries for what the command line also does: import and export GP Online
``.dat`` files, draw the track to a PNG or SVG picture, and write the track format's JSON Schema.

Each takes a path (tests and scripts) or asks for one in a dialog that starts beside the track
(see :mod:`editor.file_places`). Whatever goes wrong is said in a message naming the file, and
the open track is never lost: an import replaces it only after asking about unsaved work and
only once the file has been read.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QFileDialog, QMessageBox, QWidget

from editor import choice, file_places, session
from editor.choice import Answer
from editor.document import TrackDocument
from trackformat.lint.rules.board_picture import why_not_a_file_name

if TYPE_CHECKING:
    from editor.mainwindow import MainWindow

DAT_FILTER = "GP Online tracks (*.dat);;All files (*)"
PICTURE_FILTER = "PNG pictures (*.png);;SVG pictures (*.svg)"
SCHEMA_FILTER = "JSON Schema (*.json);;All files (*)"
SCHEMA_NAME = "track.schema.json"

OVERWRITE, SAVE_ELSEWHERE, CANCEL = "overwrite", "save as", "cancel"
"""Answers to "the file changed on disk since you opened it": overwrite it with this editor's
track, save the track as another file, or save nothing."""


def _ask_save(window: MainWindow, title: str, proposed: str, filters: str) -> Path | None:
    name, _ = QFileDialog.getSaveFileName(window, title, proposed, filters)
    return Path(name) if name else None


def _waiting() -> None:
    QGuiApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)


def _done() -> None:
    QGuiApplication.restoreOverrideCursor()


def _warnings(window: MainWindow, done: str, warnings: list[str], title: str) -> None:
    """``done`` in the status bar; the warnings, if any, in a message beside it."""
    window.show_status(done + (f"; {len(warnings)} warning(s)" if warnings else ""))
    if warnings:
        window.last_warnings = tuple(warnings)
        if window.ask:
            box = QMessageBox(window)
            box.setWindowTitle(title)
            box.setText(done)
            box.setInformativeText("\n".join(f"- {w}" for w in warnings[:12]) + (
                f"\n... and {len(warnings) - 12} more" if len(warnings) > 12 else ""))
            box.exec()


def ask_overwrite_changed(parent: QWidget, path: Path) -> str:
    """Ask what Save should do over ``path``, written by something else since this editor read
    or saved it (another editor's save, most often): overwriting loses that other work, so
    saving elsewhere is the default."""
    return choice.ask(
        parent, "The file changed on disk",
        f"{path.name} was changed on disk since you opened or last saved it (by another editor "
        "or program).",
        [Answer("Overwrite", OVERWRITE, QMessageBox.ButtonRole.DestructiveRole),
         Answer("Save as...", SAVE_ELSEWHERE, QMessageBox.ButtonRole.AcceptRole)],
        default=SAVE_ELSEWHERE, cancelled=CANCEL, warning=True,
        details="Overwrite it with your track (what was written there is lost), save your "
                "track as another file, or cancel and save nothing?",
    )


def import_gponline(window: MainWindow, source: Path | None = None) -> bool:
    """Open a GP Online ``.dat`` file as a new, unsaved track (its board picture, looked for
    beside the file, comes with it)."""
    from trackformat.interop.gponline import DatError, GPOnlineImportError, import_file

    if source is None:
        name, _ = QFileDialog.getOpenFileName(
            window, "Import a GP Online track", session.last_folder(window.settings), DAT_FILTER
        )
        if not name:
            return False
        source = Path(name)
    if not window.maybe_save():
        return False
    _waiting()
    try:
        result = import_file(source)
    except (DatError, GPOnlineImportError) as err:
        window._error("Cannot import", f"{err}. The open track is unchanged.")
        return False
    except (OSError, ValueError) as err:
        window._error("Cannot import", f"{source}: {err}. The open track is unchanged.")
        return False
    finally:
        _done()
    track = result.track
    if track.board.image and why_not_a_file_name(track.board.image) is None:
        # Until saved the picture is named by its full path (saving makes it relative). A name
        # that cannot be a file name is kept as the file has it: the window says why it shows
        # no picture, and the validator flags the name.
        picture = (source.parent / track.board.image).resolve()
        track = track.model_copy(
            update={"board": track.board.model_copy(update={"image": picture.as_posix()})}
        )
    window.set_document(TrackDocument(track, None, window, unsaved=True))
    session.remember_folder(window.settings, source)
    _warnings(
        window,
        f"Imported {source.name}: {len(track.spaces)} spaces, {len(track.corners)} corners "
        "(unsaved: File > Save as)",
        result.warnings,
        "Imported with warnings",
    )
    return True


def export_gponline(window: MainWindow, out: Path | None = None) -> bool:
    """Write the open track as a GP Online ``.dat`` file, naming its board picture relative to
    the file."""
    from trackformat.interop.gponline import GPOnlineExportError, export_file

    out = out or _ask_save(
        window, "Export to GP Online",
        file_places.proposed_path(window.document, window.settings, ".dat"), DAT_FILTER
    )
    if out is None:
        return False
    try:
        # The export names the picture relative to the .dat, checks the file against GP
        # Online's own loading rules, and writes it whole or not at all.
        result = export_file(window.document.track, out, picture=window.document.board_image())
    except GPOnlineExportError as err:
        window._error("Cannot export", f"GP Online cannot hold this track: {err}")
        return False
    except OSError as err:
        window._error("Cannot export", f"{out}: cannot be written: {err.strerror or err}")
        return False
    _warnings(
        window,
        f"Exported {out.name}: {len(result.dat.nodes)} nodes, {len(result.dat.edges)} moves",
        result.warnings,
        "Exported with warnings",
    )
    return True


def render_picture(window: MainWindow, out: Path | None = None) -> bool:
    """Draw the track to a ``.png`` or ``.svg`` picture over its board picture, with the
    heatmap shown on the board, if any."""
    from trackformat.interop.render import render_to_file

    out = out or _ask_save(
        window, "Render a picture",
        file_places.proposed_path(window.document, window.settings, ".png"), PICTURE_FILTER
    )
    if out is None:
        return False
    document = window.document
    # Unsaved, the picture is named by its full path: any folder resolves it.
    where = document.path or Path.cwd() / "untitled.json"
    heat = {k: v for k, v in window.scene.heat.items() if v > 0} or None
    _waiting()
    try:
        notes = render_to_file(document.track, out, track_path=where, heatmap=heat)
    except (OSError, ValueError, MemoryError) as err:
        text = getattr(err, "strerror", None) or str(err) or type(err).__name__
        window._error("Cannot render", f"{out}: cannot render: {text}")
        return False
    finally:
        _done()
    _warnings(window, f"Drew {out.name}" + (" with the heatmap" if heat else ""), notes,
              "Drawn otherwise than asked")
    return True


def export_schema(window: MainWindow, out: Path | None = None) -> bool:
    """Write the JSON Schema of the track format (for other programs that read track files)."""
    from trackformat.cli import track_schema
    from trackformat.io import dumps_document, write_text_atomically

    folder = file_places.start_folder(window.document, window.settings)
    proposed = str(folder / SCHEMA_NAME) if folder is not None else SCHEMA_NAME
    out = out or _ask_save(window, "Export the JSON Schema", proposed, SCHEMA_FILTER)
    if out is None:
        return False
    try:
        write_text_atomically(out, dumps_document(track_schema()))
    except OSError as err:
        window._error("Cannot export", f"{out}: cannot be written: {err.strerror or err}")
        return False
    window.show_status(f"Wrote the track format's JSON Schema to {out.name}")
    return True
