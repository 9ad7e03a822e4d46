"""No command writes its output over one of its own inputs, however the output is spelled.

``import gponline B.dat -o B.dat``, ``export gponline T.json -o T.json`` and ``render T.json -o
T.png`` (the track's own board scan) used to exit 0 having destroyed the file they were given to
read. Each must now exit 2, say which file it refused, and leave every byte where it was."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.factories import ring
from trackformat import cli
from trackformat.io import load_track, save_track

ROOT = Path(__file__).resolve().parent.parent

SPELLINGS: dict[str, Callable[[Path], str]] = {
    "plain": lambda target: target.name,
    "dot": lambda target: f"./{target.name}",
    "dot-dot": lambda target: f"sub/../{target.name}",
    "absolute": lambda target: str(target.resolve()),
    "symbolic link": lambda target: _link(target, symbolic=True),
    "hard link": lambda target: _link(target, symbolic=False),
}
"""Ways to name a file that already exists in the current folder."""

PICTURE = b"\x89PNG\r\n\x1a\n the designer's scan, which nothing can make again"


def _link(target: Path, *, symbolic: bool) -> str:
    link = target.with_name(f"other-name-{'sym' if symbolic else 'hard'}{target.suffix}")
    if symbolic:
        link.symlink_to(target.name)
    else:
        os.link(target, link)
    return link.name


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder holding a track ``ring.json`` whose board picture is ``ring.png``, as the
    current folder."""
    (tmp_path / "sub").mkdir()
    track = ring()
    track = track.model_copy(
        update={"board": track.board.model_copy(update={"image": "ring.png"})}
    )
    save_track(track, tmp_path / "ring.json")
    (tmp_path / "ring.png").write_bytes(PICTURE)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _refused(capsys: pytest.CaptureFixture[str], kept: Path, before: bytes, *argv: str) -> str:
    """Run the command; check it exits 2 and leaves ``kept`` as it was; its error text."""
    code = cli.main(list(argv))
    printed = capsys.readouterr()
    assert code == cli.EXIT_UNUSABLE, printed.out + printed.err
    assert kept.read_bytes() == before
    assert "nothing was written" in printed.err
    return printed.err


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_render_refuses_to_replace_the_tracks_board_picture(
        folder: Path, capsys: pytest.CaptureFixture[str], spelling: str) -> None:
    picture = folder / "ring.png"
    output = SPELLINGS[spelling](picture)
    said = _refused(capsys, picture, PICTURE, "render", "ring.json", "-o", output)
    assert "is the board picture of ring.json" in said


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_export_refuses_to_replace_its_track(
        folder: Path, capsys: pytest.CaptureFixture[str], spelling: str) -> None:
    track = folder / "ring.json"
    before = track.read_bytes()
    output = SPELLINGS[spelling](track)
    said = _refused(capsys, track, before, "export", "gponline", "ring.json", "-o", output)
    assert "is the input file" in said


def test_export_refuses_to_replace_the_board_picture(
        folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _refused(capsys, folder / "ring.png", PICTURE,
             "export", "gponline", "ring.json", "-o", "sub/../ring.png")


@pytest.fixture
def dat_file(folder: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A shipped track (one GP Online can hold) exported to the game's format as ``ring.dat``,
    beside the board picture ``ring.png`` it names."""
    track = load_track(ROOT / "tracks" / "harbour-sprint.json")
    board = track.board.model_copy(update={"image": "ring.png"})
    save_track(track.model_copy(update={"board": board}), folder / "harbour.json")
    assert cli.main(["export", "gponline", "harbour.json", "-o", "ring.dat"]) == cli.EXIT_OK
    capsys.readouterr()
    return folder / "ring.dat"


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_import_refuses_to_replace_the_file_it_imports(
        dat_file: Path, capsys: pytest.CaptureFixture[str], spelling: str) -> None:
    before = dat_file.read_bytes()
    output = SPELLINGS[spelling](dat_file)
    said = _refused(capsys, dat_file, before, "import", "gponline", "ring.dat", "-o", output)
    assert "is the input file" in said


def test_import_refuses_to_replace_the_board_picture_the_file_names(
        dat_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    said = _refused(capsys, dat_file.with_name("ring.png"), PICTURE,
                    "import", "gponline", "ring.dat", "-o", "./ring.png")
    assert "is the board picture of ring.dat" in said


def test_render_heatmap_given_as_output_is_refused(
        folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    heat = folder / "heat.svg"
    heat.write_text('{"a": 1}')
    before = heat.read_bytes()
    _refused(capsys, heat, before, "render", "ring.json", "--heatmap", "heat.svg", "-o", "heat.svg")


def test_a_new_output_beside_the_inputs_is_still_written(
        folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["render", "ring.json", "-o", "sub/ring.png"]) == cli.EXIT_OK
    assert (folder / "sub" / "ring.png").read_bytes().startswith(b"\x89PNG")
    assert (folder / "ring.png").read_bytes() == PICTURE


@pytest.mark.parametrize("spelling", ["plain", "dot-dot", "symbolic link"])
def test_testdrive_refuses_to_write_its_report_over_the_track(
        folder: Path, capsys: pytest.CaptureFixture[str], spelling: str) -> None:
    track = folder / "ring.json"
    before = track.read_bytes()
    output = SPELLINGS[spelling](track)
    _refused(capsys, track, before, "testdrive", "ring.json", "--races", "1", "--cars", "2",
             "--engine", "reference", "--json", output)


def test_testdrive_compare_refuses_to_write_over_a_report_it_compares(
        folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = folder / "before.json"
    report.write_text("{}")
    _refused(capsys, report, b"{}", "testdrive", "compare", "before.json", "before.json",
             "--json", "./before.json")


@pytest.mark.parametrize("target", ["ring.json", "ring.png"])
def test_race_refuses_to_write_its_log_over_the_track_or_its_picture(
        folder: Path, capsys: pytest.CaptureFixture[str], target: str) -> None:
    kept = folder / target
    before = kept.read_bytes()
    _refused(capsys, kept, before, "race", "ring.json", "--cars", "2", "--log", f"sub/../{target}")
