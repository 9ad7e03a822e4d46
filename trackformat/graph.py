"""The track as graphs (networkx), built in one place for the validator, simulator and editor.

- ``moves``: every space that exists, every link between existing spaces (track, pit lane, boxes,
  pit entry and exit), each edge tagged with its ``kind``.
- ``circuit``: the racing circuit alone (track spaces and the links between them).
- ``lap``: the circuit with the links that cross the finish line removed. On a sound track this is
  a directed acyclic graph whose sources are the finish-line spaces; a cycle in it is a lap that
  never crosses the line, or a link that goes backwards.
- ``neighbours``: the collision neighbours, undirected: the space right ahead and right behind in
  the same lane, and the spaces beside in the adjacent lanes that share an edge with it.

Building works out the links, the lanes' order, each space's progress and the spaces' shapes at
once, and keeps the successors and predecessors of the three directed graphs as plain lists
(:meth:`TrackGraphs.successors`); the networkx graphs themselves are made from those lists on
first use. The validator walks the plain lists (on a real board, stepping through networkx's
views was most of its time) and needs a networkx graph only for the algorithms it runs on a
broken track; the simulator, the editor and the importers use the graphs.

Building never fails on a broken track: dangling references are skipped here and reported by the
validator, so a half-made track in the editor still gets every other check.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Literal, TypeVar

import networkx as nx
import numpy as np

from trackformat.adjacency import Adjacency, digraph, lane_orders, plain, progress_ranks
from trackformat.geometry import SpaceShapes
from trackformat.model.track import Link, Space, SpaceKind, Track

T = TypeVar("T")

GraphName = Literal["moves", "circuit", "lap"]
"""The directed graphs of :class:`TrackGraphs`, by attribute name."""

class LinkKind(StrEnum):
    """What a move link joins, as tagged on the edges of the ``moves`` graph."""

    TRACK = "track"
    PIT = "pit"
    PIT_ENTRY = "pit_entry"
    PIT_EXIT = "pit_exit"
    OTHER = "other"
    """A link between a track space and a pit or box space that is not a declared pit entry or
    exit; the validator reports these."""


@dataclass
class TrackGraphs:
    """The graphs of one track and the facts derived from them; see the module docstring."""

    track: Track
    spaces: dict[str, Space]
    """Each space by id (the first one, if an id is used twice)."""
    shapes: SpaceShapes
    """Polygons of the track spaces (in ``circuit`` order) with a spatial index."""
    lane_order: list[str]
    """Lane ids from the driver's left to right."""
    lanes: dict[str, list[str]]
    """Each lane's spaces in driving order, starting at the finish line where there is one."""
    lane_index: dict[str, int]
    """Position of each track space in its lane's order."""
    finish: list[str]
    """The finish-line spaces that exist and are track spaces."""
    crossing_links: list[tuple[str, str]]
    """Circuit links that enter the finish line (the end of a lap)."""
    link_kinds: dict[tuple[str, str], LinkKind]
    """The ``kind`` of each edge of ``moves`` (a :class:`LinkKind` value), as a plain dict."""
    progress: dict[str, int]
    """Each track space's rank along the lap: the most moves from the finish line to reach it.
    Strictly increases along every link of ``lap``, so sorting by it gives lap order."""
    lap_acyclic: bool
    corner_of: dict[str, str] = field(default_factory=dict)
    """Corner id of each space inside a corner (the first corner listing it)."""
    space_position: dict[str, int] = field(default_factory=dict)
    """Index of each space id in ``track.spaces`` (the first one), for JSON pointers."""
    corner_position: dict[str, int] = field(default_factory=dict)
    """Index of each corner id in ``track.corners``, for JSON pointers."""

    _plain: dict[str, tuple[Adjacency, Adjacency]] = field(default_factory=dict, repr=False)
    """Successors and predecessors of each directed graph, by name (see :meth:`successors`)."""
    _memo: dict[Hashable, Any] = field(default_factory=dict, repr=False)

    def remember(self, key: Hashable, compute: Callable[[], T]) -> T:
        """``compute()`` once per graphs: analyses several rules need (the shortest lap, a
        corner's paths) are worked out once per validation, not once per rule. The graphs must
        not be changed after building, which every user of them already respects."""
        if key not in self._memo:
            self._memo[key] = compute()
        return self._memo[key]  # type: ignore[no-any-return]

    def successors(self, name: GraphName) -> Adjacency:
        """The successors of every space in the graph ``name``, as plain lists in the graph's
        own order (not to be changed).

        The validator's searches step through these rather than networkx's adjacency views,
        which make a view object at every step: on a real board that was most of a search's
        time, and the validator searches the same graphs dozens of times."""
        return self._plain[name][0]

    def predecessors(self, name: GraphName) -> Adjacency:
        """The predecessors of every space in the graph ``name``; see :meth:`successors`."""
        return self._plain[name][1]

    @property
    def moves(self) -> nx.DiGraph:
        """The ``moves`` graph (see the module docstring), built on first use: its nodes carry
        each space's ``kind`` and ``lane``, and for track spaces its ``progress`` and
        ``lane_index``; its edges their ``kind``."""
        return self.remember("moves", self._moves)

    def _moves(self) -> nx.DiGraph:
        graph = nx.DiGraph()
        graph.add_nodes_from(
            (s.id, _node_facts(s, self.progress, self.lane_index)) for s in self.spaces.values())
        graph.add_edges_from((u, v, {"kind": kind}) for (u, v), kind in self.link_kinds.items())
        return graph

    @property
    def circuit(self) -> nx.DiGraph:
        """The ``circuit`` graph (see the module docstring), built on first use: the validator
        walks its plain lists (:meth:`successors`) instead."""
        return self.remember("circuit", lambda: digraph(self.successors("circuit")))

    @property
    def lap(self) -> nx.DiGraph:
        """The ``lap`` graph (see the module docstring), built on first use."""
        return self.remember("lap", lambda: digraph(self.successors("lap")))

    @property
    def neighbours(self) -> nx.Graph:
        """The collision-neighbour graph (see the module docstring), built on first use."""
        return self.remember(
            "neighbours",
            lambda: _neighbours(self.circuit, self.spaces, self.shapes, self.lane_order),
        )

    def space_pointer(self, space_id: str) -> str | None:
        """JSON pointer of a space in the track file, or None for an unknown id."""
        position = self.space_position.get(space_id)
        return None if position is None else f"/spaces/{position}"

    def corner_pointer(self, corner_id: str) -> str | None:
        """JSON pointer of a corner in the track file, or None for an unknown id."""
        position = self.corner_position.get(corner_id)
        return None if position is None else f"/corners/{position}"

    def centre(self, space_id: str) -> tuple[float, float] | None:
        """Board point of a space's centre, or None for an unknown id."""
        space = self.spaces.get(space_id)
        return None if space is None else (space.centre[0], space.centre[1])

    def lane_of(self, space_id: str) -> str | None:
        space = self.spaces.get(space_id)
        return space.lane if space is not None else None

    def lane_number(self, lane_id: str | None) -> int | None:
        """Position of a lane from the left (0-based), or None for an unknown lane."""
        return None if lane_id is None else self.remember("lane_numbers", self._lane_numbers).get(
            lane_id)

    def _lane_numbers(self) -> dict[str, int]:
        numbers: dict[str, int] = {}
        for number, lane_id in enumerate(self.lane_order):
            numbers.setdefault(lane_id, number)  # a lane listed twice: its first place
        return numbers


def _edge_kind(pair: tuple[str, str], source: SpaceKind, target: SpaceKind,
               entry: set[tuple[str, str]], exit_: set[tuple[str, str]]) -> LinkKind:
    if pair in entry:
        return LinkKind.PIT_ENTRY
    if pair in exit_:
        return LinkKind.PIT_EXIT
    if source is SpaceKind.TRACK and target is SpaceKind.TRACK:
        return LinkKind.TRACK
    if source is not SpaceKind.TRACK and target is not SpaceKind.TRACK:
        return LinkKind.PIT
    return LinkKind.OTHER


def _pairs(links: Iterable[Link]) -> set[tuple[str, str]]:
    return {(link.from_, link.to) for link in links}


def build_graphs(track: Track) -> TrackGraphs:
    """Build every graph of ``track`` once; see :class:`TrackGraphs`."""
    spaces: dict[str, Space] = {}
    for space in track.spaces:
        spaces.setdefault(space.id, space)

    entry = _pairs(track.pit_lane.entry) if track.pit_lane else set()
    exit_ = _pairs(track.pit_lane.exit) if track.pit_lane else set()

    all_links = list(track.links)
    if track.pit_lane:
        all_links += list(track.pit_lane.entry) + list(track.pit_lane.exit)
    space_kind = {space_id: space.kind for space_id, space in spaces.items()}
    kinds: dict[tuple[str, str], LinkKind] = {}
    for link in all_links:
        pair = (link.from_, link.to)
        if pair in kinds or pair[0] == pair[1]:
            continue
        source, target = space_kind.get(pair[0]), space_kind.get(pair[1])
        if source is None or target is None:
            continue
        kinds[pair] = _edge_kind(pair, source, target, entry, exit_)

    track_ids = [s.id for s in spaces.values() if s.kind is SpaceKind.TRACK]
    track_links = [pair for pair, kind in kinds.items() if kind is LinkKind.TRACK]
    finish = [
        i for i in (track.finish_line.spaces if track.finish_line else [])
        if i in spaces and spaces[i].kind is SpaceKind.TRACK
    ]
    finish_set = set(finish)
    crossing = [(u, v) for u, v in track_links if v in finish_set and u not in finish_set]
    # Cut where laps end: links onto the line, and links along it between two of its spaces,
    # unless one-way: where the lanes are staggered across the line, a lane change from one
    # line space to the next lane's, half a space ahead, is a move forward like any other.
    linked = set(track_links)
    lap_links = [(u, v) for u, v in track_links
                 if v not in finish_set or (u in finish_set and (v, u) not in linked)]
    lists = {
        "moves": plain(spaces, kinds),
        "circuit": plain(track_ids, track_links),
        "lap": plain(track_ids, lap_links),
    }
    lane_order = [lane.id for lane in track.lanes]
    lanes, lane_index = lane_orders(track, spaces, lists["circuit"], finish)
    progress, acyclic = progress_ranks(*lists["lap"])

    shapes = SpaceShapes.of([spaces[i] for i in track_ids])

    corner_of: dict[str, str] = {}
    for corner in track.corners:
        for space_id in corner.spaces:
            corner_of.setdefault(space_id, corner.id)

    space_position: dict[str, int] = {}
    for position, space in enumerate(track.spaces):
        space_position.setdefault(space.id, position)
    corner_position: dict[str, int] = {}
    for position, corner in enumerate(track.corners):
        corner_position.setdefault(corner.id, position)

    return TrackGraphs(
        track=track,
        spaces=spaces,
        shapes=shapes,
        lane_order=lane_order,
        lanes=lanes,
        lane_index=lane_index,
        finish=finish,
        crossing_links=crossing,
        link_kinds=kinds,
        progress=progress,
        lap_acyclic=acyclic,
        corner_of=corner_of,
        space_position=space_position,
        corner_position=corner_position,
        _plain=lists,
    )


def _node_facts(space: Space, progress: dict[str, int], lane_index: dict[str, int]
                ) -> dict[str, object]:
    """The attributes of a space's node in ``moves``: its kind and lane, and for a track space
    its progress along the lap and its position in its lane."""
    facts: dict[str, object] = {"kind": space.kind.value, "lane": space.lane}
    if space.id in progress:
        facts["progress"] = progress[space.id]
    if space.id in lane_index:
        facts["lane_index"] = lane_index[space.id]
    return facts


def _neighbours(
    circuit: nx.DiGraph, spaces: dict[str, Space], shapes: SpaceShapes, lane_order: list[str]
) -> nx.Graph:
    graph = nx.Graph()
    graph.add_nodes_from(circuit.nodes)
    graph.add_edges_from(
        ((u, v) for u, v in circuit.edges
         if spaces[u].lane is not None and spaces[u].lane == spaces[v].lane),
        relation="ahead",
    )
    lane_pos = {lane: i for i, lane in enumerate(lane_order)}
    tolerance = 0.05 * shapes.scale
    pairs = shapes.candidate_pairs(tolerance)
    if len(pairs) == 0:
        return graph
    # Only spaces of neighbouring lanes can be beside each other: filter before any geometry.
    position = np.array([lane_pos.get(spaces[i].lane or "", -10) for i in shapes.ids])
    pairs = pairs[np.abs(position[pairs[:, 0]] - position[pairs[:, 1]]) == 1]
    shared = shapes.shared_boundary(pairs, tolerance)
    ids = shapes.ids
    graph.add_edges_from(
        ((ids[i], ids[j]) for (i, j), length in zip(pairs.tolist(), shared.tolist(), strict=True)
         if length >= 0.2 * shapes.scale),
        relation="beside",
    )
    return graph
