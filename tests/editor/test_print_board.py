"""File > Print board...: the preview's pages are the PDF's pages, and Save writes that PDF (read
back as a PDF reader sees it), of the track as it is in the editor."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage, QKeySequence
from PySide6.QtWidgets import QGraphicsRectItem, QGraphicsSimpleTextItem, QMessageBox

from editor.print_board import PAGE_COLOUR, PrintBoardDialog
from tests.corpus import ROOT
from trackformat.io import load_track
from trackformat.model import Metadata

pypdf = pytest.importorskip("pypdf")

MONACO = ROOT / "tracks" / "monaco.json"
MM = 72 / 25.4


def _open_print_dialog(window) -> PrintBoardDialog:  # type: ignore[no-untyped-def]
    file_menu = window.menuBar().actions()[0].menu()
    action = next(a for a in file_menu.actions() if a.text() == "Print board...")
    assert action.shortcut() == QKeySequence(QKeySequence.StandardKey.Print)
    action.trigger()
    (dialog,) = [d for d in window.findChildren(PrintBoardDialog) if d.isVisible()]
    return dialog  # type: ignore[no-any-return]


def _drawn(dialog: PrintBoardDialog) -> tuple[int, list[str]]:
    """The page rectangles and the page names the preview shows: items drawn in the page
    colour and text, visible and inside the part of the preview on screen."""
    view = dialog.preview
    shown = view.mapToScene(view.viewport().rect()).boundingRect()
    items = [item for item in view.scene().items()
             if item.isVisible() and shown.intersects(item.sceneBoundingRect())]
    pages = [item for item in items if isinstance(item, QGraphicsRectItem)
             and item.pen().color() == PAGE_COLOUR]
    names = [item.text() for item in items if isinstance(item, QGraphicsSimpleTextItem)]
    return len(pages), sorted(names)


def _page_colour_pixels(dialog: PrintBoardDialog) -> int:
    """How many pixels of the preview, as it is on screen, are the pages' outline colour."""
    image = dialog.preview.viewport().grab().toImage()
    return sum(1 for y in range(0, image.height(), 2) for x in range(0, image.width(), 2)
               if QColor(image.pixel(x, y)) == PAGE_COLOUR)


def _tile_names(pdf: Path) -> list[str]:
    """The names printed on the PDF's tiles ("B3"), its first page being the assembly map."""
    reader = pypdf.PdfReader(pdf)
    names = []
    for page in reader.pages[1:]:
        found = re.search(r"([A-Z]{1,2}\d+)\s+\(\d+ of \d+ rows", page.extract_text())
        assert found is not None
        names.append(found.group(1))
    return sorted(names)


def _answer_save_dialog(monkeypatch: pytest.MonkeyPatch, out: Path) -> list[str]:
    proposed: list[str] = []

    def ask(_parent: object, _title: str, start: str, _filters: str) -> tuple[str, str]:
        proposed.append(start)
        return str(out), ""

    monkeypatch.setattr("editor.print_board.QFileDialog.getSaveFileName", ask)
    return proposed


def test_the_preview_draws_the_pages_the_pdf_has_and_save_writes_them(
        window, qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    assert window.open_path(MONACO)
    dialog = _open_print_dialog(window)
    dialog.paper.setCurrentText("A4")
    qtbot.waitExposed(dialog)
    pages, names = _drawn(dialog)
    assert pages == 16 and names == sorted(f"{r}{c}" for r in "ABCD" for c in range(1, 5))
    assert "17 pages of A4" in dialog.summary.text()
    assert "100.0 x 66.3 cm" in dialog.summary.text()
    a4_ink = _page_colour_pixels(dialog)
    assert a4_ink > 500, "the page outlines are drawn over the board"

    out = tmp_path / "prints" / "monaco-a4.pdf"
    out.parent.mkdir()
    proposed = _answer_save_dialog(monkeypatch, out)
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    assert proposed == [str(MONACO.with_suffix(".pdf"))]  # beside the track, named after it
    assert len(pypdf.PdfReader(out).pages) == pages + 1  # the tiles and the assembly map
    assert _tile_names(out) == names
    assert "Wrote monaco-a4.pdf: 100.0 x 66.3 cm on 17 pages of A4" in dialog.note.text()
    assert window.status_label.text().startswith("Wrote monaco-a4.pdf")

    dialog.paper.setCurrentText("poster")
    assert _drawn(dialog) == (1, [])  # one page, which the PDF does not name
    assert "on 1 page" in dialog.summary.text()
    assert 0 < _page_colour_pixels(dialog) < a4_ink
    poster = tmp_path / "prints" / "monaco-poster"  # typed without its suffix
    _answer_save_dialog(monkeypatch, poster)
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    (page,) = pypdf.PdfReader(poster.with_suffix(".pdf")).pages
    assert float(page.mediabox.width) / MM == pytest.approx(1000, abs=5)


def test_changing_the_paper_or_the_space_updates_the_count_shown(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    assert window.open_path(MONACO)
    dialog = _open_print_dialog(window)
    seen = {}
    for paper in ("A4", "A3", "letter", "poster"):
        dialog.paper.setCurrentText(paper)
        count = int(re.search(r"on (\d+) page", dialog.summary.text()).group(1))  # type: ignore[union-attr]
        drawn, names = _drawn(dialog)
        assert drawn == (count - 1 if count > 1 else 1)
        assert len(names) == (drawn if count > 1 else 0)
        seen[paper] = count
    assert seen["A3"] < seen["A4"] and seen["poster"] == 1
    dialog.paper.setCurrentText("A4")
    dialog.space_mm.setValue(6.83)  # half the published boards' space: a quarter of the paper
    assert "50.0 x 33.2 cm" in dialog.summary.text()
    assert int(re.search(r"on (\d+) pages", dialog.summary.text()).group(1)) < seen["A4"]  # type: ignore[union-attr]
    dialog.space_mm.setValue(200)  # a board of 14 m: more pages than any print may take
    assert "more than 400" in dialog.summary.text()
    assert _drawn(dialog) == (0, []) and not dialog.save_button.isEnabled()
    dialog.close()
    again = _open_print_dialog(window)  # the next print starts from the last choices
    assert (again.paper.currentText(), again.space_mm.value()) == ("A4", 200)


def test_the_pdf_is_the_track_in_the_editor_with_its_unsaved_edits(
        window, qtbot, ring_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    assert window.open_path(ring_file)
    window.document.edit("Rename", lambda t: t.model_copy(
        update={"metadata": Metadata(name="Loop of the Lakes")}))
    dialog = _open_print_dialog(window)
    dialog.paper.setCurrentText("A4")
    out = tmp_path / "loop.pdf"
    _answer_save_dialog(monkeypatch, out)
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    reader = pypdf.PdfReader(out)
    assert "Loop of the Lakes" in reader.pages[0].extract_text()  # the assembly map's title
    assert len(reader.pages) == _drawn(dialog)[0] + 1
    assert load_track(ring_file).metadata.name != "Loop of the Lakes"  # nothing saved
    assert window.document.modified


def test_a_pdf_that_cannot_be_written_is_said_and_nothing_is_lost(
        window, qtbot, ring_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    assert window.open_path(ring_file)
    window.document.edit("Rename", lambda t: t.model_copy(
        update={"metadata": Metadata(name="Unsaved work")}))
    track = window.document.track
    dialog = _open_print_dialog(window)
    blocker = tmp_path / "notes.txt"  # a file where the PDF's folder should be
    blocker.write_text("my notes", encoding="utf-8")
    out = blocker / "board.pdf"
    _answer_save_dialog(monkeypatch, out)
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dialog.message is not None and dialog.message.isVisible())
    assert isinstance(dialog.message, QMessageBox)
    text = dialog.message.text()
    assert str(out) in text and "Nothing was written" in text and "unchanged" in text
    assert "Traceback" not in text
    assert blocker.read_text(encoding="utf-8") == "my notes"
    assert list(tmp_path.glob("**/*.pdf")) == []
    assert window.document.track is track and window.document.modified
    qtbot.mouseClick(dialog.message.button(QMessageBox.StandardButton.Ok),
                     Qt.MouseButton.LeftButton)
    assert dialog.isVisible()  # the dialog stays, to print elsewhere


def test_the_preview_shows_the_picture_to_be_printed_under_the_board(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    assert window.open_path(MONACO)
    dialog = _open_print_dialog(window)
    dialog.with_picture.setChecked(False)
    qtbot.waitExposed(dialog)
    before = dialog.preview.viewport().grab().toImage()
    dialog.with_picture.setChecked(True)
    after = dialog.preview.viewport().grab().toImage()
    dialog.with_picture.setChecked(False)
    again = dialog.preview.viewport().grab().toImage()

    def changed(first: QImage, second: QImage) -> int:
        return sum(1 for y in range(0, first.height(), 3) for x in range(0, first.width(), 3)
                   if first.pixel(x, y) != second.pixel(x, y))

    # The project's Monaco picture is mostly the board's green: its corner boxes show.
    assert changed(before, after) > 200
    assert changed(before, again) == 0
    assert dialog.note.text() == ""  # found: nothing to say


def test_a_missing_picture_is_said_before_printing(window, qtbot, ring_file: Path) -> None:  # type: ignore[no-untyped-def]
    assert window.open_path(ring_file)
    window.document.edit("Picture", lambda t: t.model_copy(
        update={"board": t.board.model_copy(update={"image": "gone-scan.png"})}))
    dialog = _open_print_dialog(window)
    assert dialog.with_picture.isEnabled()
    dialog.with_picture.setChecked(True)
    assert dialog.note.text() == ("the board picture gone-scan.png is not found: the board "
                                  "prints without it")
    dialog.with_picture.setChecked(False)
    assert dialog.note.text() == ""
