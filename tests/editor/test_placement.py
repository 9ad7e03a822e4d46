"""Placing a board picture under the track: the arithmetic (no Qt)."""

from __future__ import annotations

import math

import pytest

from editor.placement import (
    board_scaled_to_picture,
    board_to_picture,
    fit_placement,
    moved_by_hand,
    placed_bounds,
    relinked,
    scaled_to_board,
)
from tests.factories import ring
from trackformat.model import Board, Placement


def _scan_to_board(x: float, y: float) -> tuple[float, float]:
    """A scan at two thirds of the board's size, turned 2 degrees and shifted."""
    a = math.radians(2)
    s = 1.5
    return (
        s * (x * math.cos(a) - y * math.sin(a)) + 12,
        s * (x * math.sin(a) + y * math.cos(a)) - 7,
    )


def test_a_smaller_picture_is_scaled_to_the_boards_width() -> None:
    board = Board(width=3750, height=2487)
    placement = scaled_to_board((2500, 1658), board)
    assert placement is not None
    assert placement.apply(2500, 1658) == pytest.approx((3750, 2487))
    assert placed_bounds(placement, (2500, 1658)) == pytest.approx((0, 0, 3750, 2487))
    assert scaled_to_board((3750, 2487), board) is None


def test_two_pairs_place_the_picture_exactly_but_cannot_be_checked() -> None:
    pairs = [((100, 200), _scan_to_board(100, 200)), ((2300, 1500), _scan_to_board(2300, 1500))]
    fit = fit_placement(pairs)
    assert fit.kind == "similarity" and fit.worst is None
    assert fit.placement.apply(1200, 800) == pytest.approx(_scan_to_board(1200, 800), abs=1e-3)
    assert "cannot be checked" in fit.describe()


def test_more_pairs_than_needed_report_how_far_off_they_are() -> None:
    points = [(100, 200), (2300, 1500), (400, 1400), (2000, 100)]
    pairs = [(p, _scan_to_board(*p)) for p in points]
    # One track point clicked 3 px off.
    (p, (x, y)) = pairs[3]
    pairs[3] = (p, (x + 3.0, y))
    fit = fit_placement(pairs)
    assert fit.kind == "affine" and fit.worst is not None and 0.5 < fit.worst < 3.0
    assert "px off" in fit.describe()
    shape = fit_placement(pairs, keep_shape=True)
    assert shape.kind == "similarity" and shape.worst is not None
    a, b = shape.placement.matrix[0][0], shape.placement.matrix[0][1]
    c, d = shape.placement.matrix[1][0], shape.placement.matrix[1][1]
    assert a == pytest.approx(d) and b == pytest.approx(-c)


def test_three_pairs_give_an_affine_map_exactly() -> None:
    def slant(x: float, y: float) -> tuple[float, float]:
        return (1.4 * x + 0.1 * y + 5, 1.6 * y - 3)

    pairs = [((0, 0), slant(0, 0)), ((1000, 0), slant(1000, 0)), ((0, 800), slant(0, 800))]
    fit = fit_placement(pairs)
    assert fit.kind == "affine" and fit.worst is None
    assert fit.placement.apply(500, 300) == pytest.approx(slant(500, 300), abs=1e-3)
    assert board_to_picture(fit.placement, *slant(500, 300)) == pytest.approx((500, 300))


def test_a_relinked_picture_of_another_size_covers_the_same_board() -> None:
    placement = Placement(matrix=((1.5, 0.0, 10.0), (0.0, 1.5, 20.0)))
    again = relinked(placement, (2500, 1658), (5000, 3316))
    assert again is not None
    assert again.apply(5000, 3316) == pytest.approx(placement.apply(2500, 1658))
    assert relinked(placement, (2500, 1658), (2500, 1658)) is placement


def test_the_board_can_be_scaled_to_the_picture_instead() -> None:
    track = ring()  # a 1200 px board
    scaled = board_scaled_to_picture(track, (600, 600))
    assert (scaled.board.width, scaled.board.height) == (600, 600)
    before = next(s for s in track.spaces if s.id == "2-5").centre
    after = next(s for s in scaled.spaces if s.id == "2-5").centre
    assert after == pytest.approx((before[0] / 2, before[1] / 2), abs=0.01)


def test_by_hand_the_picture_moves_turns_and_scales_about_a_pivot() -> None:
    start = Placement(matrix=((1.5, 0.0, 0.0), (0.0, 1.5, 0.0)))
    moved = moved_by_hand(start, (0, 0), (100, 100), (110, 95), "move")
    assert moved.apply(0, 0) == pytest.approx((10, -5))
    pivot = (500.0, 500.0)
    turned = moved_by_hand(start, pivot, (600, 500), (500, 600), "turn")  # a quarter turn
    picture_pivot = start.inverse(*pivot)
    assert turned.apply(*picture_pivot) == pytest.approx(pivot)
    assert turned.apply(*start.inverse(600, 500)) == pytest.approx((500, 600))
    scaled = moved_by_hand(start, pivot, (600, 500), (700, 500), "scale")
    assert scaled.apply(*picture_pivot) == pytest.approx(pivot)
    assert scaled.matrix[0][0] == pytest.approx(3.0)
    assert moved_by_hand(None, pivot, pivot, (10, 10), "scale") == Placement(
        matrix=((1.0, 0.0, 0.0), (0.0, 1.0, 0.0))
    )
