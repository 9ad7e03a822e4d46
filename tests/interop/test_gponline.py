"""GP Online .dat files: reading every section, importing a track, exporting it back.

The samples in tests/data/gponline are written in the layout of real files (the header line, the
node lines right after it, CRLF), with ids running across the lanes row by row as on real boards;
``small-oval-old-layout.dat`` keeps the older layout this toolkit once wrote (an empty line after
the header), which is still read.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.factories import edit, ring
from trackformat.graph import build_graphs
from trackformat.interop.gponline import (
    DatError,
    GPOnlineExportError,
    GPOnlineImportError,
    NodeType,
    export_track,
    format_dat,
    import_dat,
    import_file,
    parse_dat,
    read_dat_file,
)
from trackformat.interop.gponline.exporter import export_records
from trackformat.lint import Severity, validate
from trackformat.model import Track

DATA = Path(__file__).parent.parent / "data" / "gponline"
OVAL = DATA / "small-oval.dat"
FOUR = DATA / "four-lanes.dat"
TWO = DATA / "two-lanes.dat"


def test_every_section_and_node_type_is_read() -> None:
    dat = read_dat_file(OVAL)
    assert dat.image == "My Test Board v2.png"
    assert (dat.info_corner, dat.rain_probability, dat.min_weather_period) == (3, 0.25, 4)
    assert {n.type for n in dat.nodes} == set(NodeType)
    assert [n.id for n in dat.nodes if n.finish] == [200]
    assert (209, 900) in dat.edges and len(dat.edges) == 51
    assert dat.attributes[950] == 1.0 and dat.attributes[104] == 1.0
    assert dat.grid == [(109, 90.0), (111, 90.0), (210, 90.0)]


def test_samples_are_in_the_layout_of_real_files() -> None:
    for sample in (OVAL, FOUR, TWO):
        lines = sample.read_bytes().split(b"\r\n")
        assert lines[1].split()[0].isdigit(), "the nodes follow the header line directly"
        assert b"\n" not in b"".join(lines), "CRLF line endings"


def test_the_older_layout_with_an_empty_line_after_the_header_is_still_read() -> None:
    old = DATA / "small-oval-old-layout.dat"
    assert old.read_text().startswith("My Test Board v2.png 3 0.25 4\n\n100 ")
    assert read_dat_file(old) == read_dat_file(OVAL)


def test_import_finds_lanes_corners_grid_and_pit_lane() -> None:
    result = import_file(OVAL)
    track = result.track
    graphs = build_graphs(track)
    assert [len(graphs.lanes[lane]) for lane in graphs.lane_order] == [12, 12]
    # Node 100 is a legacy finish node (type 5), node 200 carries the F flag; lane 1 is outside.
    assert track.finish_line is not None and track.finish_line.spaces == ["100", "200"]
    assert graphs.lanes["1"][:4] == ["100", "101", "102", "103"]
    corners = [(c.name, c.stops, sorted(c.spaces)) for c in track.corners]
    assert corners == [
        ("Corner 1", 1, ["103", "104", "203", "204"]),
        ("Corner 2", 3, ["105", "205"]),
        ("Corner 3", 2, ["107", "108", "207", "208"]),
    ]
    assert [(c.printed_long, c.printed_short) for c in track.corners] == [(2, 2), (1, 1), (2, 2)]
    # The pole is the slot nearest the line, whatever the file's order.
    assert track.grid == ["111", "210", "109"]
    assert track.pit_lane is not None
    assert track.pit_lane.spaces == ["900", "901", "902", "903"]
    assert track.pit_lane.boxes == ["950"]
    assert [(link.from_, link.to) for link in track.pit_lane.entry] == [("209", "900")]
    assert [(link.from_, link.to) for link in track.pit_lane.exit] == [("903", "202")]
    assert "999" not in graphs.spaces  # the blocked node


def test_import_says_what_it_inferred_or_dropped() -> None:
    warnings = "\n".join(import_file(OVAL).warnings)
    assert "blocked node" in warnings
    assert "node 101 (line 3) has type 0" in warnings
    assert "board size set to" in warnings
    assert "printed long/short" in warnings


def test_imported_track_validates_without_errors() -> None:
    report = validate(import_file(OVAL).track)
    assert report.errors == 0, report.to_text()


def test_board_size_comes_from_the_picture_beside_the_file(tmp_path: Path) -> None:
    from PIL import Image

    (tmp_path / "oval.dat").write_text(OVAL.read_text())
    Image.new("RGB", (640, 600)).save(tmp_path / "My Test Board v2.png")
    result = import_file(tmp_path / "oval.dat")
    assert (result.track.board.width, result.track.board.height) == (640, 600)
    assert not any("board size" in w for w in result.warnings)


def _facts(track: Track, node_of: dict[str, int] | None = None) -> dict[str, object]:
    """What a round trip must keep, with ids mapped through ``node_of``."""
    name = (lambda s: str(node_of[s])) if node_of else (lambda s: s)
    graphs = build_graphs(track)
    pit = track.pit_lane
    assert pit is not None
    return {
        "lanes": [[name(s) for s in graphs.lanes[lane]] for lane in graphs.lane_order],
        "corners": sorted(
            (c.stops, tuple(sorted(name(s) for s in c.spaces))) for c in track.corners
        ),
        "links": {(name(a), name(b)) for a, b in graphs.moves.edges},
        "grid": [name(s) for s in track.grid],
        "pit": ([name(s) for s in pit.spaces], [name(s) for s in pit.boxes]),
        "finish": [name(s) for s in track.finish_line.spaces] if track.finish_line else [],
    }


# The samples are small hand-made boards that test the format, not tracks GP Online races (too
# few grid slots, for one): their exports are checked as records, before the game's read-back.


def test_export_of_an_import_gives_the_same_file() -> None:
    track = import_file(OVAL).track
    first = format_dat(export_records(track).dat)
    second = format_dat(export_records(import_dat(parse_dat(first, "a.dat"), "a.dat").track).dat)
    assert first == second
    # The game's layout: the nodes right after the header, which keeps the file's info-box
    # corner and weather, the rain probability as the whole percent the game reads (node 100, a
    # legacy finish type 5, is written the newer way, a straight with the F flag; the sample's
    # nodes, numbered from 100, are numbered from 0, as the game's race looks them up).
    assert first.startswith("My Test Board v2.png 3 0 4\n0 493 352 1 F\n1 ")
    assert track.gponline is not None
    assert (track.gponline.info_corner, track.gponline.rain_probability,
            track.gponline.min_weather_period) == (3, 0.25, 4)
    assert format_dat(export_records(track, info_corner=1).dat).startswith(
        "My Test Board v2.png 1 0 4\n")


def test_a_weather_out_of_range_is_not_kept(tmp_path: Path) -> None:
    text = OVAL.read_text(encoding="latin-1").replace("v2.png 3 0.25 4", "v2.png 2 250 4", 1)
    result = import_dat(parse_dat(text, "hot.dat"), "hot.dat")
    settings = result.track.gponline
    assert settings is not None and settings.info_corner == 2
    assert settings.rain_probability is None and settings.min_weather_period is None
    assert any("rain probability 250, minimum period 4) is beyond what a track holds" in w
               for w in result.warnings)
    assert format_dat(export_records(result.track).dat).startswith("My Test Board v2.png 2\n")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda doc: doc["corners"][0].update(stops=4), "demands 4 stops"),
        (lambda doc: doc.update(finish_line=None), "one finish-line space per lane"),
    ],
)
def test_export_refuses_what_gp_online_cannot_hold(change: object, message: str) -> None:
    with pytest.raises(GPOnlineExportError, match=message):
        export_track(edit(ring(), change))  # type: ignore[arg-type]


def test_export_refuses_five_lanes() -> None:
    with pytest.raises(GPOnlineExportError, match="2 to 4 lanes"):
        export_track(ring(lanes=5, per_lane=30))


BROKEN = [
    ("", None, "empty"),
    ("board.png 0\n1 0 0 1 F\n", None, "found no edge lines"),
    ("board.png 0\n", None, "found no node lines"),
    ("board 0\n1 0 0 1 F\n\n1 1\n", 1, "image's file name"),
    ("board.png 7\n1 0 0 1 F\n\n1 1\n", 1, "info-box corner should be 0 to 4"),
    ("board.png 0 0.5\n1 0 0 1\n\n1 2\n", 1, "rain probability"),
    ("board.png 0\n1 0 0 1\n2 0 x 1\n\n1 2\n", 3, "y should be an integer"),
    ("board.png 0\n1 0 0 9\n\n1 1\n", 2, "node type 9"),
    ("board.png 0\n1 0 0 1\n1 5 5 1\n\n1 1\n", 3, "already defined on line 2"),
    ("board.png 0\n1 0 0 1 G\n\n1 1\n", 2, "id x y type [F]"),
    ("board.png 0\n1 0 0 1\n\n1 2\n", 4, "node 2, which is not defined"),
    ("board.png 0\n1 0 0 1\n\n1 1 1\n", 4, "'from to'"),
    ("board.png 0\n1 0 0 1\n\n1 1\n\n1 nan\n", 6, "attribute value should be a number"),
    ("board.png 0\n1 0 0 1\n\n1 1\n\n1 0\n\n8 90\n", 8, "grid slot names node 8"),
    ("board.png 0\n1 0 0 1\n\n1 1\n\n\n\n8 90\n\n2 3\n", 8, "more than four sections"),
    # The older layout, an empty line after the header, keeps its own line numbers.
    ("board.png 0\n\n1 0 0 1\n2 0 x 1\n\n1 2\n", 4, "y should be an integer"),
]


@pytest.mark.parametrize(("text", "line", "message"), BROKEN)
def test_broken_files_give_a_located_message(text: str, line: int | None, message: str) -> None:
    with pytest.raises(DatError) as caught:
        parse_dat(text, "broken.dat")
    assert caught.value.line == line
    assert message in str(caught.value)
    assert str(caught.value).startswith("broken.dat: ")


def test_a_binary_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "garbage.dat"
    path.write_bytes(bytes(range(256)) * 4)
    with pytest.raises(DatError, match="binary data"):
        read_dat_file(path)


def test_too_few_finish_nodes_cannot_make_lanes() -> None:
    text = "b.png 0\n1 0 0 1 F\n2 10 0 1\n\n1 2\n2 1\n"
    with pytest.raises(GPOnlineImportError, match="found 1 finish-line node"):
        import_dat(parse_dat(text, "one-lane.dat"), "one-lane.dat")


def test_reverse_edges_and_loops_are_dropped_with_a_warning() -> None:
    text = OVAL.read_text().replace("100 101\n", "100 101\n101 100\n100 100\n", 1)
    result = import_dat(parse_dat(text, "x.dat"), "x.dat")
    assert any("reverses edge 100 -> 101" in w for w in result.warnings)
    assert any("loop onto the same node" in w for w in result.warnings)
    assert result.track.links[0].to != result.track.links[0].from_
    assert all(d.severity != Severity.ERROR for d in validate(result.track).diagnostics)


def _lanes(path: Path) -> list[list[str]]:
    graphs = build_graphs(import_file(path).track)
    return [graphs.lanes[lane] for lane in graphs.lane_order]


def test_lanes_are_found_whatever_the_id_order() -> None:
    # Ids run across the four lanes row by row, except in the second corner, numbered lane by
    # lane (ids 111-128): the lanes come from the moves and the places, not from the ids.
    lanes = _lanes(FOUR)
    assert [len(lane) for lane in lanes] == [40, 40, 40, 9]
    assert lanes[0][:6] == ["0", "4", "8", "12", "16", "20"]
    assert lanes[0][26:34] == ["83", "111", "112", "113", "114", "115", "116", "86"]
    assert lanes[2][26:34] == ["85", "123", "124", "125", "126", "127", "128", "88"]
    assert [lane[0] for lane in lanes] == ["0", "1", "2", "3"]  # the driver's left first


def test_a_partial_lane_ends_in_a_blocked_node_that_is_never_raced_on() -> None:
    result = import_file(FOUR)
    graphs = build_graphs(result.track)
    # GP Online closes the partial fourth lane by a move from its blocked end back to its start.
    assert graphs.lanes["4"] == ["3", "7", "11", "15", "19", "98", "102", "106", "110"]
    assert graphs.moves.degree("19") == 0
    assert graphs.spaces["19"].lane == "4"
    warnings = "\n".join(result.warnings)
    assert "lane 4 (9 nodes) is a partial lane: it passes blocked node(s) [19]" in warnings
    assert "blocked node 19 is kept as a space of lane 4 with no moves in or out" in warnings
    # The blocked space is printed and never raced on, on purpose: the track's ignore list says
    # so, and the partial lane, which runs along the main straight only, misses no corner it
    # runs beside.
    assert [(entry.code, entry.elements) for entry in result.track.ignore] == [
        ("REACH006", ["19"])]
    report = validate(result.track)
    assert report.errors == 0, report.to_text()
    assert report.ignored == 1
    assert not {"REACH006", "CORNER003"} & {d.code for d in report.diagnostics}
    assert [d.code for d in validate(result.track.model_copy(update={"ignore": []}),
                                     codes=["REACH006"]).diagnostics] == ["REACH006"]


def test_a_pit_lane_that_bypasses_the_finish_line_keeps_its_garages_in_line() -> None:
    result = import_file(FOUR)
    pit = result.track.pit_lane
    assert pit is not None
    assert pit.spaces == ["129", "130", "131", "132", "133", "134", "135"]
    assert [(link.from_, link.to) for link in pit.entry] == [("95", "129"), ("96", "129")]
    assert [(link.from_, link.to) for link in pit.exit] == [("135", "16"), ("135", "17")]
    assert not set(pit.spaces) & set(result.track.finish_line.spaces)  # type: ignore[union-attr]
    assert pit.garages == ["131", "132", "133"]
    # Garages are where the teams stop, for the race engine too: nothing to warn about.
    assert not any("garage" in w for w in result.warnings)
    written = export_records(result.track)
    assert {node: value for node, value in written.dat.attributes.items()
            if node in {129, 130, 131, 132, 133, 134, 135}} == {131: 1.0, 132: 1.0, 133: 1.0}
    assert not any("garage" in w for w in written.warnings)


def test_two_staggered_lanes_with_a_blocked_space_in_one() -> None:
    result = import_file(TWO)
    lanes = _lanes(TWO)
    assert [len(lane) for lane in lanes] == [36, 36]
    # Across the lanes row by row: one lane holds the even ids, the other the odd ones, except
    # in the last corner, numbered lane by lane.
    assert all(int(s) % 2 == 0 for s in lanes[0][:24])
    assert all(int(s) % 2 == 1 for s in lanes[1][:24])
    assert lanes[0][18:22] == ["36", "38", "40", "42"]
    assert build_graphs(result.track).moves.degree("38") == 0
    # One corner with lane changes, one without: each is one corner across both lanes.
    assert [(c.stops, len(c.spaces)) for c in result.track.corners] == [(3, 12), (1, 12)]
    assert validate(result.track).errors == 0


@pytest.mark.parametrize("sample", [FOUR, TWO])
def test_samples_round_trip_through_export(sample: Path) -> None:
    track = import_file(sample).track
    exported = export_records(track)
    text = format_dat(exported.dat)
    again = import_dat(parse_dat(text, sample.name), sample.name).track
    facts, before = _facts(again), _facts(track)
    # A corner whose lanes leave it level takes in the spaces GP Online needs (named in a
    # warning); everything else comes back as it was.
    taken = set(re.findall(r"(\S+) \(corner ", "".join(exported.warnings)))
    assert [sorted(set(c) - taken) for _, c in facts.pop("corners")] == [  # type: ignore[attr-defined]
        sorted(c) for _, c in before.pop("corners")]  # type: ignore[attr-defined]
    assert facts == before
    # The blocked space goes back as a blocked node on its lane's moves.
    nodes = [line.split() for line in text.split("\n\n")[0].splitlines()[1:]]
    assert [node[0] for node in nodes if node[3] == "4"] == [
        s.id for s in track.spaces if build_graphs(track).moves.degree(s.id) == 0
    ]


def test_a_node_standing_on_another_is_moved_aside_with_a_warning() -> None:
    text = FOUR.read_text().replace("\n5 352 312 1\n", "\n5 352 290 1\n")
    assert "\n4 352 290 1\n" in text
    result = import_dat(parse_dat(text, "x.dat"), "x.dat")
    assert "node 5 (line 7) stands on node 4; moved 1 pixel(s) to the right" in result.warnings[0]
    centres = [tuple(s.centre) for s in result.track.spaces]
    assert len(set(centres)) == len(centres)


def test_a_node_off_the_board_picture_cannot_make_a_track() -> None:
    text = FOUR.read_text().replace("\n5 352 312 1\n", "\n5 -40 312 1\n")
    with pytest.raises(GPOnlineImportError, match=r"x.dat: line 7: node 5 lies at \(-40, 312\)"):
        import_dat(parse_dat(text, "x.dat"), "x.dat")


def test_a_corner_right_after_another_of_the_same_stops_is_its_own_corner() -> None:
    # The top straight of the four-lane sample made a one-stop corner too, right after the first
    # one: its positions start again from 0, so it is a corner of its own.
    nodes, edges, attributes, grid = FOUR.read_text().split("\n\n")
    lines = nodes.splitlines()
    for k, line in enumerate(lines[1:], start=1):
        number, x, y, _kind = line.split()[:4]
        if 44 <= int(number) <= 85:
            lines[k] = f"{number} {x} {y} 3"
            attributes += f"\n{number} {(int(number) - 44) // 3}.0"
    text = "\n\n".join(["\n".join(lines), edges, attributes, grid])
    track = import_dat(parse_dat(text, "x.dat"), "x.dat").track
    assert [(c.stops, len(c.spaces)) for c in track.corners] == [(1, 18), (1, 42), (2, 18)]


def test_a_partial_lane_away_from_the_finish_line_is_a_lane_of_its_own() -> None:
    # A fourth lane along the back straight only: its straight-on chain reaches no finish node.
    sample = DATA / "partial-lane.dat"
    result = import_file(sample)
    lanes = _lanes(sample)
    assert [len(lane) for lane in lanes] == [40, 40, 40, 9]
    assert lanes[3] == [str(n) for n in range(48, 81, 4)]
    assert result.track.finish_line is not None
    assert result.track.finish_line.spaces == ["0", "1", "2"]
    assert any("nodes 48 to 80 (9 nodes) run straight on without reaching the finish line: they "
               "are lane 4, a partial lane with no finish node" in w for w in result.warnings)
    report = validate(result.track)
    assert report.errors == 0, report.to_text()
    text = format_dat(export_records(result.track).dat)
    assert _lanes_of_text(text) == lanes


def _lanes_of_text(text: str) -> list[list[str]]:
    graphs = build_graphs(import_dat(parse_dat(text, "x.dat"), "x.dat").track)
    return [graphs.lanes[lane] for lane in graphs.lane_order]


def test_a_blocked_node_inside_a_corner_stays_inside_it() -> None:
    text = FOUR.read_text().replace("\n36 604 171 3\n", "\n36 604 171 4\n")
    result = import_dat(parse_dat(text, "x.dat"), "x.dat")
    [corner] = [c for c in result.track.corners if "33" in c.spaces]
    assert "36" in corner.spaces and "39" in corner.spaces
    assert build_graphs(result.track).moves.degree("36") == 0
    report = validate(result.track)
    assert report.errors == 0, report.to_text()
