"""The File menu as a designer meets it: where Save as starts and what it proposes, and the
entries for what the command line also does (GP Online files, pictures, the JSON Schema)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtGui import QColor, QImage

from editor import file_places


def _picture(path: Path, width: int = 800, height: int = 600) -> Path:
    image = QImage(width, height, QImage.Format.Format_RGB32)
    image.fill(QColor(40, 120, 40))
    path.parent.mkdir(parents=True, exist_ok=True)
    assert image.save(str(path))
    return path


class _SaveDialog:
    """Stands in for QFileDialog.getSaveFileName: records what it was asked, answers ``reply``."""

    def __init__(self, reply: str = "") -> None:
        self.reply = reply
        self.proposed: list[str] = []

    def __call__(self, _parent, _title, proposed, _filter="", *rest):  # type: ignore[no-untyped-def]
        self.proposed.append(proposed)
        return self.reply, ""


def _rename(window, name: str) -> None:  # type: ignore[no-untyped-def]
    meta = window.document.track.metadata.model_copy(update={"name": name})
    window.document.edit("Rename", lambda t: t.model_copy(update={"metadata": meta}))


def test_save_as_of_a_new_track_proposes_its_name_beside_the_board_picture(
    window, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    scan = _picture(tmp_path / "boards" / "harbour scan.png")
    assert window.new_from_scan(scan)
    _rename(window, "Harbour Sprint (2nd edition)")
    dialog = _SaveDialog()
    monkeypatch.setattr("editor.mainwindow.QFileDialog.getSaveFileName", dialog)
    assert not window.save_as()  # the user cancels: nothing written
    assert dialog.proposed == [str(scan.parent.resolve() / "harbour-sprint-2nd-edition.json")]
    assert list(scan.parent.iterdir()) == [scan]


def test_save_as_of_a_saved_track_proposes_the_file_itself(
    window, ring_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    window.open_path(ring_file)
    dialog = _SaveDialog()
    monkeypatch.setattr("editor.mainwindow.QFileDialog.getSaveFileName", dialog)
    window.save_as()
    assert dialog.proposed == [str(ring_file.resolve())]


def test_without_a_picture_save_as_starts_in_the_last_folder(
    window, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    folder = tmp_path / "tracks"
    folder.mkdir()
    window.settings.setValue("last_folder", str(folder))
    _rename(window, "Col du Vent")
    dialog = _SaveDialog(str(folder / "col-du-vent.json"))
    monkeypatch.setattr("editor.mainwindow.QFileDialog.getSaveFileName", dialog)
    assert window.save_as()
    assert dialog.proposed == [str(folder / "col-du-vent.json")]
    assert (folder / "col-du-vent.json").is_file()


def test_file_stems_are_plain() -> None:
    assert file_places.file_stem("Circuit de Monaco") == "circuit-de-monaco"
    assert file_places.file_stem("Zolder Élan") == "zolder-elan"
    assert file_places.file_stem("***") == "track"
