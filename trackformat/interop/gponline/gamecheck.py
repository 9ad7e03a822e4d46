"""Whether GP Online would load a ``.dat``: its loader, builder and lane rebuilding, in order.

The game loads a track file in four steps (``TrackData.createTrackData`` in its source), and a
track that fails any of them is not offered to race: the loader reads the file
(:mod:`gameload`), the builder works out distances and refuses what it cannot use
(:mod:`gamebuild`), a grid of fewer than :data:`~gamebuild.MIN_GRID` slots is dropped, the lanes
are rebuilt from the distances (:mod:`gamelanes`), and moves into blocked nodes are taken away.
Then the race itself looks each node up by its number as a position in the list of nodes, which
the loader never checks (:func:`race_refusal`).
"""

from __future__ import annotations

from dataclasses import dataclass

from trackformat.interop.gponline.gamebuild import MIN_GRID, build
from trackformat.interop.gponline.gamelanes import drop_moves_into_blocked, rebuild_lanes
from trackformat.interop.gponline.gameload import GameRefusal, GameTrack, load_game_track


@dataclass
class GameBuild:
    """What the game built: its lanes (node ids from the line), grid (pole first) and each
    node's distance along the lap."""

    lanes: list[list[int]]
    grid: list[int]
    distances: dict[int, float]


def game_build(text: str) -> GameBuild:
    """Build ``text`` as GP Online does; raises :class:`GameRefusal` with the rule it breaks.

    ``text`` must have passed the reading loop's check
    (:func:`~trackformat.interop.gponline.readback.game_problem`)."""
    track = load_game_track(text)
    lane_count, grid = build(track)
    if len(grid) < MIN_GRID:
        raise GameRefusal(
            "grid", f"the grid has {len(grid)} slot(s); GP Online needs at least {MIN_GRID}"
        )
    lanes = rebuild_lanes(track, lane_count)
    distances = {n.id: n.distance for n in track.nodes}
    drop_moves_into_blocked(track)
    return GameBuild(lanes, [n.id for n in grid], distances)


def game_refusal(text: str) -> GameRefusal | None:
    """Why GP Online would not load ``text`` (see :func:`game_build`), or None."""
    try:
        game_build(text)
    except GameRefusal as refusal:
        return refusal
    return None


def numbering_refusal(track: GameTrack) -> GameRefusal | None:
    """Why GP Online's race would misread ``track``'s nodes, or None.

    The game keeps its nodes in a list sorted by number and looks a node up by its number as a
    position in that list (its AI, the network client's copy of the track, a click on the
    board), so the nodes must be numbered 0 to N - 1. The loader never checks: a file numbered
    otherwise loads and its race starts, but each AI reads the wrong nodes, and fails at a node
    numbered N or more ("Index N out of bounds for length N")."""
    ids = sorted(n.id for n in track.nodes)
    if ids == list(range(len(ids))):
        return None
    count = len(ids)
    past = [i for i in ids if not 0 <= i < count]
    says = f"Index {past[-1]} out of bounds for length {count}" if past else ""
    return GameRefusal(
        "numbering", f"the nodes are numbered {ids[0]} to {ids[-1]}, not 0 to {count - 1}: GP "
        "Online's race looks each node up by its number as a position in its list of nodes, so "
        "its AI would read the wrong nodes", says, tuple(past[:5]),
    )


def race_refusal(text: str) -> GameRefusal | None:
    """Why GP Online would not load ``text`` (:func:`game_refusal`), or would load it but not
    race it as written (:func:`numbering_refusal`), or None."""
    refusal = game_refusal(text)
    if refusal is None:
        refusal = numbering_refusal(load_game_track(text))
    return refusal
