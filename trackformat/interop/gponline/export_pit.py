"""The pit lane as GP Online holds it: one chain of pit nodes, the teams' garages in line.

GP Online's builder follows the pit lane from its entry one node at a time and refuses a pit
node with two pit nodes after it ("Pit lane is branching"), so a team box beside the lane, with
moves into it from the lane and back, cannot be written as it is. Its nearest faithful form is a
garage in the lane: the pit-lane space the box is entered from last (the one right before the
space the box leads back to) becomes the garage, so that a car stops where it would have turned
into the box and leaves towards the same space; the box itself is not written. Each box so
changed is named in a warning.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from trackformat.model import SpaceKind, Track


@dataclass
class PitPlan:
    """What the export writes of the pit lane."""

    garages: list[str] = field(default_factory=list)
    """Pit-lane spaces written as garages (pit nodes with an attribute), in driving order."""
    left_out: set[str] = field(default_factory=set)
    """Box spaces not written: each became a garage in line, or had no space to become one."""


def pit_plan(track: Track, warnings: list[str]) -> PitPlan:
    """The garages to write and the boxes to leave out (see the module docstring)."""
    pit = track.pit_lane
    boxes = [s.id for s in track.spaces if s.kind == SpaceKind.BOX]
    if pit is None:
        if boxes:
            warnings.append(
                f"box space(s) {', '.join(boxes)} belong to no pit lane; GP Online has nowhere "
                "to put them, so they are left out"
            )
        return PitPlan(left_out=set(boxes))
    place = {space: k for k, space in enumerate(pit.spaces)}
    garages = [g for g in pit.garages if g in place]
    for garage in pit.garages:
        if garage not in place:
            warnings.append(f"garage {garage} is not a space of the pit lane; not written as one")
    for box in pit.boxes:
        if box not in boxes:
            warnings.append(f"team box {box} is not a box space; not written as one")
    ordered = list(dict.fromkeys([*(b for b in pit.boxes if b in boxes), *boxes]))
    moved: list[str] = []
    for box in ordered:
        into = sorted(
            {link.from_ for link in track.links if link.to == box and link.from_ in place},
            key=lambda space: -place[space],
        )
        free = next((space for space in into if space not in garages), None)
        if free is None:
            warnings.append(
                f"box {box} is entered from no pit-lane space that could be its garage "
                f"({'none moves into it' if not into else 'each is a garage already'}); GP "
                "Online's pit lane cannot hold a box beside it, so it is left out"
            )
            continue
        garages.append(free)
        moved.append(f"{box} at {free}")
    if moved:
        warnings.append(
            f"{len(moved)} team box(es) stand beside the pit lane, which GP Online cannot hold "
            "(its pit lane is one chain of nodes, the garages in it): each is written as a "
            "garage at the pit-lane space it is entered from last, and the box is left out: "
            + ", ".join(moved)
        )
    if pit.spaces and not garages:
        warnings.append(
            "the pit lane has neither boxes nor garages, so no pit node is written as a garage; "
            "mark the garages in GP Online's editor"
        )
    return PitPlan(sorted(garages, key=lambda space: place[space]), set(ordered))
