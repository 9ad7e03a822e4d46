"""The board as numbered arrays: what compiled code can read without a Python object.

Spaces are numbered as in :class:`~trackformat.sim.core.board.Network` (sorted ids). Every
table is a numpy array indexed by space number; lists of neighbours (successors, contacts) are
rows padded with -1, kept in the engine's order (own lane first, then lanes from the left), which
is the order moves are generated in.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from trackformat.sim.core.board import Board

Ints = npt.NDArray[np.int64]


def padded(rows: Sequence[Sequence[int]]) -> Ints:
    """Rows of different lengths as one array, padded with -1 (at least one column)."""
    width = max((len(r) for r in rows), default=0) or 1
    table = np.full((len(rows), width), -1, dtype=np.int64)
    for n, row in enumerate(rows):
        table[n, : len(row)] = row
    return table


@dataclass(frozen=True, eq=False)
class BoardArrays:
    """One board's lookups as arrays; build with :meth:`of` (once per board)."""

    names: tuple[str, ...]
    """Space id of each number."""
    number: dict[str, int]
    track_next: Ints
    """Circuit successors of each space, padded with -1 (empty rows for pit spaces)."""
    pit_next: Ints
    """Successors of pit-lane spaces and boxes."""
    pit_entry: Ints
    """Pit-lane spaces entered from each track space."""
    lane: Ints
    """Lane number of each space, -1 in the pit lane."""
    lane_index: Ints
    """Position of each space in its lane (0 in the pit lane)."""
    lane_length: Ints
    """Spaces in each lane (at least 1)."""
    corner: Ints
    """Corner number of each space, -1 on straights and in the pit lane."""
    corner_stops: Ints
    """Stops demanded by each corner, by corner number."""
    corner_names: tuple[str, ...]
    in_pit: Ints
    """1 for pit-lane spaces and boxes."""
    is_box: Ints
    """1 for boxes."""
    contacts: Ints
    """Where a car ending its move on each space risks contact, padded with -1."""
    progress: Ints
    """Rank of each track space along the lap (0 in the pit lane)."""
    inside: Ints
    """How far each track space is from the inside line of its corner or the next (0 in the
    pit lane): the tie-break of the order of play."""
    pit_half: Ints
    """Twice the position of each pit-lane space and box along the pit lane (a box sits half
    way between the spaces around it), for the order of play there."""
    pit_entry_rank: int
    """Progress rank where cars in the pit lane play (see :attr:`Board.pit_entry_rank`)."""
    ahead: Ints
    """The next space in the same lane (-1: none)."""
    crossing: Ints
    """For each space, the spaces a link from it crosses the finish line into (padded)."""
    pit_exit_crosses: bool
    """Leaving the pit lane counts as crossing the line (the pit lane bypasses it)."""

    @classmethod
    def of(cls, board: Board) -> BoardArrays:
        net = board.network
        number = net.number

        def column(values: Sequence[int] | Sequence[bool]) -> Ints:
            return np.asarray(values, dtype=np.int64)

        return cls(
            names=net.names,
            number=dict(number),
            track_next=padded(net.track_next),
            pit_next=padded(net.pit_next),
            pit_entry=padded(net.pit_entry),
            lane=column(net.lane),
            lane_index=column(net.lane_index),
            lane_length=column(net.lane_length) if net.lane_length else np.ones(1, np.int64),
            corner=column(net.corner),
            corner_stops=column(net.corner_stops) if net.corner_stops else np.zeros(
                1, np.int64),
            corner_names=net.corner_names,
            in_pit=column(net.in_pit),
            is_box=column(net.is_box),
            contacts=padded([[number[s] for s in board.contacts.get(name, ())]
                             for name in net.names]),
            progress=column([board.progress.get(s, 0) for s in net.names]),
            inside=column([board.inside.get(s, 0) for s in net.names]),
            pit_half=column([int(board.pit_position.get(s, 0.0) * 2) for s in net.names]),
            pit_entry_rank=board.pit_entry_rank,
            ahead=column([number.get(board.ahead.get(s, ""), -1) for s in net.names]),
            crossing=padded([[number[v] for u, v in sorted(board.crossing) if u == s]
                             for s in net.names]),
            pit_exit_crosses=board.pit_exit_crosses,
        )
