"""Every kind of broken file gives a located message and exit code 1 or 2, never a traceback.

The corpus lives in tests/data/bad/. Files that load but break the track's meaning (dangling
references) are named ``*.exit1.json``: the validator reports them and the exit code is 1. Every
other file cannot be read as a track: exit code 2. The manifest below also says where in the file
the message must point, so a message that loses its location fails here.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from trackformat import cli

DATA = Path(__file__).parent / "data" / "bad"
ROOT = Path(__file__).parent.parent

WHOLE_FILE = None
"""The problem is the file as a whole (empty, binary): the message names the file only."""

# file name -> the location (JSON pointer or "line N") the message must contain
MANIFEST: dict[str, str | None] = {
    # JSON syntax
    "syntax_trailing_comma.json": "line 4",
    "syntax_truncated.json": "line 26",
    "syntax_single_quotes.json": "line 2",
    "syntax_comment.json": "line 2",
    "syntax_unquoted_key.json": "line 3",
    "syntax_trailing_data.json": "line 218",
    "syntax_missing_comma.json": "line 3",
    "deep_nesting.json": WHOLE_FILE,
    # not JSON text at all
    "empty.json": WHOLE_FILE,
    "whitespace_only.json": WHOLE_FILE,
    "binary_garbage.json": WHOLE_FILE,
    "binary_no_nul.json": "line 1",
    "utf16.json": WHOLE_FILE,
    "latin1.json": "line 4",
    # JSON, but not an object
    "top_array.json": "/",
    "top_number.json": "/",
    "top_string.json": "/",
    "top_null.json": "/",
    # wrong types
    "wrong_types_many.json": "/spaces/2/kind",
    "wrong_type_spaces_object.json": "/spaces",
    "wrong_type_null_board.json": "/board",
    "wrong_type_laps_float.json": "/metadata/laps",
    "wrong_type_name_object.json": "/metadata/name",
    "stops_bool.json": "/corners/0/stops",
    "width_string.json": "/board/width",
    "heading_string.json": "/spaces/0/heading",
    # numbers no board has
    "nan.json": "/spaces/0/centre/0",
    "infinity.json": "/spaces/0/centre/0",
    "neg_infinity.json": "/spaces/0/centre/0",
    "overflow_float.json": "/spaces/0/centre/0",
    "huge_float.json": "/spaces/0/centre/0",
    "huge_integer.json": "/spaces/0/centre/0",
    "negative_board.json": "/board/width",
    "laps_out_of_range.json": "/metadata/laps",
    "too_many_lanes.json": "/lanes",
    # missing fields
    "missing_metadata.json": "/metadata",
    "missing_name.json": "/metadata/name",
    "missing_board.json": "/board",
    "missing_spaces.json": "/spaces",
    "missing_polygon.json": "/spaces/4/polygon",
    "missing_link_target.json": "/links/3/to",
    # unknown fields, ids, outlines
    "unknown_field_top.json": "/colour",
    "unknown_field_space.json": "/spaces/2/width",
    "bad_id_space.json": "/spaces/1/id",
    "bad_id_empty.json": "/corners/0/id",
    "bad_id_too_long.json": "/lanes/1/id",
    "polygon_two_points.json": "/spaces/5/polygon",
    "polygon_empty.json": "/spaces/5/polygon",
    # duplicate keys
    "duplicate_key_top.json": "/metadata",
    "duplicate_key_nested.json": "/spaces/3/id",
    # format marker and version
    "future_version.json": "/format_version",
    "missing_format_version.json": "/format_version",
    "format_version_string.json": "/format_version",
    "format_version_negative.json": "/format_version",
    "wrong_format.json": "/format",
    # version 0 (the draft format) with values of the wrong type: upgraded as they are, then
    # reported where they are
    "v0_metadata_list.json": "/metadata",
    "v0_metadata_string.json": "/metadata",
    "v0_links_null.json": "/links",
    "v0_spaces_number.json": "/spaces",
    # these load: the validator reports the dangling reference (exit 1)
    "dangling_link.exit1.json": "/links/35",
    "dangling_corner.exit1.json": "/corners/0/spaces/4",
    "dangling_grid.exit1.json": "/grid/2",
    "dangling_finish.exit1.json": "/finish_line/spaces/1",
    "dangling_pit.exit1.json": "/pit_lane/spaces/1",
    "dangling_lane.exit1.json": "/spaces/9/lane",
}

# Extra words the message must contain, where the location alone would not show it is right.
REASONS: dict[str, str] = {
    "empty.json": "empty",
    "whitespace_only.json": "empty",
    "deep_nesting.json": "nested too deeply",
    "future_version.json": "newer",
    "missing_format_version.json": "missing",
    "wrong_format.json": "not a track file",
    "nan.json": "finite",
    "binary_garbage.json": "binary",
    "latin1.json": "UTF-8",
    "duplicate_key_top.json": "more than once",
    "duplicate_key_nested.json": "more than once",
    "unknown_field_top.json": "unknown field",
    "v0_metadata_list.json": "valid dictionary",
    "v0_metadata_string.json": "valid dictionary",
    "v0_links_null.json": "valid list",
    "v0_spaces_number.json": "valid list",
    "dangling_link.exit1.json": "ghost",
    "dangling_corner.exit1.json": "ghost",
    "dangling_grid.exit1.json": "ghost",
    "dangling_finish.exit1.json": "ghost",
    "dangling_pit.exit1.json": "ghost",
    "dangling_lane.exit1.json": "ghost",
}


def expected_exit(name: str) -> int:
    return cli.EXIT_INVALID if name.endswith(".exit1.json") else cli.EXIT_UNUSABLE


def test_manifest_lists_the_whole_corpus() -> None:
    on_disk = {path.name for path in DATA.iterdir() if path.is_file()}
    assert on_disk == set(MANIFEST)
    assert len(on_disk) >= 32


def run_validate(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = cli.main(["validate", *args])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


@pytest.mark.parametrize("name", sorted(MANIFEST))
def test_bad_file_is_reported_with_its_location(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = DATA / name
    code, output = run_validate(capsys, str(path))
    assert code == expected_exit(name), output
    assert str(path) in output
    location = MANIFEST[name]
    if location is not None:
        assert location in output, output
    if name in REASONS:
        assert REASONS[name] in output, output
    assert "Traceback" not in output
    assert "internal error" not in output


@pytest.mark.parametrize("name", sorted(MANIFEST))
def test_bad_file_in_json_output_is_one_document(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = DATA / name
    code = cli.main(["validate", "--format", "json", str(path)])
    captured = capsys.readouterr()
    document = json.loads(captured.out)
    assert code == expected_exit(name)
    (entry,) = document["files"]
    assert entry["file"] == str(path)
    assert document["ok"] is False and entry["ok"] is False
    if code == cli.EXIT_UNUSABLE:
        assert entry["readable"] is False and entry["problems"]
    else:
        assert entry["readable"] is True and entry["counts"]["error"] >= 1


def test_wrong_types_report_every_field_at_once(capsys: pytest.CaptureFixture[str]) -> None:
    code, output = run_validate(capsys, str(DATA / "wrong_types_many.json"))
    assert code == cli.EXIT_UNUSABLE
    for pointer in ("/metadata/name", "/metadata/laps", "/board/width", "/lanes/0/id",
                    "/spaces/0/heading", "/spaces/1/polygon/0", "/spaces/3/centre",
                    "/corners/0/stops", "/grid"):
        assert pointer in output


def test_many_files_exit_with_the_worst_outcome(capsys: pytest.CaptureFixture[str]) -> None:
    invalid = str(DATA / "dangling_link.exit1.json")
    unreadable = str(DATA / "empty.json")
    code, output = run_validate(capsys, invalid, unreadable)
    assert code == cli.EXIT_UNUSABLE
    assert invalid in output and unreadable in output
    assert "2 files: 1 with errors, 1 unreadable" in output


def test_missing_file_and_folder_are_unreadable(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, output = run_validate(capsys, str(tmp_path / "nowhere.json"))
    assert code == cli.EXIT_UNUSABLE and "no such file" in output
    code, output = run_validate(capsys, str(tmp_path))
    assert code == cli.EXIT_UNUSABLE and "folder" in output


def test_hundred_thousand_nested_arrays(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    code, output = run_validate(capsys, str(path))
    assert code == cli.EXIT_UNUSABLE
    assert "nested too deeply" in output and "Traceback" not in output


@pytest.mark.parametrize(
    ("depth", "expected"),
    [(300, "/metadata/laps"), (600, "nested too deeply"), (5000, "nested too deeply")],
)
def test_deep_nesting_inside_a_field(
    depth: int, expected: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (DATA.parent / "v0" / "hexagon_draft.json").read_text(encoding="utf-8")
    path = tmp_path / "deep_field.json"
    path.write_text(text.replace('"laps": 3', '"laps": ' + "[" * depth + "]" * depth), "utf-8")
    code, output = run_validate(capsys, str(path))
    assert code == cli.EXIT_UNUSABLE
    assert expected in output and "Traceback" not in output


def test_fifty_megabyte_file_is_refused_before_parsing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "huge.json"
    chunk = b'{"id": "x", "polygon": [[0, 0], [1, 0], [1, 1]], "centre": [0, 0]},\n' * 1024
    with path.open("wb") as stream:
        stream.write(b'{"format": "formula-d-track", "format_version": 1, "spaces": [\n')
        while stream.tell() < 50 * 1024 * 1024:
            stream.write(chunk)
        stream.write(b"{}]}\n")
    code, output = run_validate(capsys, str(path))
    assert code == cli.EXIT_UNUSABLE
    assert str(path) in output and "MB" in output


def test_unreadable_permissions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "locked.json"
    path.write_text("{}", encoding="utf-8")
    path.chmod(0)
    try:
        if _can_read(path):
            pytest.skip("running as a user who reads every file (root)")
        code, output = run_validate(capsys, str(path))
    finally:
        path.chmod(0o644)
    assert code == cli.EXIT_UNUSABLE
    assert str(path) in output and "Traceback" not in output


def _can_read(path: Path) -> bool:
    try:
        path.read_bytes()
    except OSError:
        return False
    return True


@pytest.mark.parametrize(
    "name",
    ["syntax_truncated.json", "binary_garbage.json", "nan.json", "future_version.json",
     "duplicate_key_nested.json", "dangling_link.exit1.json", "top_array.json", "latin1.json"],
)
def test_through_python_dash_m(name: str) -> None:
    path = DATA / name
    result = subprocess.run(
        [sys.executable, "-m", "trackformat", "validate", str(path)],
        capture_output=True, text=True, cwd=ROOT, timeout=120,
    )
    output = result.stdout + result.stderr
    assert result.returncode == expected_exit(name), output
    assert str(path) in output
    location = MANIFEST[name]
    if location is not None:
        assert location in output
    assert "Traceback" not in output


def test_info_on_bad_files_never_crashes(capsys: pytest.CaptureFixture[str]) -> None:
    for name in sorted(MANIFEST):
        code = cli.main(["info", str(DATA / name)])
        captured = capsys.readouterr()
        output = captured.out + captured.err
        assert code == (cli.EXIT_OK if name.endswith(".exit1.json") else cli.EXIT_UNUSABLE), name
        assert "Traceback" not in output and "internal error" not in output


def test_a_file_is_read_with_a_limit_whatever_its_size_says(tmp_path: Path) -> None:
    """Files under /proc say they are empty and are not; a regular file may grow after stat."""
    from trackformat.io import FileRefused, read_limited

    small = tmp_path / "small.json"
    small.write_bytes(b"x" * 100)
    assert read_limited(small, 100) == b"x" * 100
    with pytest.raises(FileRefused, match="more than"):
        read_limited(small, 99)
    proc = Path("/proc/self/status")
    if proc.exists() and proc.stat().st_size == 0:
        with pytest.raises(FileRefused, match="holds more than"):
            read_limited(proc, 10)
