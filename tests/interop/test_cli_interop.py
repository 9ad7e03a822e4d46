"""`trackformat import` and `export` on GP Online files, as a user runs them."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.factories import ring
from tests.interop.gponline_circuit import small_circuit
from trackformat.cli import main
from trackformat.io import load_track, save_track

OVAL = Path(__file__).parent.parent / "data" / "gponline" / "small-oval.dat"


def test_import_writes_a_valid_track_and_warns_what_it_inferred(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "tracks" / "oval.json"
    assert main(["import", "gponline", str(OVAL), "-o", str(out), "--name", "Oval"]) == 0
    captured = capsys.readouterr()
    assert "0 errors" in captured.out
    assert "warning: blocked node 999 has no moves and lies on no lane; dropped" in captured.err
    track = load_track(out)
    assert track.metadata.name == "Oval" and len(track.lanes) == 2
    # The board picture is named relative to the new track file.
    assert (out.parent / track.board.image).resolve() == (
        OVAL.parent / "My Test Board v2.png"
    ).resolve()


def test_export_then_import_again(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    track_file = tmp_path / "ring.json"
    save_track(small_circuit(), track_file)
    dat = tmp_path / "ring.dat"
    assert (
        main(
            [
                "export",
                "gponline",
                str(track_file),
                "-o",
                str(dat),
                "--image",
                "ring.png",
                "--info-corner",
                "2",
            ]
        )
        == 0
    )
    assert dat.read_text().startswith("ring.png 2\n0 ")  # GP Online numbers from 0
    assert main(["import", "gponline", str(dat), "-o", str(tmp_path / "again.json")]) == 0
    # The four team boxes beside the pit lane are garages in it in GP Online.
    assert len(load_track(tmp_path / "again.json").spaces) == len(small_circuit().spaces) - 4
    assert len(load_track(tmp_path / "again.json").pit_lane.garages) == 4  # type: ignore[union-attr]


def test_export_names_the_board_picture_relative_to_the_dat(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "tracks" / "boards").mkdir(parents=True)
    track = small_circuit()
    track = track.model_copy(
        update={"board": track.board.model_copy(update={"image": "boards/oval.png"})}
    )
    track_file = tmp_path / "tracks" / "oval.json"
    save_track(track, track_file)
    dat = tmp_path / "gp" / "oval.dat"
    dat.parent.mkdir()
    assert main(["export", "gponline", str(track_file), "-o", str(dat)]) == 0
    assert dat.read_text().startswith("../tracks/boards/oval.png 0\n")


def test_broken_inputs_exit_2_with_a_located_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = tmp_path / "broken.dat"
    broken.write_text("board.png 0\n1 0 0 1 F\n2 x 0 1\n\n1 2\n")
    assert main(["import", "gponline", str(broken), "-o", str(tmp_path / "x.json")]) == 2
    assert f"{broken}: line 3: x should be an integer" in capsys.readouterr().err
    five = tmp_path / "five.json"
    save_track(ring(lanes=5, per_lane=30), five)
    assert main(["export", "gponline", str(five), "-o", str(tmp_path / "x.dat")]) == 2
    assert "2 to 4 lanes" in capsys.readouterr().err
