"""``race``, ``replay`` and ``testdrive`` against hostile numbers, logs and output names.

Each test checks what the user gets: exit 2 and one line saying what is wrong and where (never
exit 3, a traceback, or a race that should not have been raced), and no output file changed by
a command that failed. Commands that could eat the machine if a promise broke run in a child
process with a cap on its memory, so that a regression fails the test instead.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from tests.factories import ring
from trackformat import cli
from trackformat.io import save_track
from trackformat.model.track import Metadata
from trackformat.sim.batch.racelog import MAX_LAPS, MAX_LOG_BYTES

ROOT = Path(__file__).parent.parent
MEMORY_CAP = 1 << 30
"""Address space of a child process: 1 GB, far more than one race needs, and far less than a
list of a hundred billion chunks."""


@pytest.fixture
def ring_file(tmp_path: Path) -> str:
    """A ring with 10 grid slots."""
    path = tmp_path / "ring.json"
    save_track(ring(), path)
    return str(path)


@pytest.fixture
def ring_log(ring_file: str, tmp_path: Path) -> Path:
    """The log of a short race of two cars on the ring."""
    log = tmp_path / "race.jsonl"
    assert cli.main(["race", ring_file, "--cars", "2", "--laps", "1", "--log", str(log)]) == 0
    return log


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def with_setup(log: Path, name: str, **fields: Any) -> Path:
    """A copy of ``log`` named ``name`` whose first line has ``fields`` changed (None: the field
    removed)."""
    lines = log.read_text(encoding="utf-8").splitlines()
    head = json.loads(lines[0])
    for field, value in fields.items():
        if value is None:
            del head[field]
        else:
            head[field] = value
    copy = log.with_name(name)
    copy.write_text("\n".join([json.dumps(head), *lines[1:]]) + "\n", encoding="utf-8")
    return copy


# -- 14: race --laps and --cars out of bounds ----------------------------------------------------


@pytest.mark.parametrize(("argv", "message"), [
    (["--laps", "0"], "argument --laps: 0 is less than 1: a race has 1 to 20 laps, as many as "
                      "a track file may give"),
    (["--laps", "-3"], "argument --laps: -3 is less than 1"),
    (["--laps", "21"], "argument --laps: 21 is more than 20: a race has 1 to 20 laps"),
    (["--cars", "0"], "argument --cars: 0 is less than 1: a race has at least one car, and at "
                      "most one per grid slot of the track"),
])
def test_race_refuses_laps_and_cars_out_of_bounds_before_racing(
    ring_file: str, capsys: pytest.CaptureFixture[str], argv: list[str], message: str,
) -> None:
    code, out, err = run(capsys, "race", ring_file, *argv)
    assert code == 2
    assert message in err
    assert "finish order" not in out, "no race is raced"


def test_race_says_how_many_cars_the_grid_takes(
    ring_file: str, capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "race", ring_file, "--cars", "11")
    assert code == 2 and out == ""
    assert err == (f"trackformat race: {ring_file}: the track has 10 grid slots on the circuit; "
                   "11 cars cannot start\n")


# -- 12: --laps is bounded as a track file's laps are ---------------------------------------------


def test_the_most_laps_of_a_race_are_the_most_of_a_track_file() -> None:
    assert Metadata(name="Ring", laps=MAX_LAPS).laps == MAX_LAPS
    with pytest.raises(ValidationError):
        Metadata(name="Ring", laps=MAX_LAPS + 1)


def test_testdrive_refuses_a_hundred_thousand_laps(
    ring_file: str, capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "testdrive", ring_file, "--races", "1", "--engine",
                         "reference", "--laps", "100000")
    assert code == 2 and out == ""
    assert ("trackformat testdrive: error: argument --laps: 100000 is more than 20: a race has "
            "1 to 20 laps, as many as a track file may give") in err


# -- 7 and 14: replay refuses a setup that is not a race's, naming the log, the line, the field --


@pytest.mark.parametrize(("fields", "message"), [
    ({"seed": 1.5}, "line 1: field 'seed' is 1.5, not a whole number"),
    ({"seed": True}, "line 1: field 'seed' is true, not a whole number"),
    ({"seed": "1"}, "line 1: field 'seed' is \"1\", not a whole number"),
    ({"laps": 1.0}, "line 1: field 'laps' is 1.0, not a whole number from 1 to 20"),
    ({"laps": 0}, "line 1: field 'laps' is 0, not a whole number from 1 to 20"),
    ({"laps": 21}, "line 1: field 'laps' is 21, not a whole number from 1 to 20"),
    ({"bots": "cautious"}, "line 1: field 'bots' is \"cautious\", not a list of bot names"),
    ({"bots": []}, "line 1: field 'bots' is [], but a race needs at least one car"),
    ({"bots": ["cautious", "nobody"]}, "line 1: field 'bots' names 'nobody', which is no bot"),
    ({"track": 5}, "line 1: field 'track' is 5, not a track's fingerprint"),
    ({"ruleset": [1]}, "line 1: field 'ruleset' is [1], not a ruleset (a JSON object)"),
    ({"builds": [5, None]}, "line 1: field 'builds': car 1's build is 5: "),
    ({"seed": None}, "line 1: field 'seed' is missing"),
])
def test_replay_refuses_a_setup_with_a_wrong_value(
    ring_file: str, ring_log: Path, capsys: pytest.CaptureFixture[str],
    fields: dict[str, Any], message: str,
) -> None:
    log = with_setup(ring_log, "edited.jsonl", **fields)
    code, out, err = run(capsys, "replay", str(log), ring_file)
    assert code == 2 and out == ""
    assert err.startswith(f"trackformat replay: {log}: {message}")
    assert err.count("\n") == 1, "one line"


def test_replay_refuses_more_cars_than_the_grid_naming_the_log(
    ring_file: str, ring_log: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    log = with_setup(ring_log, "crowded.jsonl", bots=["cautious"] * 11)
    code, out, err = run(capsys, "replay", str(log), ring_file)
    assert code == 2 and out == ""
    assert err == (f"trackformat replay: {log}: line 1: the race cannot start on this track: "
                   "the track has 10 grid slots on the circuit; 11 cars cannot start\n")


def test_replay_refuses_a_log_over_the_limit_without_reading_it(
    ring_file: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    huge = tmp_path / "huge.jsonl"
    with open(huge, "wb") as stream:
        stream.truncate(MAX_LOG_BYTES + 1)  # sparse: nothing written
    code, out, err = run(capsys, "replay", str(huge), ring_file)
    assert code == 2 and out == ""
    assert err == (f"trackformat replay: {huge}: the file is 16,777,217 bytes, more than the "
                   "16 MB (16,777,216 bytes) a race log may be\n")


def test_a_log_just_under_the_limit_is_read(
    ring_file: str, ring_log: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    padded = ring_log.with_name("padded.jsonl")
    text = ring_log.read_text(encoding="utf-8")
    padded.write_text(text + "x" * (MAX_LOG_BYTES - len(text.encode())), encoding="utf-8")
    assert padded.stat().st_size == MAX_LOG_BYTES
    code, out, _ = run(capsys, "replay", str(padded), ring_file)
    assert code == 1, "read, and found longer than the race: not refused as too large"
    assert f"{padded}: line {len(text.splitlines()) + 1} differs" in out


# -- 15: an output whose folder is a file --------------------------------------------------------


def test_an_output_in_a_folder_that_is_a_file_is_named(
    ring_file: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    mine = tmp_path / "T.json"
    mine.write_text("a file of the user's\n", encoding="utf-8")
    report = tmp_path / "report.json"
    report.write_text(json.dumps({"races": 1}), encoding="utf-8")
    for argv in (
        ["race", ring_file, "--cars", "2", "--log", f"{mine}/r.jsonl"],
        ["race", ring_file, "--cars", "2", "--log", f"{mine}/sub/r.jsonl"],
        ["testdrive", ring_file, "--races", "1", "--engine", "reference", "--json",
         f"{mine}/r.json"],
        ["testdrive", "compare", str(report), str(report), "--json", f"{mine}/c.json"],
    ):
        code, out, err = run(capsys, *argv)
        assert code == 2, argv
        assert out == "", "nothing raced or compared"
        assert err.endswith(f": cannot be written: {mine} is a file, not a folder\n"), err
        assert err.count("\n") == 1
        assert mine.read_text(encoding="utf-8") == "a file of the user's\n"


def test_a_race_that_fails_leaves_the_old_log_as_it_was(
    ring_file: str, ring_log: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    before = ring_log.read_bytes()
    for argv in (["--cars", "11"], ["--laps", "0"], ["--cars", "0"], ["--bots", "nobody"]):
        code, _, _ = run(capsys, "race", ring_file, *argv, "--log", str(ring_log))
        assert code == 2, argv
        assert ring_log.read_bytes() == before


# -- 8: a batch of a trillion races starts at once -----------------------------------------------


FIRST_RACES = """
import sys
from trackformat import cli
from trackformat.cli import testdrive


class FirstRaces:
    # Stands in for the progress bar: says how far the batch got, then stops it as Ctrl-C does.
    def __init__(self, stream):
        pass

    def __call__(self, done, total):
        print(f"raced {done} of {total}", flush=True)
        raise KeyboardInterrupt

    def say(self, line):
        pass

    def clear(self):
        pass


testdrive.ProgressBar = FirstRaces
sys.exit(cli.main(sys.argv[1:]))
"""


def _capped() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def run_capped(*argv: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``trackformat ARGV`` in a child process with at most 1 GB of memory, whose progress bar
    prints the first progress and stops the batch."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    try:
        return subprocess.run(
            [sys.executable, "-c", FIRST_RACES, *argv], capture_output=True, text=True,
            cwd=ROOT, timeout=timeout, preexec_fn=_capped, env=env,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"trackformat {' '.join(argv)} ran for more than {timeout} s")


@pytest.mark.skipif(sys.platform != "linux", reason="the memory cap is Linux's RLIMIT_AS")
@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_trillion_races_start_racing_at_once_in_little_memory(
    ring_file: str, workers: str,
) -> None:
    result = run_capped("testdrive", ring_file, "--races", "1000000000000", "--cars", "2",
                        "--engine", "reference", "--workers", workers)
    assert "raced 10 of 1000000000000" in result.stdout, result.stderr
    assert result.returncode == 130, "stopped as Ctrl-C stops it"
    assert "Traceback" not in result.stderr and "MemoryError" not in result.stderr


@pytest.mark.skipif(sys.platform != "linux", reason="the memory cap is Linux's RLIMIT_AS")
@pytest.mark.parametrize("command", ["race", "testdrive"])
def test_a_billion_cars_are_refused_before_a_line_up_is_made(
    ring_file: str, command: str,
) -> None:
    engine = ["--engine", "reference"] if command == "testdrive" else []
    result = run_capped(command, ring_file, "--cars", "1000000000", *engine)
    assert result.returncode == 2, result.stderr
    assert "the track has 10 grid slots on the circuit; 1000000000 cars cannot start" in (
        result.stderr)


@pytest.mark.skipif(sys.platform != "linux", reason="the memory cap is Linux's RLIMIT_AS")
def test_a_log_of_a_hundred_thousand_cars_is_refused_before_their_bots_are_made(
    ring_file: str, ring_log: Path,
) -> None:
    log = with_setup(ring_log, "crowded.jsonl", bots=["cautious"] * 100_000)
    result = run_capped("replay", str(log), ring_file)
    assert result.returncode == 2, result.stderr
    assert result.stderr == (
        f"trackformat replay: {log}: line 1: the race cannot start on this track: the track has "
        "10 grid slots on the circuit; 100000 cars cannot start\n")
