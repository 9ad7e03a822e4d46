"""The project's own tracks: built by tools/build_originals.py, sound, and regenerable."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

import pytest

from trackformat.analysis import measure_corner
from trackformat.graph import build_graphs
from trackformat.io import load_track
from trackformat.lint import validate
from trackformat.model import SpaceKind

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def build_originals() -> ModuleType:
    tools = str(ROOT / "tools")
    if tools not in sys.path:
        sys.path.insert(0, tools)
    return importlib.import_module("build_originals")


def test_the_shipped_files_are_what_the_tool_builds(build_originals: ModuleType) -> None:
    assert build_originals.main(["--check"]) == 0


@pytest.mark.parametrize("slug", ["harbour-sprint", "col-du-vent"])
def test_each_original_is_sound_and_measures_as_printed(slug: str) -> None:
    track = load_track(ROOT / "tracks" / f"{slug}.json")
    report = validate(track)
    assert report.errors == 0, report.to_text()
    graphs = build_graphs(track)
    for corner in track.corners:
        measured = measure_corner(graphs, corner)
        assert (measured.long, measured.short) == (corner.printed_long, corner.printed_short)
    assert len(track.grid) == 10
    assert track.board.image == f"{slug}.png"
    assert (ROOT / "tracks" / f"{slug}.png").is_file()


def test_harbour_sprint_is_a_short_two_lane_circuit() -> None:
    track = load_track(ROOT / "tracks" / "harbour-sprint.json")
    assert [lane.id for lane in track.lanes] == ["1", "2"]
    assert 100 <= sum(1 for s in track.spaces if s.kind == SpaceKind.TRACK) <= 160


def test_col_du_vent_has_a_hairpin_and_a_chicane() -> None:
    track = load_track(ROOT / "tracks" / "col-du-vent.json")
    assert len(track.lanes) == 3
    assert 380 <= sum(1 for s in track.spaces if s.kind == SpaceKind.TRACK) <= 440
    corners = {c.id: c for c in track.corners}
    assert corners["epingle"].stops == 3
    assert "moulin" in corners and "Chicane" in corners["moulin"].name
    assert track.pit_lane is not None and len(track.pit_lane.boxes) == 4
