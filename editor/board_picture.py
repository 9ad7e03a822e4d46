"""The board picture's commands: set a picture under the track, relink a moved one.

Both change the track file's ``board`` as one undoable step, never the spaces (unless the
designer asks for the board to take the picture's size). A picture whose size differs from the
board is placed scaled to the board's width, and the status bar says so; the Align tool then
places it exactly (see :mod:`editor.placement`).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtGui import QImageReader
from PySide6.QtWidgets import QFileDialog, QMessageBox

from editor import choice, session
from editor import placement as place
from editor.choice import Answer
from editor.document import relative_path
from trackformat.model import Placement, Track

if TYPE_CHECKING:
    from editor.mainwindow import MainWindow

PICTURE_FILTER = "Pictures (*.png *.jpg *.jpeg)"

SCALE_PICTURE, SCALE_BOARD, KEEP_PIXELS = "picture", "board", "keep"
"""Answers to "the picture is not the board's size": place the picture scaled to the board,
scale the board and the track to the picture, or lay the picture pixel for pixel."""


def picture_size(window: MainWindow, image: Path) -> tuple[int, int] | None:
    """The picture's size, or None after telling the user why it cannot be used."""
    reader = QImageReader(str(image))
    reader.setAutoTransform(True)
    size = reader.size()
    if not size.isValid():
        window._error("Cannot use this picture", f"{image}: {reader.errorString()}")
        return None
    return (size.width(), size.height())


def spelled(window: MainWindow, image: Path) -> str:
    """How the track file names the picture: relative to the file once it is saved."""
    image = image.resolve()
    if window.document.path is None:
        return image.as_posix()
    return relative(image, window.document.path.parent)


relative = relative_path
"""``image`` named from ``folder`` (see :func:`editor.document.relative_path`)."""


def _with_board(track: Track, **changes: object) -> Track:
    return track.model_copy(update={"board": track.board.model_copy(update=changes)})


def ask_how_to_fit(window: MainWindow, image: Path, size: tuple[int, int]) -> str:
    """Ask whether to scale the picture to the board or the board to the picture."""
    if not window.ask:
        return window.picture_size_answer
    board = window.document.track.board
    return choice.ask(
        window, "The picture is not the board's size",
        f"{image.name} is {place.size_words(size)}; the board is "
        f"{place.size_words((board.width, board.height))}.",
        [Answer("Scale the picture", SCALE_PICTURE, QMessageBox.ButtonRole.AcceptRole),
         Answer("Scale the board and track", SCALE_BOARD),
         Answer("Pixel for pixel", KEEP_PIXELS)],
        default=SCALE_PICTURE, cancelled="cancel",
        details="Scale the picture to the board (the track keeps its coordinates; then place "
                "it exactly with Align > Move the picture onto the track), or scale the board "
                "and the track to the picture?",
    )


def set_board_picture(window: MainWindow, image: Path) -> bool:
    """Put ``image`` under the current track without moving the track."""
    size = picture_size(window, image)
    if size is None:
        return False
    track = window.document.track
    board = track.board
    name = spelled(window, image)
    if size == (board.width, board.height):
        answer, message = KEEP_PIXELS, f"{image.name} is the board's size: laid pixel for pixel"
    else:
        answer = ask_how_to_fit(window, image, size)
        sizes = (f"{image.name} is {place.size_words(size)}, the board "
                 f"{place.size_words((board.width, board.height))}")
        if answer == SCALE_PICTURE:
            scale = board.width / size[0]
            message = (f"{sizes}: the picture is scaled by {scale:.4g} to the board's width. "
                       "Align > Move the picture onto the track places it exactly")
        elif answer == SCALE_BOARD:
            message = f"{sizes}: the board and the track are scaled to the picture"
        elif answer == KEEP_PIXELS:
            message = f"{sizes}: the picture is laid pixel for pixel, not scaled"
        else:
            return False

    def change(t: Track) -> Track:
        if answer == SCALE_BOARD:
            return _with_board(place.board_scaled_to_picture(t, size), image=name)
        placed = place.scaled_to_board(size, t.board) if answer == SCALE_PICTURE else None
        return _with_board(t, image=name, placement=placed)

    if not window.document.edit("Set board picture", change):
        return False
    if name == track.board.image:  # the same file again: the window does not reload it
        window.scene.show_scan(window.document.board_image(), window.document.track.board.placement)
    window.show_status(message)
    return True


def relink(window: MainWindow, image: Path) -> bool:
    """Point the track at its picture moved or renamed, keeping where it is placed; a picture
    of another size (a rescan) is placed to cover the same board as the old one did."""
    size = picture_size(window, image)
    if size is None:
        return False
    board = window.document.track.board
    old_size = window.scene.scan_size()
    placement: Placement | None = board.placement
    if old_size is not None and old_size != size:
        placement = place.relinked(placement, old_size, size)
        message = (f"Relinked {image.name}: it is {place.size_words(size)}, the old picture "
                   f"{place.size_words(old_size)}; it is scaled to lie where the old one did")
    elif old_size is None and placement is None and size != (board.width, board.height):
        placement = place.scaled_to_board(size, board)
        message = (f"Relinked {image.name}: it is {place.size_words(size)}, the board "
                   f"{place.size_words((board.width, board.height))}; the picture is scaled to "
                   "the board's width")
    else:
        message = f"Relinked {image.name}" + (
            ", placed where the track file says" if placement is not None else ""
        )
    name = spelled(window, image)
    window.document.edit(
        "Relink board picture", lambda t: _with_board(t, image=name, placement=placement)
    )
    if name == board.image:  # the same file again: the window does not reload it
        window.scene.show_scan(window.document.board_image(), window.document.track.board.placement)
    window.show_status(message)
    return True


def choose_picture(window: MainWindow) -> Path | None:
    name, _ = QFileDialog.getOpenFileName(
        window, "Board picture", session.last_folder(window.settings), PICTURE_FILTER
    )
    return Path(name) if name else None
