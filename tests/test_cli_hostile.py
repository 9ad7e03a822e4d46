"""The command line against a hostile user: devices, closed pipes, file modes, huge pictures,
tracks that cannot be raced. Each test checks a promise of docs/bad-input.md.

Commands that could hang or eat the machine if a promise broke run in a child process with a
time limit and a cap on its memory, so that a regression fails the test instead.
"""

from __future__ import annotations

import io
import os
import resource
import stat
import struct
import subprocess
import sys
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from tests.factories import edit, ring
from trackformat import cli
from trackformat.io import save_track

ROOT = Path(__file__).parent.parent
BAD = Path(__file__).parent / "data" / "bad"
MEMORY_CAP = 1 << 30
"""Address space of a child process: 1 GB, far more than any command here needs."""


def _capped() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def run_child(*argv: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``python -m trackformat ARGV`` with at most 1 GB of memory and ``timeout`` seconds."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    try:
        return subprocess.run(
            [sys.executable, "-m", "trackformat", *argv], capture_output=True, text=True,
            cwd=ROOT, timeout=timeout, preexec_fn=_capped, env=env,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"trackformat {' '.join(argv)} ran for more than {timeout} s")


@pytest.fixture
def ring_file(tmp_path: Path) -> str:
    path = tmp_path / "ring.json"
    save_track(ring(), path)
    return str(path)


# -- devices and pipes are refused, whatever stat says -------------------------------------------


DEVICES = [d for d in ("/dev/zero", "/dev/urandom") if Path(d).exists()]


@pytest.mark.skipif(not DEVICES, reason="no /dev/zero on this system")
@pytest.mark.parametrize("command", ["validate", "info"])
@pytest.mark.parametrize("device", DEVICES)
def test_a_device_is_refused_not_read(command: str, device: str) -> None:
    result = run_child(command, device, timeout=60)
    assert result.returncode == cli.EXIT_UNUSABLE, result.stderr
    assert f"{device}: is a device, not a file" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.skipif(not DEVICES, reason="no /dev/zero on this system")
def test_a_device_as_ruleset_is_refused_before_racing(ring_file: str) -> None:
    result = run_child("testdrive", ring_file, "--ruleset", "/dev/zero", "--races", "1",
                       timeout=60)
    assert result.returncode == cli.EXIT_UNUSABLE, result.stderr
    assert "/dev/zero: is a device, not a file" in result.stderr


@pytest.mark.skipif(not DEVICES, reason="no /dev/zero on this system")
def test_a_device_as_heatmap_is_refused(ring_file: str, tmp_path: Path) -> None:
    result = run_child("render", ring_file, "-o", str(tmp_path / "ring.svg"),
                       "--heatmap", "/dev/zero", timeout=60)
    assert result.returncode == cli.EXIT_UNUSABLE, result.stderr
    assert "heatmap /dev/zero: is a device, not a file" in result.stderr


@pytest.mark.skipif(not DEVICES, reason="no /dev/zero on this system")
def test_a_device_as_race_log_is_refused(ring_file: str) -> None:
    result = run_child("replay", "/dev/zero", ring_file, timeout=60)
    assert result.returncode == cli.EXIT_UNUSABLE, result.stderr
    assert "/dev/zero: is a device, not a file: a race log" in result.stderr


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes on this system")
def test_a_named_pipe_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    fifo = tmp_path / "track.json"
    os.mkfifo(fifo)
    result = run_child("validate", str(fifo), timeout=60)
    assert result.returncode == cli.EXIT_UNUSABLE
    assert f"{fifo}: is a pipe, not a file" in result.stderr


# -- a closed pipe does not turn a failure into success ------------------------------------------


class ClosedPipe(io.StringIO):
    """stdout of `trackformat ... | head -0`: every write finds the reader gone."""

    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")

    def flush(self) -> None:
        raise BrokenPipeError(32, "Broken pipe")


def test_a_closed_pipe_keeps_the_failure_exit_code(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdout", ClosedPipe())
    invalid = str(BAD / "dangling_link.exit1.json")
    assert cli.main(["validate", invalid]) == cli.EXIT_INVALID
    assert cli.main(["validate", "--format", "json", invalid]) == cli.EXIT_INVALID
    assert cli.main(["validate", invalid, str(BAD / "empty.json")]) == cli.EXIT_UNUSABLE
    assert cli.main(["info", str(BAD / "empty.json")]) == cli.EXIT_UNUSABLE
    assert cli.main(["validate", str(ROOT / "tracks" / "monaco.json")]) == cli.EXIT_OK


@pytest.mark.parametrize("copies", [1, 200])
def test_validate_into_a_closed_pipe_exits_1_quietly(copies: int) -> None:
    """One file prints less than a pipe's buffer, 200 print far more: both must exit 1."""
    invalid = str(BAD / "dangling_link.exit1.json")
    process = subprocess.Popen(
        [sys.executable, "-m", "trackformat", "validate", *[invalid] * copies],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert process.stdout is not None
    process.stdout.close()  # the reader is gone before the first line
    _, err = process.communicate(timeout=120)
    assert process.returncode == cli.EXIT_INVALID, err
    assert "BrokenPipe" not in err and "Traceback" not in err and "Exception" not in err


# -- a pathological file validates in bounded time and memory -------------------------------------


def test_two_thousand_copies_of_one_space_validate_within_a_gigabyte(tmp_path: Path) -> None:
    """Checking every pair of 2,000 copies took 66 s and 4.2 GB: now one report for the pile."""

    def paste(document: dict[str, Any]) -> None:
        original = next(s for s in document["spaces"] if s["id"] == "2-7")
        document["spaces"] += [dict(original, id=f"copy-{n}") for n in range(2000)]

    path = tmp_path / "pile.json"
    save_track(edit(ring(), paste), path)
    result = run_child("validate", "--select", "GEOM002", str(path))
    assert result.returncode == cli.EXIT_INVALID, result.stderr
    [line] = [line for line in result.stdout.splitlines() if "GEOM002" in line]
    assert "2001 spaces overlap one another (2-7, copy-0, copy-1," in line


# -- files written keep their permissions ----------------------------------------------------------


@pytest.fixture
def umask_022() -> Iterator[None]:
    previous = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(previous)


def mode(path: Path | str) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.mark.usefixtures("umask_022")
def test_new_files_get_the_users_umask(
    ring_file: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert mode(ring_file) == 0o644
    assert cli.main(["schema", "-o", str(tmp_path / "schema.json")]) == cli.EXIT_OK
    assert mode(tmp_path / "schema.json") == 0o644
    report = tmp_path / "drive.json"
    code = cli.main(["testdrive", ring_file, "--races", "1", "--cars", "2", "--laps", "1",
                     "--json", str(report)])
    assert code == cli.EXIT_OK, capsys.readouterr().err
    assert mode(report) == 0o644


@pytest.mark.usefixtures("umask_022")
def test_a_replaced_file_keeps_its_mode(ring_file: str, tmp_path: Path) -> None:
    for wanted in (0o640, 0o664):
        os.chmod(ring_file, wanted)
        save_track(ring(), ring_file)
        assert mode(ring_file) == wanted
    schema = tmp_path / "schema.json"
    schema.write_text("{}", encoding="utf-8")
    os.chmod(schema, 0o604)
    assert cli.main(["schema", "-o", str(schema)]) == cli.EXIT_OK
    assert mode(schema) == 0o604
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")], "temporary files left"


@pytest.mark.usefixtures("umask_022")
def test_saving_in_the_editor_keeps_the_tracks_mode(ring_file: str) -> None:
    pytest.importorskip("PySide6")
    from editor.document import TrackDocument

    os.chmod(ring_file, 0o644)
    document = TrackDocument.open(Path(ring_file))
    document.save()
    assert mode(ring_file) == 0o644


# -- pictures: huge boards are scaled down, bombs are left out ------------------------------------


def _png_claiming(width: int, height: int) -> bytes:
    """A PNG of a few dozen bytes whose header claims ``width`` x ``height`` RGB pixels."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(b"")) + chunk(b"IEND", b""))


def test_a_decompression_bomb_beside_the_track_is_left_out(tmp_path: Path) -> None:
    (tmp_path / "bomb.png").write_bytes(_png_claiming(30_000, 30_000))
    track = edit(ring(), lambda d: d["board"].update(image="bomb.png"))
    save_track(track, tmp_path / "ring.json")
    out = tmp_path / "ring.png"
    result = run_child("render", str(tmp_path / "ring.json"), "-o", str(out))
    assert result.returncode == cli.EXIT_OK, result.stderr
    assert "bomb.png is too large to draw under a track" in result.stderr
    assert "drawn without it" in result.stderr
    with Image.open(out) as picture:
        assert picture.size == (ring().board.width, ring().board.height)


def test_a_board_picture_over_the_cap_is_left_out_before_decoding(tmp_path: Path) -> None:
    (tmp_path / "big.png").write_bytes(_png_claiming(9_000, 8_000))
    track = edit(ring(), lambda d: d["board"].update(image="big.png"))
    save_track(track, tmp_path / "ring.json")
    result = run_child("render", str(tmp_path / "ring.json"), "-o", str(tmp_path / "ring.png"))
    assert result.returncode == cli.EXIT_OK, result.stderr
    assert "big.png is too large to draw under a track (9000 x 8000 px" in result.stderr


def test_a_broken_board_picture_is_left_out(tmp_path: Path) -> None:
    (tmp_path / "board.png").write_bytes(b"\x89PNG\r\n\x1a\nnot really")
    track = edit(ring(), lambda d: d["board"].update(image="board.png"))
    save_track(track, tmp_path / "ring.json")
    code = cli.main(["render", str(tmp_path / "ring.json"), "-o", str(tmp_path / "ring.png")])
    assert code == cli.EXIT_OK
    assert (tmp_path / "ring.png").is_file()


def test_a_huge_board_is_drawn_scaled_down(tmp_path: Path) -> None:
    track = edit(ring(), lambda d: d["board"].update(width=100_000, height=100_000))
    save_track(track, tmp_path / "huge.json")
    out = tmp_path / "huge.png"
    result = run_child("render", str(tmp_path / "huge.json"), "-o", str(out))
    assert result.returncode == cli.EXIT_OK, result.stderr
    assert "the board is 100000 x 100000 px, too large to draw at full size" in result.stderr
    assert "drawn at 4096 x 4096 px" in result.stderr
    with Image.open(out) as picture:
        assert picture.size == (4096, 4096)
        # The ring (1,100 px across on the board) is drawn, 45 px across, at the top left.
        corner = picture.convert("RGB").crop((0, 0, 60, 60))
        assert len(corner.getcolors(maxcolors=4096) or []) > 2


# -- docs/bad-input.md states the limits the code enforces ----------------------------------------


def test_the_bad_input_page_states_the_limits_of_the_code() -> None:
    from trackformat.cli.testdrive import UNRACEABLE
    from trackformat.interop import render
    from trackformat.io.files import megabytes
    from trackformat.io.jsonio import MAX_FILE_BYTES
    from trackformat.lint.rules import geometry, overlaps
    from trackformat.rules.loading import MAX_RULESET_BYTES

    page = " ".join((ROOT / "docs" / "bad-input.md").read_text(encoding="utf-8").split())
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "(docs/bad-input.md)" in readme
    assert f"| track file | {megabytes(MAX_FILE_BYTES)} |" in page
    assert f"| ruleset file (`--ruleset`) | {megabytes(MAX_RULESET_BYTES)} |" in page
    assert f"| heatmap (`render --heatmap`) | {megabytes(render.MAX_HEATMAP_BYTES)} |" in page
    side = int(render.MAX_PICTURE_PIXELS ** 0.5)
    assert f"a PNG of at most {side} x {side} pixels" in page
    assert f"at most {render.MAX_BOARD_PICTURE_PIXELS >> 20} million pixels" in page
    assert f"after {geometry.MAX_OVERLAP_REPORTS} reports" in page
    assert f"at most {overlaps.MAX_CANDIDATES:,} pairs" in page
    assert f"at most {overlaps.MAX_MEASURED:,} crossing pairs" in page
    assert ", ".join(UNRACEABLE[:-1]) + f" and {UNRACEABLE[-1]}" in page
    for code, meaning in ((0, "done"), (1, "at least one has validation errors"),
                          (2, "could not be read"), (3, "a bug in trackformat")):
        assert f"| {code} |" in page and meaning in page


def test_a_file_over_the_limit_gets_the_pages_message(tmp_path: Path) -> None:
    from trackformat.io.jsonio import MAX_FILE_BYTES

    path = tmp_path / "big.json"
    path.write_bytes(b" " * (MAX_FILE_BYTES + 1))
    result = run_child("validate", str(path))
    assert result.returncode == cli.EXIT_UNUSABLE
    assert (f"{path}: the file is 4,194,305 bytes, more than the 4 MB (4,194,304 bytes) a track "
            "file may be") in result.stderr
    (tmp_path / "bigger.json").write_bytes(b" " * (MAX_FILE_BYTES + 2_000_000))
    result = run_child("validate", str(tmp_path / "bigger.json"))
    assert "the file is 5.9 MB, more than the 4 MB a track file may be" in result.stderr


def test_help_names_the_limits_page(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["validate", "--help"]) == cli.EXIT_OK
    assert "docs/bad-input.md" in capsys.readouterr().out


def test_a_symbolic_link_is_written_through(ring_file: str, tmp_path: Path) -> None:
    link = tmp_path / "current.json"
    link.symlink_to(Path(ring_file).name)
    save_track(edit(ring(), lambda d: d["metadata"].update(name="Renamed")), link)
    assert link.is_symlink()
    assert '"name": "Renamed"' in Path(ring_file).read_text(encoding="utf-8")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes on this system")
def test_a_pipe_given_as_output_is_written_into_not_replaced(tmp_path: Path) -> None:
    fifo = tmp_path / "schema.pipe"
    os.mkfifo(fifo)
    reader = subprocess.Popen(["cat", str(fifo)], stdout=subprocess.PIPE, text=True)
    result = run_child("schema", "-o", str(fifo), timeout=60)
    out, _ = reader.communicate(timeout=60)
    assert result.returncode == cli.EXIT_OK, result.stderr
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode), "the pipe is still a pipe"
    assert '"$schema"' in out
