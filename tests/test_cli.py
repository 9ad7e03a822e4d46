"""The command line as a user and a CI job see it: output, exit codes and messages."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from tests.factories import edit, ring
from trackformat import cli
from trackformat.cli import info as info_command
from trackformat.io import save_track
from trackformat.lint import all_rules
from trackformat.model import Track

ROOT = Path(__file__).parent.parent


def write(track: Track, folder: Path, name: str) -> str:
    path = folder / name
    save_track(track, path)
    return str(path)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def broken_ring() -> Track:
    """The ring with a link to a space that does not exist: loads, but is invalid."""
    return edit(ring(), lambda d: d["links"].append({"from": "1-3", "to": "nowhere"}))


# -- validate ------------------------------------------------------------------------------------


def test_sound_track_validates(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(ring(), tmp_path, "ring.json")
    code, out, err = run(capsys, "validate", path)
    assert code == cli.EXIT_OK, out
    assert f"{path}: 0 errors" in out
    assert f"{path}: shortest lap: 40" in out
    assert err == ""


def test_invalid_track_exits_1_and_says_where(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(broken_ring(), tmp_path, "broken.json")
    code, out, _ = run(capsys, "validate", path)
    assert code == cli.EXIT_INVALID
    line = next(line for line in out.splitlines() if "nowhere" in line)
    assert line.startswith(f"{path}: error ")
    assert "/links/" in line


def test_json_output_is_one_document_for_all_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = write(ring(), tmp_path, "good.json")
    bad = write(broken_ring(), tmp_path, "bad.json")
    missing = str(tmp_path / "missing.json")
    code, out, err = run(capsys, "validate", "--format", "json", good, bad, missing)
    assert code == cli.EXIT_UNUSABLE
    document = json.loads(out)
    assert document["ok"] is False
    files = {entry["file"]: entry for entry in document["files"]}
    assert list(files) == [good, bad, missing]
    assert files[good]["ok"] is True and files[good]["facts"]["shortest_lap"] == 40
    assert files[bad]["ok"] is False
    diagnostic = next(d for d in files[bad]["diagnostics"] if "nowhere" in d["message"])
    assert diagnostic["severity"] == "error"
    assert diagnostic["location"]["pointer"].startswith("/links/")
    assert files[missing] == {
        "file": missing, "readable": False, "ok": False,
        "problems": [{"message": "no such file", "pointer": None, "line": None, "column": None}],
    }
    assert f"{missing}: no such file" in err


def test_json_output_for_a_sound_file_is_ok(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(ring(), tmp_path, "ring.json")
    code, out, _ = run(capsys, "validate", "--format", "json", path)
    assert code == cli.EXIT_OK
    document = json.loads(out)
    assert document["ok"] is True
    assert document["files"][0]["counts"]["error"] == 0


def test_select_runs_only_the_chosen_rules(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(broken_ring(), tmp_path, "broken.json")
    code, out, _ = run(capsys, "validate", "--format", "json", path)
    codes = {d["code"] for d in json.loads(out)["files"][0]["diagnostics"]}
    assert codes, "the broken ring must raise at least one diagnostic"
    flagging = sorted(codes)[0]
    quiet = next((r for r in all_rules() if r.code not in codes), None)
    if quiet is None:
        pytest.skip("every registered rule flags the broken ring")

    code, out, _ = run(capsys, "validate", "--format", "json", "--select", quiet.code, path)
    assert code == cli.EXIT_OK
    assert json.loads(out)["files"][0]["diagnostics"] == []

    # codes in any case or rule names, comma separated or repeated
    rule_name = next(r.name for r in all_rules() if r.code == flagging)
    code, out, _ = run(capsys, "validate", "--format", "json",
                       "--select", f"{quiet.code.lower()},{rule_name}", path)
    assert {d["code"] for d in json.loads(out)["files"][0]["diagnostics"]} == {flagging}


def test_select_refuses_an_unknown_code(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(ring(), tmp_path, "ring.json")
    code, out, err = run(capsys, "validate", "--select", "NOPE999", path)
    assert code == cli.EXIT_UNUSABLE
    assert "unknown rule 'NOPE999'" in err and out == ""


# -- info ----------------------------------------------------------------------------------------


def test_info_json_describes_the_ring(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(ring(), tmp_path, "ring.json")
    code, out, _ = run(capsys, "info", "--json", path)
    assert code == cli.EXIT_OK
    info = json.loads(out)
    assert info["name"] == "Test ring"
    assert info["lane_ids"] == ["1", "2", "3"] and info["lanes"] == [40, 40, 40]
    assert (info["track_spaces"], info["pit_spaces"], info["boxes"], info["garages"]) == (
        120, 7, 2, 0)
    assert info["grid_slots"] == 10
    assert info["shortest_lap"] == 40
    assert info["laps"] == 2 and info["stops_per_lap"] == 3
    assert info["corners"] == [
        {"id": "north", "name": "North", "stops": 1, "printed_long": 4, "printed_short": 4,
         "long": 4, "short": 4},
        {"id": "south", "name": "South", "stops": 2, "printed_long": 5, "printed_short": 5,
         "long": 5, "short": 5},
    ]


def test_info_lists_corners_in_lap_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def reverse_corners(document: dict[str, Any]) -> None:
        document["corners"].reverse()

    path = write(edit(ring(), reverse_corners), tmp_path, "ring.json")
    _, out, _ = run(capsys, "info", "--json", path)
    assert [c["id"] for c in json.loads(out)["corners"]] == ["north", "south"]


def test_info_without_a_lap(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def no_finish(document: dict[str, Any]) -> None:
        document["finish_line"] = None

    path = write(edit(ring(), no_finish), tmp_path, "open.json")
    code, out, _ = run(capsys, "info", "--json", path)
    assert code == cli.EXIT_OK
    assert json.loads(out)["shortest_lap"] is None
    code, out, _ = run(capsys, "info", path)
    assert "shortest lap  none" in out


def test_info_shows_measured_and_printed_lengths_apart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a misprinted long path must not hide the length the links really give
    def misprint(document: dict[str, Any]) -> None:
        document["corners"][0]["printed_long"] = 9
        document["corners"][0]["printed_short"] = None

    path = write(edit(ring(), misprint), tmp_path, "misprint.json")
    _, out, _ = run(capsys, "info", "--json", path)
    north = json.loads(out)["corners"][0]
    assert (north["printed_long"], north["printed_short"]) == (9, None)
    assert (north["long"], north["short"]) == (4, 4)


def test_info_text_is_a_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(ring(), tmp_path, "ring.json")
    code, out, _ = run(capsys, "info", path)
    assert code == cli.EXIT_OK
    lines = out.splitlines()
    assert lines[0] == "Test ring"
    assert "  lanes         3 (1: 40, 2: 40, 3: 40 spaces)" in lines
    assert "  shortest lap  40 moves" in lines
    assert any(line.split()[:4] == ["north", "North", "1", "4"] for line in lines)


def test_info_on_an_unreadable_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"format_version": 1,', encoding="utf-8")
    code, out, err = run(capsys, "info", str(path))
    assert code == cli.EXIT_UNUSABLE and out == ""
    assert f"{path}: line 1" in err


# -- render --------------------------------------------------------------------------------------


def test_render_delegates_to_the_renderer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[tuple[Track, Path, dict[str, Any]]] = []

    def render_to_file(track: Track, out_path: Path, **options: Any) -> list[str]:
        calls.append((track, out_path, options))
        return []  # no notes

    fake = types.ModuleType("trackformat.interop.render")
    fake.render_to_file = render_to_file  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "trackformat.interop.render", fake)
    path = write(ring(), tmp_path, "ring.json")
    out = tmp_path / "ring.svg"
    report = tmp_path / "report.json"
    code, printed, _ = run(capsys, "render", path, "-o", str(out), "--heatmap", str(report))
    assert code == cli.EXIT_OK
    ((track, out_path, options),) = calls
    assert track == ring() and out_path == out
    assert options == {"track_path": Path(path), "heatmap": report, "heat": "stops"}
    assert f"wrote {out}" in printed


def test_render_without_the_renderer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "trackformat.interop.render", None)
    path = write(ring(), tmp_path, "ring.json")
    code, _, err = run(capsys, "render", path, "-o", str(tmp_path / "ring.png"))
    assert code == cli.EXIT_UNUSABLE
    assert "rendering is not available" in err


def test_render_refuses_other_picture_formats(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(ring(), tmp_path, "ring.json")
    code, _, err = run(capsys, "render", path, "-o", str(tmp_path / "ring.jpg"))
    assert code == cli.EXIT_UNUSABLE
    assert ".png, .svg or .pdf" in err


# -- the command line itself ---------------------------------------------------------------------


def test_help_documents_the_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--help")
    assert code == 0
    for line in ("0  every file", "1  every file", "2  a file could not be read", "3  internal"):
        assert line in out
    code, out, _ = run(capsys, "validate", "--help")
    assert code == 0 and "exit codes:" in out and "--select" in out


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys)
    assert code == cli.EXIT_UNUSABLE and "usage:" in err
    code, _, err = run(capsys, "validate")
    assert code == cli.EXIT_UNUSABLE and "PATH" in err
    code, _, err = run(capsys, "validate", "--format", "xml", "x.json")
    assert code == cli.EXIT_UNUSABLE and "invalid choice" in err


def test_a_bug_is_reported_without_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken_info(*args: object) -> dict[str, Any]:
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(info_command, "track_info", broken_info)
    monkeypatch.delenv("TRACKFORMAT_DEBUG", raising=False)
    path = write(ring(), tmp_path, "ring.json")
    code, _, err = run(capsys, "info", path)
    assert code == cli.EXIT_INTERNAL
    assert "internal error: ZeroDivisionError" in err
    assert "TRACKFORMAT_DEBUG=1" in err and "Traceback" not in err


def test_names_the_terminal_cannot_show_are_escaped() -> None:
    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding="ascii")
    cli.emit("Nürburgring \ud800", stream)
    stream.flush()
    assert raw.getvalue() == b"N\\xfcrburgring \\ud800\n"


def test_python_dash_m_runs_the_same_command_line(tmp_path: Path) -> None:
    path = write(ring(), tmp_path, "ring.json")
    result = subprocess.run(
        [sys.executable, "-m", "trackformat", "info", "--json", path],
        capture_output=True, text=True, cwd=ROOT, timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["shortest_lap"] == 40
