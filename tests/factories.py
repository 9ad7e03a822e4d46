"""Small hand-made tracks for tests: a sound ring circuit, and ways to break one thing in it.

The ring has ``lanes`` concentric lanes of ``per_lane`` spaces each, driven clockwise on the
screen, lane "1" outermost. Space ids are ``"<lane>-<index>"`` with index 0 on the finish line.
It has two corners, a 10-slot grid, a 7-space pit lane inside the last lane with two boxes, and
passes the validator with no error. Tests take it and change one thing with :func:`edit`.
"""

from __future__ import annotations

import math
from typing import Any

from trackformat.io import track_from_document, track_to_document
from trackformat.model import Track

CX, CY = 600.0, 600.0
OUTER = 500.0
WIDTH = 40.0
PIT_SPACES = 7


def sid(lane: int, index: int) -> str:
    return f"{lane}-{index}"


def _quad(r_in: float, r_out: float, a0: float, a1: float) -> list[list[float]]:
    def at(r: float, a: float) -> list[float]:
        return [round(CX + r * math.cos(a), 3), round(CY + r * math.sin(a), 3)]

    return [at(r_out, a0), at(r_out, a1), at(r_in, a1), at(r_in, a0)]


def _space(
    space_id: str, kind: str, lane: str | None, r_in: float, r_out: float, k: float, per_lane: int
) -> dict[str, Any]:
    a0 = 2 * math.pi * k / per_lane
    a1 = 2 * math.pi * (k + 1) / per_lane
    mid_a, mid_r = (a0 + a1) / 2, (r_in + r_out) / 2
    return {
        "id": space_id,
        "kind": kind,
        "lane": lane,
        "polygon": _quad(r_in, r_out, a0, a1),
        "centre": [round(CX + mid_r * math.cos(mid_a), 3), round(CY + mid_r * math.sin(mid_a), 3)],
        "heading": round(math.degrees(mid_a) + 90.0, 3) % 360.0,
    }


def ring_document(lanes: int = 3, per_lane: int = 40) -> dict[str, Any]:
    """The JSON document of a sound ring track (see the module docstring)."""
    spaces: list[dict[str, Any]] = []
    links: list[dict[str, str]] = []
    corner_a = range(8, 12)
    corner_b = range(22, 27)
    single_arrow = {corner_a.start - 1, corner_b.start - 1}
    for lane in range(1, lanes + 1):
        r_out = OUTER - (lane - 1) * WIDTH
        for k in range(per_lane):
            spaces.append(
                _space(sid(lane, k), "track", str(lane), r_out - WIDTH, r_out, k, per_lane)
            )
            nxt = (k + 1) % per_lane
            links.append({"from": sid(lane, k), "to": sid(lane, nxt)})
            if k in single_arrow:
                continue
            for other in (lane - 1, lane + 1):
                if 1 <= other <= lanes:
                    links.append({"from": sid(lane, k), "to": sid(other, nxt)})

    pit_r_out = OUTER - lanes * WIDTH
    pit_start = per_lane - 4
    pit_ids = [f"pit-{i}" for i in range(PIT_SPACES)]
    for i, pit_id in enumerate(pit_ids):
        spaces.append(
            _space(pit_id, "pit", None, pit_r_out - WIDTH, pit_r_out, pit_start + i, per_lane)
        )
        if i:
            links.append({"from": pit_ids[i - 1], "to": pit_id})
    boxes = []
    for n, i in enumerate((2, 4), start=1):
        box_id = f"box-{n}"
        boxes.append(box_id)
        spaces.append(
            _space(box_id, "box", None, pit_r_out - 2 * WIDTH, pit_r_out - WIDTH,
                   pit_start + i, per_lane)
        )
        links.append({"from": pit_ids[i - 1], "to": box_id})
        links.append({"from": box_id, "to": pit_ids[i + 1]})
    last = sid(lanes, 0)[: -len("-0")]
    exit_index = (pit_start + PIT_SPACES) % per_lane

    grid = []
    for slot in range(10):
        lane = 1 if slot % 2 == 0 else lanes
        grid.append(sid(lane, per_lane - 1 - slot))

    return {
        "format": "formula-d-track",
        "format_version": 3,
        "metadata": {"name": "Test ring", "designer": "tests", "laps": 2, "notes": ""},
        "board": {"image": None, "width": 1200, "height": 1200, "placement": None},
        "lanes": [{"id": str(n), "name": ""} for n in range(1, lanes + 1)],
        "spaces": spaces,
        "links": links,
        "corners": [
            {
                "id": "north",
                "name": "North",
                "stops": 1,
                "spaces": [sid(lane, k) for lane in range(1, lanes + 1) for k in corner_a],
                "printed_long": len(corner_a),
                "printed_short": len(corner_a),
            },
            {
                "id": "south",
                "name": "South",
                "stops": 2,
                "spaces": [sid(lane, k) for lane in range(1, lanes + 1) for k in corner_b],
                "printed_long": len(corner_b),
                "printed_short": len(corner_b),
            },
        ],
        "finish_line": {"spaces": [sid(lane, 0) for lane in range(1, lanes + 1)]},
        "grid": grid,
        "pit_lane": {
            "spaces": pit_ids,
            "entry": [{"from": sid(int(last), pit_start - 1), "to": pit_ids[0]}],
            "exit": [{"from": pit_ids[-1], "to": sid(int(last), exit_index)}],
            "boxes": boxes,
            "garages": [],
        },
        "ignore": [],
        "gponline": None,
    }


def ring(lanes: int = 3, per_lane: int = 40) -> Track:
    """A sound ring track (see :func:`ring_document`)."""
    return track_from_document(ring_document(lanes, per_lane), "ring")


def edit(track: Track, change: Any) -> Track:
    """A copy of ``track`` with ``change(document)`` applied to its JSON document.

    Going through the document (rather than ``model_copy``) lets a test break the track in ways
    the models would never build, exactly as a hand-edited file would.
    """
    document = track_to_document(track)
    change(document)
    return track_from_document(document, "edited")


def space(document: dict[str, Any], space_id: str) -> dict[str, Any]:
    """The space with ``space_id`` in a track document."""
    return next(s for s in document["spaces"] if s["id"] == space_id)


def drop_links(document: dict[str, Any], pairs: set[tuple[str, str]]) -> None:
    """Remove the links ``(from, to)`` listed in ``pairs`` from a track document."""
    document["links"] = [
        link for link in document["links"] if (link["from"], link["to"]) not in pairs
    ]
