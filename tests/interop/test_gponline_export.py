"""Exports GP Online loads: the shipped tracks and a small designed circuit, as the game builds
them, and what the export changes to get there (each change named in a warning)."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

import pytest

from tests.corpus import corpus_path
from tests.interop.gponline_circuit import small_circuit, small_circuit_document
from tests.interop.gponline_tiny import tiny_dat
from trackformat.cli import main
from trackformat.graph import build_graphs
from trackformat.interop.gponline import (
    ExportResult,
    GPOnlineExportError,
    export_file,
    export_track,
    import_dat,
    import_file,
    parse_dat,
)
from trackformat.interop.gponline.gamecheck import game_build
from trackformat.interop.gponline.readback import read_back
from trackformat.io import load_track
from trackformat.lint import validate
from trackformat.model import Track

ROOT = Path(__file__).resolve().parent.parent.parent
SHIPPED = ["monaco", "col-du-vent"]
"""The shipped tracks of 3 lanes; harbour-sprint, of 2, is tested on its own below."""


def _as_exported(track: Track, exported: ExportResult) -> Track:
    """``track`` as the export says GP Online holds it: each team box a garage in the pit lane,
    the spaces a corner exit needed taken into their corner, and no pit entry from a corner."""
    said = " ".join(exported.warnings)
    garages = dict(re.findall(r"(\S+) at ([^\s,]+)", said))
    taken = re.findall(r"(\S+) \(corner ([^)]+)\)", said)
    left = [w.split(": ", 1)[1] for w in exported.warnings if "enters its pit lane only" in w]
    dropped = {tuple(e.split(" -> ")) for w in left for e in w.split(", ")}
    boxes = set(track.pit_lane.boxes) if track.pit_lane else set()
    corners = [c.model_copy(update={"spaces": c.spaces + [s for s, k in taken if k == c.id]})
               for c in track.corners]
    pit = track.pit_lane and track.pit_lane.model_copy(update={
        "boxes": [],
        "garages": [s for s in track.pit_lane.spaces if s in garages.values()],
        "entry": [k for k in track.pit_lane.entry if (k.from_, k.to) not in dropped],
    })
    return track.model_copy(update={
        "spaces": [s for s in track.spaces if s.id not in boxes],
        "links": [k for k in track.links if not {k.from_, k.to} & boxes],
        "corners": corners,
        "pit_lane": pit,
    })


def _facts(track: Track, node_of: dict[str, int] | None = None) -> dict[str, object]:
    """What a round trip keeps, ids mapped through ``node_of``."""
    name = (lambda s: str(node_of[s])) if node_of else (lambda s: s)
    graphs = build_graphs(track)
    pit = track.pit_lane
    return {
        "lanes": [[name(s) for s in graphs.lanes[lane]] for lane in graphs.lane_order],
        "corners": sorted((c.stops, sorted(name(s) for s in c.spaces)) for c in track.corners),
        "links": {(name(a), name(b)) for a, b in graphs.moves.edges},
        "grid": [name(s) for s in track.grid],
        "pit": pit and ([name(s) for s in pit.spaces], [name(s) for s in pit.garages]),
        "finish": [name(s) for s in track.finish_line.spaces] if track.finish_line else [],
    }


def _game_lanes_are_ours(track: Track, exported: ExportResult) -> None:
    """The lanes GP Online rebuilds from its distances are the track's, node for node."""
    graphs = build_graphs(track)
    ours = sorted([exported.node_of[s] for s in graphs.lanes[lane]] for lane in graphs.lane_order)
    assert sorted(game_build(exported.text).lanes) == ours


@pytest.mark.parametrize("name", SHIPPED)
def test_a_shipped_track_exports_to_a_file_gp_online_loads(name: str) -> None:
    track = load_track(ROOT / "tracks" / f"{name}.json")
    exported = export_track(track)
    built = game_build(exported.text)
    assert len(built.lanes) == len(track.lanes) and len(built.grid) == 10
    _game_lanes_are_ours(_as_exported(track, exported), exported)
    again = import_dat(parse_dat(exported.text, name), name).track
    assert _facts(again) == _facts(_as_exported(track, exported), exported.node_of)


def test_a_small_designed_circuit_exports_and_comes_back_as_gp_online_holds_it() -> None:
    track = small_circuit()
    exported = export_track(track)
    _game_lanes_are_ours(_as_exported(track, exported), exported)
    again = import_dat(parse_dat(exported.text, "oval.dat"), "oval.dat").track
    assert _facts(again) == _facts(_as_exported(track, exported), exported.node_of)
    assert validate(again).errors == 0
    dat = exported.dat
    assert len([n for n in dat.nodes if n.finish]) == 3
    curve_nodes = {n.id for n in dat.nodes if n.type in (2, 3, 6)}
    assert curve_nodes and curve_nodes <= set(dat.attributes)
    assert len(dat.grid) == 10 and all(0 <= angle < 360 for _, angle in dat.grid)
    assert not any((b, a) in set(dat.edges) for a, b in dat.edges)


def test_a_two_lane_track_races_behind_a_line_widened_by_a_blocked_finish_node() -> None:
    # GP Online's loader refuses a finish line of two nodes; a blocked finish node beside it,
    # which no car can enter, makes the game build the track, and the import drops it again.
    track = load_track(ROOT / "tracks" / "harbour-sprint.json")
    exported = export_track(track)
    assert any("the line is widened: a blocked finish node no car can enter is written beside "
               "it (node 134, beside space 1-00)" in w for w in exported.warnings)
    [blocked] = [n for n in exported.dat.nodes if n.type == 4]
    assert blocked.finish and blocked.id == len(exported.dat.nodes) - 1
    built = game_build(exported.text)
    spaces = sorted(n for lane in built.lanes for n in lane if n != blocked.id)
    assert spaces == sorted(exported.node_of.values()) and len(built.grid) == 10
    again = import_dat(parse_dat(exported.text, "harbour.dat"), "harbour.dat").track
    assert _facts(again) == _facts(_as_exported(track, exported), exported.node_of)


def test_a_two_lane_track_the_game_refuses_even_widened_is_not_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = json.loads((ROOT / "tracks" / "harbour-sprint.json").read_text())
    document["corners"] = []  # no corner: lanes of unequal length round the bends
    track, out = tmp_path / "harbour.json", tmp_path / "harbour.dat"
    track.write_text(json.dumps(document))
    assert main(["export", "gponline", str(track), "-o", str(out)]) == 2 and not out.exists()
    err = capsys.readouterr().err
    assert ("GP Online's loader refuses a finish line of 2 nodes (\"Invalid finish line width "
            "2\"), and widening it with a blocked finish node beside it did not make the game "
            "build the track either: ") in err


def test_a_pit_entry_from_a_corner_is_left_out_while_a_straight_one_remains() -> None:
    # The small circuit's pit lane is entered from the west hairpin's last space and from the
    # straight after it: GP Online enters a pit lane only from a straight.
    exported = export_track(small_circuit())
    [said] = [w for w in exported.warnings if "enters its pit lane only from a straight" in w]
    assert said.endswith(": 3-45 -> pit-00")
    pit = exported.node_of["pit-00"]
    assert (exported.node_of["3-45"], pit) not in exported.dat.edges
    assert (exported.node_of["3-46"], pit) in exported.dat.edges
    types = {n.id: n.type for n in exported.dat.nodes}
    assert types[exported.node_of["3-46"]] == 1  # kept a straight to enter the pit lane from


def test_a_pit_lane_entered_only_from_a_corner_is_refused_with_the_reason() -> None:
    document = small_circuit_document()
    document["pit_lane"]["entry"] = [{"from": "3-45", "to": "pit-00"}]
    with pytest.raises(GPOnlineExportError) as caught:
        export_track(Track.model_validate(document))
    assert "GP Online enters its pit lane only from a straight" in str(caught.value)


def test_team_boxes_become_garages_in_line_where_they_are_entered_last() -> None:
    exported = export_track(load_track(ROOT / "tracks" / "monaco.json"))
    said = "\n".join(exported.warnings)
    assert ("5 team box(es) stand beside the pit lane, which GP Online cannot hold" in said
            and "box-1 at pit-04, box-2 at pit-06" in said)
    assert "box-1" not in exported.node_of
    pit = [exported.node_of[f"pit-{k:02d}"] for k in range(18)]
    assert {n for n, v in exported.dat.attributes.items() if n in pit} == {
        exported.node_of[f"pit-{k:02d}"] for k in (4, 6, 8, 10, 12)}
    # One chain: each pit node moves to the next one only.
    pit_edges = [(a, b) for a, b in exported.dat.edges if a in pit and b in pit]
    assert sorted(pit_edges) == sorted(itertools.pairwise(pit))


def test_a_corner_left_level_takes_in_a_first_straight_with_a_warning() -> None:
    exported = export_track(load_track(ROOT / "tracks" / "col-du-vent.json"))
    [said] = [w for w in exported.warnings if "one lane's first straight" in w]
    assert "3-050 (corner epingle)" in said
    assert exported.dat.nodes[[n.id for n in exported.dat.nodes].index(
        exported.node_of["3-050"])].type == 6  # a three-stop curve node, like the hairpin


def test_a_track_gp_online_would_refuse_is_not_exported_and_the_spaces_are_named() -> None:
    document = small_circuit_document()
    # A pit space beside the pit lane that no box is: the pit lane branches.
    spare = dict(document["spaces"][-1], id="pit-extra", kind="pit")
    document["spaces"].append(spare)
    document["links"] += [{"from": "pit-02", "to": "pit-extra"},
                          {"from": "pit-extra", "to": "pit-04"}]
    with pytest.raises(GPOnlineExportError) as caught:
        export_track(Track.model_validate(document))
    message = str(caught.value)
    assert "GP Online would refuse it: the pit lane branches at node" in message
    assert '(GP Online says: "Pit lane is branching")' in message
    assert "is space pit-02" in message and "is space pit-extra" in message


def test_a_grid_of_fewer_than_ten_slots_is_refused() -> None:
    document = small_circuit_document()
    document["grid"] = document["grid"][:8]
    with pytest.raises(GPOnlineExportError, match=r"grid has 8 slot.s.; GP Online needs"):
        export_track(Track.model_validate(document))


def test_header_values_gp_online_has_no_name_for_are_changed_with_a_warning() -> None:
    document = small_circuit_document()
    document["gponline"] = {"info_corner": 4, "rain_probability": 30.5, "min_weather_period": 6}
    exported = export_track(Track.model_validate(document))
    assert exported.text.startswith("board.png 0 30 6\n")  # no picture: board.png
    said = "\n".join(exported.warnings)
    assert "corner 4 is written as 0" in said and "30.5 is written as 30" in said


def test_a_board_picture_name_holding_a_nul_is_never_written(tmp_path: Path) -> None:
    track = small_circuit()
    track = track.model_copy(
        update={"board": track.board.model_copy(update={"image": "oval\x00.png"})})
    with pytest.raises(GPOnlineExportError, match=r"control character .NUL. at position 5"):
        export_track(track)
    out = tmp_path / "oval.dat"
    with pytest.raises(GPOnlineExportError):
        export_file(track, out)
    assert not out.exists()


def test_the_command_line_never_writes_a_picture_name_holding_a_nul(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = small_circuit_document()
    document["board"]["image"] = "oval\u0000.png"
    track, dat = tmp_path / "oval.json", tmp_path / "oval.dat"
    track.write_text(json.dumps(document))
    assert main(["export", "gponline", str(track), "-o", str(dat)]) == 2 and not dat.exists()
    assert "control character (NUL) at position 5" in capsys.readouterr().err
    # And the read-back reads the text as import reads the file's bytes: a NUL is refused.
    assert "binary data" in str(read_back(tiny_dat().replace("tiny.png", "ti\x00ny.png")))


def test_export_file_writes_the_file_naming_the_picture_relative_to_it(tmp_path: Path) -> None:
    out = tmp_path / "gp" / "oval.dat"
    out.parent.mkdir()
    result = export_file(small_circuit(), out, picture=tmp_path / "boards" / "oval.png")
    assert out.read_text(encoding="utf-8") == result.text
    assert result.text.startswith("../boards/oval.png 0\n")
    # A path the header cannot hold falls back to the picture's own name, with a warning.
    spaced = export_file(small_circuit(), out, picture=tmp_path / "my boards" / "oval.png")
    assert spaced.text.startswith("oval.png 0\n")
    assert any("put the picture beside the .dat" in w for w in spaced.warnings)


@pytest.mark.parametrize("name", ["algarve", "baku", "indianapolis", "sebring"])
def test_a_real_layout_without_its_attributes_gets_ones_the_game_accepts(name: str) -> None:
    track = import_file(corpus_path("gponline", f"{name}.dat")).track
    assert track.gponline is not None
    forgotten = track.model_copy(
        update={"gponline": track.gponline.model_copy(update={"curve_positions": {}})})
    exported = export_track(forgotten)  # the read-back runs the game's builder
    assert not any("one lane's first straight" in w for w in exported.warnings)
    _game_lanes_are_ours(forgotten, exported)
