"""Small tracks and rules for the par tests: short rings with one corner of each stop count,
and a ruleset with small dice and few WP, so that a brute force can solve them."""

from __future__ import annotations

from typing import Any

from tests.factories import ring_document
from trackformat.io import track_from_document
from trackformat.model import Track
from trackformat.rules import Ruleset, load_ruleset

CORNERS = (("one", 3, 2, 1), ("two", 7, 4, 2), ("three", 13, 5, 3))
"""(id, first index, spaces, stops) of the corners of :func:`short_ring`."""


def short_ring(per_lane: int = 20, lanes: int = 2,
               corners: tuple[tuple[str, int, int, int], ...] = CORNERS,
               pit: bool = True) -> Track:
    """A ring of ``lanes`` lanes of ``per_lane`` spaces with ``corners`` (a single arrow on
    the space before each), a grid behind the line and, if ``pit``, the factory ring's pit
    lane (entry from the last lane 5 spaces before the line, exit 3 spaces past it)."""
    document: dict[str, Any] = ring_document(lanes, per_lane)
    before = {first - 1 for _, first, _, _ in corners}
    document["links"] = [link for link in document["links"]
                         if not (_lane_change(link) and _index(link["from"]) in before)]
    document["corners"] = [
        {"id": name, "name": name.title(), "stops": stops,
         "spaces": [f"{lane}-{k}" for lane in range(1, lanes + 1)
                    for k in range(first, first + length)],
         "printed_long": length, "printed_short": length}
        for name, first, length, stops in corners]
    document["grid"] = [f"1-{per_lane - 1}", f"{lanes}-{per_lane - 2}"]
    if not pit:
        document["pit_lane"] = None
        document["spaces"] = [s for s in document["spaces"] if s["kind"] == "track"]
        document["links"] = [link for link in document["links"]
                             if not link["from"].startswith(("pit", "box"))
                             and not link["to"].startswith(("pit", "box"))]
    document["metadata"]["name"] = "Short ring"
    return track_from_document(document, "short ring")


def _on_track(space: str) -> bool:
    return not space.startswith(("pit", "box"))


def _lane_change(link: dict[str, str]) -> bool:
    start, end = link["from"], link["to"]
    return _on_track(start) and _on_track(end) and start.split("-")[0] != end.split("-")[0]


def _index(space: str) -> int:
    return int(space.split("-")[1])


SMALL_DICE = ((3, 4, 4, 5), (4, 5, 5, 6), (5, 6, 6, 7), (6, 7, 7, 8))
"""The dice of third to sixth gear of :func:`small_rules`."""
FAST_DICE = ((3, 4, 4, 5), (4, 5, 5, 6), (6, 7, 8, 9), (8, 9, 10, 11))
"""Dice from third gear up that make fifth and sixth worth their engine rolls on a ring."""


def small_rules(debris: bool = True, dice: tuple[tuple[int, ...], ...] = SMALL_DICE,
                **wear: int) -> Ruleset:
    """Formula D with small dice from third gear up (:data:`SMALL_DICE` unless ``dice`` says
    otherwise; the top face of fifth and sixth sets off engine rolls) and few WP (tyres 2,
    brakes 1, gearbox 1, engine 2, suspension 1, unless ``wear`` says otherwise), so that a
    brute force stays small."""
    document = load_ruleset("formula-d").model_dump(mode="json")
    document["name"] = "small"
    document["dice"]["gears"][2:] = [list(faces) for faces in dice]
    document["engine_damage"]["triggers"] = [{"gear": 5, "face": max(dice[2])},
                                             {"gear": 6, "face": max(dice[3])}]
    points = {"tyres": 2, "brakes": 1, "gearbox": 1, "body": 1, "engine": 2, "suspension": 1}
    points |= wear
    document["wear"] = [{"laps": 1, "points": points}]
    document["start"]["super_start_spaces"] = 2
    if not debris:
        document["debris"] = None
    return Ruleset.model_validate(document)
