"""The track as the race engine reads it: plain lookups built once from the track graphs.

The engine asks the same questions millions of times in a batch of test drives (which spaces
follow this one? which corner is it in? which lane?), so they are answered from dicts and tuples
built here once, instead of from networkx on every step.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass, field

from trackformat.graph import LinkKind, TrackGraphs, build_graphs
from trackformat.model.track import SpaceKind, Track


@dataclass(frozen=True)
class Board:
    """Lookups of one track for the engine; build with :meth:`of`."""

    graphs: TrackGraphs
    track_next: dict[str, tuple[str, ...]]
    """Circuit successors of each track space: the same lane first, then by lane from the
    left. This order is the order moves are generated in, so it makes them deterministic."""
    pit_next: dict[str, tuple[str, ...]]
    """Successors of pit-lane and box spaces (pit links and pit exits)."""
    pit_entry: dict[str, tuple[str, ...]]
    """Pit-lane spaces entered from each track space that has a pit entry."""
    lane: dict[str, int]
    """Lane number (0 = the driver's left) of each track space."""
    lane_index: dict[str, int]
    """Position of each track space in its lane, from the finish line."""
    lane_length: dict[int, int]
    """Number of spaces in each lane."""
    ahead: dict[str, str]
    """The next space in the same lane, for each track space that has one."""
    corner_of: dict[str, str]
    """Corner of each space inside a corner."""
    corner_stops: dict[str, int]
    """Stops demanded by each corner."""
    crossing: frozenset[tuple[str, str]]
    """Links that cross the finish line."""
    pit_exit_crosses: bool
    """Whether leaving the pit lane puts a car past the finish line (the pit lane bypasses it),
    so that the exit counts as the crossing."""
    progress: dict[str, int]
    """Rank of each track space along the lap."""
    lap_length: int
    """One more than the highest progress rank."""
    contacts: dict[str, tuple[str, ...]]
    """Where a car that ends its move on each track space risks contact: the spaces beside it
    in the adjacent lanes and the space right ahead in its lane, the cars it ends "next to or
    right behind". Not the space right behind it: a car that ends right in front of another
    does not roll (the track's collision-neighbour graph holds both directions)."""
    kind: dict[str, SpaceKind]
    """Kind of every space."""
    pit_lane: tuple[str, ...]
    """The pit lane in driving order."""
    pit_exit_target: str | None
    """The track space a car reaches on leaving the pit lane."""
    pit_entry_rank: int
    """Progress rank of the track space a car turns into the pit lane from: cars in the pit lane
    play as if there, after the track cars between the pit entry and exit."""
    pit_position: dict[str, float]
    """Position of each pit-lane space and box along the pit lane (a box sits between the
    pit-lane spaces around it), for the order of play inside the pit lane."""
    inside: dict[str, int]
    """How far each track space is from the inside line of its corner, or of the next corner
    (0 on the inside lane): the tie-break of the turn order."""

    @classmethod
    def of(cls, track: Track, graphs: TrackGraphs | None = None) -> Board:
        """Build the lookups of ``track`` (reusing ``graphs`` if already built)."""
        graphs = graphs if graphs is not None else build_graphs(track)
        lane_number = {lane_id: n for n, lane_id in enumerate(graphs.lane_order)}
        lane: dict[str, int] = {}
        for space_id in graphs.circuit.nodes:
            number = lane_number.get(graphs.spaces[space_id].lane or "")
            if number is not None:
                lane[space_id] = number

        def track_order(space_id: str, nexts: Iterable[str]) -> tuple[str, ...]:
            own = lane.get(space_id)
            return tuple(sorted(nexts, key=lambda n: (lane.get(n) != own, lane.get(n, -1), n)))

        track_next = {
            s: track_order(s, graphs.circuit.successors(s)) for s in graphs.circuit.nodes
        }
        ahead = {
            s: n for s, nexts in track_next.items() for n in nexts[:1]
            if s in lane and lane.get(n) == lane[s]
        }
        kind = {s: space.kind for s, space in graphs.spaces.items()}
        pit_next: dict[str, tuple[str, ...]] = {}
        pit_entry: dict[str, list[str]] = {}
        exit_target: str | None = None
        for u, v, data in sorted(graphs.moves.edges(data=True)):
            link = data["kind"]
            if link == LinkKind.PIT_ENTRY and kind[u] == SpaceKind.TRACK:
                pit_entry.setdefault(u, []).append(v)
            elif link in (LinkKind.PIT, LinkKind.PIT_EXIT) and kind[u] != SpaceKind.TRACK:
                pit_next[u] = (*pit_next.get(u, ()), v)
                if link == LinkKind.PIT_EXIT:
                    exit_target = v
        pit_lane = tuple(graphs.track.pit_lane.spaces) if graphs.track.pit_lane else ()
        progress = dict(graphs.progress)
        entry_rank = max((progress.get(u, 0) for u in pit_entry), default=0)
        crosses = exit_target is not None and progress.get(exit_target, 0) < entry_rank
        corner_stops = {c.id: c.stops for c in graphs.track.corners}
        lane_length: dict[int, int] = {}
        for lane_id, spaces in graphs.lanes.items():
            if lane_id in lane_number:
                lane_length[lane_number[lane_id]] = len(spaces)
        return cls(
            graphs=graphs,
            track_next=track_next,
            pit_next=pit_next,
            pit_entry={u: tuple(vs) for u, vs in pit_entry.items()},
            lane=lane,
            lane_index=dict(graphs.lane_index),
            lane_length=lane_length,
            ahead=ahead,
            corner_of={s: c for s, c in graphs.corner_of.items() if c in corner_stops},
            corner_stops=corner_stops,
            crossing=frozenset(graphs.crossing_links),
            pit_exit_crosses=crosses,
            progress=progress,
            lap_length=max(progress.values(), default=0) + 1,
            contacts=_contacts(graphs),
            kind=kind,
            pit_lane=pit_lane,
            pit_exit_target=exit_target,
            pit_entry_rank=entry_rank,
            pit_position=_pit_positions(pit_lane, pit_next),
            inside=_inside_distances(graphs, lane, progress),
        )

    pit_spaces: frozenset[str] = field(init=False, repr=False)
    """Pit-lane spaces and boxes (derived from :attr:`kind`)."""
    crossing_ends: frozenset[str] = field(init=False, repr=False)
    """Spaces a finish-line crossing lands on (derived from :attr:`crossing`)."""
    network: Network = field(init=False, repr=False, compare=False)
    """The same lookups on numbered spaces, for the route walk (derived)."""
    laneless: tuple[str, ...] = field(init=False, repr=False, compare=False)
    """Track spaces a link leads onto that are in no lane (sorted): no race can be played on
    such a board, for lane changes, slipstreams and contacts are all read by lane (derived)."""

    def __post_init__(self) -> None:
        pits = frozenset(s for s, k in self.kind.items() if k != SpaceKind.TRACK)
        object.__setattr__(self, "pit_spaces", pits)
        entered = {v for nexts in (*self.track_next.values(), *self.pit_next.values(),
                                   *self.pit_entry.values()) for v in nexts}
        object.__setattr__(self, "laneless", tuple(sorted(
            s for s in entered if s not in pits and s not in self.lane)))
        object.__setattr__(self, "crossing_ends", frozenset(v for _, v in self.crossing))
        object.__setattr__(self, "network", Network.of(self))

    def crossings(self, start: str, route: tuple[str, ...]) -> tuple[int, ...]:
        """Where a move from ``start`` along ``route`` crosses the finish line: the position in
        ``route`` of each space a crossing lands on (leaving a pit lane that bypasses the line
        counts as crossing it). The spaces before such a position are short of the line."""
        pits = self.pit_spaces
        if self.crossing_ends.isdisjoint(route) and not (
                self.pit_exit_crosses and (start in pits or not pits.isdisjoint(route))):
            return ()  # the common case, answered without walking the route
        found: list[int] = []
        previous = start
        for position, space in enumerate(route):
            if (previous, space) in self.crossing or (
                self.pit_exit_crosses and previous in pits and space not in pits
            ):
                found.append(position)
            previous = space
        return tuple(found)

    def in_pit(self, space_id: str) -> bool:
        """Whether a space belongs to the pit lane or is a box."""
        return space_id in self.pit_spaces

    def between_in_lane(self, lane: int, after: int, before: int, space_index: int) -> bool:
        """Whether lane position ``space_index`` lies strictly between two positions of the same
        lane, going forward from ``after`` to ``before`` (across the finish line if need be)."""
        length = self.lane_length.get(lane, 0) or 1
        span = (before - after) % length
        offset = (space_index - after) % length
        return 0 < offset < span


Step = tuple[int, str, bool, bool, int, int, int]
"""A space as the walk steps onto it, its facts read in one unpacking: (number, id, in the pit
lane, a box, corner number or -1, lane number or -1, position in the lane)."""


@dataclass(frozen=True, slots=True, eq=False)
class Network:
    """The board's spaces numbered from 0, every lookup of the route walk a tuple indexed by
    space number.

    The walk runs millions of steps in a batch of races; indexing a tuple with an int is several
    times cheaper than hashing a string id into a dict, and -1 stands for "none" so that no step
    has to test for a missing key. Built once per board. ``cache`` and ``walks`` are scratch
    dicts for what the walk learns about the board as it goes (car-free distances, the reach of
    each space, routes already walked), so a batch of races on one board shares them; see
    :mod:`trackformat.sim.move.reach`.
    """

    names: tuple[str, ...]
    """Space id of each number."""
    number: dict[str, int]
    track_next: tuple[tuple[int, ...], ...]
    """:attr:`Board.track_next` by number (empty for pit spaces)."""
    pit_next: tuple[tuple[int, ...], ...]
    pit_entry: tuple[tuple[int, ...], ...]
    lane: tuple[int, ...]
    """Lane number, -1 for pit spaces."""
    lane_index: tuple[int, ...]
    """Position in the lane, 0 for pit spaces (as :attr:`Board.lane_index` with a default)."""
    lane_length: tuple[int, ...]
    """Spaces in each lane by lane number (at least 1, so it can divide)."""
    corner: tuple[int, ...]
    """Corner number of each space, -1 on straights and in the pit lane."""
    corner_names: tuple[str, ...]
    corner_stops: tuple[int, ...]
    in_pit: tuple[bool, ...]
    is_box: tuple[bool, ...]
    backwards: tuple[tuple[tuple[Step, ...], ...], ...]
    """The successors in the walk, last first, each with its facts (:data:`Step`): on the
    track, on the track with the pit entry open, in the pit lane."""
    links: tuple[tuple[int, ...], ...]
    """Every link out of each space (track, pit entry, pit lane), whatever the rules allow."""
    lane_spaces: tuple[dict[int, int], ...]
    """For each lane, the space at each position."""
    cache: dict[object, object]
    walks: dict[object, object]

    @classmethod
    def of(cls, board: Board) -> Network:
        names = tuple(sorted(board.kind))
        number = {name: n for n, name in enumerate(names)}
        corner_names = tuple(board.corner_stops)
        corner_number = {name: n for n, name in enumerate(corner_names)}
        lanes = max((*board.lane.values(), *board.lane_length), default=-1) + 1

        def numbered(table: dict[str, tuple[str, ...]]) -> tuple[tuple[int, ...], ...]:
            return tuple(tuple(number[v] for v in table.get(s, ())) for s in names)

        lane_spaces: tuple[dict[int, int], ...] = tuple({} for _ in range(lanes))
        for s, n in board.lane.items():
            lane_spaces[n][board.lane_index.get(s, 0)] = number[s]
        track_next, pit_entry = numbered(board.track_next), numbered(board.pit_entry)
        pit_next = numbered(board.pit_next)
        lane = tuple(board.lane.get(s, -1) for s in names)
        lane_index = tuple(board.lane_index.get(s, 0) for s in names)
        corner = tuple(corner_number.get(board.corner_of.get(s, ""), -1) for s in names)
        in_pit = tuple(s in board.pit_spaces for s in names)
        is_box = tuple(board.kind[s] == SpaceKind.BOX for s in names)
        steps = [(n, name, in_pit[n], is_box[n], corner[n], lane[n], lane_index[n])
                 for n, name in enumerate(names)]
        return cls(
            names=names,
            number=number,
            track_next=track_next,
            pit_next=pit_next,
            pit_entry=pit_entry,
            lane=lane,
            lane_index=lane_index,
            lane_length=tuple(board.lane_length.get(n, 0) or 1 for n in range(lanes)),
            corner=corner,
            corner_names=corner_names,
            corner_stops=tuple(board.corner_stops[c] for c in corner_names),
            in_pit=in_pit,
            is_box=is_box,
            backwards=(tuple(tuple(steps[v] for v in n[::-1]) for n in track_next),
                       tuple(tuple(steps[v] for v in (n + e)[::-1])
                             for n, e in zip(track_next, pit_entry, strict=True)),
                       tuple(tuple(steps[v] for v in n[::-1]) for n in pit_next)),
            links=tuple(a + b + c for a, b, c in zip(track_next, pit_entry, pit_next, strict=True)),
            lane_spaces=lane_spaces,
            cache={},
            walks={},
        )


def _contacts(graphs: TrackGraphs) -> dict[str, tuple[str, ...]]:
    """The collision neighbours of each space, less the spaces right behind it in its lane."""
    circuit = graphs.circuit
    return {
        s: tuple(sorted(
            n for n in graphs.neighbours.neighbors(s)
            if not (graphs.neighbours.edges[s, n].get("relation") == "ahead"
                    and circuit.has_edge(n, s))
        ))
        for s in graphs.neighbours.nodes
    }


def _pit_positions(
    pit_lane: tuple[str, ...], pit_next: dict[str, tuple[str, ...]]
) -> dict[str, float]:
    position = {space_id: float(n) for n, space_id in enumerate(pit_lane)}
    for space_id, nexts in pit_next.items():
        if space_id in position:
            for box in nexts:
                position.setdefault(box, position[space_id] + 0.5)
    return position


def _turning(graphs: TrackGraphs, spaces: list[str]) -> float:
    """Signed heading change along a run of spaces, in degrees (positive: turning right)."""
    total = 0.0
    for a, b in itertools.pairwise(spaces):
        delta = (graphs.spaces[b].heading - graphs.spaces[a].heading + 180.0) % 360.0 - 180.0
        total += delta
    return total


def _inside_distances(
    graphs: TrackGraphs, lane: dict[str, int], progress: dict[str, int]
) -> dict[str, int]:
    """For each track space, its lane's distance from the inside lane of the relevant corner.

    The inside of a corner is the side it turns to: headings grow clockwise on the board (y
    down), so a growing heading is a right-hand turn and the inside is the rightmost lane. A
    corner that does not turn on the board falls back to its lane with the fewest spaces.
    """
    lanes_count = len(graphs.lane_order)
    inside_lane: dict[str, int] = {}
    starts: list[tuple[int, str]] = []
    for corner in graphs.track.corners:
        members = [s for s in corner.spaces if s in lane]
        if not members:
            continue
        starts.append((min(progress.get(s, 0) for s in members), corner.id))
        by_lane: dict[int, list[str]] = {}
        for s in members:
            by_lane.setdefault(lane[s], []).append(s)
        turn = sum(
            _turning(graphs, sorted(run, key=lambda s: graphs.lane_index.get(s, 0)))
            for run in by_lane.values()
        )
        if turn > 1.0:
            inside_lane[corner.id] = lanes_count - 1
        elif turn < -1.0:
            inside_lane[corner.id] = 0
        else:
            inside_lane[corner.id] = min(by_lane, key=lambda n: (len(by_lane[n]), n))
    starts.sort()
    result: dict[str, int] = {}
    for space_id, number in lane.items():
        corner_id = graphs.corner_of.get(space_id)
        if corner_id is None or corner_id not in inside_lane:
            rank = progress.get(space_id, 0)
            upcoming = [c for p, c in starts if p > rank]
            corner_id = upcoming[0] if upcoming else (starts[0][1] if starts else None)
        result[space_id] = abs(number - inside_lane[corner_id]) if corner_id else number
    return result
