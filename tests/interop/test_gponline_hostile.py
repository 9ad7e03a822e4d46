"""`trackformat import gponline` on hostile or broken `.dat` files: never exit 3, never a
traceback; exit 2 with the file and line at fault, or an import with a warning when the data can
still be used."""

from __future__ import annotations

import os
import struct
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest

from trackformat.cli import main
from trackformat.io import load_track

TWO_LANES = Path(__file__).parent.parent / "data" / "gponline" / "two-lanes.dat"
Node = list[str]


def _with_nodes(change: Callable[[Node], Node], header: str | None = None) -> str:
    """The two-lane file with every node line passed through ``change`` (``[id, x, y, type,
    (F)]``), and optionally another header."""
    lines = TWO_LANES.read_text().split("\n")
    end = lines.index("")
    nodes = [" ".join(change(line.split())) for line in lines[1:end]]
    return "\n".join([header or lines[0], *nodes, *lines[end:]])


def _import(tmp_path: Path, text: str | bytes, capsys: pytest.CaptureFixture[str],
            *extra: str) -> tuple[int, str, Path]:
    dat = tmp_path / "board.dat"
    if isinstance(text, str):
        dat.write_text(text)
    else:
        dat.write_bytes(text)
    out = tmp_path / "out.json"
    code = main(["import", "gponline", str(dat), "-o", str(out), *extra])
    captured = capsys.readouterr()
    printed = captured.out + captured.err
    assert "Traceback" not in printed and "internal error" not in printed
    return code, printed, dat


def _png(width: int, height: int) -> bytes:
    """A tiny PNG whose header claims ``width`` x ``height`` pixels."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(kind + data) & 0xFFFFFFFF
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\0"))
            + chunk(b"IEND", b""))


def test_a_node_on_another_one_is_moved_aside(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = _with_nodes(lambda n: [n[0], "370", "290", *n[3:]] if n[0] == "5" else n)
    code, printed, _ = _import(tmp_path, text, capsys)
    assert code in (0, 1)
    assert "node 5 (line 7) stands on node 2; moved 1 pixel(s) to the right" in printed
    assert len(load_track(tmp_path / "out.json").spaces) == 79  # every node, none lost


@pytest.mark.parametrize(
    "place",
    [
        pytest.param(lambda k: ("100", "100"), id="all on one point"),
        pytest.param(lambda k: (str(10 + 3 * k), "100"), id="all on one line"),
        pytest.param(lambda k: (str(10 + 3 * k), str(10 + 3 * k)), id="all on a diagonal"),
    ],
)
def test_nodes_on_one_point_or_one_line_still_import(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], place: Callable[[int], tuple[str, str]]
) -> None:
    text = _with_nodes(lambda n: [n[0], *place(int(n[0])), *n[3:]])
    code, printed, _ = _import(tmp_path, text, capsys)
    # The outlines are nonsense and the validator says so, but the track is written.
    assert code in (0, 1), printed
    assert load_track(tmp_path / "out.json").spaces


@pytest.mark.parametrize(
    ("x", "y", "shown"),
    [("340000", "290", "(340000, 290)"), ("-340", "-290", "(-340, -290)")],
    ids=["over 100,000", "negative"],
)
def test_nodes_off_the_board_exit_2_naming_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], x: str, y: str, shown: str
) -> None:
    text = _with_nodes(lambda n: [n[0], x, y, *n[3:]] if n[0] == "0" else n)
    code, printed, dat = _import(tmp_path, text, capsys)
    assert code == 2
    assert f"{dat}: line 2: node 0 lies at {shown}, off the board picture" in printed


def test_all_coordinates_negative_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = _with_nodes(lambda n: [n[0], f"-{n[1]}", f"-{n[2]}", *n[3:]])
    code, printed, dat = _import(tmp_path, text, capsys)
    assert code == 2 and f"{dat}: line 2: node 0 lies at (-340, -290)" in printed


def test_an_image_name_of_1200_characters_imports_without_a_picture(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = _with_nodes(lambda n: n, header="x" * 1200 + ".png 0 0 0")
    code, printed, _ = _import(tmp_path, text, capsys)
    assert code in (0, 1), printed
    assert "the board picture's name is 1,204 characters long" in printed
    track = load_track(tmp_path / "out.json")
    assert track.board.image is None and len(track.metadata.name) == 200


def test_a_picture_claiming_30000_px_square_is_not_decoded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "bomb.png").write_bytes(_png(30_000, 30_000))
    text = _with_nodes(lambda n: n, header="bomb.png 0 0 0")
    code, printed, _ = _import(tmp_path, text, capsys)
    assert code in (0, 1), printed
    assert "board picture bomb.png claims far more pixels than a board picture has" in printed
    board = load_track(tmp_path / "out.json").board
    # Sized to hold the spaces (nodes reach x 632, y 312; plus a margin), not the picture's claim.
    assert (board.width, board.height) == (692, 372)


def test_a_picture_wider_than_a_board_may_be_is_not_used(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "wide.png").write_bytes(_png(200_000, 10))
    code, printed, _ = _import(tmp_path, _with_nodes(lambda n: n, "wide.png 0"), capsys)
    assert code in (0, 1), printed
    assert "board picture wide.png is 200000 x 10 px, larger than a board may be" in printed


def test_a_picture_that_is_not_a_picture_is_not_used(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "fake.png").write_text("not a picture")
    code, printed, _ = _import(tmp_path, _with_nodes(lambda n: n, "fake.png 0"), capsys)
    assert code in (0, 1) and "board picture fake.png cannot be read" in printed


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("3000000000 340 290 1 F", "node id 3000000000 is too large"),
        ("1_0 340 290 1 F", "node id should be an integer, found '1_0'"),
        ("0 340 290 1 F", None),
        ("0 3.5 290 1 F", "x should be an integer, found '3.5'"),
        ("0 340 290 9 F", "node type 9 is not one of 0-7"),
    ],
)
def test_numbers_the_game_cannot_read_exit_2_naming_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str, message: str | None
) -> None:
    text = _with_nodes(lambda n: line.split() if n[0] == "0" else n)
    code, printed, dat = _import(tmp_path, text, capsys)
    if message is None:
        assert code in (0, 1)
    else:
        assert code == 2 and f"{dat}: line 2: {message}" in printed


def test_too_many_nodes_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    nodes = [f"{k} {k % 500} {k // 500} 1" + (" F" if k < 2 else "") for k in range(10_001)]
    code, printed, dat = _import(tmp_path, "b.png 0\n" + "\n".join(nodes) + "\n\n0 1\n", capsys)
    assert code == 2 and f"{dat}: line 10002: more than 10,000 nodes" in printed


def test_a_file_over_the_size_limit_is_not_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, printed, dat = _import(tmp_path, b"b.png 0\n" + b"0 1 1 1\n" * 200_000, capsys)
    assert code == 2
    assert f"{dat}: the file is 1.5 MB, more than the 1 MB a GP Online track file may be" in printed


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_a_device_or_a_folder_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = str(tmp_path / "out.json")
    assert main(["import", "gponline", "/dev/zero", "-o", out]) == 2
    assert "/dev/zero: is a device, not a file" in capsys.readouterr().err
    assert main(["import", "gponline", str(tmp_path), "-o", out]) == 2
    assert f"{tmp_path}: is a folder" in capsys.readouterr().err


def test_a_name_too_long_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, printed, _ = _import(tmp_path, TWO_LANES.read_text(), capsys, "--name", "n" * 201)
    assert code == 2 and "the track's name is 201 characters long" in printed


def test_an_image_name_too_long_for_the_file_system_is_kept_but_not_found(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = _with_nodes(lambda n: n, header="y" * 300 + ".png 0 0 0")
    code, printed, _ = _import(tmp_path, text, capsys)
    assert code in (0, 1), printed
    assert "board picture " + "y" * 57 + "... not found beside the file" in printed
    assert load_track(tmp_path / "out.json").board.image == "y" * 300 + ".png"


def test_an_empty_section_past_the_grid_is_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Found by the fuzz suite: the header twice reads as the older layout, which puts the grid
    # one section further, past an empty one.
    header = TWO_LANES.read_text().split("\n")[0]
    text = header + "\n" + _with_nodes(lambda n: n).replace("\n\n58 0.0", "\n\n\n58 0.0")
    code, printed, dat = _import(tmp_path, text, capsys)
    grid = text.split("\n").index("58 0.0") + 1
    assert code == 2
    assert f"{dat}: line {grid}: more than four sections after the header" in printed
