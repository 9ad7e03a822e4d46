"""Hostile reports given to `testdrive compare` and `render --heatmap`, and hostile board picture
names given to `render`: what a fuzzing campaign found, and what the user now gets.

Every bad report exits 2 with one line naming the file and what is wrong in it, never exit 3 nor
a traceback; a device or a pipe is refused without being read; `compare` is linear in corners;
a board picture whose name no file can have is left out with a note, and the track is drawn.
Each test checks a promise of docs/bad-input.md.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.factories import edit, ring
from tests.test_cli_hostile import run_child
from trackformat import cli
from trackformat.io import save_track


def report(corners: int = 2, overshoots: int = 25, name: str | None = None) -> dict[str, Any]:
    """A test-drive report of ``corners`` corners of 200 entries each, over 100 races of 4
    cars (the shape `trackformat testdrive --json` writes, the counts compare reads)."""
    return {
        "races": 100, "cars": 4, "finished": 380, "no_winner": 0.0,
        "by_bot": {"strong": {"cars": 400, "wins": 100, "finished": 380}},
        "corners": [{"id": f"c{number}", "name": name or f"Corner {number}", "entries": 200,
                     "overshoots": overshoots, "spins": 0, "eliminations": 0}
                    for number in range(corners)],
        "spaces": {"1-5": {"stops": 7, "overshoots": 1, "eliminations": 0, "pit_stops": 0}},
    }


def write(path: Path, text: str) -> str:
    path.write_text(text, encoding="utf-8")
    return str(path)


def compare(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``trackformat testdrive compare ARGV`` in this process: exit code, stdout, stderr."""
    code = cli.main(["testdrive", "compare", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def one_line(err: str) -> str:
    """The one line a refused command printed, with no traceback."""
    assert "Traceback" not in err and "internal error" not in err, err
    assert err.endswith("\n") and err.count("\n") == 1, f"not one line:\n{err}"
    return err.strip()


def _with(change: Callable[[dict[str, Any]], None]) -> str:
    """A sound report with ``change`` applied, as JSON text."""
    document = report()
    change(document)
    return json.dumps(document)


def _set_entries(document: dict[str, Any]) -> None:
    document["corners"][1]["entries"] = 10**400


# -- 6: numbers no report holds, and JSON nested too deeply --------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (_with(lambda d: d.update(no_winner=float("nan"))),
         "after.json: 'no_winner' is not a finite number (NaN): it should be a share, from 0 to 1"),
        (_with(lambda d: d.update(no_winner=float("inf"))),
         "after.json: 'no_winner' is not a finite number (Infinity)"),
        (_with(lambda d: d.update(no_winner=1e308)),
         "after.json: 'no_winner' should be a share (a number from 0 to 1), not 1e+308"),
        (_with(lambda d: d.update(races=10**400)),
         "after.json: 'races' should be a count (a whole number from 0 to 1,000,000,000,000,000)"
         ", not a whole number of 401 digits"),
        (_with(_set_entries),
         "after.json: corners[1]: 'entries' should be a count (a whole number from 0 to "
         "1,000,000,000,000,000), not a whole number of 401 digits"),
        (_with(lambda d: d["by_bot"]["strong"].update(cars=1e400)),
         "after.json: by_bot.strong: 'cars' should be a count"),
        (json.dumps(report()).replace('"races": 100', '"races": 1' + "0" * 5000),
         "after.json: holds a whole number of 5,001 digits, more than any test-drive report has"),
        ("[" * 100_000 + "]" * 100_000,
         "after.json: JSON nested too deeply: a test-drive report is a few levels deep"),
        (json.dumps(report())[:-1] + ', "x": ' + "{\"a\": " * 100_000 + "1" + "}" * 100_001,
         "after.json: JSON nested too deeply"),
    ],
    ids=["nan", "infinity", "1e308", "races-10^400", "entries-10^400", "cars-1e400",
         "5000-digits", "nested-100000", "nested-inside"],
)
def test_compare_refuses_numbers_and_nesting_no_report_holds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    before = write(tmp_path / "before.json", json.dumps(report()))
    after = write(tmp_path / "after.json", text)
    code, out, err = compare(capsys, before, after)
    assert code == cli.EXIT_UNUSABLE
    assert out == ""
    line = one_line(err)
    assert line.startswith(f"trackformat testdrive compare: {tmp_path}")
    assert message in line


def test_a_hostile_value_is_quoted_short_on_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hostile = report()
    hostile["by_bot"]["a\nbot"] = {"cars": "x" * 10_000, "wins": 0, "finished": 0}
    before = write(tmp_path / "before.json", json.dumps(report()))
    after = write(tmp_path / "after.json", json.dumps(hostile))
    code, _, err = compare(capsys, before, after)
    assert code == cli.EXIT_UNUSABLE
    line = one_line(err)
    assert "after.json: by_bot.'a\\nbot': 'cars' should be a count" in line
    assert "... (10,000 characters)" in line and len(line) < 400


@pytest.fixture
def ring_file(tmp_path: Path) -> str:
    path = tmp_path / "ring.json"
    save_track(ring(), path)
    return str(path)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"1-5": 1' + "0" * 399 + "}",
         "the value of space '1-5' is not a finite number (a whole number of 400 digits)"),
        ('{"spaces": {"1-5": {"stops": 1' + "0" * 399 + "}}}",
         "the value of space '1-5' is not a finite number (a whole number of 400 digits)"),
        ('{"1-5": NaN}', "the value of space '1-5' is not a finite number (NaN)"),
        ('{"1-5": 1e400}', "the value of space '1-5' is not a finite number (Infinity)"),
        ('{"1-5": 1' + "0" * 5000 + "}", "holds a whole number of 5,001 digits"),
        ("[" * 100_000 + "]" * 100_000, "JSON nested too deeply: a heatmap is a few levels deep"),
    ],
    ids=["400-digits", "400-digits-in-report", "nan", "1e400", "5000-digits", "nested-100000"],
)
def test_render_refuses_a_heatmap_of_numbers_without_a_colour(
    tmp_path: Path, ring_file: str, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    heatmap = write(tmp_path / "heat.json", text)
    out = tmp_path / "ring.svg"
    code = cli.main(["render", ring_file, "-o", str(out), "--heatmap", heatmap])
    captured = capsys.readouterr()
    assert code == cli.EXIT_UNUSABLE
    assert f"heatmap {heatmap}: {message}" in one_line(captured.err)
    assert not out.exists()


# -- 7: a device is refused, not read until memory runs out --------------------------------------


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero on this system")
def test_compare_refuses_a_device_without_reading_it(tmp_path: Path) -> None:
    before = write(tmp_path / "before.json", json.dumps(report()))
    result = run_child("testdrive", "compare", before, "/dev/zero", timeout=60)
    assert result.returncode == cli.EXIT_UNUSABLE, result.stderr
    assert one_line(result.stderr) == (
        "trackformat testdrive compare: /dev/zero: is a device, not a file: a test-drive report "
        "is read from a regular file")


# -- 9: a named pipe is refused without waiting for a writer -------------------------------------


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes on this system")
def test_compare_refuses_a_named_pipe_without_waiting_for_a_writer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = write(tmp_path / "before.json", json.dumps(report()))
    fifo = tmp_path / "after.json"
    os.mkfifo(fifo)
    codes: list[int] = []
    worker = threading.Thread(target=lambda: codes.append(
        cli.main(["testdrive", "compare", before, str(fifo)])), daemon=True)
    worker.start()
    worker.join(timeout=30)
    if worker.is_alive():
        # Open the other end and close it: the reader sees the end of the file and returns,
        # so that the failing test does not leave a thread blocked for ever.
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        worker.join(timeout=30)
        pytest.fail("testdrive compare waited for a writer to the named pipe")
    assert codes == [cli.EXIT_UNUSABLE]
    assert one_line(capsys.readouterr().err) == (
        f"trackformat testdrive compare: {fifo}: is a pipe, not a file: a test-drive report is "
        "read from a regular file")


# -- 10: compare is linear in corners ------------------------------------------------------------


def test_compare_of_40000_corners_finishes_and_tells_them_apart(tmp_path: Path) -> None:
    """40,000 corners all called alike, each changed: the worst case of the old count of names,
    which was quadratic (over three minutes here). Now some 5 s: the child's time limit of two
    minutes only catches a return to quadratic time. Timed in benchmarks/compare_big.py."""
    before = write(tmp_path / "before.json", json.dumps(report(40_000, 25, name="Hairpin")))
    after = write(tmp_path / "after.json", json.dumps(report(40_000, 62, name="Hairpin")))
    result = run_child("testdrive", "compare", before, after, "--json", "-", timeout=120)
    assert result.returncode == cli.EXIT_OK, result.stderr
    changes = json.loads(result.stdout)["changes"]
    assert len(changes) == 40_000
    assert changes[0]["label"] == "Hairpin (c0) overshoots"
    assert changes[-1]["label"] == "Hairpin (c39999) overshoots"
    assert changes[-1]["before"]["count"] == 25 and changes[-1]["after"]["count"] == 62


def test_reports_of_thousands_of_different_corners_are_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = report(5_000)
    for corner in other["corners"]:
        corner["id"] = "x" + corner["id"]
    before = write(tmp_path / "before.json", json.dumps(report(5_000)))
    after = write(tmp_path / "after.json", json.dumps(other))
    code, _, err = compare(capsys, before, after)
    assert code == cli.EXIT_UNUSABLE
    line = one_line(err)
    assert f"only {before} has c0, c1, c10, c100, c1000, c1001, c1002, c1003, c1004, c1005 " \
           "and 4,990 more" in line
    # Short whatever the folder the reports are in (a test process's own is long).
    assert len(line.replace(str(before), "before").replace(str(after), "after")) < 600


# -- 15: a board picture name no file can have ---------------------------------------------------


@pytest.mark.parametrize(
    ("image", "why"),
    [("scan\0.png", "it holds a NUL character"), ("x" * 300 + ".png", "File name too long")],
    ids=["nul", "300-characters"],
)
@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_render_leaves_out_a_board_picture_whose_name_cannot_be_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], image: str, why: str, suffix: str
) -> None:
    track = tmp_path / "ring.json"
    save_track(edit(ring(), lambda d: d["board"].update(image=image)), track)
    out = tmp_path / f"ring{suffix}"
    code = cli.main(["render", str(track), "-o", str(out)])
    captured = capsys.readouterr()
    assert code == cli.EXIT_OK, captured.err
    assert out.is_file()
    note = one_line(captured.err)
    assert note.startswith(f"{out}: note: {track}: /board/image: the board picture ")
    assert note.endswith(f"cannot be read ({why}): drawn without it")
    assert "Traceback" not in captured.out and f"wrote {out}" in captured.out
