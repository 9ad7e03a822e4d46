"""Fixtures of the tracer's tests: a board picture drawn by the project's own render.

The picture is the ring track of :mod:`tests.factories` drawn as ``trackformat render`` draws
it (flat grey spaces between light lines): a board nobody's art is in, with its truth (the
track itself) known exactly. The real boards of the corpus are the tracer's main proof
(``test_corpus_score.py``); this one is for the command line and the edge cases.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("cv2", reason="the tracer's image libraries (the trace extra) are missing")
pytest.importorskip("skimage", reason="the tracer's image libraries (the trace extra) are missing")
pytest.importorskip("scipy", reason="the tracer's image libraries (the trace extra) are missing")

from tests.factories import ring
from trackformat.interop.render import render_to_file
from trackformat.model.track import Track
from trackformat.trace.score import Truth


def track_truth(track: Track) -> Truth:
    """A track as the truth a trace of its picture is scored against."""
    number = {lane.id: k + 1 for k, lane in enumerate(track.lanes)}
    index = {space.id: k for k, space in enumerate(track.spaces)}
    centres = np.array([space.centre for space in track.spaces], dtype=np.float64)
    moves = [(index[link.from_], index[link.to]) for link in track.links]
    straight = [float(np.hypot(*(centres[a] - centres[b]))) for a, b in moves
                if track.spaces[a].lane is not None
                and track.spaces[a].lane == track.spaces[b].lane]
    pit = track.pit_lane.spaces if track.pit_lane is not None else []
    return Truth(centres=centres,
                 lanes=[number[s.lane] if s.lane is not None else None for s in track.spaces],
                 moves=moves, space_length=float(np.median(straight)),
                 pit=[index[space] for space in pit], grid=[index[slot] for slot in track.grid])


@pytest.fixture(scope="session")
def ring_track() -> Track:
    return ring(3, 40)


@pytest.fixture(scope="session")
def ring_picture(ring_track: Track, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The ring drawn to a PNG by the project's render, 1200 px square."""
    path = tmp_path_factory.mktemp("ring") / "ring.png"
    render_to_file(ring_track, path)
    return path
