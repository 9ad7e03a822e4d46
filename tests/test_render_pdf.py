"""Printing a board at table scale: ``render TRACK -o board.pdf``, read back as a PDF reader sees
it (pages, their sizes, their text, whether they hold pictures)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.factories import ring
from trackformat import cli
from trackformat.graph import build_graphs
from trackformat.io import load_track, save_track

pypdf = pytest.importorskip("pypdf")

ROOT = Path(__file__).resolve().parent.parent
MONACO = ROOT / "tracks" / "monaco.json"
MM = 72 / 25.4
"""PDF points in a millimetre."""


def _pages(path: Path) -> list[tuple[float, float]]:
    """Each page's width and height in millimetres."""
    reader = pypdf.PdfReader(path)
    return [(float(p.mediabox.width) / MM, float(p.mediabox.height) / MM) for p in reader.pages]


def _text(path: Path, page: int) -> str:
    return str(pypdf.PdfReader(path).pages[page].extract_text())


def _has_picture(path: Path) -> bool:
    for page in pypdf.PdfReader(path).pages:
        objects = page.get("/Resources", {}).get("/XObject", {})
        if any(objects[name].get_object().get("/Subtype") == "/Image" for name in objects):
            return True
    return False


def _print(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code = cli.main(["render", *argv])
    printed = capsys.readouterr()
    assert code == cli.EXIT_OK, printed.err
    return printed.out


def test_monaco_prints_as_one_poster_of_the_published_boards_size(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "monaco.pdf"
    said = _print(capsys, str(MONACO), "-o", str(out), "--paper", "poster")
    (width, height), = _pages(out)
    # The published board is 100 x 70 cm; Monaco's art is 2500:1658, so 100 x 66 cm.
    assert width == pytest.approx(1000, abs=5)
    assert 640 < height < 700
    assert f"{width / 10:.1f} x {height / 10:.1f} cm on 1 page" in said
    assert not _has_picture(out), "the board is drawn as vectors, not pasted as a bitmap"
    text = _text(out, 0)
    for name in ("Sainte Dévote", "Mirabeau", "La Rascasse"):
        assert name in text


def test_monaco_tiles_over_a4_pages_with_a_map_first(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "monaco.pdf"
    said = _print(capsys, str(MONACO), "-o", str(out), "--paper", "A4")
    pages = _pages(out)
    tiles = len(pages) - 1
    assert f"on {len(pages)} pages of A4" in said
    for width, height in pages:
        assert sorted((round(width), round(height))) == [210, 297]
    # Tiles of an A4 sheet less 8 mm margins, overlapping by 10 mm, cover 100 x 66 cm: at
    # least (1000 / 281) x (663 / 194) of them, and no whole row or column more than that.
    assert 12 <= tiles <= 20
    first = _text(out, 0)
    assert "Monaco" in first and "A1" in first and "cut each page" in first
    names = []
    for page in range(1, len(pages)):
        found = re.search(r"([A-Z]{1,2}\d+)\s+\(\d+ of \d+ rows", _text(out, page))
        assert found, f"page {page + 1} has no name"
        names.append(found.group(1))
    assert names[0] == "A1" and len(set(names)) == tiles
    everything = " ".join(_text(out, page) for page in range(1, len(pages)))
    assert "Sainte Dévote" in everything


@pytest.mark.parametrize("name", ["monaco", "col-du-vent", "harbour-sprint"])
def test_every_track_prints_with_the_same_size_of_space(
        name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    track = load_track(ROOT / "tracks" / f"{name}.json")
    out = tmp_path / f"{name}.pdf"
    _print(capsys, str(ROOT / "tracks" / f"{name}.json"), "-o", str(out), "--paper", "poster")
    (width, _), = _pages(out)
    space_px = build_graphs(track).shapes.scale
    assert width / track.board.width * space_px == pytest.approx(13.65, rel=0.01)


def test_space_mm_scales_the_print(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "big.pdf"
    _print(capsys, str(MONACO), "-o", str(out), "--paper", "poster", "--space-mm", "27.3")
    (width, _), = _pages(out)
    assert width == pytest.approx(2000, rel=0.01)


def test_the_board_picture_is_printed_only_when_asked(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from PIL import Image

    track = ring()
    track = track.model_copy(update={"board": track.board.model_copy(update={"image": "r.png"})})
    save_track(track, tmp_path / "ring.json")
    Image.new("RGB", (track.board.width, track.board.height), (250, 0, 0)).save(tmp_path / "r.png")
    plain, pictured = tmp_path / "plain.pdf", tmp_path / "pictured.pdf"
    _print(capsys, str(tmp_path / "ring.json"), "-o", str(plain), "--paper", "poster")
    _print(capsys, str(tmp_path / "ring.json"), "-o", str(pictured), "--paper", "poster",
           "--with-picture")
    assert not _has_picture(plain)
    assert _has_picture(pictured)


def test_a_print_of_too_many_pages_is_refused_and_writes_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "huge.pdf"
    out.write_bytes(b"an earlier print")
    code = cli.main(["render", str(MONACO), "-o", str(out), "--space-mm", "200"])
    said = capsys.readouterr().err
    assert code == cli.EXIT_UNUSABLE
    assert "choose a smaller --space-mm" in said
    assert out.read_bytes() == b"an earlier print"
    assert [p.name for p in tmp_path.iterdir()] == ["huge.pdf"]


def test_print_options_on_a_png_are_a_usage_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(["render", str(MONACO), "-o", str(tmp_path / "m.png"), "--paper", "A3"])
    assert code == cli.EXIT_UNUSABLE
    assert "name a .pdf" in capsys.readouterr().err
