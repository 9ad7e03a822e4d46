"""A finish line of two lanes, widened to the three GP Online's loader needs.

GP Online counts a track's lanes by its finish nodes and refuses fewer than three ("Invalid
finish line width 2"; its author notes that 2-lane tracks are not supported, and that blocked
nodes may make a narrower track work behind a wider line). A two-lane track is written with one
finish node more: a blocked node beside the line, outside the lane that is half a step on,
with a move into it from the space before that lane's finish space (GP Online's own files close
their blocked ends so, and the game takes every move into a blocked node away before the race)
and a move out of it to the space after that finish space, which is what places it on the line.
No car can ever enter it; the import drops it again (a blocked node on the finish line is never
raced on). Whether the game then builds the track is the game check's to say: the candidates
are tried in turn, the first it accepts is kept.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace

from trackformat.interop.gponline.dat import DatFile, DatNode, NodeType

LARGEST = 99_000
"""GP Online's board pixels run from 0 to this (see the importer)."""

WIDENED = (
    "GP Online's loader refuses a finish line of 2 nodes (\"Invalid finish line width 2\"), "
    "so the line is widened: a blocked finish node no car can enter is written beside it "
    "(node {node}, beside space {space}), and the import drops it again"
)


NOT_WIDENED = (
    "GP Online's loader refuses a finish line of 2 nodes (\"Invalid finish line width 2\"), "
    "and widening it with a blocked finish node beside it did not make the game build the "
    "track either: "
)


def _clamp(value: int) -> int:
    return min(max(value, 0), LARGEST)


def _candidates(dat: DatFile, lanes: list[list[int]]) -> Iterator[tuple[DatFile, int]]:
    """The records with the line widened, in the order worth trying, each with the finish node
    the blocked one stands beside: beside the lane half a step on first, then beside the
    other; a level line also gets a move from the blocked node onto that finish node, which
    makes it the one the game counts from."""
    by_id = {n.id: n for n in dat.nodes}
    edges = set(dat.edges)
    ends = [lane[0] for lane in lanes]
    ahead = [a for a in ends if any((b, a) in edges for b in ends if b != a)]
    order = ahead + [a for a in ends if a not in ahead]
    node = max(by_id) + 1
    for a in order:
        lane = next(lane for lane in lanes if lane[0] == a)
        other = by_id[next(b for b in ends if b != a)]
        near = by_id[a]
        x, y = _clamp(2 * near.x - other.x), _clamp(2 * near.y - other.y)
        moves = [(lane[-1], node), (node, lane[1])]
        if not ahead:
            moves.append((node, a))
        added = DatNode(node, x, y, NodeType.BLOCKED, True)
        yield replace(dat, nodes=[*dat.nodes, added], edges=[*dat.edges, *moves]), a


def widen_line(dat: DatFile, lanes: list[list[int]], space_of: dict[int, str],
               build: Callable[[DatFile], tuple[DatFile, str | None]],
               warnings: list[str]) -> DatFile | None:
    """``dat`` with its line of two widened (see the module docstring), as ``build`` makes it
    (its curve attributes fitted), when the game builds it, else None (with a warning naming
    what the game refused). ``build`` gives the fitted records and the game's refusal, if any;
    ``lanes``: each lane's nodes in lap order, from its finish node."""
    if len(lanes) != 2 or any(len(lane) < 3 for lane in lanes):
        return None
    refused: list[str] = []
    for widened, beside in _candidates(dat, lanes):
        built, refusal = build(widened)
        if refusal is None:
            node = max(n.id for n in widened.nodes)
            warnings.append(WIDENED.format(node=node, space=space_of.get(beside, beside)))
            return built
        refused.append(refusal)
    warnings.append(NOT_WIDENED + refused[0])
    return None


def widening_nodes(dat: DatFile) -> set[int]:
    """The blocked finish nodes of ``dat``: nodes no car can enter, which only widen a line."""
    return {n.id for n in dat.nodes if n.type == NodeType.BLOCKED and n.finish}
