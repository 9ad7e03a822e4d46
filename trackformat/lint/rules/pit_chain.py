"""Rules: reachability along the pit lane. A car drives the pit lane one way, one space per move,
from its declared entry to its declared exit (REACH005).

Kept beside :mod:`~trackformat.lint.rules.reachability`, whose topic it shares: the chain is
read from /pit_lane, not guessed from the links, so that a link drawn the wrong way round along
it is caught.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise

from trackformat.graph import LinkKind, TrackGraphs
from trackformat.lint.diagnostic import Severity
from trackformat.lint.registry import Finding, rule
from trackformat.lint.rules.reachability import TOPIC, at_spaces
from trackformat.lint.rules.references import id_list, in_file_order, link_name, link_pointers
from trackformat.model.track import Track


def _pit_chain(track: Track, graphs: TrackGraphs) -> list[tuple[int, str]]:
    """The pit lane's spaces that exist, with their position in /pit_lane/spaces."""
    if track.pit_lane is None:
        return []
    return [(i, s) for i, s in enumerate(track.pit_lane.spaces) if s in graphs.spaces]


@rule(
    "REACH005",
    "pit-chain",
    TOPIC,
    Severity.ERROR,
    example="a link from pit-3 back to pit-1, or a pit entry that lands on pit-2.",
)
def pit_chain(track: Track, graphs: TrackGraphs) -> Iterator[Finding]:
    """The pit lane is not a one-way chain of spaces from its entry to its exit.

    A car enters the pit lane by a link in /pit_lane/entry onto its first space, drives down
    /pit_lane/spaces one space per move, and leaves by a link in /pit_lane/exit from the last
    one. Consecutive pit spaces must be linked, and no link may go back along the chain, skip
    spaces of it, or join it to the track except the declared entry and exit. The team boxes
    (/pit_lane/boxes) are not part of the chain: a box may be linked off the chain and back onto
    it further along, never behind where it was entered.
    """
    pit_lane = track.pit_lane
    if pit_lane is None:
        return
    if not pit_lane.spaces:
        yield Finding(
            "the pit lane lists no spaces; click them in driving order with the Pit lane tool "
            "(in a file, /pit_lane/spaces, entry first)",
            pointer="/pit_lane/spaces",
        )
        return
    chain = _pit_chain(track, graphs)
    if not chain:
        return  # every listed space is unknown: REF004 says so
    position = {space_id: k for k, (_, space_id) in enumerate(chain)}
    first, last = chain[0][1], chain[-1][1]
    pointers = link_pointers(graphs)
    ahead, behind = graphs.successors("moves"), graphs.predecessors("moves")

    if not pit_lane.entry:
        yield at_spaces(graphs, [first], f"the pit lane has no entry; with the Pit lane tool, "
                                   f"Shift-click the track space a car enters it from, before "
                                   f"{first} (in a file, /pit_lane/entry)")
    if not pit_lane.exit:
        yield at_spaces(graphs, [last], f"the pit lane has no exit; with the Pit lane tool, "
                                  f"Ctrl-click the track space a car leaves {last} onto (in a "
                                  f"file, /pit_lane/exit)")
    for index, link in enumerate(pit_lane.entry):
        if link.to in position and link.to != first:  # onto the track: PIT002's
            yield Finding(
                f"pit entry link {link_name(link)} lands on {link.to}; a car enters the pit lane "
                f"on its first space, {first}",
                elements=(link.from_, link.to),
                pointer=f"/pit_lane/entry/{index}",
                point=graphs.centre(link.to),
                group="pit entries past the first pit space",
            )
    for index, link in enumerate(pit_lane.exit):
        if link.from_ in position and link.from_ != last:
            yield Finding(
                f"pit exit link {link_name(link)} leaves from {link.from_}; a car leaves the pit "
                f"lane from its last space, {last}",
                elements=(link.from_, link.to),
                pointer=f"/pit_lane/exit/{index}",
                point=graphs.centre(link.from_),
                group="pit exits before the last pit space",
            )
    for (_, a), (index, b) in pairwise(chain):
        if b not in ahead[a]:
            yield Finding(
                f"pit spaces {a} and {b} follow each other in the pit lane but no link leads "
                f"from {a} to {b}; add it",
                elements=(a, b),
                pointer=f"/pit_lane/spaces/{index}",
                point=graphs.centre(b),
                group="pit spaces not linked to the next",
            )
    boxes = {b for b in pit_lane.boxes if b in graphs.spaces}
    pit_or_box = position.keys() | boxes  # once, not once per link of the track
    for pair, kind in graphs.link_kinds.items():
        u, v = pair
        if u in position and v in position:
            step = position[v] - position[u]
            if step <= 0:
                yield Finding(
                    f"link {link_name(pair)} goes back along the pit lane; the pit lane is "
                    f"one-way, from {first} to {last}",
                    elements=pair, pointer=pointers.get(pair), point=graphs.centre(u),
                    group="links going back along the pit lane",
                )
            elif step > 1:
                skipped = [chain[k][1] for k in range(position[u] + 1, position[v])]
                yield Finding(
                    f"link {link_name(pair)} skips {id_list(skipped)} of the pit lane; a move "
                    f"goes to the next pit space",
                    elements=pair, pointer=pointers.get(pair), point=graphs.centre(u),
                    group="links skipping pit spaces",
                )
        elif kind == LinkKind.OTHER.value and (u in pit_or_box or v in pit_or_box):
            yield Finding(
                f"link {link_name(pair)} joins the track and the pit lane but is not a declared "
                f"entry or exit; a car enters by /pit_lane/entry onto {first} and leaves by "
                f"/pit_lane/exit from {last}",
                elements=pair, pointer=pointers.get(pair), point=graphs.centre(u),
                group="undeclared links between the track and the pit lane",
            )
    for box in in_file_order(graphs, boxes):
        came = [position[p] for p in behind[box] if p in position]
        goes = [position[n] for n in ahead[box] if n in position]
        if came and goes and min(goes) <= max(came):
            back_to = chain[min(goes)][1]
            entered = chain[max(came)][1]
            yield at_spaces(
                graphs,
                [box, back_to],
                f"box {box} leads back onto the pit lane at {back_to}, which is not past "
                f"{entered} where the box is entered; a box returns further along the pit lane",
            )
