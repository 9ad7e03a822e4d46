"""The lane tool's edit: a stretch of lanes added to a track, joined to the lanes before it."""

from __future__ import annotations

import pytest

from editor import lanes
from editor.edits import EditError
from trackformat.graph import build_graphs
from trackformat.lint import validate
from trackformat.model import Board, Metadata, Track

EMPTY = Track(
    metadata=Metadata(name="new"), board=Board(width=2000, height=1500), lanes=[], spaces=[]
)
LINE = [(100.0, 300.0), (500.0, 300.0), (900.0, 340.0)]


def test_a_first_stretch_creates_its_lanes_and_links() -> None:
    track = lanes.add_stretch(
        EMPTY, LINE, lanes.LaneSettings(lanes=3, spacing=40, spaces=(16, 16, 16))
    )
    assert [lane.id for lane in track.lanes] == ["1", "2", "3"]
    graphs = build_graphs(track)
    assert [len(graphs.lanes[lane]) for lane in "123"] == [16, 16, 16]
    assert graphs.lanes["1"][:2] == ["1-000", "1-001"]
    assert graphs.circuit.has_edge("1-000", "1-001") and graphs.circuit.has_edge("1-000", "2-001")
    report = validate(track, codes=["GEOM001", "GEOM002", "GEOM003", "LAP001", "LAP002"])
    assert report.errors == 0 and report.warnings == 0, report.to_text()


def test_the_next_stretch_continues_the_numbers_and_joins_the_lane_ends() -> None:
    settings = lanes.LaneSettings(lanes=2, spacing=40, spaces=(10,))
    track = lanes.add_stretch(EMPTY, LINE[:2], settings)
    track = lanes.add_stretch(track, [(500.0, 300.0), (900.0, 300.0)], settings)
    graphs = build_graphs(track)
    assert graphs.circuit.has_edge("1-009", "1-010")
    assert graphs.circuit.has_edge("1-009", "2-010") and graphs.circuit.has_edge("2-009", "1-010")
    assert len(graphs.lanes["1"]) == 20


def test_spaces_per_lane_can_differ_and_are_checked() -> None:
    assert lanes.parse_counts("14, 13,12") == (14, 13, 12)
    with pytest.raises(EditError, match="whole numbers"):
        lanes.parse_counts("ten")
    with pytest.raises(EditError, match="one for each of the 3 lanes"):
        lanes.LaneSettings(lanes=3, spaces=(10, 12)).per_lane()
    with pytest.raises(EditError, match="at least two points"):
        lanes.add_stretch(EMPTY, [(1.0, 1.0)], lanes.LaneSettings())
