"""The shipped Monaco track against the real board, move by move and centre by centre.

The board is the hand trace in the corpus (``monaco-board/circuits.js``, read by
:mod:`tests.monaco_board`); these tests skip when the corpus is absent. Its cells are matched to
our spaces by lane and lap order from the finish line, the pit lane by order from its entry.
"""

from __future__ import annotations

from collections import deque
from pathlib import Path

import numpy as np
import pytest

from tests.corpus import corpus_path
from tests.monaco_board import Board, load_board
from trackformat.analysis import shortest_lap
from trackformat.graph import build_graphs
from trackformat.io import load_track
from trackformat.model import Track

TRACK_FILE = Path(__file__).resolve().parents[2] / "tracks" / "monaco.json"

CENTRE_TOLERANCE = 0.15
"""Largest distance allowed between a space's centre and the board's, in space lengths."""


@pytest.fixture(scope="module")
def board() -> Board:
    return load_board(corpus_path("monaco-board", "circuits.js"))


@pytest.fixture(scope="module")
def track() -> Track:
    return load_track(TRACK_FILE)


def our_moves(track: Track) -> set[tuple[str, str]]:
    """Every move of the track file: its links, and the pit lane's entry and exit."""
    moves = {(link.from_, link.to) for link in track.links}
    if track.pit_lane is not None:
        moves |= {(link.from_, link.to) for link in [*track.pit_lane.entry, *track.pit_lane.exit]}
    return moves


def board_moves(board: Board) -> set[tuple[str, str]]:
    """The board's moves in our ids, a box's way out read as the project writes it.

    The trace lets a car leave its box onto the pit space it last passed; the project's pit
    lane is one way (the validator refuses a box that leads back to where it was entered), so
    a box leads onto the next pit space instead: one move out of the box, as on the board.
    """
    names = board.our_ids()
    pit_index = {cell: k for k, cell in enumerate(board.pit)}
    moves: set[tuple[str, str]] = set()
    for a, b in board.moves():
        if a in board.boxes and b in pit_index:
            b = board.pit[pit_index[b] + 1]
        moves.add((names[a], names[b]))
    return moves


def test_the_board_is_read_in_full(board: Board) -> None:
    assert {lane: len(cells) for lane, cells in board.lanes.items()} == {1: 168, 2: 166, 3: 163}
    assert (len(board.pit), len(board.boxes)) == (18, 5)
    assert len(board.our_ids()) == len(board.cells) == 520


def test_lane_lengths_are_the_boards(board: Board, track: Track) -> None:
    counts = {lane.id: sum(1 for s in track.spaces if s.lane == lane.id) for lane in track.lanes}
    assert counts == {str(lane): len(cells) for lane, cells in board.lanes.items()}


def test_the_track_allows_exactly_the_boards_moves(board: Board, track: Track) -> None:
    ours, theirs = our_moves(track), board_moves(board)
    extra, missing = sorted(ours - theirs), sorted(theirs - ours)
    assert not extra and not missing, (
        f"{len(extra)} moves the board does not allow, e.g. {extra[:8]}; "
        f"{len(missing)} moves of the board missing, e.g. {missing[:8]}"
    )


def board_shortest_lap(board: Board) -> int:
    """The fewest moves from the spaces at the line round to the line again, on the board's
    moves (a move crosses the line when it goes from a lane's second half to its first)."""
    index = {cell: (k, len(cells)) for cells in board.lanes.values()
             for k, cell in enumerate(cells)}

    def crosses(a: str, b: str) -> bool:
        return index[b][0] < index[a][0] - index[a][1] // 2

    line = sorted(cells[0] for cells in board.lanes.values())
    moves: dict[str, int] = dict.fromkeys(line, 0)
    queue = deque(line)
    while queue:
        here = queue.popleft()
        for nxt in board.cells[here].moves:
            if nxt not in index:
                continue
            if crosses(here, nxt):
                return moves[here] + 1
            if nxt not in moves:
                moves[nxt] = moves[here] + 1
                queue.append(nxt)
    raise AssertionError("the board's lap does not close")


def test_the_shortest_lap_is_the_boards(board: Board, track: Track) -> None:
    lap = shortest_lap(build_graphs(track))
    assert lap is not None
    assert lap.moves == board_shortest_lap(board)


def centre_errors(board: Board, track: Track) -> dict[str, float]:
    """Each space's distance from the board's centre, in space lengths of the board, after the
    one similarity transform (rotation, uniform scale, shift) that fits our centres best."""
    names = board.our_ids()
    centres = {space.id: space.centre for space in track.spaces}
    cells = sorted(names)
    ours = np.array([complex(*centres[names[c]]) for c in cells])
    theirs = np.array([complex(*board.cells[c].centre) for c in cells])
    ours_mean, theirs_mean = ours.mean(), theirs.mean()
    scale = np.vdot(ours - ours_mean, theirs - theirs_mean) / np.vdot(ours - ours_mean,
                                                                       ours - ours_mean)
    fitted = scale * (ours - ours_mean) + theirs_mean
    lane2 = np.array([complex(*board.cells[c].centre) for c in board.lanes[2]])
    space_length = float(np.abs(np.diff(np.append(lane2, lane2[0]))).mean())
    return {names[c]: float(e) / space_length
            for c, e in zip(cells, np.abs(fitted - theirs), strict=True)}


def test_centres_lie_on_the_boards(board: Board, track: Track) -> None:
    errors = centre_errors(board, track)
    worst = sorted(errors, key=errors.__getitem__, reverse=True)
    off = [f"{s} {errors[s]:.2f}" for s in worst if errors[s] > CENTRE_TOLERANCE]
    assert not off, f"{len(off)} centres too far from the board's: {off[:10]}"
    assert sum(errors.values()) / len(errors) < 0.03
