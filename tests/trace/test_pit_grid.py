"""The pit lane and the grid: found on hand-made arrays, and in a draft traced from a picture
drawn by the project's own render (with them, and without: then nothing is made up)."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from tests.factories import ring_document
from tests.trace.conftest import track_truth
from trackformat.builder.features import SpaceNames, pit_space_ids, staggered_grid
from trackformat.interop.render import render_to_file
from trackformat.io import track_from_document
from trackformat.lint.diagnostic import Severity
from trackformat.model.track import SpaceKind, Track
from trackformat.trace import TraceResult, grid, pit, rows, trace_picture
from trackformat.trace.blobs import Blob
from trackformat.trace.draft import WEAK
from trackformat.trace.frame import RoadFrame
from trackformat.trace.lanes import LaneFit, Placed, place
from trackformat.trace.score import score_track

LENGTH, WIDTH, SPACES = 40.0, 30.0, 60
ORIGIN = 10.0


def _circle_fit() -> LaneFit:
    """Three lanes round a circle whose middle line is :data:`SPACES` spaces long."""
    radius = SPACES * LENGTH / (2 * np.pi)
    angles = np.linspace(0.0, 2 * np.pi, 2000, endpoint=False)
    frame = RoadFrame(np.stack([700 + radius * np.cos(angles),
                                700 + radius * np.sin(angles)], axis=1))
    return LaneFit(frame=frame, count=3, width=WIDTH, shifts=np.zeros(20))


def _lanes(fit: LaneFit) -> list[list[rows.TracedSpace]]:
    """Each lane's spaces, one a space's length apart, index 0 just past the line."""
    step = fit.frame.length / SPACES
    return [[rows.guessed_space(lane, ORIGIN + step * (k + 0.5), step, fit.frame, fit)
             for k in range(SPACES)] for lane in range(fit.count)]


def _blobs(fit: LaneFit, where: list[tuple[float, float]]) -> list[Placed]:
    """Space-sized blobs at (lanes from the line, lane widths right of the road's middle)."""
    step = fit.frame.length / SPACES
    made = []
    for k, (ahead, right) in enumerate(where):
        space = rows.band_space(0, ORIGIN + ahead * step, step, right * WIDTH, 0.8 * WIDTH,
                                fit.frame)
        made.append(Blob(index=k, fill=0, area=0.7 * step * WIDTH, centre=space.centre,
                         outline=space.outline, shape=space.outline,
                         ink=np.zeros((0, 2))))
    return place(made, fit.frame)


def test_a_row_of_spaces_beside_the_lanes_at_the_line_is_the_pit_lane() -> None:
    fit = _circle_fit()
    lanes = _lanes(fit)
    beside = [(ahead + 0.5, 2.6) for ahead in range(-9, 2) if ahead != -4]   # one missing
    scenery = ([(20.5, 2.5)]                                  # alone, half a lap away
               + [(a + 0.5, -2.4) for a in (-2, -1, 0)]       # three in a row: too few
               + [(a + 0.5, 2.8) for a in range(25, 32)])     # a row far from the line
    found = pit.find_pit_lane(_blobs(fit, beside + scenery), fit, ORIGIN, lanes, LENGTH)
    assert found is not None
    assert found.beside == 2
    s = [space.s for space in found.spaces]
    assert len(s) == 11
    assert np.allclose(fit.frame.ahead(np.diff(s)), LENGTH, atol=0.3 * LENGTH)
    assert all(space.how == rows.GUESSED and space.confidence < WEAK for space in found.spaces)
    # In from the two spaces of the lane beside, behind the pit lane's first; out onto the two
    # ahead of its last, past the line.
    assert found.entry == [SPACES - 11, SPACES - 10]
    assert found.exit == [2, 3]


def test_no_pit_lane_is_made_up_from_blobs_that_are_not_one() -> None:
    fit = _circle_fit()
    scattered = [(-6.5, 2.6), (-3.5, 3.9), (-1.5, 2.6), (0.5, -2.4), (25.5, 2.6), (26.5, 2.6),
                 (27.5, 2.6), (28.5, 2.6), (29.5, 2.6)]
    assert pit.find_pit_lane(_blobs(fit, scattered), fit, ORIGIN, _lanes(fit), LENGTH) is None


def _picture(lanes: list[list[rows.TracedSpace]], marked: set[tuple[int, int]]) -> np.ndarray:
    """Grey spaces between dark lines, with a white bar across the front of the ``marked``
    ones (as a board marks its grid slots)."""
    picture = np.full((1400, 1400), 60, dtype=np.uint8)
    for lane, row in enumerate(lanes):
        for index, space in enumerate(row):
            outline = np.round(space.outline).astype(np.int32)
            cv2.fillPoly(picture, [outline], 130)
            cv2.polylines(picture, [outline], True, 30, 2)
            if (lane, index) in marked:
                # The outline runs along the left side to the front, then back along the right.
                centre = np.array(space.centre)
                a, b = (np.round(p + 0.2 * (centre - p)).astype(int)
                        for p in (space.outline[4], space.outline[5]))
                cv2.line(picture, (int(a[0]), int(a[1])), (int(b[0]), int(b[1])), 250, 3)
    return picture


def _grid_of(marked: set[tuple[int, int]]) -> list[tuple[int, int]]:
    fit = _circle_fit()
    lanes = _lanes(fit)
    lightness = _picture(lanes, marked)
    outlines = [[tuple(map(tuple, space.outline)) for space in row] for row in lanes]
    excess = grid.light_excess(lightness, lanes, outlines, fit.frame, ORIGIN, LENGTH, WIDTH)
    return grid.read_grid(excess, LENGTH)


def test_the_marks_behind_the_line_are_the_grid_pole_first() -> None:
    staggered = [(0, SPACES - 1 - 3 * n) for n in range(5)] + [
        (2, SPACES - 2 - 3 * n) for n in range(5)]
    assert _grid_of(set(staggered)) == sorted(staggered, key=lambda slot: -slot[1])


def test_marks_far_behind_the_grid_or_too_few_are_no_grid() -> None:
    near = {(0, SPACES - 1), (2, SPACES - 2), (0, SPACES - 4), (2, SPACES - 5)}
    far = {(1, SPACES - 14), (1, SPACES - 15), (1, SPACES - 16)}
    assert _grid_of(near | far) == sorted(near, key=lambda slot: -slot[1])
    assert _grid_of({(0, SPACES - 1), (2, SPACES - 2), (0, SPACES - 4)}) == []
    assert _grid_of(set()) == []


def test_the_usual_grid_is_staggered_behind_the_line() -> None:
    refs = staggered_grid({"1": 40, "2": 41, "3": 39})
    assert refs[:4] == [("1", 39), ("3", 37), ("1", 36), ("3", 34)]
    assert len(refs) == 10
    assert staggered_grid({"1": 5}) == [("1", 4), ("1", 3), ("1", 2), ("1", 1), ("1", 0)]
    assert pit_space_ids(12)[:2] == ["pit-00", "pit-01"]


def _traced(document: dict[str, Any], folder: Path) -> TraceResult:
    """The trace of ``document`` drawn by the project's render."""
    picture = folder / "ring.png"
    render_to_file(track_from_document(document, "ring"), picture)
    return trace_picture(picture, 3)


def _note(result: TraceResult, code: str) -> tuple[Severity, tuple[str, ...]]:
    notes = [d for d in result.diagnostics if d.code == code]
    assert len(notes) == 1
    return notes[0].severity, notes[0].location.elements


def test_a_drawn_pit_lane_and_grid_are_in_the_draft(ring_picture: Path, ring_track: Track
                                                    ) -> None:
    result = trace_picture(ring_picture, 3)
    draft = result.track
    score = score_track(draft, track_truth(ring_track))
    assert draft.pit_lane is not None
    pits = draft.pit_lane.spaces
    assert pits == pit_space_ids(len(pits))
    assert score.pit_found >= 4 and score.pit_false == 0, score.lines()
    spaces = {space.id: space for space in draft.spaces}
    assert all(spaces[p].kind == SpaceKind.PIT and spaces[p].lane is None for p in pits)
    links = {(link.from_, link.to) for link in draft.links}
    assert set(pairwise(pits)) <= links
    lap = len([s for s in draft.spaces if s.lane == "3"])
    assert [spaces[k.from_].lane for k in draft.pit_lane.entry] == ["3", "3"]
    assert all(int(k.from_.split("-")[1]) > lap / 2 for k in draft.pit_lane.entry)
    assert all(int(k.to.split("-")[1]) < lap / 2 for k in draft.pit_lane.exit)
    # Every piece of it is a guess: weak spaces, guessed moves, and a note naming it.
    assert all(result.confidence[p] < WEAK and result.how[p] == rows.GUESSED for p in pits)
    entry = [(k.from_, k.to) for k in draft.pit_lane.entry]
    assert set(entry) <= set(result.guessed_links)
    assert _note(result, "TRACE007") == (Severity.WARNING, tuple(pits))
    assert not any(d.code == "TRACE005" and set(d.location.elements) & set(pits)
                   for d in result.diagnostics)  # that note is the corners' lane changes'
    # The grid's numbers are read: nine of the ten slots (the pole's space is one the
    # trace loses at the line), none where the ring has no slot.
    assert score.grid_found >= 8 and len(draft.grid) <= 10, score.lines()
    assert _note(result, "TRACE006") == (Severity.INFO, tuple(draft.grid))
    assert result.figures["grid_read"] == 1.0


def test_without_a_pit_lane_or_grid_marks_none_is_made_up(tmp_path: Path) -> None:
    document = ring_document(3, 40)
    document["spaces"] = [s for s in document["spaces"] if s["kind"] == "track"]
    kept = {s["id"] for s in document["spaces"]}
    document["links"] = [k for k in document["links"] if k["from"] in kept and k["to"] in kept]
    document["pit_lane"] = None
    document["grid"] = []
    result = _traced(document, tmp_path)
    draft = result.track
    assert draft.pit_lane is None
    assert not any(space.kind != SpaceKind.TRACK for space in draft.spaces)
    assert _note(result, "TRACE007") == (Severity.INFO, ())
    counts = {lane.id: sum(s.lane == lane.id for s in draft.spaces) for lane in draft.lanes}
    names = SpaceNames(counts)
    assert draft.grid == [names(lane, index) for lane, index in staggered_grid(counts)]
    assert _note(result, "TRACE006") == (Severity.WARNING, tuple(draft.grid))
    assert result.figures["grid_read"] == 0.0
