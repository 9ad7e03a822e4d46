"""The tracer from end to end: picture in, draft track and its report out.

Stages, each in its own module and each measured on real boards (docs/trace.md):

1. ``palette``: the fill colours of the spaces and the size of a space;
2. ``blobs``: one blob per printed space (its outline, and the ink inside it);
3. ``centreline``: the road, its centre line round the lap; ``direction``: which way it runs;
4. ``lanes``: the lanes fitted along the lap, each blob in its lane; ``rows``: each lane's spaces
   in driving order, fragments joined, long blobs split and gaps filled;
5. ``finish`` and ``kerbs``: the finish line and the corners;
6. ``links``: the moves;
7. ``grid`` and ``pit``: the grid read from the slots marked behind the line (else the builder's
   usual grid, as a guess) and the pit lane beside the lanes near it, when there is one;
8. ``draft``: the track model and the report.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from trackformat.builder.features import (
    SpaceNames,
    pit_space_ids,
    staggered_grid,
)
from trackformat.builder.features import grid as grid_ids
from trackformat.lint.diagnostic import Diagnostic, Location, Severity
from trackformat.model.track import Corner
from trackformat.trace import direction, draft, grid, kerbs, lanes, pit, rows, stops
from trackformat.trace.errors import TraceError
from trackformat.trace.finish import find_finish
from trackformat.trace.frame import RoadFrame
from trackformat.trace.links import (
    geometry_links,
    near_corners,
    read_lane_changes,
    space_shapes,
)
from trackformat.trace.picture import Image, read_picture
from trackformat.trace.survey import Clock, Survey, survey

Progress = Callable[[float, str], None]
"""Told the share of the work done (0 to 1) and the stage starting, between stages; the editor
drives its progress bar with it (and may raise from it to cancel)."""

MAX_LANES = 8
"""Most lanes a track file holds."""


def _quiet(_share: float, _stage: str) -> None:
    """The progress callback of a caller that does not want one."""


def trace_picture(path: Path, lanes_count: int, *, space_length: float | None = None,
                  image_name: str | None = None, progress: Progress | None = None
                  ) -> draft.TraceResult:
    """Trace the board picture at ``path`` into a draft track.

    Parameters
    ----------
    path : Path
        The picture file.
    lanes_count : int
        How many lanes the circuit has (the tracer counts spaces, not lanes).
    space_length : float, optional
        The length of a space in pixels, when the picture's own measure should be overridden.
    image_name : str, optional
        The picture's name as the draft's ``board.image`` gives it (relative to the draft's
        folder); the file's name when not given.
    progress : callable, optional
        See :data:`Progress`.

    Raises :class:`TraceError` (message starting with the picture's name) when the picture
    cannot be read or holds no road.
    """
    (progress or _quiet)(0.0, "reading the picture")
    image = read_picture(path)
    try:
        return trace_image(image, lanes_count, space_length=space_length, name=path.stem,
                           image_name=image_name if image_name is not None else path.name,
                           progress=progress)
    except TraceError as err:
        raise TraceError(f"{path}: {err}") from None


def trace_image(image: Image, lanes_count: int, *, space_length: float | None = None,
                name: str = "traced board", image_name: str | None = None,
                progress: Progress | None = None) -> draft.TraceResult:
    """Trace the picture ``image`` (BGR pixels) into a draft track; see :func:`trace_picture`.

    Raises :class:`TraceError` (without the picture's name) when it holds no road.
    """
    if not 1 <= lanes_count <= MAX_LANES:
        raise TraceError(f"a track has 1 to {MAX_LANES} lanes, not {lanes_count}")
    if space_length is not None and not (math.isfinite(space_length) and space_length >= 4):
        raise TraceError(f"a space length of {space_length} px cannot be traced (4 px at least)")
    report = progress or _quiet
    clock = Clock()
    found = survey(image, lanes_count, space_length=space_length, stage=report, clock=clock)
    frame, fit = found.frame, found.fit

    report(0.7, "sorting the spaces into lanes")
    band = find_finish(found.lightness, fit, found.space_length)
    origin = band.s if band is not None else 0.0
    by_lane: list[list[rows.TracedSpace]] = [[] for _ in range(lanes_count)]
    off_lanes = 0
    for p in found.placed:
        lane = fit.lane_of(p)
        if lane is None:
            off_lanes += 1
        else:
            by_lane[lane].append(rows.blob_space(p, lane, fit, found.palette.space_area))
    lane_count = draft.lane_count_note([len(row) for row in by_lane], off_lanes)
    lane_rows = [rows.lane_row(row, frame, fit, origin) for row in by_lane]
    if not all(lane_rows):
        if lane_count is not None and any(lane_rows):  # the others have spaces: too many lanes
            raise TraceError(lane_count.message)
        raise TraceError("no road found: some lane has no spaces at all")
    clock.lap("rows")

    report(0.85, "linking the spaces")
    lane_ids = [str(k + 1) for k in range(lanes_count)]
    # The spaces as the draft gives them (their middles inside their outlines once kept
    # apart); the corners, the pit lane and the grid are found from the spaces as traced.
    drawn_rows, outlines = draft.kept_apart(
        lane_rows, [[draft.published_outline(t, found.line_width) for t in row]
                    for row in lane_rows])
    ids = draft.space_ids(lane_rows, lane_ids)
    links = geometry_links(space_shapes(lane_rows, outlines, lane_ids), ids, lap=frame.length,
                           lane_width=fit.width)
    corners, corner_notes = _corners(found, lane_rows, ids, origin)
    zone = near_corners(ids, {s for corner in corners for s in corner.spaces})
    lane_of = {i: k for k, row_ids in enumerate(ids) for i in row_ids}
    arrows = {i: t.arrow for row, row_ids in zip(lane_rows, ids, strict=True)
              for t, i in zip(row, row_ids, strict=True)}
    links, guessed = read_lane_changes(links, lane_of, arrows, zone)

    clock.lap("links")
    report(0.9, "looking for the pit lane and the grid")
    pit_lane = _pit_lane(found, lane_rows, ids, origin) if band is not None else None
    slots, read = (_grid(found, lane_rows, outlines, ids, lane_ids, origin) if band is not None
                   else ([], False))
    track = draft.draft_track(name=name, image=image_name,
                              size=(int(image.shape[1]), int(image.shape[0])), rows=drawn_rows,
                              outlines=outlines, ids=ids, frame=frame, links=links,
                              corners=corners, finish=band is not None, pit=pit_lane,
                              grid=slots)
    clock.lap("pit_grid")
    confidence = {i: t.confidence for row, row_ids in zip(lane_rows, ids, strict=True)
                  for t, i in zip(row, row_ids, strict=True)}
    how = {i: t.how for row, row_ids in zip(lane_rows, ids, strict=True)
           for t, i in zip(row, row_ids, strict=True)}
    beside = None
    if pit_lane is not None:
        confidence.update((i, t.confidence) for t, i in zip(pit_lane.spaces, pit_lane.ids,
                                                             strict=True))
        how.update((i, t.how) for t, i in zip(pit_lane.spaces, pit_lane.ids, strict=True))
        beside = track.lanes[pit_lane.spaces[0].lane].id
    diagnostics = [lane_count] if lane_count is not None else []
    diagnostics += draft.space_diagnostics(track, confidence, how) + corner_notes
    if guessed:
        diagnostics.append(Diagnostic(
            code="TRACE005", severity=Severity.WARNING,
            message=f"{len(guessed)} lane changes in and near corners were laid by the "
                    "board's geometry where no arrow could be read: check them against the "
                    "arrows printed there",
            location=Location(elements=tuple(sorted({a for a, _ in guessed}))),
            rule="trace-guessed-links"))
    diagnostics += [draft.grid_note(slots, read, band is not None, track),
                    draft.pit_note(pit_lane, beside, track)]
    diagnostics += _road_diagnostics(found.closed, found.direction, frame)
    if pit_lane is not None:
        guessed = guessed + pit_lane.moves()  # every move of the pit lane is a guess
    clock.lap("draft")
    report(1.0, "done")
    figures = {"space_area": found.palette.space_area, "line_width": found.line_width,
               "lane_width": fit.width, "lap_length": frame.length,
               "direction_confidence": found.direction.confidence,
               "colours": float(len(found.palette.colours)), "blobs": float(len(found.blobs)),
               "grid_read": float(read), "grid_slots": float(len(slots)),
               "pit_spaces": float(len(pit_lane.ids) if pit_lane is not None else 0),
               **clock.seconds}
    return draft.TraceResult(track=track, confidence=confidence, how=how,
                             guessed_links=guessed, diagnostics=diagnostics, figures=figures)


def _pit_lane(found: Survey, lane_rows: Sequence[Sequence[rows.TracedSpace]],
              ids: Sequence[Sequence[str]], origin: float) -> draft.PitDraft | None:
    """The pit lane beside the lanes near the finish line, named as the builder names a pit
    lane's spaces, or None when none is found."""
    fit = found.fit
    off_lanes = lanes.place(found.spare, found.frame) + [
        p for p in found.placed if fit.lane_of(p) is None]
    row = pit.find_pit_lane(off_lanes, fit, origin, lane_rows, found.space_length)
    if row is None:
        return None
    beside = ids[row.beside]
    return draft.PitDraft(spaces=row.spaces,
                          outlines=[draft.published_outline(t, found.line_width)
                                    for t in row.spaces],
                          ids=pit_space_ids(len(row.spaces)),
                          entry=[beside[k] for k in row.entry],
                          exit=[beside[k] for k in row.exit])


def _grid(found: Survey, lane_rows: Sequence[Sequence[rows.TracedSpace]],
          outlines: Sequence[Sequence[draft.Outline]], ids: Sequence[Sequence[str]],
          lane_ids: Sequence[str], origin: float) -> tuple[list[str], bool]:
    """The grid's slots, pole first, and whether they were read from the board (else they are
    the builder's usual grid behind the line)."""
    excess = grid.light_excess(found.lightness, lane_rows, outlines, found.frame, origin,
                               found.space_length, found.fit.width)
    read = grid.read_grid(excess, found.space_length)
    if read:
        return [ids[lane][index] for lane, index in read], True
    counts = {lane: len(row) for lane, row in zip(lane_ids, ids, strict=True)}
    return grid_ids(staggered_grid(counts), SpaceNames(counts)), False


def _corners(found: Survey, lane_rows: Sequence[Sequence[rows.TracedSpace]],
             ids: Sequence[Sequence[str]], origin: float
             ) -> tuple[list[Corner], list[Diagnostic]]:
    """The corners outlined in red, in lap order (``c1``, ``c2`` …), with the stops read from
    the yellow box nearest to each (0 where none was read), and a note on each for the
    designer."""
    spaces = [space for row in lane_rows for space in row]
    names = [name for row in ids for name in row]
    areas = kerbs.find_corners(found.red, [space.centre for space in spaces],
                               found.space_length)
    lap = found.frame.length

    def where(area: kerbs.CornerArea) -> float:
        return float(np.median([(spaces[k].s - origin) % lap for k in area.members]))

    corners: list[Corner] = []
    notes: list[Diagnostic] = []
    ordered = sorted(areas, key=where)
    figures = stops.corner_figures([[spaces[k].centre for k in area.members]
                                    for area in ordered], found.boxes, found.space_length)
    for number, (area, box) in enumerate(zip(ordered, figures, strict=True), start=1):
        corner_id = f"c{number}"
        corners.append(Corner(id=corner_id, stops=box.figure if box is not None else 0,
                              spaces=[names[k] for k in sorted(area.members)]))
        if box is None:
            message = (f"corner {corner_id}: its stops were not read; set them to the figure "
                       "in its yellow box on the board")
        else:
            message = (f"corner {corner_id}: {box.figure} stop{'s' if box.figure > 1 else ''} "
                       "read from the yellow box nearest to it: check the figure")
        notes.append(Diagnostic(
            code="TRACE004", severity=Severity.WARNING if box is None else Severity.INFO,
            message=message,
            location=Location(elements=(corner_id,), pointer=f"/corners/{number - 1}/stops",
                              point=area.centre),
            rule="trace-corner-stops"))
    return corners, notes


def _road_diagnostics(closed: bool, way: direction.Direction, frame: RoadFrame
                      ) -> list[Diagnostic]:
    """What the designer should know about the centre line and the driving direction."""
    found: list[Diagnostic] = []
    if not closed:
        found.append(Diagnostic(
            code="TRACE002", severity=Severity.INFO,
            message="the road's centre line was joined across gaps (corner limits, the "
                    "chequered band): check the lanes where the road is cut across",
            rule="trace-road-joined"))
    if way.confidence < 0.2:
        x, y = frame.point(0.0)
        found.append(Diagnostic(
            code="TRACE003", severity=Severity.WARNING,
            message=f"the driving direction was read from {way.voters} arrows with low "
                    f"confidence ({way.confidence:.2f}): if the lap runs the other way, "
                    "reverse the draft",
            location=Location(point=(x, y)), rule="trace-direction"))
    return found


__all__ = ["MAX_LANES", "Progress", "trace_image", "trace_picture"]
