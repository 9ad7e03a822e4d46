"""The tracer on the real boards of the corpus, scored against their hand-made traces.

The figures are the issue's (see :mod:`trackformat.trace.score`): printed spaces found, false
spaces, lanes right, the board's moves present, the pit lane's spaces found and the grid's slots
read. The floors below are a little under what the
tracer reaches today (docs/trace.md gives the figures, benchmarks/trace_score.py prints them):
a change that loses ground on a real board fails here. Monaco is the board the tracer was tuned
on; Valencia and Curitiba are the check that it was not tuned to one board. Skipped without the
corpus.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from tests.corpus import corpus_path
from tests.monaco_board import load_board
from tests.trace.truth import board_truth, picture_path
from trackformat.cli import main
from trackformat.lint import validate
from trackformat.trace import TraceResult, trace_picture
from trackformat.trace.score import NEAR, Score, pair_spaces, score_track


@dataclass(frozen=True)
class Floor:
    found: float
    false: int
    lanes: float
    moves: float
    extra: float
    """Most extra links (no move of the board), as a share of the board's moves."""
    corners: int
    pit: float = 0.8
    """Least share of the pit lane's printed spaces found as pit spaces."""
    pit_false: int = 2
    """Most pit spaces of the draft that are none of the board's."""
    grid: int = 9
    """Least grid slots read in their place (of the board's ten)."""
    overlaps: int = 0
    """Most groups of overlapping spaces (GEOM002) in the draft."""


FLOORS = {
    "monaco": Floor(found=0.97, false=2, lanes=0.98, moves=0.95, extra=0.06, corners=10),
    "valencia": Floor(found=0.9, false=40, lanes=0.95, moves=0.84, extra=0.17, corners=6,
                      overlaps=4),
    "curitiba": Floor(found=0.94, false=25, lanes=0.94, moves=0.88, extra=0.11, corners=5,
                      overlaps=2),
}


@cache
def _trace(name: str) -> tuple[TraceResult, Score]:
    """The board traced and scored, once for all the tests of this module."""
    corpus = corpus_path()
    picture = picture_path(corpus, name)
    if not picture.exists():
        pytest.skip(f"the corpus has no {picture}")
    result = trace_picture(picture, 3)
    return result, score_track(result.track, board_truth(corpus, name), result.guessed_links)


@pytest.fixture(params=sorted(FLOORS))
def traced(request: pytest.FixtureRequest) -> tuple[str, TraceResult, Score]:
    result, score = _trace(request.param)
    return request.param, result, score


def test_the_printed_spaces_are_found(traced: tuple[str, TraceResult, Score]) -> None:
    name, _, score = traced
    floor = FLOORS[name]
    assert score.found_share >= floor.found, score.lines()
    assert score.false <= floor.false, score.lines()


def test_the_spaces_are_in_their_lanes(traced: tuple[str, TraceResult, Score]) -> None:
    name, _, score = traced
    assert score.lanes_share >= FLOORS[name].lanes, score.lines()


def test_the_boards_moves_are_links(traced: tuple[str, TraceResult, Score]) -> None:
    name, _, score = traced
    assert score.moves_share >= FLOORS[name].moves, score.lines()
    assert score.links_extra <= FLOORS[name].extra * score.moves, score.lines()


def test_the_corners_are_found_from_the_kerbs(traced: tuple[str, TraceResult, Score]) -> None:
    name, result, score = traced
    assert score.corners_traced == score.corners == FLOORS[name].corners, score.lines()
    assert score.corner_spaces_right >= 0.95 * score.corner_spaces, score.lines()
    assert score.corner_spaces_extra <= 0.02 * score.corner_spaces, score.lines()
    assert all(c.stops in (0, 1, 2, 3) for c in result.track.corners)


def test_the_pit_lane_and_the_grid_are_found(traced: tuple[str, TraceResult, Score]) -> None:
    name, result, score = traced
    floor = FLOORS[name]
    assert score.pit_found >= floor.pit * score.pit_spaces, score.lines()
    assert score.pit_false <= floor.pit_false, score.lines()
    assert score.grid_placed >= floor.grid and score.grid_traced <= score.grid_slots, (
        score.lines())
    assert result.figures["grid_read"] == 1.0
    pits = result.track.pit_lane.spaces if result.track.pit_lane else []
    assert all(result.confidence[p] < 0.5 for p in pits)


def test_the_draft_is_a_track_the_validator_reads(traced: tuple[str, TraceResult, Score]
                                                  ) -> None:
    name, result, _ = traced
    track = result.track
    assert [lane.id for lane in track.lanes] == ["1", "2", "3"]
    assert track.finish_line is not None
    assert track.finish_line.spaces == ["1-000", "2-000", "3-000"]
    assert set(result.confidence) == {space.id for space in track.spaces}
    assert all(0.0 <= value <= 1.0 for value in result.confidence.values())
    report = validate(track)
    assert not any(d.code.startswith(("REF", "SCHEMA")) for d in report.diagnostics)
    # Hardly a space overlaps another: each overlap is an outline for the designer to mend (a
    # guess laid over the apex of a hairpin made two on Monaco; outlines grown across the lanes
    # in the bends of the small GP Online pictures, 31 on Valencia and 13 on Curitiba).
    overlaps = [d for d in report.diagnostics if d.code == "GEOM002"]
    assert len(overlaps) <= FLOORS[name].overlaps, overlaps
    # The grid lies behind the line, pole first; the pit lane leaves before it, rejoins after.
    assert not any(d.code in ("GRID001", "GRID002", "GRID003", "GRID004", "PIT002", "PIT003",
                              "PIT004") for d in report.diagnostics), report.diagnostics


def test_the_lanes_start_at_the_chequered_band_on_monaco() -> None:
    """Index 0 of each lane is the space the chequered band is printed on, as the board's
    trace (``computed.laneEnds``) and the project's Monaco track have it."""
    corpus = corpus_path()
    board = load_board(corpus / "monaco-board" / "circuits.js")
    truth = board_truth(corpus, "monaco")
    result, _ = _trace("monaco")
    spaces = result.track.spaces
    centres = np.array([s.centre for s in spaces])
    keys = list(board.cells)
    pairs = {keys[j]: spaces[i].id for i, j in
             pair_spaces(centres, truth.centres, NEAR * truth.space_length).items()}
    firsts = [board.lanes[lane][0] for lane in (1, 2, 3)]
    assert [pairs.get(key) for key in firsts] == ["1-000", "2-000", "3-000"]


def test_the_right_count_of_lanes_draws_no_lane_count_warning(
        traced: tuple[str, TraceResult, Score]) -> None:
    name, result, _ = traced
    assert "TRACE008" not in {d.code for d in result.diagnostics}, name


def test_a_real_board_traced_with_a_lane_too_few_says_so() -> None:
    # Monaco with --lanes 2: its third lane's spaces fell beside the two lanes traced and were
    # made into a "pit lane" of 140 spaces, with nothing to say the count was wrong.
    picture = picture_path(corpus_path(), "monaco")
    if not picture.exists():
        pytest.skip(f"the corpus has no {picture}")
    result = trace_picture(picture, 2)
    [note] = [d for d in result.diagnostics if d.code == "TRACE008"]
    assert "the board may have 3 lanes" in note.message
    assert result.diagnostics[0] is note, "said first: the rest of the draft follows from it"


def test_a_real_board_traced_with_a_lane_too_many_stops_and_says_why(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Monaco with --lanes 4: the first lane is left with no space at all. The tracer stopped
    # with "no road found", which sent the user looking for a fault in the picture.
    picture = picture_path(corpus_path(), "monaco")
    if not picture.exists():
        pytest.skip(f"the corpus has no {picture}")
    assert main(["trace", str(picture), "--lanes", "4", "-o", str(tmp_path / "d.json")]) == 2
    said = capsys.readouterr().err
    assert "has 0 spaces" in said and "the board may have 3 lanes" in said
