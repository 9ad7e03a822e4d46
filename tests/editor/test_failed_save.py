"""A save that fails leaves the document exactly as it was, so the next save is right."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.factories import ring
from trackformat.io import load_track, save_track


def _a_folder(tmp_path: Path) -> Path:
    target = tmp_path / "elsewhere" / "copy.json"
    target.mkdir(parents=True)  # the file's name is taken by a folder
    return target


def _under_a_file(tmp_path: Path) -> Path:
    (tmp_path / "plain").write_text("a file, not a folder")
    return tmp_path / "plain" / "deeper" / "copy.json"


@pytest.mark.parametrize("unwritable", [_a_folder, _under_a_file], ids=["folder", "under a file"])
def test_a_failed_save_as_leaves_the_next_save_right(  # type: ignore[no-untyped-def]
    window, tmp_path: Path, unwritable: Callable[[Path], Path]
) -> None:
    from PySide6.QtGui import QImage

    home = tmp_path / "tracks"
    home.mkdir()
    picture = QImage(64, 64, QImage.Format.Format_RGB32)
    picture.fill(0x336633)
    assert picture.save(str(home / "board.png"))
    track = ring()
    original = home / "ring.json"
    save_track(track.model_copy(update={"board": track.board.model_copy(
        update={"image": "board.png"})}), original)
    assert window.open_path(original)
    window.document.edit(
        "rename",
        lambda t: t.model_copy(update={"metadata": t.metadata.model_copy(update={"name": "R"})}),
    )
    before = window.document.track

    assert not window.save_as(unwritable(tmp_path))

    assert window.document.track == before  # the picture's path not respelled for elsewhere
    assert window.document.path == original.resolve() and window.document.modified
    assert window.save()
    saved = load_track(original)
    assert saved.metadata.name == "R"
    assert saved.board.image == "board.png" and (home / saved.board.image).is_file()
