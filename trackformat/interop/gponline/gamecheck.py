"""Whether GP Online would load a ``.dat``: its loader, builder and lane rebuilding, in order.

The game loads a track file in four steps (``TrackData.createTrackData`` in its source), and a
track that fails any of them is not offered to race: the loader reads the file
(:mod:`gameload`), the builder works out distances and refuses what it cannot use
(:mod:`gamebuild`), a grid of fewer than :data:`~gamebuild.MIN_GRID` slots is dropped, the lanes
are rebuilt from the distances (:mod:`gamelanes`), and moves into blocked nodes are taken away.
"""

from __future__ import annotations

from dataclasses import dataclass

from trackformat.interop.gponline.gamebuild import MIN_GRID, build
from trackformat.interop.gponline.gamelanes import drop_moves_into_blocked, rebuild_lanes
from trackformat.interop.gponline.gameload import GameRefusal, load_game_track


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
