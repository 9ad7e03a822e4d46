"""Reading traced outlines from SVG path data (no corpus needed)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from tests.editor.traced import (
    PathError,
    apply,
    parse_path,
    parse_transform,
    read_outlines,
)


def test_relative_and_absolute_lines_and_implicit_repeats() -> None:
    (square,) = parse_path("m 10,20 30,0 0,40 h -30 z")
    assert square == [(10, 20), (40, 20), (40, 60), (10, 60)]
    (same,) = parse_path("M10 20L40 20 40 60H10V20Z")
    assert same[:4] == [(10, 20), (40, 20), (40, 60), (10, 60)]


def test_numbers_written_tightly() -> None:
    (path,) = parse_path("M-.5.5l1e1-2.5E0v.25")
    assert path == [(-0.5, 0.5), (9.5, -2.0), (9.5, -1.75)]


def test_a_relative_move_after_a_close_starts_from_the_subpath_start() -> None:
    first, second = parse_path("m 100,100 10,0 0,10 z m 5,5 1,0 0,1 z")
    assert first[0] == (100, 100)
    assert second[0] == (105, 105)


def test_curves_pass_through_their_ends_and_bend_as_drawn() -> None:
    (path,) = parse_path("M0,0 c 0,10 10,10 10,0 s 10,-10 10,0")
    assert path[0] == (0, 0) and path[-1] == pytest.approx((20, 0))
    middle = path[6]  # t = 1/2 of the first curve: (5, 7.5)
    assert middle == pytest.approx((5, 7.5))
    assert min(y for _, y in path[13:]) < -5, "the smooth curve mirrors the first one"
    (quad,) = parse_path("M0 0 Q 10 20 20 0 T 40 0")
    assert quad[6] == pytest.approx((10, 10)) and quad[-1] == pytest.approx((40, 0))


def test_arcs_follow_their_circle() -> None:
    (half,) = parse_path("M 0 0 A 10 10 0 0 1 20 0")
    assert half[-1] == (20, 0)
    for x, y in half[1:]:
        assert math.dist((x, y), (10, 0)) == pytest.approx(10)
    assert min(y for _, y in half) == pytest.approx(-10), "sweep 1 turns clockwise on screen"
    (tight,) = parse_path("M0 0a10 10 0 0110 10")
    assert tight[-1] == (10, 10)


def test_broken_path_data_is_explained() -> None:
    with pytest.raises(PathError, match="moveto"):
        parse_path("10 10 L 20 20")
    with pytest.raises(PathError, match="needs 6 numbers"):
        parse_path("M0 0 C 1 2 3")
    with pytest.raises(PathError, match="unexpected"):
        parse_path("M0 0 L 1 # 2")


def test_transforms_compose_right_to_left() -> None:
    matrix = parse_transform("translate(10, 5) scale(2) rotate(90)")
    assert apply(matrix, (1, 0)) == pytest.approx((10, 7))
    assert apply(parse_transform("rotate(180 5 5)"), (0, 0)) == pytest.approx((10, 10))
    assert apply(parse_transform("matrix(1 0 0 1 3 4)"), (1, 1)) == (4, 5)


def test_outlines_take_the_transforms_of_their_groups(tmp_path: Path) -> None:
    svg = tmp_path / "board.svg"
    svg.write_text(
        '<svg xmlns="http://www.w3.org/2000/svg"><g transform="translate(100,0)">'
        '<path id="path7" transform="scale(2)" d="m 1,1 1,0 0,1 z"/></g>'
        '<path id="path9" d="M 0 0 L 5 0 L 5 5 Z"/></svg>',
        encoding="utf-8",
    )
    outlines = read_outlines(svg)
    assert outlines["path7"] == [[(102, 2), (104, 2), (104, 4)]]
    assert outlines["path9"] == [[(0, 0), (5, 0), (5, 5)]]
