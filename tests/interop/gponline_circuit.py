"""A small designed circuit, as a designer makes one with the project's track builder.

Three staggered lanes round an oval of two straights and two hairpins (a two-stop and a one-stop
corner), a pit lane beside lane 3 with four team boxes beside it, and a grid of ten: what a
designer's new circuit looks like when it reaches the GP Online export. It is drawn by the same
designer tool as the shipped original circuits (``tools/build_originals.py``), loaded from its
file, so that the tests meet the builder's real output rather than a hand-made ring.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

from trackformat.analysis import measure_corner
from trackformat.builder import build_track
from trackformat.graph import build_graphs
from trackformat.io import dumps_track
from trackformat.model import Track

ROOT = Path(__file__).resolve().parent.parent.parent


def _designer() -> Any:
    """The designer tool's module (the tools folder is no package)."""
    spec = importlib.util.spec_from_file_location("build_originals", ROOT / "tools" /
                                                  "build_originals.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("build_originals", module)
    spec.loader.exec_module(module)
    return module


@functools.cache
def _circuit_text() -> str:
    tool = _designer()
    design = tool.Design(
        slug="small-oval", name="Small Oval", board=(2000, 1300), start=(500.0, 1000.0),
        heading=0.0,
        path=(tool.Straight(1000), tool.Arc(300, -180), tool.Straight(1000),
              tool.Arc(300, -180)),
        bends=(tool.Bend("east", "East", 2, 1, 1, long=0, short=0),
               tool.Bend("west", "West", 1, 3, 3, long=0, short=0)),
        lanes=3, lane_spacing=40.0, space_length=76.0, finish=600.0, pit=True,
    )
    track = build_track(tool.plan_of(design))
    graphs = build_graphs(track)
    corners = []
    for corner in track.corners:  # the printed numbers as the links give them
        measured = measure_corner(graphs, corner)
        corners.append(corner.model_copy(
            update={"printed_long": measured.long, "printed_short": measured.short}))
    return dumps_track(track.model_copy(update={"corners": corners}))


def small_circuit_document() -> dict[str, Any]:
    """The small circuit's track document (a fresh copy to change)."""
    document: dict[str, Any] = json.loads(_circuit_text())
    return document


def small_circuit() -> Track:
    """The small circuit as a track."""
    return Track.model_validate(small_circuit_document())
