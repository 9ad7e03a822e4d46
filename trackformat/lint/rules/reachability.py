"""Rules: reachability. Every space can be reached, every car can finish, and nothing traps it.

These work on the graph of moves (every link, pit lane included) and on the circuit (track
spaces only). The pit lane's own chain is checked in :mod:`~trackformat.lint.rules.pit_chain`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import networkx as nx

from trackformat.analysis import reachable, strongly_connected
from trackformat.graph import TrackGraphs
from trackformat.lint.diagnostic import Severity
from trackformat.lint.registry import Finding, rule
from trackformat.lint.rules.open_lap import lap_open, open_ends
from trackformat.lint.rules.references import (
    id_list,
    in_file_order,
    kind_noun,
)
from trackformat.model.track import Track

TOPIC = "reachability"


def _groups(graphs: TrackGraphs, ids: Iterable[str]) -> list[list[str]]:
    """``ids`` split into pieces of circuit joined by links, each in file order.

    A lane cut off by one missing link is one problem, so it is reported once with all its
    spaces rather than once per space.
    """
    ids = list(ids)
    if not ids:
        return []  # the usual case: nothing to group, and no graph to build
    sub = graphs.moves.subgraph(ids)
    groups = [in_file_order(graphs, part) for part in nx.weakly_connected_components(sub)]
    return sorted(groups, key=lambda g: graphs.space_position.get(g[0], 0))


def _isolated(graphs: TrackGraphs) -> set[str]:
    """Spaces with no link at all: isolated-space (a warning) reports them, once. Such a space is
    out of play, not a place a car could be caught in: real boards have them (GP Online's blocked
    spaces), so the rules below that would report it again as unreachable, unable to finish or
    off the loop leave it out."""
    ahead, behind = graphs.successors("moves"), graphs.predecessors("moves")
    return {s for s in ahead if not ahead[s] and not behind[s]}


def _spaces_phrase(ids: list[str]) -> str:
    if len(ids) == 1:
        return f"space {ids[0]}"
    return f"{len(ids)} spaces ({id_list(ids)})"


def at_spaces(graphs: TrackGraphs, ids: list[str], message: str) -> Finding:
    """A finding about the spaces ``ids``, pointed at the first of them."""
    return Finding(
        message,
        elements=tuple(ids),
        pointer=graphs.space_pointer(ids[0]),
        point=graphs.centre(ids[0]),
    )


@rule(
    "REACH001",
    "unreachable-space",
    TOPIC,
    Severity.ERROR,
    example="a lane whose only link in is missing, so its spaces are never reached from the grid.",
)
def unreachable_space(track: Track, graphs: TrackGraphs) -> Iterator[Finding]:
    """A track space that no car can reach from the start grid.

    Starting from the grid slots (or, on a track with no grid yet, from the finish line), the
    validator follows every link; a track space it never arrives at is printed on the board but
    can never be driven on. Usually a link leading onto it is missing or drawn the wrong way.
    While the lap is not closed yet, REACH004 says so instead. A space with no link at all is
    left to isolated-space.
    """
    if lap_open(graphs):
        return
    sources = [s for s in track.grid if s in graphs.spaces]
    origin = "the grid"
    if not sources:
        sources, origin = list(graphs.finish), "the finish line (the track has no grid)"
    if not sources:
        return
    reached = reachable(graphs.successors("moves"), sources) | _isolated(graphs)
    lost = [s for s in graphs.successors("circuit") if s not in reached]
    for group in _groups(graphs, lost):
        verb = "is" if len(group) == 1 else "are"
        yield at_spaces(
            graphs,
            group,
            f"{_spaces_phrase(group)} {verb} never reached from {origin}: no route of links "
            f"leads there; add the missing link onto {group[0]} or turn a wrong-way link round",
        )


@rule(
    "REACH002",
    "cannot-finish",
    TOPIC,
    Severity.ERROR,
    example="a space whose links all lead into a dead end, so a car there can never finish.",
)
def cannot_finish(track: Track, graphs: TrackGraphs) -> Iterator[Finding]:
    """A track space from which the finish line can never be reached.

    A car on such a space could never complete its lap, so the race could not end for it.
    Every route from it ends in a dead end or in a loop with no way back to the circuit; add
    the links that lead on from it. While the lap is not closed yet, REACH004 says so instead.
    A space with no link at all, where no car can be, is left to isolated-space.
    """
    if not graphs.finish or lap_open(graphs):
        return
    can_finish = reachable(graphs.predecessors("moves"), graphs.finish) | _isolated(graphs)
    stuck = [s for s in graphs.successors("circuit") if s not in can_finish]
    for group in _groups(graphs, stuck):
        yield at_spaces(
            graphs,
            group,
            f"from {_spaces_phrase(group)} no route of links leads back to the finish line, so "
            f"a car there could never finish; add the links that lead on",
        )


def _main_component(graphs: TrackGraphs, components: list[set[str]]) -> int | None:
    """Index of the main loop: the part holding the finish line, else the largest part."""
    finish = set(graphs.finish)
    if not components:
        return None
    return max(
        range(len(components)),
        key=lambda i: (len(components[i] & finish), len(components[i])),
    )


@rule(
    "REACH003",
    "trap",
    TOPIC,
    Severity.ERROR,
    example="a box with a link in from the pit lane but no link back out.",
)
def trap(track: Track, graphs: TrackGraphs) -> Iterator[Finding]:
    """A space, or a set of spaces, that a car can enter but never leave.

    A dead end (a space with links in but none out) or a group of spaces whose links only lead
    among themselves: a car that moves there is stuck for the rest of the race. Each trap is
    reported once, with all its spaces. The main loop of the circuit, which by design is never
    left, is not a trap.
    """
    if strongly_connected(graphs, "moves"):
        return  # one part, the main loop: nothing to leave
    condensed = nx.condensation(graphs.moves)
    members: dict[int, set[str]] = {
        block: set(condensed.nodes[block]["members"]) for block in condensed.nodes
    }
    blocks = list(members)
    main_index = _main_component(graphs, [members[b] for b in blocks])
    main = blocks[main_index] if main_index is not None else None
    # While the lap is still open its loose ends are dead ends: REACH004 says so once.
    loose = set(open_ends(graphs)[1]) if lap_open(graphs) else set()
    for block in blocks:
        if block == main or condensed.out_degree(block) or not condensed.in_degree(block):
            continue
        ids = in_file_order(graphs, members[block])
        if len(ids) == 1 and ids[0] in loose:
            continue
        if len(ids) == 1:
            noun = kind_noun(graphs.spaces[ids[0]].kind)
            message = (
                f"{noun} {ids[0]} is a dead end: a car can move onto it but no link leads on; "
                f"add the link out of it, or delete the link into it"
            )
        else:
            message = (
                f"{_spaces_phrase(ids)} form a trap: a car can enter them but their links only "
                f"lead among themselves; add a link out of them back to the circuit"
            )
        yield at_spaces(graphs, ids, message)


@rule(
    "REACH004",
    "loop-broken",
    TOPIC,
    Severity.ERROR,
    example="the links from one stretch of track to the next are all missing.",
)
def loop_broken(track: Track, graphs: TrackGraphs) -> Iterator[Finding]:
    """The circuit is not one closed loop.

    Following the track links (pit lane aside), a car on any track space must be able to reach
    every other one, lap after lap. A track still being laid, with no closed loop yet, is told
    so once, with the ends of its lanes. Otherwise the circuit falls into parts; each stretch
    outside the main loop (the one holding the finish line) is reported once, with whether it
    is cut off from the main loop, leads nowhere back to it, or cannot be reached from it. A
    space with no link at all is left to isolated-space.
    """
    if strongly_connected(graphs, "circuit"):
        return
    if lap_open(graphs):
        yield _unfinished(graphs)
        return
    isolated = _isolated(graphs)
    components = [
        set(c) for c in nx.strongly_connected_components(graphs.circuit) if not set(c) <= isolated
    ]
    if len(components) < 2:
        return
    main_index = _main_component(graphs, components)
    assert main_index is not None
    main = components[main_index]
    anchor = next(iter(main))
    ahead = reachable(graphs.successors("circuit"), [anchor])
    behind = reachable(graphs.predecessors("circuit"), [anchor])
    parts = f"the circuit falls into {len(components)} parts"
    # A stretch hanging off the loop is a chain of one-space parts: one problem, not one a space.
    kinds: dict[str, list[str]] = {"ahead": [], "behind": [], "apart": []}
    for index, component in enumerate(components):
        if index == main_index:
            continue
        sample = next(iter(component))
        kind = "ahead" if sample in ahead else "behind" if sample in behind else "apart"
        kinds[kind].extend(component)
    for kind, loose in kinds.items():
        for ids in _groups(graphs, loose):
            verb = "is" if len(ids) == 1 else "are"
            if kind == "ahead":
                how = f"{verb} reached from the main loop but no track link leads back to it"
            elif kind == "behind":
                lead = "leads" if len(ids) == 1 else "lead"
                how = f"{lead} onto the main loop but cannot be reached from it"
            else:
                how = f"{verb} cut off from the main loop: no track link joins them"
            yield at_spaces(graphs, ids, f"{_spaces_phrase(ids)} {how} ({parts})")


def _unfinished(graphs: TrackGraphs) -> Finding:
    """The one problem of a track whose lanes do not come round yet."""
    starts, stops = open_ends(graphs)
    ends = stops + [s for s in starts if s not in stops]
    return at_spaces(
        graphs,
        ends,
        f"the lap is not closed yet: the lanes stop at {id_list(stops)} and start at "
        f"{id_list(starts)}; lay the next stretch with the Lanes tool from where they stop "
        f"(it joins the open ends) until it comes round to the start",
    )


@rule(
    "REACH006",
    "isolated-space",
    TOPIC,
    Severity.WARNING,
    example="a space drawn on the board with no link in or out.",
)
def isolated_space(track: Track, graphs: TrackGraphs) -> Iterator[Finding]:
    """A space with no link at all, in or out.

    Nothing can move onto or off such a space, so it plays no part in the game. It is most
    often a space just drawn in the editor and not linked yet; link it to its neighbours, or
    delete it if it was drawn by mistake. Real boards have such spaces on purpose (GP Online's
    blocked spaces, printed but never raced on), so this is a warning, and the rules on
    unreachable spaces, cars that cannot finish and a broken loop leave these spaces to it.
    """
    ahead, behind = graphs.successors("moves"), graphs.predecessors("moves")
    alone = [s for s in ahead if not ahead[s] and not behind[s]]
    for space_id in in_file_order(graphs, alone):
        noun = kind_noun(graphs.spaces[space_id].kind)
        yield at_spaces(
            graphs,
            [space_id],
            f"{noun} {space_id} has no link in or out, so no car can ever use it; link it "
            f"to its neighbours or delete it",
        )

