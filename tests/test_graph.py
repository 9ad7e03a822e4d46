"""The graphs built from a track: moves, circuit, lap order, lanes and collision neighbours."""

from __future__ import annotations

import networkx as nx

from tests.factories import drop_links, edit, ring, sid, space
from trackformat.graph import LinkKind, build_graphs


def test_circuit_holds_every_track_space_and_only_track_links() -> None:
    graphs = build_graphs(ring(lanes=3, per_lane=40))
    assert graphs.circuit.number_of_nodes() == 120
    assert all(graphs.moves.edges[u, v]["kind"] == LinkKind.TRACK for u, v in graphs.circuit.edges)
    # 3 lanes x 40 forward links, plus diagonals (2 per lane change pair) except single arrows.
    assert graphs.circuit.has_edge("1-5", "2-6")
    assert not graphs.circuit.has_edge("1-7", "2-8"), "single-arrow space before a corner"


def test_moves_tag_pit_entry_exit_and_box_links() -> None:
    graphs = build_graphs(ring())
    kinds = nx.get_edge_attributes(graphs.moves, "kind")
    assert kinds[("3-35", "pit-0")] == LinkKind.PIT_ENTRY
    assert kinds[("pit-6", "3-3")] == LinkKind.PIT_EXIT
    assert kinds[("pit-1", "box-1")] == LinkKind.PIT
    assert "pit-0" not in graphs.circuit


def test_lanes_are_ordered_from_the_finish_line() -> None:
    graphs = build_graphs(ring(lanes=2, per_lane=24))
    assert graphs.lanes["1"] == [sid(1, k) for k in range(24)]
    assert graphs.lane_index["2-7"] == 7
    assert graphs.lane_order == ["1", "2"]


def test_lap_graph_cuts_the_finish_line_and_is_acyclic() -> None:
    graphs = build_graphs(ring())
    assert graphs.lap_acyclic
    assert ("1-39", "1-0") in graphs.crossing_links
    assert not graphs.lap.has_edge("1-39", "1-0")
    assert nx.is_directed_acyclic_graph(graphs.lap)


def test_progress_grows_along_every_link_of_the_lap() -> None:
    graphs = build_graphs(ring())
    assert graphs.progress["1-0"] == 0
    assert all(graphs.progress[v] > graphs.progress[u] for u, v in graphs.lap.edges)
    assert graphs.moves.nodes["2-10"]["progress"] == graphs.progress["2-10"]


def test_a_line_staggered_across_the_lanes_keeps_its_lane_change_in_the_lap() -> None:
    # Lane 2 starting half a space ahead of lane 1 at the line, as on the Monaco board: the move
    # from 1-0 over to 2-0 goes forward, so 2-0 ranks after 1-0. A move both ways is cut.
    track = edit(ring(), lambda doc: doc["links"].append({"from": "1-0", "to": "2-0"}))
    graphs = build_graphs(track)
    assert graphs.lap.has_edge("1-0", "2-0")
    assert graphs.progress["2-0"] > graphs.progress["1-0"] == 0
    both = edit(track, lambda doc: doc["links"].append({"from": "2-0", "to": "1-0"}))
    assert not build_graphs(both).lap.has_edge("1-0", "2-0")


def test_progress_survives_a_backward_link() -> None:
    track = edit(ring(), lambda doc: doc["links"].append({"from": "1-10", "to": "1-5"}))
    graphs = build_graphs(track)
    assert not graphs.lap_acyclic
    # The looping stretch shares one rank, and every space still has one.
    assert graphs.progress["1-5"] == graphs.progress["1-10"]
    assert set(graphs.progress) == set(graphs.circuit.nodes)


def test_collision_neighbours_are_beside_ahead_and_behind() -> None:
    graphs = build_graphs(ring())
    assert set(graphs.neighbours["2-5"]) == {"2-4", "2-6", "1-5", "3-5"}
    assert graphs.neighbours.edges["2-5", "1-5"]["relation"] == "beside"
    assert graphs.neighbours.edges["2-5", "2-6"]["relation"] == "ahead"
    # Outer lanes have one neighbour lane only.
    assert set(graphs.neighbours["1-5"]) == {"1-4", "1-6", "2-5"}


def test_dangling_links_are_skipped_not_fatal() -> None:
    def break_it(doc: dict) -> None:
        doc["links"].append({"from": "1-3", "to": "nowhere"})
        drop_links(doc, {("1-3", "1-4")})

    graphs = build_graphs(edit(ring(), break_it))
    assert "nowhere" not in graphs.moves
    assert not graphs.circuit.has_edge("1-3", "1-4")
    # The lane walk stops at the break; the rest of the lane is still indexed.
    assert len(graphs.lanes["1"]) == 40


def test_pointers_and_centres_locate_elements_in_the_file() -> None:
    track = ring()
    graphs = build_graphs(track)
    position = next(i for i, s in enumerate(track.spaces) if s.id == "2-3")
    assert graphs.space_pointer("2-3") == f"/spaces/{position}"
    assert graphs.corner_pointer("south") == "/corners/1"
    assert graphs.space_pointer("missing") is None
    assert graphs.centre("2-3") == tuple(track.spaces[position].centre)



def _shift_space(doc: dict, space_id: str, dx: float, dy: float) -> None:
    target = space(doc, space_id)
    target["polygon"] = [[x + dx, y + dy] for x, y in target["polygon"]]
    target["centre"] = [target["centre"][0] + dx, target["centre"][1] + dy]


def test_hand_drawn_spaces_with_a_small_gap_or_overlap_are_still_beside() -> None:
    # Space 2-0 sits left of its lane at the 3 o'clock position; move it a pixel sideways.
    for dx in (0.8, -0.8):
        graphs = build_graphs(edit(ring(), lambda doc, dx=dx: _shift_space(doc, "2-0", dx, 0)))
        assert graphs.neighbours.has_edge("2-0", "1-0")
        assert graphs.neighbours.has_edge("2-0", "3-0")


def test_spaces_touching_only_at_a_corner_are_not_beside() -> None:
    graphs = build_graphs(ring())
    assert not graphs.neighbours.has_edge("1-5", "2-6")


def test_a_link_skipping_a_space_does_not_reorder_the_lane() -> None:
    def skip(doc: dict) -> None:
        doc["links"].insert(0, {"from": "1-5", "to": "1-7"})

    graphs = build_graphs(edit(ring(), skip))
    assert graphs.lanes["1"][5:8] == ["1-5", "1-6", "1-7"]
