"""Twelve real GP Online files, as their users made them: each imports, validates with no error,
gives the figures of an independent reading (the corpus's expected.json) and round-trips.

The files live in the corpus beside the project, never in it; these tests skip without it.
"""

from __future__ import annotations

import json
import re
from collections import deque
from pathlib import Path

import pytest

from tests.corpus import corpus_path
from tests.interop.gponline_game import game_reads, track_facts
from trackformat.graph import TrackGraphs, build_graphs
from trackformat.interop.gponline import (
    GPOnlineExportError,
    ImportResult,
    export_track,
    format_dat,
    import_dat,
    import_file,
    parse_dat,
)
from trackformat.interop.gponline.dat import NodeType
from trackformat.interop.gponline.exporter import export_records
from trackformat.io import dumps_track
from trackformat.lint import Severity, validate
from trackformat.model import SpaceKind

TRACKS = (
    "algarve.dat",
    "austin.dat",
    "baku.dat",
    "curitiba.dat",
    "indianapolis.dat",
    "minikart.dat",
    "montreal.dat",
    "sebring.dat",
    "shanghai.dat",
    "silverstone.dat",
    "valencia.dat",
    "zanvoordt.dat",
)
RACED = tuple(name for name in TRACKS if name != "minikart.dat")
"""The files GP Online races; minikart's finish line of two nodes is one its loader refuses."""
_imports: dict[str, ImportResult] = {}


def imported(name: str) -> ImportResult:
    """The import of a corpus file, once per test run (the twelve take a few seconds)."""
    path = corpus_path("gponline", name)
    if name not in _imports:
        _imports[name] = import_file(path)
    return _imports[name]


def expected(name: str) -> dict[str, object]:
    figures = json.loads(corpus_path("gponline", "expected.json").read_text())
    return figures["tracks"][name]  # type: ignore[no-any-return]


def test_the_corpus_holds_the_twelve_files() -> None:
    figures = json.loads(corpus_path("gponline", "expected.json").read_text())
    assert sorted(figures["tracks"]) == sorted(TRACKS)


@pytest.mark.parametrize("name", TRACKS)
def test_a_real_file_imports_with_exit_0_and_no_error(
        name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from trackformat.cli import main

    out = tmp_path / "track.json"
    assert main(["import", "gponline", str(corpus_path("gponline", name)), "-o", str(out)]) == 0
    assert "; 0 errors, " in capsys.readouterr().out
    assert main(["validate", str(out)]) == 0


UNAVOIDABLE = {"shanghai.dat": [("GEOM003", ("592", "598"))]}
"""Warnings a real file earns: Shanghai's file has a move from 592 to 598, two spaces on in the
middle lane, past 595 (every other move of the board goes one space); GP Online plays it."""


@pytest.mark.parametrize("name", TRACKS)
def test_a_real_file_gets_no_warning_it_cannot_act_on(name: str) -> None:
    """Before, the importer's own guesses drew 81 "linked apart" warnings over the twelve, 4
    off-board errors (Curitiba), a backward heading (Algarve), and the validator 19 pit
    shortcuts, 7 corners missed by a partial lane and 2 blocked spaces, all on how GP Online
    draws a board. Only a note of the shortest lap remains, and what is in the file itself."""
    report = validate(imported(name).track)
    found = [(d.code, d.location.elements) for d in report.diagnostics
             if d.severity != Severity.INFO]
    assert found == UNAVOIDABLE.get(name, []), report.to_text()
    assert [d.code for d in report.diagnostics if d.severity == Severity.INFO] == ["PATH004"]


@pytest.mark.parametrize("name", ["curitiba.dat", "valencia.dat"])
def test_a_real_file_without_its_picture_is_sized_to_hold_its_spaces(
        name: str, tmp_path: Path) -> None:
    (tmp_path / name).write_bytes(corpus_path("gponline", name).read_bytes())
    result = import_file(tmp_path / name)
    assert any("not found beside the file; board size set to" in w for w in result.warnings)
    assert validate(result.track, codes=["GEOM004"]).diagnostics == ()
    with_picture = imported(name).track.board
    assert (with_picture.width, with_picture.height) != (
        result.track.board.width, result.track.board.height)


@pytest.mark.parametrize("name", TRACKS)
def test_info_lists_the_corners_in_lap_order(
        name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from trackformat.cli import main

    out = tmp_path / "track.json"
    out.write_text(dumps_track(imported(name).track))
    assert main(["info", str(out), "--json"]) == 0
    corners = json.loads(capsys.readouterr().out)["corners"]
    assert "".join(str(c["stops"]) for c in corners) == expected(name)["stops_in_lap_order"]
    assert [c["id"] for c in corners] == [f"corner-{n}" for n in range(1, len(corners) + 1)]


@pytest.mark.parametrize("name", TRACKS)
def test_real_boards_are_staggered_as_lap006_expects(name: str) -> None:
    """Boards thousands of races were played on lay their lanes staggered: LAP006 (lanes laid
    level) stays silent on every one of them, so its warnings on a new track mean something."""
    assert validate(imported(name).track, codes=["LAP006"]).diagnostics == ()


def shortest_cycle_through_the_line(graphs: TrackGraphs) -> int | None:
    """expected.json's shortest lap: the fewest moves from a finish space round to the same
    one (the validator's shortest lap may end on another space of the line, a move shorter on a
    staggered line)."""
    ahead = graphs.successors("circuit")
    best: int | None = None
    for start in graphs.finish:
        moves = {start: 0}
        queue = deque([start])
        while queue:
            space = queue.popleft()
            for following in ahead[space]:
                if following == start:
                    length = moves[space] + 1
                    best = length if best is None else min(best, length)
                    queue.clear()
                    break
                if following not in moves:
                    moves[following] = moves[space] + 1
                    queue.append(following)
    return best


@pytest.mark.parametrize("name", TRACKS)
def test_a_real_file_gives_the_independent_figures(name: str) -> None:
    track = imported(name).track
    graphs = build_graphs(track)
    ahead, behind = graphs.successors("moves"), graphs.predecessors("moves")
    blocked = [s.id for s in track.spaces if not ahead[s.id] and not behind[s.id]]
    pit = track.pit_lane
    figures = {
        "nodes": len(track.spaces),
        "lanes": len(track.lanes),
        "lane_lengths": sorted((len(graphs.lanes[lane]) for lane in graphs.lane_order),
                               reverse=True),
        "corners": len(track.corners),
        "stops_in_lap_order": "".join(str(c.stops) for c in track.corners),
        "pit_nodes": len(pit.spaces) + len(pit.boxes) if pit else 0,
        "grid_slots": len(track.grid),
        "shortest_lap": shortest_cycle_through_the_line(graphs),
        "blocked_nodes": len(blocked),
    }
    assert figures == expected(name)
    assert all(graphs.spaces[s].kind is SpaceKind.TRACK for s in blocked)


@pytest.mark.parametrize("name", RACED)
def test_a_real_file_round_trips_through_export(name: str) -> None:
    track = imported(name).track
    text = format_dat(export_track(track).dat)
    again = import_dat(parse_dat(text, name), name).track
    assert track_facts(again) == track_facts(track)
    read = game_reads(text)
    assert len(read.nodes) == len(track.spaces)


@pytest.mark.parametrize("name", RACED)
def test_a_real_file_keeps_its_garages_through_export(name: str) -> None:
    original = parse_dat(corpus_path("gponline", name).read_text(encoding="latin-1"), name)
    pit_nodes = {node.id for node in original.nodes if node.type == NodeType.PIT}
    garages = {n: v for n, v in original.attributes.items() if n in pit_nodes}
    track = imported(name).track
    assert track.pit_lane is not None
    assert sorted(int(g) for g in track.pit_lane.garages) == sorted(garages)
    exported = export_track(track)
    written = {n: v for n, v in exported.dat.attributes.items() if n in pit_nodes}
    assert written == garages
    assert not any("garage" in w for w in exported.warnings)
    again = import_dat(parse_dat(format_dat(exported.dat), name), name).track
    assert again.pit_lane is not None and again.pit_lane.garages == track.pit_lane.garages


@pytest.mark.parametrize("name", RACED)
def test_an_unedited_real_file_exports_as_it_was(name: str) -> None:
    original = parse_dat(corpus_path("gponline", name).read_text(encoding="latin-1"), name)
    track = imported(name).track
    exported = export_track(track).dat
    assert [(n.id, n.x, n.y) for n in exported.nodes] == sorted(
        (n.id, n.x, n.y) for n in original.nodes)
    # Legacy finish nodes (type 5) are written the newer way: a straight with the F flag.
    assert {n.id: (n.type, n.finish) for n in exported.nodes} == {
        n.id: (NodeType.STRAIGHT, True) if n.type == NodeType.FINISH else (n.type, n.finish)
        for n in original.nodes}
    assert set(exported.edges) == set(original.edges)
    assert exported.attributes == original.attributes
    # The grid is written pole first; each slot keeps the heading the file gave it.
    assert dict(exported.grid) == dict(original.grid)
    assert [int(s) for s in track.grid] == [node for node, _ in exported.grid]


def test_a_real_two_lane_file_is_not_exported_though_its_records_round_trip() -> None:
    # GP Online's loader refuses minikart's finish line of two nodes, and its pit lane entered
    # from a corner; the format still holds it, node for node.
    track = imported("minikart.dat").track
    with pytest.raises(GPOnlineExportError, match="Invalid finish line width 2"):
        export_track(track)
    original = parse_dat(corpus_path("gponline", "minikart.dat").read_text(encoding="latin-1"),
                         "minikart.dat")
    records = export_records(track).dat
    assert set(records.edges) == set(original.edges) and records.attributes == original.attributes
    again = import_dat(parse_dat(format_dat(records), "minikart.dat"), "minikart.dat").track
    assert track_facts(again) == track_facts(track)


def test_a_corner_changed_after_import_is_numbered_afresh() -> None:
    track = imported("baku.dat").track
    first = track.corners[0]
    changed = first.model_copy(update={"spaces": first.spaces[:-1]})
    edited = track.model_copy(update={"corners": [changed, *track.corners[1:]]})
    before = export_track(track).dat.attributes
    after = export_track(edited).dat.attributes
    assert [after[int(s)] for s in changed.spaces] != [before[int(s)] for s in changed.spaces]
    assert max(after[int(s)] for s in changed.spaces) <= len(changed.spaces) / 2
    for corner in track.corners[1:]:
        assert [after[int(s)] for s in corner.spaces] == [before[int(s)] for s in corner.spaces]


@pytest.mark.parametrize("name", RACED)
def test_a_real_file_keeps_its_header_through_export(name: str) -> None:
    text = corpus_path("gponline", name).read_text(encoding="latin-1")
    exported = format_dat(export_track(imported(name).track).dat)
    assert exported.split("\n", 1)[0] == text.split("\n", 1)[0].rstrip("\r")


def test_every_real_file_says_what_it_could_not_represent() -> None:
    warnings = {name: "\n".join(imported(name).warnings) for name in TRACKS}
    assert "lane 1 (52 nodes) is a partial lane" in warnings["indianapolis.dat"]
    assert "blocked node 310 is kept as a space of lane 1" in warnings["indianapolis.dat"]
    assert "blocked node 116 is kept as a space of lane" in warnings["valencia.dat"]
    assert "move 57 -> 58 crosses a lane" in warnings["algarve.dat"]
    # Garages in line are where GP Online's teams stop, and the race engine's too.
    assert not any("garage" in w or "pit stop" in w for w in warnings.values())


def test_the_command_line_imports_a_real_file(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    from trackformat.cli import main

    source = corpus_path("gponline", "minikart.dat")
    assert main(["import", "gponline", str(source), "-o", str(tmp_path / "m.json")]) == 0
    captured = capsys.readouterr()
    assert "248 spaces, 9 corners; 0 errors" in captured.out
    assert f"{source}: warning: " in captured.err
    assert main(["info", str(tmp_path / "m.json")]) == 0
    assert re.search(r"^  garages +10$", capsys.readouterr().out, re.MULTILINE)


def test_a_test_drive_of_a_real_file_stops_at_its_garages(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A porter who test-drives an imported board sees cars stop at GP Online's garages."""
    from trackformat.cli import main

    source = corpus_path("gponline", "minikart.dat")
    assert main(["import", "gponline", str(source), "-o", str(tmp_path / "m.json")]) == 0
    capsys.readouterr()
    assert main(["testdrive", str(tmp_path / "m.json"), "--races", "2", "--cars", "4",
                 "--engine", "reference", "--json", str(tmp_path / "d.json")]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^  pit stops +[1-9]", out, re.MULTILINE), out
    assert "no pit stops" not in out
