"""Re-aligning a track to a new scan from matched points (no Qt)."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pytest

from editor.alignment import fit_transform, residuals, transform_track
from editor.edits import EditError
from editor.placement import fit_placement
from tests.factories import ring
from trackformat.lint import validate


def _similar(x: float, y: float) -> tuple[float, float]:
    """A scan twice as large, turned 10 degrees and shifted."""
    a = math.radians(10)
    return (
        2 * (x * math.cos(a) - y * math.sin(a)) + 30,
        2 * (x * math.sin(a) + y * math.cos(a)) - 5,
    )


def test_two_pairs_recover_a_turn_a_scale_and_a_shift() -> None:
    pairs = [((100, 100), _similar(100, 100)), ((900, 400), _similar(900, 400))]
    matrix = fit_transform(pairs)
    assert max(residuals(pairs, matrix)) < 0.01  # coordinates are kept to 0.01 px
    assert np.allclose(matrix @ [500, 700, 1], _similar(500, 700))


def test_three_pairs_recover_an_affine_map() -> None:
    def slant(x: float, y: float) -> tuple[float, float]:
        return (1.5 * x + 0.2 * y + 10, 0.9 * y - 4)

    pairs = [((0, 0), slant(0, 0)), ((100, 0), slant(100, 0)), ((0, 100), slant(0, 100))]
    assert np.allclose(fit_transform(pairs) @ [50, 70, 1], slant(50, 70))


def test_aligned_track_keeps_its_shape_and_stays_sound() -> None:
    track = ring()
    pairs = [((100, 100), _similar(100, 100)), ((900, 400), _similar(900, 400))]
    moved = transform_track(track, fit_transform(pairs))
    before = next(s for s in track.spaces if s.id == "2-5")
    after = next(s for s in moved.spaces if s.id == "2-5")
    assert after.centre == pytest.approx(_similar(*before.centre), abs=0.02)
    assert after.heading == pytest.approx((before.heading + 10) % 360, abs=0.02)
    report = validate(
        moved.model_copy(
            update={"board": moved.board.model_copy(update={"width": 3000, "height": 3000})}
        )
    )
    assert report.errors == 0, report.to_text()


@pytest.mark.parametrize(
    ("pairs", "message"),
    [
        ([((0, 0), (1, 1))], "at least two"),
        ([((5, 5), (0, 0)), ((5, 5), (3, 3))], "same point"),
        ([((0, 0), (0, 0)), ((1, 1), (2, 2)), ((2, 2), (4, 4))], "one line"),
    ],
)
@pytest.mark.parametrize("fit", [fit_transform, fit_placement], ids=["track", "picture"])
def test_bad_matches_are_explained(
    fit: Callable[[list], object], pairs: list, message: str
) -> None:
    """The same bad matches are explained alike whether the track is moved onto the scan or
    the picture onto the board."""
    with pytest.raises(EditError, match=message):
        fit(pairs)
