"""What an imported GP Online track names in its ignore list: what the file holds on purpose and
the rules forbid or warn about, kept as the game plays it, so that the track validates and the
next reader of the file sees why.
"""

from __future__ import annotations

import networkx as nx

from trackformat.model import Ignore


def blocked_spaces(blocked: set[int]) -> list[Ignore]:
    """Blocked nodes are printed on the board and never raced on, on purpose: the validator's
    isolated-space warning about them (REACH006) is named in the track's ignore list, with why,
    as the import's own warning has already said what they are."""
    if not blocked:
        return []
    return [
        Ignore(
            code="REACH006",
            elements=[str(n) for n in sorted(blocked)],
            reason="blocked nodes of the GP Online file: printed on the board, never raced on",
        )
    ]


def lane_jumps(
    moves: nx.DiGraph, lane_of: dict[int, int], racing: set[int], warnings: list[str]
) -> list[Ignore]:
    """Moves across a whole lane: the rules forbid them, but GP Online plays the file's moves,
    so they are kept, each named in the track's ignore list, with a warning."""
    jumps = sorted(
        (a, b)
        for a, b in moves.edges
        if a in racing and b in racing and abs(lane_of[a] - lane_of[b]) > 1
    )
    for a, b in jumps:
        warnings.append(
            f"move {a} -> {b} crosses a lane (lane {lane_of[a] + 1} to lane {lane_of[b] + 1}); "
            "kept as GP Online plays it, and listed in the track's ignore list"
        )
    if not jumps:
        return []
    return [
        Ignore(
            code="LAP002",
            elements=sorted({str(n) for pair in jumps for n in pair}, key=int),
            reason="moves across a lane in the GP Online file, kept as the game plays them",
        )
    ]
