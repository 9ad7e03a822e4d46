"""The later stages on hand-made arrays: rows of a lane, arrows, corners, figures, links."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from trackformat.trace import kerbs, rows, stops
from trackformat.trace.arrows import read_arrow
from trackformat.trace.frame import RoadFrame
from trackformat.trace.lanes import LaneFit
from trackformat.trace.links import near_corners, read_lane_changes

LENGTH, WIDTH = 40.0, 30.0


def _circle_fit(count: int = 3, spaces: int = 60) -> LaneFit:
    """Lanes round a circle whose middle line is ``spaces`` spaces long."""
    radius = spaces * LENGTH / (2 * np.pi)
    angles = np.linspace(0.0, 2 * np.pi, 2000, endpoint=False)
    frame = RoadFrame(np.stack([500 + radius * np.cos(angles),
                                500 + radius * np.sin(angles)], axis=1))
    return LaneFit(frame=frame, count=count, width=WIDTH, shifts=np.zeros(20))


def _space(fit: LaneFit, s: float, length: float = LENGTH, lane: int = 1) -> rows.TracedSpace:
    space = rows.guessed_space(lane, s, length, fit.frame, fit)
    return rows.TracedSpace(lane=lane, s=space.s, length=length, centre=space.centre,
                            outline=space.outline, confidence=0.9, how=rows.PRINTED)


def test_a_lane_row_joins_fragments_splits_long_blobs_and_fills_gaps() -> None:
    fit = _circle_fit()
    step = fit.frame.length / 60
    found = [_space(fit, 20.0 + step * k, step) for k in range(60)]
    found[3] = _space(fit, 20.0 + step * 3 - 8, step / 2)          # two fragments of one
    found.append(_space(fit, 20.0 + step * 3 + 8, step / 2))
    found[6] = _space(fit, 20.0 + step * 6.5, 2 * step)             # two spaces run together
    del found[7]
    del found[20]                                                  # a space missing
    row = rows.lane_row(found, fit.frame, fit, origin=10.0)
    steps = np.diff([space.s for space in row])
    assert len(row) == 60
    assert np.allclose(steps, step, atol=0.25 * step)
    hows = [space.how for space in row]
    assert (hows.count(rows.JOINED), hows.count(rows.SPLIT), hows.count(rows.GUESSED)) == (
        1, 2, 1)
    assert row[0].s == pytest.approx(20.0, abs=1.0)
    assert min(space.confidence for space in row if space.how != rows.PRINTED) < 0.7


def test_a_forked_arrow_reads_as_a_lane_change_to_its_side() -> None:
    canvas = np.zeros((50, 60), dtype=np.uint8)
    cv2.arrowedLine(canvas, (10, 25), (50, 25), 255, 2, tipLength=0.2)    # straight on
    straight = np.argwhere(canvas)[:, ::-1].astype(float)
    cv2.arrowedLine(canvas, (30, 25), (50, 45), 255, 2, tipLength=0.3)    # and to the right
    forked = np.argwhere(canvas)[:, ::-1].astype(float)
    tangent, normal = np.array([1.0, 0.0]), np.array([0.0, 1.0])
    plain = read_arrow(straight, (30.0, 25.0), tangent, normal, 25.0, 50 * 60)
    fork = read_arrow(forked, (30.0, 25.0), tangent, normal, 25.0, 50 * 60)
    assert plain is not None and fork is not None
    assert (plain.left, plain.right) == (False, False)
    assert (fork.left, fork.right) == (False, True)
    assert read_arrow(straight[:5], (30.0, 25.0), tangent, normal, 25.0, 50 * 60) is None


def test_lane_changes_follow_the_arrows_read_and_the_rest_are_guesses() -> None:
    from trackformat.trace.arrows import Arrow

    links = [("1-0", "1-1"), ("1-0", "2-1"), ("2-0", "1-1"), ("2-0", "3-1"), ("3-0", "2-1")]
    lane_of = {"1-0": 0, "1-1": 0, "2-0": 1, "2-1": 1, "3-0": 2, "3-1": 2}
    arrows: dict[str, Arrow | None] = {"1-0": Arrow(left=False, right=False),
                                       "2-0": Arrow(left=True, right=None), "3-0": None}
    kept, guessed = read_lane_changes(links, lane_of, arrows, zone={"1-0", "2-0", "3-0"})
    assert kept == [("1-0", "1-1"), ("2-0", "1-1"), ("2-0", "3-1"), ("3-0", "2-1")]
    assert guessed == [("2-0", "3-1"), ("3-0", "2-1")]
    assert near_corners([["a", "b", "c", "d", "e", "f"]], {"d"}, reach=1) == {"c", "d", "e"}


def test_a_corner_is_the_inside_of_a_red_dashed_ring() -> None:
    red = np.zeros((200, 300), dtype=bool)
    for x in range(40, 260, 12):                       # dashed kerbs, top and bottom
        red[40:44, x : x + 7] = True
        red[156:160, x : x + 7] = True
    red[40:160, 40:44] = True                          # the limit lines across
    red[40:160, 256:260] = True
    centres = [(150.0, 100.0), (100.0, 80.0), (20.0, 100.0), (150.0, 190.0)]
    areas = kerbs.find_corners(red, centres, space_length=30.0)
    assert len(areas) == 1
    assert areas[0].members == (0, 1)


@pytest.mark.parametrize("figure", [1, 2, 3])
def test_the_figure_of_a_yellow_box_is_read(figure: int) -> None:
    box = Image.new("RGB", (40, 40), (250, 210, 20))
    font = ImageFont.load_default(size=30)
    ImageDraw.Draw(box).text((20, 20), str(figure), fill=(20, 20, 20), font=font, anchor="mm")
    picture = Image.new("RGB", (120, 120), (60, 120, 60))
    picture.paste(box, (40, 40))
    lab = cv2.cvtColor(np.asarray(picture)[:, :, ::-1].copy(), cv2.COLOR_BGR2LAB)
    found = stops.yellow_boxes(lab, space_area=1000.0)
    assert [b.figure for b in found] == [figure]
    chosen = stops.corner_figures([[(60.0, 100.0)], [(500.0, 500.0)]], found, 10.0)
    assert chosen[0] is found[0] and chosen[1] is None
