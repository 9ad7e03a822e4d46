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
from dataclasses import dataclass, field, replace
from itertools import pairwise
from typing import Any

import numpy as np
from shapely import STRtree, make_valid
from shapely.geometry import Point, Polygon
from shapely.geometry.base import BaseGeometry

from trackformat.builder.features import SpaceNames
from trackformat.lint.diagnostic import Diagnostic, Location, Severity
from trackformat.model.track import (
    Board,
    Corner,
    FinishLine,
    Lane,
    Link,
    Metadata,
    PitLane,
    Space,
    SpaceKind,
    Track,
)
from trackformat.trace.frame import RoadFrame
from trackformat.trace.rows import TracedSpace

Outline = tuple[tuple[float, float], ...]

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


@dataclass(frozen=True)
class PitDraft:
    """The pit lane found, as the draft names it: its spaces (``pit-00`` … in driving order, the
    builder's ids), their outlines, and the track spaces it is entered from and leads onto."""

    spaces: Sequence[TracedSpace]
    outlines: Sequence[Outline]
    ids: list[str]
    entry: list[str]
    exit: list[str]

    def chain(self) -> list[tuple[str, str]]:
        """The moves along the pit lane, from each space to the next."""
        return list(pairwise(self.ids))

    def moves(self) -> list[tuple[str, str]]:
        """Every move in, along and out of the pit lane: all of them guesses."""
        if not self.ids:
            return []
        return ([(a, self.ids[0]) for a in self.entry] + self.chain()
                + [(self.ids[-1], b) for b in self.exit])


def published_outline(space: TracedSpace, line_width: float) -> Outline:
    """The outline a draft gives a space: its fill grown by half a line (so that neighbours
    meet in the middle of the printed line between them), simplified to at most
    :data:`MAX_VERTICES` vertices and rounded to 0.01 px."""
    shape = Polygon(space.outline).buffer(line_width / 2, join_style=2)
    return _simplified(shape) or tuple(
        (float(x), float(y)) for x, y in space.outline[:MAX_VERTICES])


def _simplified(shape: BaseGeometry) -> Outline:
    """``shape``'s outline with at most :data:`MAX_VERTICES` vertices, rounded to 0.01 px;
    empty when it is no polygon of three vertices or more."""
    tolerance = 0.5
    while True:
        simple = shape.simplify(tolerance, preserve_topology=True)
        coords = list(simple.exterior.coords)[:-1] if simple.geom_type == "Polygon" else []
        if 3 <= len(coords) <= MAX_VERTICES or tolerance > 50:
            break
        tolerance *= 2
    if len(coords) < 3:
        return ()
    return tuple((round(float(x), 2) + 0.0, round(float(y), 2) + 0.0) for x, y in coords)


KEPT_WHOLE = 0.6
"""A space cut by :func:`kept_apart` keeps at least this share of its area, else it is left
whole (the overlap stays for the designer): a cut that deep would make a shape nobody drew."""


def kept_apart(rows: Sequence[Sequence[TracedSpace]], outlines: Sequence[Sequence[Outline]]
               ) -> tuple[list[list[TracedSpace]], list[list[Outline]]]:
    """``rows`` and their ``outlines`` (lane by lane) with no two outlines overlapping: where
    two overlap, the space the tracer is less sure of gives the shared part up, and the two
    meet along the cut; a space whose middle the cut left outside its outline gets a middle
    inside it.

    Each outline is grown by half a printed line so that neighbours meet in its middle; in
    the bends of a small picture, where a line is a pixel or two and the spaces fan out, the
    grown outlines of neighbouring lanes overlap (the Valencia draft had 31 groups of
    overlapping spaces, Curitiba's 13), each an outline for the designer to move."""
    flat = [(k, j) for k, row in enumerate(outlines) for j in range(len(row))]
    shapes = [make_valid(Polygon(outlines[k][j])) for k, j in flat]
    sure = [rows[k][j].confidence for k, j in flat]
    first, second = STRtree(shapes).query(shapes, predicate="intersects")
    cut: set[int] = set()
    for a, b in zip(first.tolist(), second.tolist(), strict=True):
        if a >= b or shapes[a].intersection(shapes[b]).area < 1.0:
            continue
        loser, winner = (a, b) if sure[a] < sure[b] else (b, a)
        piece = shapes[loser].difference(shapes[winner])
        if piece.geom_type != "Polygon":
            parts = getattr(piece, "geoms", ())
            piece = max(parts, key=lambda g: g.area, default=piece)
        if piece.geom_type == "Polygon" and piece.area >= KEPT_WHOLE * shapes[loser].area:
            shapes[loser] = piece
            cut.add(loser)
    kept = [list(row) for row in outlines]
    spaces = [list(row) for row in rows]
    for n in cut:
        k, j = flat[n]
        outline = _simplified(shapes[n])
        if not outline:
            continue
        kept[k][j] = outline
        shape = Polygon(outline)
        if not shape.contains(Point(spaces[k][j].centre)):
            inside = shape.representative_point()
            spaces[k][j] = replace(spaces[k][j], centre=(float(inside.x), float(inside.y)))
    return spaces, kept


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
    pit: PitDraft | None = None,
    grid: Sequence[str] = (),
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
    pit : PitDraft, optional
        The pit lane found: its spaces, the moves along it, its entry and exit.
    grid : list of str
        The grid's slots, pole first.
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
    pit_lane = None
    pit_links: list[tuple[str, str]] = []
    if pit is not None and pit.ids:
        spaces += [Space(id=space_id, kind=SpaceKind.PIT, lane=None, polygon=list(outline),
                         centre=(round(space.centre[0], 2) + 0.0, round(space.centre[1], 2) + 0.0),
                         heading=round(frame.heading(space.s), 2))
                   for space, outline, space_id in zip(pit.spaces, pit.outlines, pit.ids,
                                                       strict=True)]
        pit_lane = PitLane(spaces=list(pit.ids),
                           entry=[Link(from_=a, to=pit.ids[0]) for a in pit.entry],
                           exit=[Link(from_=pit.ids[-1], to=b) for b in pit.exit])
        pit_links = pit.chain()
    finish_line = FinishLine(spaces=[row[0] for row in ids]) if finish and all(ids) else None
    return Track(
        metadata=Metadata(name=name[:200] or "traced board",
                          notes="Traced from the board picture by trackformat trace: a draft "
                                "to check against the board (see its trace report)."),
        board=Board(image=image, width=size[0], height=size[1]),
        lanes=[Lane(id=lane_id) for lane_id in lane_ids],
        spaces=spaces,
        links=[Link(from_=a, to=b) for a, b in [*links, *pit_links]],
        corners=list(corners),
        finish_line=finish_line,
        grid=list(grid),
        pit_lane=pit_lane,
    )


def space_diagnostics(track: Track, confidence: dict[str, float], how: dict[str, str]
                      ) -> list[Diagnostic]:
    """One diagnostic per run of weak spaces in a lane (or in the pit lane), so that a gap of
    six guessed spaces is one line of the problems panel, not six."""
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


def grid_note(grid: Sequence[str], read: bool, finish: bool, track: Track) -> Diagnostic:
    """What the designer should know of the grid: read from the marks behind the line (check
    it), laid by the usual rule as a guess (set it), or not laid at all for want of a line."""
    centres = {space.id: space.centre for space in track.spaces}
    point = centres.get(grid[0]) if grid else None
    if not finish or not grid:
        why = ("no finish line was found" if not finish
               else "the lanes are too short for a grid behind the line")
        return Diagnostic(
            code="TRACE006", severity=Severity.WARNING,
            message=f"the draft has no grid: {why}; set the finish line, then the grid's "
                    "slots, pole first", rule="trace-grid")
    if read:
        return Diagnostic(
            code="TRACE006", severity=Severity.INFO,
            message=f"the grid's {len(grid)} slots were read from the marks printed behind "
                    "the finish line, pole first: check them against the numbers there",
            location=Location(elements=tuple(grid), pointer="/grid", point=point),
            rule="trace-grid")
    return Diagnostic(
        code="TRACE006", severity=Severity.WARNING,
        message=f"no grid marks could be read behind the finish line: the draft has the usual "
                f"grid of {len(grid)} slots (pole on the first lane just behind the line, then "
                "staggered with the last lane every three spaces), a guess to set against the "
                "grid printed on the board",
        location=Location(elements=tuple(grid), pointer="/grid", point=point),
        rule="trace-grid")


def pit_note(pit: PitDraft | None, beside: str | None, track: Track) -> Diagnostic:
    """What the designer should know of the pit lane: found (every space and move of it a
    guess), or not found (nothing made up)."""
    if pit is None or not pit.ids or beside is None:
        return Diagnostic(
            code="TRACE007", severity=Severity.INFO,
            message="no pit lane was found beside the lanes near the finish line, so the "
                    "draft has none: if the board prints one, lay it with the Pit tool",
            rule="trace-pit-lane")
    centres = [space.centre for space in track.spaces if space.id in set(pit.ids)]
    x, y = np.mean(centres, axis=0)
    entry = ", ".join(pit.entry) or "nowhere"
    exit_ = ", ".join(pit.exit) or "nowhere"
    return Diagnostic(
        code="TRACE007", severity=Severity.WARNING,
        message=f"a pit lane of {len(pit.ids)} spaces was found beside lane {beside} near the "
                f"finish line, entered from {entry} and left onto {exit_}: all of it is a "
                "guess (its spaces, their order, the entry and the exit); check it against the "
                "board, and lay the team boxes, which are not traced",
        location=Location(elements=tuple(pit.ids), pointer="/pit_lane",
                          point=(float(x), float(y))),
        rule="trace-pit-lane")


LANE_SHARE = 0.5
"""A lane's worth of spaces, as a share of the usual lane's count: that many spaces beside the
fitted lanes, or that few in one lane, and the count of lanes asked for is likely wrong.
Measured on the corpus boards traced with one lane too few, the right count and one too many:
spaces beside the lanes 0.95, 1.04 and 1.17 of a lane's count with one too few, at most 0.23
with the right count (a partial lane or the pit lane's spaces); the emptiest lane 0.00 to 0.31
of the usual with one too many, at least 0.90 with the right count."""


def lane_count_note(per_lane: Sequence[int], beside: int) -> Diagnostic | None:
    """A warning when the spaces found say the board has another number of lanes than asked:
    about a lane's worth of spaces lying beside the fitted lanes (one lane more), or one lane
    with hardly any (one lane fewer); None when the count fits. A wrong count gives a draft
    whose lanes, and the pit lane made of what lies beside them, are nonsense."""
    count = len(per_lane)
    usual = float(np.median(per_lane)) if per_lane else 0.0
    if usual <= 0:
        return None
    emptiest = min(range(count), key=lambda k: per_lane[k])
    if beside >= LANE_SHARE * usual:
        found, likely = (f"{beside} spaces lie beside the {count} lanes traced, about a lane's "
                         f"worth (a lane has {usual:.0f} here)"), count + 1
    elif count > 1 and per_lane[emptiest] < LANE_SHARE * usual:
        found, likely = (f"lane {emptiest + 1} has {per_lane[emptiest]} spaces against about "
                         f"{usual:.0f} in the others"), count - 1
    else:
        return None
    return Diagnostic(
        code="TRACE008", severity=Severity.WARNING,
        message=f"{found}: the board may have {likely} lanes; if so, trace it again with "
                f"{likely} lanes",
        rule="trace-lane-count")
