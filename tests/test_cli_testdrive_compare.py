"""`trackformat testdrive`: rates with their intervals, and `testdrive compare A.json B.json`."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

import pytest

from tests.factories import ring
from trackformat import cli
from trackformat.io import save_track
from trackformat.sim.batch.stats import wilson


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(["testdrive", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture(scope="module")
def drive(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any], str]:
    """A small test drive on the test ring: its JSON file, the report and the text printed."""
    folder = tmp_path_factory.mktemp("drive")
    track = folder / "ring.json"
    save_track(ring(), track)
    out_file = folder / "a.json"
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        code = cli.main(["testdrive", str(track), "--races", "6", "--cars", "3", "--bot",
                         "random", "--seed", "2", "--json", str(out_file)])
    assert code == 0
    return out_file, json.loads(out_file.read_text(encoding="utf-8")), printed.getvalue()


def test_every_rate_of_the_json_has_its_95_interval_beside_it(drive) -> None:  # type: ignore[no-untyped-def]
    _, report, _ = drive
    cars = report["races"] * report["cars"]
    assert report["finish_rate_ci"] == [round(x, 4) for x in wilson(report["finished"], cars)]
    assert set(report["winner_share_ci"]) == set(report["winner_share"])
    assert len(report["no_winner_ci"]) == 2
    assert "finish_rate_ci" in report["by_bot"]["random"]
    for corner in report["corners"]:
        for rate, count in (("overshoot_rate", "overshoots"), ("spin_rate", "spins"),
                            ("elimination_rate", "eliminations")):
            low, high = corner[f"{rate}_ci"]
            assert low <= corner[rate] <= high
            assert [low, high] == [round(x, 4) for x in wilson(corner[count], corner["entries"])]


def test_the_text_report_gives_rates_with_their_intervals(drive) -> None:  # type: ignore[no-untyped-def]
    _, report, text = drive
    north = report["corners"][0]
    low, high = north["overshoot_rate_ci"]
    shown = f"{100 * north['overshoot_rate']:.1f}% ({100 * low:.1f}-{100 * high:.1f})"
    assert any(line.strip().startswith("North") and shown in line for line in text.splitlines())
    assert f"cars ({100 * report['finish_rate']:.1f}% (" in text


def test_two_corners_of_one_name_are_told_apart_by_their_ids(drive) -> None:  # type: ignore[no-untyped-def]
    from trackformat.cli.testdrive_text import report_text

    _, report, _ = drive
    edited = json.loads(json.dumps(report))
    first, second = edited["corners"][:2]
    first["name"] = second["name"] = "Casino"  # as Monaco's board prints two of its corners
    lines = report_text(edited, "ring.json").splitlines()
    assert any(line.strip().startswith(f"Casino ({first['id']}) ") for line in lines)
    assert any(line.strip().startswith(f"Casino ({second['id']}) ") for line in lines)
    assert not any(line.strip().startswith("Casino  ") for line in lines)


def _changed_copy(report: dict[str, Any], folder: Path) -> Path:
    """The report with North overshot on nearly every entry: a change no interval covers."""
    edited = json.loads(json.dumps(report))
    north = edited["corners"][0]
    north["entries"] = max(north["entries"], 40)
    north["overshoots"] = north["entries"] - 1
    path = folder / "b.json"
    path.write_text(json.dumps(edited), encoding="utf-8")
    return path


def test_compare_lists_the_corners_that_changed_beyond_their_intervals(
    drive, tmp_path: Path, capsys: pytest.CaptureFixture[str]  # type: ignore[no-untyped-def]
) -> None:
    a_file, report, _ = drive
    b_file = _changed_copy(report, tmp_path)
    code, out, err = run(capsys, "compare", str(a_file), str(b_file))
    assert code == 0, err
    before = report["corners"][0]["overshoot_rate"]
    entries = max(report["corners"][0]["entries"], 40)
    after = (entries - 1) / entries
    assert f"North overshoots {100 * before:.1f}% -> {100 * after:.1f}%" in out
    assert "South" not in out

    code, out, err = run(capsys, "compare", str(a_file), str(b_file), "--json", "-")
    assert code == 0, err
    document = json.loads(out)
    assert [c["label"] for c in document["changes"]] == ["North overshoots"]
    change = document["changes"][0]
    assert change["before"]["ci"][1] < change["after"]["ci"][0]


def test_compare_says_when_nothing_changed(drive, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    a_file, _, _ = drive
    code, out, _ = run(capsys, "compare", str(a_file), str(a_file))
    assert code == 0
    assert "nothing changed beyond the 95% intervals" in out


def test_compare_refuses_what_it_cannot_compare_with_exit_2(
    drive, tmp_path: Path, capsys: pytest.CaptureFixture[str]  # type: ignore[no-untyped-def]
) -> None:
    a_file, report, _ = drive
    track = tmp_path / "track.json"
    save_track(ring(), track)
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    other = json.loads(json.dumps(report))
    other["corners"] = [{**c, "id": "x" + c["id"]} for c in other["corners"]]
    other_file = tmp_path / "other.json"
    other_file.write_text(json.dumps(other), encoding="utf-8")
    for argv, message in (
        ((str(a_file), str(track)), "not a test-drive report"),
        ((str(a_file), str(broken)), "line 1 column 2: not JSON"),
        ((str(a_file), str(tmp_path / "missing.json")), "no such file"),
        ((str(a_file), str(tmp_path)), "is a folder"),
        ((str(a_file), str(other_file)), "different corners"),
        ((str(a_file),), "needs two test-drive reports"),
    ):
        code, out, err = run(capsys, "compare", *argv)
        assert code == 2, argv
        assert message in err and "Traceback" not in err and out == ""
