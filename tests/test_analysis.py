"""Corner paths and the shortest lap, as the validator and `info` measure them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.factories import drop_links, edit, ring
from trackformat.analysis import corners_in_lap_order, measure_corner, shortest_lap
from trackformat.cli import main
from trackformat.graph import build_graphs
from trackformat.io import dumps_track


def test_shortest_lap_on_a_ring_is_one_move_per_space_of_a_lane() -> None:
    graphs = build_graphs(ring(per_lane=40))
    lap = shortest_lap(graphs)
    assert lap is not None
    assert lap.moves == 40
    assert lap.route[0] in graphs.finish and lap.route[-1] in graphs.finish


def test_no_lap_without_a_finish_line() -> None:
    track = edit(ring(), lambda doc: doc.update(finish_line=None))
    assert shortest_lap(build_graphs(track)) is None


def test_corners_come_in_lap_order() -> None:
    track = edit(ring(), lambda doc: doc["corners"].reverse())
    names = [c.id for c in corners_in_lap_order(build_graphs(track))]
    assert names == ["north", "south"]


def test_corner_paths_count_corner_spaces_from_entry_to_exit() -> None:
    graphs = build_graphs(ring())
    north = next(c for c in graphs.track.corners if c.id == "north")
    measure = measure_corner(graphs, north)
    assert (measure.long, measure.short) == (4, 4)
    assert measure.entries == ("1-8", "2-8", "3-8")
    assert measure.exits == ("1-11", "2-11", "3-11")


def test_a_diagonal_into_the_corner_shortens_the_short_path() -> None:
    # Remove the single arrow's effect: a diagonal from outside lands mid-corner.
    track = edit(ring(), lambda doc: doc["links"].append({"from": "1-8", "to": "2-10"}))
    graphs = build_graphs(track)
    north = next(c for c in graphs.track.corners if c.id == "north")
    # 1-8 -> 2-10 stays inside the corner, so the path 1-8, 2-10, 2-11 has 3 spaces.
    assert measure_corner(graphs, north).short == 3


def test_a_corner_with_no_way_out_has_no_paths() -> None:
    exits = {(f"{lane}-11", f"{other}-12") for lane in "123" for other in "123"}
    graphs = build_graphs(edit(ring(), lambda doc: drop_links(doc, exits)))
    north = next(c for c in graphs.track.corners if c.id == "north")
    measure = measure_corner(graphs, north)
    assert measure.exits == ()
    assert measure.long is None and measure.short is None


def blocked_space_in_south(document: dict[str, Any]) -> None:
    """A space printed inside South's limits and never raced on (no link in or out), as GP
    Online's blocked nodes are: it has no place in the lap."""
    blocked = dict(next(s for s in document["spaces"] if s["id"] == "3-24"), id="3-24b")
    blocked["polygon"] = [[x + 1000.0, y] for x, y in blocked["polygon"]]
    document["board"]["width"] = 2400
    document["spaces"].append(blocked)
    next(c for c in document["corners"] if c["id"] == "south")["spaces"].append("3-24b")


def test_a_space_with_no_link_does_not_place_its_corner(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    track = edit(ring(), blocked_space_in_south)
    assert [c.id for c in corners_in_lap_order(build_graphs(track))] == ["north", "south"]
    (tmp_path / "t.json").write_text(dumps_track(track))
    assert main(["info", str(tmp_path / "t.json"), "--json"]) == 0
    corners = json.loads(capsys.readouterr().out)["corners"]
    assert [c["id"] for c in corners] == ["north", "south"]
