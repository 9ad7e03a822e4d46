"""The shipped Monaco track: the facts of the real board, met exactly, and regenerable."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from PIL import Image

from trackformat.analysis import corners_in_lap_order, measure_corner
from trackformat.graph import TrackGraphs, build_graphs
from trackformat.io import load_track
from trackformat.lint import validate
from trackformat.model import SpaceKind, Track

ROOT = Path(__file__).resolve().parents[2]
TRACK_FILE = ROOT / "tracks" / "monaco.json"

PRINTED = {
    # corner: (name on its plaque, stops, printed long, printed short)
    "sainte-devote": ("Sainte Dévote", 1, 7, 3),
    "massenet": ("Casino", 1, 10, 5),
    "casino": ("Casino", 1, 6, 2),
    "mirabeau": ("Mirabeau", 1, 6, 2),
    "loews": ("Loews", 3, 18, 8),
    "nouvelle-chicane": ("Chicane", 1, 9, 5),
    "tabac": ("Bureau de Tabac", 1, 7, 3),
    "piscine": ("« S » de la Piscine", 2, 13, 8),
    "la-rascasse": ("La Rascasse", 2, 11, 6),
    "anthony-noghes": ("Anthony Noghes", 1, 6, 2),
}


def _tool(name: str) -> ModuleType:
    """A module of tools/ (a folder of scripts, not a package)."""
    tools = str(ROOT / "tools")
    if tools not in sys.path:
        sys.path.insert(0, tools)
    return importlib.import_module(name)


@pytest.fixture(scope="module")
def build_monaco() -> ModuleType:
    return _tool("build_monaco")


@pytest.fixture(scope="module")
def track() -> Track:
    return load_track(TRACK_FILE)


@pytest.fixture(scope="module")
def graphs(track: Track) -> TrackGraphs:
    return build_graphs(track)


def test_the_shipped_file_is_what_the_tool_builds(build_monaco: ModuleType) -> None:
    assert build_monaco.main(["--check"]) == 0


def test_the_check_catches_a_hand_edit(build_monaco: ModuleType, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    edited = tmp_path / "monaco.json"
    edited.write_text(TRACK_FILE.read_text(encoding="utf-8").replace('"laps": 2', '"laps": 3'),
                      encoding="utf-8")
    assert build_monaco.main(["--check", "--output", str(edited)]) == 1
    assert "is not what tools/build_monaco.py builds" in capsys.readouterr().err


def test_lanes_and_space_ids(track: Track) -> None:
    assert [lane.id for lane in track.lanes] == ["1", "2", "3"]
    counts = [sum(1 for s in track.spaces if s.lane == lane.id) for lane in track.lanes]
    assert counts == [168, 166, 163]
    assert sum(1 for s in track.spaces if s.kind == SpaceKind.TRACK) == 497
    assert track.spaces[0].id == "1-000" and track.spaces[167].id == "1-167"
    assert track.finish_line is not None
    assert track.finish_line.spaces == ["1-000", "2-000", "3-000"]
    assert track.metadata.name == "Monaco" and track.metadata.laps == 2


def test_every_corner_measures_as_printed(track: Track, graphs: TrackGraphs) -> None:
    in_order = [c.id for c in corners_in_lap_order(graphs)]
    assert in_order == list(PRINTED)
    for corner in track.corners:
        name, stops, long, short = PRINTED[corner.id]
        assert (corner.name, corner.stops) == (name, stops)
        assert (corner.printed_long, corner.printed_short) == (long, short)
        measured = measure_corner(graphs, corner)
        assert (measured.long, measured.short) == (long, short), corner.id
    assert sum(c.stops for c in track.corners) == 14


def test_corners_cover_the_measured_lane_ranges(track: Track) -> None:
    facts = _tool("monaco_facts")
    for fact, corner in zip(facts.CORNERS, track.corners, strict=True):
        expected = [f"{lane}-{i:03d}" for lane, (first, last) in fact.lanes.items()
                    for i in range(first, last + 1)]
        assert corner.spaces == expected


def test_single_arrows_allow_no_lane_change(track: Track) -> None:
    facts = _tool("monaco_facts")
    lanes = {s.id: s.lane for s in track.spaces}
    for fact in facts.CORNERS:
        for lane, index in fact.single_arrows:
            space_id = f"{lane}-{index:03d}"
            moves = [link.to for link in track.links if link.from_ == space_id]
            assert moves and all(lanes[m] == lane for m in moves), space_id


def test_grid_and_pit_lane(track: Track) -> None:
    assert track.grid == ["1-167", "3-161", "1-164", "3-158", "1-161",
                          "3-155", "1-158", "3-152", "1-155", "3-149"]
    pit = track.pit_lane
    assert pit is not None
    assert pit.spaces == [f"pit-{i:02d}" for i in range(18)]
    assert pit.boxes == [f"box-{n}" for n in range(1, 6)]
    assert {(link.from_, link.to) for link in pit.entry} == {("3-146", "pit-00"),
                                                            ("3-147", "pit-00")}
    assert {(link.from_, link.to) for link in pit.exit} == {("pit-17", "3-001"),
                                                           ("pit-17", "3-002")}
    kinds = [s.kind for s in track.spaces]
    assert kinds.count(SpaceKind.PIT) == 18 and kinds.count(SpaceKind.BOX) == 5


def test_the_validator_finds_no_error(track: Track) -> None:
    report = validate(track)
    assert report.errors == 0, report.to_text()


def test_the_picture_is_the_board(track: Track) -> None:
    assert track.board.image == "monaco.png"
    with Image.open(TRACK_FILE.parent / track.board.image) as picture:
        assert picture.format == "PNG"
        assert picture.size == (track.board.width, track.board.height)
    # About 4000 px wide, in the reference scan's proportions (2500 x 1658).
    assert track.board.width == 3750
    assert track.board.height / track.board.width == pytest.approx(1658 / 2500, abs=1e-3)
    assert (TRACK_FILE.parent / track.board.image).stat().st_size < 3_000_000


def test_spaces_lie_on_the_board(track: Track) -> None:
    def points() -> Iterator[tuple[float, float]]:
        for space in track.spaces:
            yield from space.polygon

    xs, ys = zip(*points(), strict=True)
    assert min(xs) > 0 and max(xs) < track.board.width
    assert min(ys) > 0 and max(ys) < track.board.height
