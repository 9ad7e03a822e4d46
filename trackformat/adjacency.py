"""Plain successor lists of a directed graph, and the orders read off them: each lane's spaces in
driving order, and each space's progress along the lap.

:mod:`trackformat.graph` builds these once per track; they are kept apart from the networkx
graphs because the validator's searches and the orders below step through them far faster than
through networkx's views, and a networkx graph is made from them only when one is wanted.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import networkx as nx

from trackformat.model.track import Space, SpaceKind, Track

Adjacency = Mapping[str, Sequence[str]]
"""Each space's successors (or predecessors) in one graph, as plain lists (read only)."""


def plain(nodes: Iterable[str], links: Iterable[tuple[str, str]]) -> tuple[Adjacency, Adjacency]:
    """Successors and predecessors of a graph, in the order networkx keeps them (links in the
    order added), so a search on either visits spaces in the same order."""
    ahead: dict[str, list[str]] = {node: [] for node in nodes}
    behind: dict[str, list[str]] = {node: [] for node in ahead}
    for u, v in links:
        ahead[u].append(v)
        behind[v].append(u)
    return ahead, behind


def digraph(successors: Adjacency) -> nx.DiGraph:
    """A networkx graph of the plain lists, with the same order of spaces and links."""
    graph = nx.DiGraph()
    graph.add_nodes_from(successors)
    graph.add_edges_from((u, v) for u, ahead in successors.items() for v in ahead)
    return graph


def lane_orders(
    track: Track, spaces: dict[str, Space], circuit: tuple[Adjacency, Adjacency],
    finish: list[str],
) -> tuple[dict[str, list[str]], dict[str, int]]:
    """Order each lane's spaces by following the links that stay in the lane.

    A lane starts at its finish-line space; without one, at a space no in-lane link enters.
    Spaces the walk does not reach (a broken chain) are appended in file order, so every space
    still gets an index; the validator reports the break.
    """
    ahead, behind = circuit
    members: dict[str, list[str]] = {lane.id: [] for lane in track.lanes}
    for space in spaces.values():
        if space.kind is SpaceKind.TRACK and space.lane in members:
            members[space.lane].append(space.id)
    lanes: dict[str, list[str]] = {}
    lane_index: dict[str, int] = {}
    for lane_id, ids in members.items():
        in_lane = set(ids)
        start = next((i for i in finish if i in in_lane), None)
        if start is None:
            start = next(
                (i for i in ids if not any(p in in_lane for p in behind[i])),
                ids[0] if ids else None,
            )
        order: list[str] = []
        seen: set[str] = set()
        current = start
        while current is not None and current not in seen:
            order.append(current)
            seen.add(current)
            current = _next_in_lane(ahead, current, in_lane, seen)
        order += [i for i in ids if i not in seen]
        lanes[lane_id] = order
        for index, space_id in enumerate(order):
            lane_index[space_id] = index
    return lanes, lane_index


def _next_in_lane(ahead_of: Adjacency, space: str, in_lane: set[str], seen: set[str]
                  ) -> str | None:
    """The space right ahead in the lane: of the unvisited in-lane successors, the one the others
    do not lead to (a link skipping a space must not make the lane jump over it)."""
    ahead: list[str] = [n for n in ahead_of[space] if n in in_lane and n not in seen]
    if len(ahead) <= 1:
        return ahead[0] if ahead else None
    return min(ahead, key=lambda n: (sum(n in ahead_of[o] for o in ahead), ahead.index(n)))


def progress_ranks(succ: Adjacency, pred: Adjacency) -> tuple[dict[str, int], bool]:
    """Longest number of moves from a source of the lap graph to each space.

    On a cyclic graph (a broken track) the strongly connected parts are collapsed first, so every
    space still gets a rank and the validator can go on.
    """
    # Kahn's algorithm, ranking as it goes: one pass on a sound track.
    waiting = {node: len(before) for node, before in pred.items()}
    ready = [node for node, count in waiting.items() if count == 0]
    rank: dict[str, int] = dict.fromkeys(ready, 0)
    done = 0
    while ready:
        node = ready.pop()
        done += 1
        following = rank[node] + 1
        for ahead in succ[node]:
            if rank.get(ahead, -1) < following:
                rank[ahead] = following
            waiting[ahead] -= 1
            if waiting[ahead] == 0:
                ready.append(ahead)
    if done == len(waiting):
        return rank, True
    lap = digraph(succ)
    condensed = nx.condensation(lap)
    block_rank: dict[int, int] = {}
    for block in nx.topological_sort(condensed):
        block_rank[block] = max(
            (block_rank[p] + 1 for p in condensed.predecessors(block)), default=0
        )
    mapping = condensed.graph["mapping"]
    return {node: block_rank[mapping[node]] for node in lap.nodes}, False
