"""The File menu as a designer meets it: where Save as starts and what it proposes, and the
entries for what the command line also does (GP Online files, pictures, the JSON Schema)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtGui import QColor, QImage

from editor import file_places
from trackformat.io import load_track


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


def _menu_action(window, text: str):  # type: ignore[no-untyped-def]
    file_menu = window.menuBar().actions()[0].menu()
    return next(a for a in file_menu.actions() if a.text() == text)


@pytest.fixture
def harbour_file(tmp_path: Path) -> Path:
    """A copy of a shipped track GP Online can hold as it is (two lanes, garages in line): the
    side-by-side test ring is one the game refuses, and export now says so."""
    path = tmp_path / "harbour.json"
    path.write_bytes((Path(__file__).resolve().parents[2] / "tracks" / "harbour-sprint.json")
                     .read_bytes())
    return path


def test_export_to_gp_online_and_import_it_back_from_the_file_menu(
    window, harbour_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    window.open_path(harbour_file)
    spaces = len(window.document.track.spaces)
    out = tmp_path / "gpo" / "harbour.dat"
    out.parent.mkdir()
    dialog = _SaveDialog(str(out))
    monkeypatch.setattr("editor.file_commands.QFileDialog.getSaveFileName", dialog)
    _menu_action(window, "Export to GP Online...").trigger()
    assert dialog.proposed == [str(harbour_file.resolve().parent / "harbour.dat")]
    assert out.read_text().strip(), "the .dat file is written"
    assert window.status_label.text().startswith("Exported harbour.dat:")

    monkeypatch.setattr(
        "editor.file_commands.QFileDialog.getOpenFileName", lambda *_a: (str(out), "")
    )
    _menu_action(window, "Import GP Online...").trigger()
    assert window.document.path is None and len(window.scene.space_items) == spaces
    assert window.status_label.text().startswith("Imported harbour.dat:")
    assert "untitled" in window.windowTitle()


def test_an_imported_track_is_unsaved_and_closing_it_asks_to_save(
    window, harbour_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    from editor import file_commands

    window.open_path(harbour_file)
    out = tmp_path / "harbour.dat"
    assert file_commands.export_gponline(window, out)
    assert file_commands.import_gponline(window, out)
    assert window.document.modified and window.windowTitle().startswith("*untitled")
    # Closing without an edit asks about the import: cancelling keeps the window open...
    window.unsaved_answer = "cancel"
    assert not window.close() and window.isVisible()
    # ... and saving writes it where the user says, after which it is saved.
    saved = tmp_path / "imported.json"
    monkeypatch.setattr("editor.mainwindow.QFileDialog.getSaveFileName",
                        _SaveDialog(str(saved)))
    window.unsaved_answer = "save"
    assert window.close()
    assert len(load_track(saved).spaces) == len(window.document.track.spaces)
    assert not window.document.modified


def test_a_new_track_over_a_picture_is_unsaved_until_saved(
    window, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    scan = _picture(tmp_path / "scan.png")
    assert window.new_from_scan(scan)
    assert window.document.modified and window.windowTitle().startswith("*")
    window.unsaved_answer = "cancel"
    assert not window.close() and window.isVisible()
    assert window.save_as(tmp_path / "scan.json")
    assert not window.document.modified and not window.windowTitle().startswith("*")


def test_a_broken_gp_online_file_is_reported_and_the_open_track_kept(
    window, ring_file: Path, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    from editor import file_commands

    window.open_path(ring_file)
    broken = tmp_path / "broken.dat"
    broken.write_text("this is not\na GP Online track\n")
    assert not file_commands.import_gponline(window, broken)
    assert "broken.dat" in window.last_error and "unchanged" in window.last_error
    assert window.document.path == ring_file.resolve()
    assert len(window.scene.space_items) == len(window.document.track.spaces) > 0


def test_a_track_gp_online_cannot_hold_is_refused_with_a_message(
    window, ring_file: Path, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    from editor import file_commands

    window.open_path(ring_file)
    window.document.edit("No line", lambda t: t.model_copy(update={"finish_line": None}))
    out = tmp_path / "no-line.dat"
    assert not file_commands.export_gponline(window, out)
    assert not out.exists()
    assert "GP Online cannot hold this track" in window.last_error
    assert window.document.modified, "the track is still open as it was"


def test_render_a_picture_writes_a_png_of_the_board_with_the_heatmap(
    window, ring_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    window.open_path(ring_file)
    hot = window.document.track.spaces[0]
    window.scene.show_heatmap({hot.id: 5.0})
    out = tmp_path / "ring.png"
    monkeypatch.setattr(
        "editor.file_commands.QFileDialog.getSaveFileName", _SaveDialog(str(out))
    )
    _menu_action(window, "Render a picture...").trigger()
    picture = QImage(str(out))
    board = window.document.track.board
    assert (picture.width(), picture.height()) == (board.width, board.height)
    # The space the heatmap paints hottest is drawn red.
    colour = picture.pixelColor(int(hot.centre[0]), int(hot.centre[1]))
    assert colour.red() > 150 and colour.blue() < 120, colour.name()
    assert window.status_label.text() == "Drew ring.png with the heatmap"


def test_render_to_an_unknown_kind_of_picture_says_so(
    window, ring_file: Path, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    from editor import file_commands

    window.open_path(ring_file)
    assert not file_commands.render_picture(window, tmp_path / "ring.gif")
    assert "name a .png or .svg file" in window.last_error
    assert not (tmp_path / "ring.gif").exists()


def test_export_the_json_schema(
    window, ring_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    import json

    window.open_path(ring_file)
    out = tmp_path / "schema" / "track.schema.json"
    out.parent.mkdir()
    dialog = _SaveDialog(str(out))
    monkeypatch.setattr("editor.file_commands.QFileDialog.getSaveFileName", dialog)
    _menu_action(window, "Export JSON Schema...").trigger()
    assert dialog.proposed == [str(ring_file.resolve().parent / "track.schema.json")]
    schema = json.loads(out.read_text())
    assert schema["$schema"].startswith("https://json-schema.org/") and "format_version" in (
        schema["required"]
    )


def test_a_real_gp_online_file_is_imported_as_the_command_line_imports_it(
    window, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    from editor import file_commands
    from tests.corpus import corpus_path
    from trackformat.interop.gponline import import_file

    source = corpus_path("gponline", "valencia.dat")
    expected = import_file(source)
    assert file_commands.import_gponline(window, source)
    assert len(window.scene.space_items) == len(expected.track.spaces)
    assert window.last_warnings == tuple(expected.warnings)
    assert window.status_label.text().startswith(
        f"Imported valencia.dat: {len(expected.track.spaces)} spaces"
    )
    dialog = _SaveDialog()
    monkeypatch.setattr("editor.mainwindow.QFileDialog.getSaveFileName", dialog)
    window.save_as()  # beside the .dat it came from, named after the track
    assert Path(dialog.proposed[0]).parent == source.parent.resolve()
    assert Path(dialog.proposed[0]).suffix == ".json"
