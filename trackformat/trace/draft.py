"""The draft track: the traced spaces, links and features as a track file's model, and the
report of every guess the tracer made.

Ids are the builder's (lanes ``"1"``, ``"2"`` … from the driver's left, spaces ``"<lane>-<index>"``
zero-padded, index 0 the first space past the finish line), so a traced draft reads like a built
track. The track model has no place for a confidence, so the draft's guesses travel beside it
in a :class:`TraceResult`: each space's confidence and how it was found, the links that were
guessed, and diagnostics in the validator's own form for the problems panel.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from shapely.geometry import Polygon

from trackformat.builder.features import SpaceNames
from trackformat.lint.diagnostic import Diagnostic, Location, Severity
from trackformat.model.track import (
    Board,
    Corner,
    FinishLine,
    Lane,
    Link,
    Metadata,
    Space,
    SpaceKind,
    Track,
)
from trackformat.trace.frame import RoadFrame
from trackformat.trace.rows import TracedSpace

MAX_VERTICES = 64
"""Most vertices a space's polygon may have in a track file."""
WEAK = 0.5
"""A space below this confidence is weak: the editor marks it and the report lists it."""


@dataclass(frozen=True)
class TraceResult:
    """A draft track and what the tracer is unsure of."""

    track: Track
    confidence: dict[str, float]
    """Space id -> 0 to 1, how sure the tracer is of that space."""
    how: dict[str, str]
    """Space id -> how it was found (printed, joined, split, guessed)."""
    guessed_links: list[tuple[str, str]] = field(default_factory=list)
    """Links the tracer made up rather than read off the board (geometry where arrows are
    printed but could not be read)."""
    diagnostics: list[Diagnostic] = field(default_factory=list)
    """What the designer should check, in the validator's form (codes ``TRACE…``)."""
    figures: dict[str, float] = field(default_factory=dict)
    """Measurements of the picture and the run: space size, lane width, seconds per stage."""

    def weak_spaces(self) -> list[str]:
        """Ids of the spaces below :data:`WEAK` confidence, in file order."""
        return [s.id for s in self.track.spaces if self.confidence.get(s.id, 1.0) < WEAK]

    def report(self) -> dict[str, Any]:
        """The report as JSON data (written beside the draft by the command line)."""
        return {
            "spaces": {key: {"confidence": round(float(value), 3), "how": self.how.get(key, "")}
                       for key, value in self.confidence.items()},
            "guessed_links": [list(pair) for pair in self.guessed_links],
            "diagnostics": [d.to_json() for d in self.diagnostics],
            "figures": {key: round(float(value), 3) for key, value in self.figures.items()},
        }


def published_outline(space: TracedSpace, line_width: float) -> tuple[tuple[float, float], ...]:
    """The outline a draft gives a space: its fill grown by half a line (so that neighbours
    meet in the middle of the printed line between them), simplified to at most
    :data:`MAX_VERTICES` vertices and rounded to 0.01 px."""
    shape = Polygon(space.outline).buffer(line_width / 2, join_style=2)
    tolerance = 0.5
    while True:
        simple = shape.simplify(tolerance, preserve_topology=True)
        coords = list(simple.exterior.coords)[:-1] if simple.geom_type == "Polygon" else []
        if 3 <= len(coords) <= MAX_VERTICES or tolerance > 50:
            break
        tolerance *= 2
    if len(coords) < 3:
        coords = [tuple(p) for p in space.outline[:MAX_VERTICES]]
    return tuple((round(float(x), 2) + 0.0, round(float(y), 2) + 0.0) for x, y in coords)


def space_ids(rows: Sequence[Sequence[TracedSpace]], lane_ids: Sequence[str]
              ) -> list[list[str]]:
    """The builder's ids of the spaces of ``rows``, lane by lane."""
    names = SpaceNames({lane: len(row) for lane, row in zip(lane_ids, rows, strict=True)})
    return [[names(lane, i) for i in range(len(row))] for lane, row in zip(lane_ids, rows,
                                                                            strict=True)]


def draft_track(
    *,
    name: str,
    image: str | None,
    size: tuple[int, int],
    rows: Sequence[Sequence[TracedSpace]],
    outlines: Sequence[Sequence[tuple[tuple[float, float], ...]]],
    ids: Sequence[Sequence[str]],
    frame: RoadFrame,
    links: Sequence[tuple[str, str]],
    corners: Sequence[Corner] = (),
    finish: bool = True,
) -> Track:
    """The draft as a track model.

    Parameters
    ----------
    name : str
        The circuit's name (the picture's, until the designer renames it).
    image : str or None
        The picture's path as the draft names it (relative to the draft's folder).
    size : (int, int)
        The picture's width and height: the draft's coordinates are its pixels.
    rows, outlines, ids
        Each lane's spaces in driving order, their published outlines and their ids.
    frame : RoadFrame
        The centre line, for each space's heading.
    links : list of (str, str)
        The moves.
    corners : list of Corner
        The corners found.
    finish : bool
        Whether index 0 of each lane really is the first space past a finish line found on
        the board (otherwise the draft has no finish line, for the designer to set).
    """
    lane_ids = [str(k + 1) for k in range(len(rows))]
    spaces = [
        Space(id=space_id, kind=SpaceKind.TRACK, lane=lane_id, polygon=list(outline),
              centre=(round(space.centre[0], 2) + 0.0, round(space.centre[1], 2) + 0.0),
              heading=round(frame.heading(space.s), 2))
        for lane_id, row, row_outlines, row_ids in zip(lane_ids, rows, outlines, ids,
                                                       strict=True)
        for space, outline, space_id in zip(row, row_outlines, row_ids, strict=True)
    ]
    finish_line = FinishLine(spaces=[row[0] for row in ids]) if finish and all(ids) else None
    return Track(
        metadata=Metadata(name=name[:200] or "traced board",
                          notes="Traced from the board picture by trackformat trace: a draft "
                                "to check against the board (see its trace report)."),
        board=Board(image=image, width=size[0], height=size[1]),
        lanes=[Lane(id=lane_id) for lane_id in lane_ids],
        spaces=spaces,
        links=[Link(from_=a, to=b) for a, b in links],
        corners=list(corners),
        finish_line=finish_line,
    )


def space_diagnostics(track: Track, confidence: dict[str, float], how: dict[str, str]
                      ) -> list[Diagnostic]:
    """One diagnostic per run of weak spaces in a lane, so that a gap of six guessed spaces
    is one line of the problems panel, not six."""
    found: list[Diagnostic] = []
    run: list[Space] = []

    def close() -> None:
        if not run:
            return
        kinds = sorted({how.get(s.id, "") for s in run})
        centre = np.mean([s.centre for s in run], axis=0)
        what = f"{run[0].id}" if len(run) == 1 else f"{run[0].id} to {run[-1].id}"
        found.append(Diagnostic(
            code="TRACE001", severity=Severity.WARNING,
            message=f"space {what}: traced with low confidence ({', '.join(kinds)}); check "
                    "its outline and lane against the board",
            location=Location(elements=tuple(s.id for s in run),
                              point=(float(centre[0]), float(centre[1]))),
            rule="trace-weak-space"))
        run.clear()

    for space in track.spaces:
        if confidence.get(space.id, 1.0) < WEAK and (not run or run[-1].lane == space.lane):
            run.append(space)
        else:
            close()
            if confidence.get(space.id, 1.0) < WEAK:
                run.append(space)
    close()
    return found
