"""`trackformat export gponline` never writes a file that GP Online or the importer refuses: the
text is read back before it is written (by the game's reading loop, a faithful check of its
builder and the importer), and nodes are numbered afresh when ids cannot be kept."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.factories import ring_document
from tests.interop.gponline_circuit import small_circuit_document
from tests.interop.gponline_game import game_reads
from trackformat.cli import main
from trackformat.interop.gponline import import_dat, parse_dat
from trackformat.interop.gponline.exporter import export_records
from trackformat.interop.gponline.readback import game_problem
from trackformat.model import Track


def _ring_with_ids(tmp_path: Path, new_id: dict[int, str], first: int = 0) -> Path:
    """The small designed circuit, its spaces renamed, the k-th to ``new_id[k]``, else to
    ``k + first``."""
    document = small_circuit_document()
    text = json.dumps(document)
    for k, space in enumerate(document["spaces"]):
        text = text.replace(json.dumps(space["id"]), json.dumps(new_id.get(k, str(k + first))))
    path = tmp_path / "ring.json"
    path.write_text(text)
    return path


def test_ids_01_and_1_are_numbered_afresh_and_the_file_imports_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    track = _ring_with_ids(tmp_path, {0: "01"})  # "01" beside the second space's "1"
    dat = tmp_path / "ring.dat"
    assert main(["export", "gponline", str(track), "-o", str(dat), "--image", "r.png"]) == 0
    assert "the nodes are numbered afresh" in capsys.readouterr().err
    text = dat.read_text()
    read = game_reads(text)
    node_lines = text.split("\n\n")[0].splitlines()[1:]
    assert len(read.nodes) == len(node_lines)  # no node written twice
    assert main(["import", "gponline", str(dat), "-o", str(tmp_path / "again.json")]) in (0, 1)


def test_plain_number_ids_are_kept(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    track = _ring_with_ids(tmp_path, {})
    dat = tmp_path / "ring.dat"
    assert main(["export", "gponline", str(track), "-o", str(dat), "--image", "r.png"]) == 0
    assert "numbered afresh" not in capsys.readouterr().err
    assert sorted(game_reads(dat.read_text()).nodes)[:3] == [0, 1, 2]


def test_number_ids_not_from_0_are_numbered_afresh_from_0(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # GP Online's race looks each node up by its number as a position in its list of nodes.
    track = _ring_with_ids(tmp_path, {}, first=1)
    dat = tmp_path / "ring.dat"
    assert main(["export", "gponline", str(track), "-o", str(dat), "--image", "r.png"]) == 0
    assert "not GP Online's node numbers as they are" in capsys.readouterr().err
    nodes = game_reads(dat.read_text()).nodes
    assert sorted(nodes) == list(range(len(nodes)))


def test_ids_too_large_for_the_game_are_numbered_afresh(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    track = _ring_with_ids(tmp_path, {3: "99999999999"})
    dat = tmp_path / "ring.dat"
    assert main(["export", "gponline", str(track), "-o", str(dat), "--image", "r.png"]) == 0
    assert max(game_reads(dat.read_text()).nodes) < 2**31


def test_a_file_that_would_not_import_is_not_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    track = _ring_with_ids(tmp_path, {})
    dat = tmp_path / "ring.dat"
    # The game's header ends the picture's name at the first space after its first dot.
    code = main(["export", "gponline", str(track), "-o", str(dat), "--image", "my.board v2.png"])
    assert code == 2 and not dat.exists()
    err = capsys.readouterr().err
    assert (f"{track}: cannot export to GP Online: the board picture's name 'my.board v2.png' "
            "cannot be written in a GP Online header: it has a space after its first '.'") in err


def test_a_space_off_the_game_board_is_not_exported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = ring_document(lanes=2, per_lane=20)
    document["spaces"][0]["centre"] = [-5, 10]
    track, dat = tmp_path / "ring.json", tmp_path / "ring.dat"
    track.write_text(json.dumps(document))
    assert main(["export", "gponline", str(track), "-o", str(dat)]) == 2 and not dat.exists()
    assert "space 1-0 lies at (-5, 10); GP Online's board pixels run from 0" in (
        capsys.readouterr().err
    )


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("b.png 0\n1 0 0 1 F\n1 5 5 1 F\n\n1 1\n", "line 3: node 1 is listed twice"),
        ("b.png 0\n1 0 0 1 X\n\n1 1\n", "line 2: a node's fifth field must be F"),
        ("b.png 0\n1 0  0 1 F\n\n1 1\n", "line 2: a node line of 6 fields"),
        ("b.png 0\n1 0 0 1\n\n1 2\n", "line 4: names node 2, which is not listed"),
        ("b.png 0\n1 0 0 1\n\n1 1\n\n1 x\n", "line 6: an attribute line the game cannot parse"),
        ("b.png 0\n3000000000 0 0 1\n\n", "line 2: a node's fields must be integers"),
        ("b.png 0\n1 0 0 1\n\n1 1\n\n1 0.5\n\n1 90.0\n", None),
    ],
)
def test_the_game_reading_rules(text: str, problem: str | None) -> None:
    assert game_problem(text) == problem


def test_a_grid_without_attributes_stays_the_grid() -> None:
    # A ring with no corner and no pit lane: no attribute. (GP Online would not race it, its
    # lanes of unequal length round the bends needing curves; the records are what is tested.)
    document = ring_document(lanes=2, per_lane=20)
    document["corners"], document["pit_lane"] = [], None
    records = export_records(Track.model_validate(document), image="r.png")
    read = game_reads(records.text)
    assert read.attributes == {} and len(read.grid) == len(document["grid"])
    assert game_problem(records.text) is None
    again = import_dat(parse_dat(records.text, "r.dat"), "r.dat").track
    assert len(again.grid) == len(document["grid"])


def test_a_track_with_one_id_on_two_spaces_is_not_exported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    track = _ring_with_ids(tmp_path, {5: "3"})  # the third space is "3" as well
    dat = tmp_path / "ring.dat"
    assert main(["export", "gponline", str(track), "-o", str(dat)]) == 2 and not dat.exists()
    assert "space id(s) 3 name more than one space" in capsys.readouterr().err


def test_a_pit_lane_and_grid_naming_a_missing_space_still_export(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Found by the fuzz suite: the missing space was numbered, then looked up.
    document = small_circuit_document()
    document["pit_lane"]["spaces"].append("ghost")
    document["grid"].append("ghost")
    track, dat = tmp_path / "ring.json", tmp_path / "ring.dat"
    track.write_text(json.dumps(document))
    assert main(["export", "gponline", str(track), "-o", str(dat)]) == 0
    boxes = [s for s in document["spaces"] if s["kind"] == "box"]  # garages in GP Online
    assert len(game_reads(dat.read_text()).nodes) == len(document["spaces"]) - len(boxes)
