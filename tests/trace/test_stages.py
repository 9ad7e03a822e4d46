"""The tracer's stages, each on arrays small enough to check by hand."""

from __future__ import annotations

import zlib

import cv2
import numpy as np
import pytest

from trackformat.trace import blobs, direction, finish, frame, lanes, palette, score
from trackformat.trace.errors import TraceError
from trackformat.trace.picture import MAX_PIXELS, decode_picture


def test_same_size_run_picks_the_largest_group_of_one_size() -> None:
    areas = np.array([10, 11, 12, 100, 105, 98, 102, 99, 500], dtype=np.int32)
    count, area = palette.same_size_run(areas)
    assert count == 5
    assert 98 <= area <= 105
    assert palette.same_size_run(np.zeros(0, dtype=np.int32)) == (0, 0.0)


def _tiles(rows: int = 6, cols: int = 10, size: int = 30, line: int = 3) -> np.ndarray:
    """A picture of grey tiles between dark lines, on green: spaces, as a board prints them."""
    image = np.zeros((rows * size + 40, cols * size + 40, 3), dtype=np.uint8)
    image[:] = (40, 140, 40)
    for r in range(rows):
        for c in range(cols):
            y, x = 20 + r * size, 20 + c * size
            image[y : y + size, x : x + size] = (60, 60, 60)
            image[y + line : y + size, x + line : x + size] = (170, 160, 165)
    return image


def test_the_palette_finds_the_fill_and_the_size_of_a_space() -> None:
    lab = palette.to_lab(_tiles())
    found = palette.find_palette(lab)
    assert found.spaces_seen == 60
    assert 27 * 27 * 0.9 <= found.space_area <= 27 * 27 * 1.1
    masks = palette.fill_masks(lab, found)
    spaces = blobs.find_blobs(masks, found, lab[..., 0])
    assert len(spaces) == 60
    assert all(len(b.ink) == 0 for b in spaces)


def test_a_picture_without_spaces_is_refused() -> None:
    noise = np.random.default_rng(1).integers(0, 256, (200, 300, 3), dtype=np.uint8)
    with pytest.raises(TraceError, match="no road found"):
        palette.find_palette(palette.to_lab(noise))


def test_blobs_without_neighbours_are_scenery() -> None:
    picture = np.zeros((160, 400, 3), dtype=np.uint8)
    picture[:] = (40, 140, 40)
    picture[:100, :220] = _tiles(rows=2, cols=6)[:100, :220]
    picture[100:127, 330:357] = (170, 160, 165)  # a lonely patch of the fill colour
    lab = palette.to_lab(picture)
    found = palette.find_palette(lab, min_spaces=3)
    found_blobs = blobs.find_blobs(palette.fill_masks(lab, found), found, lab[..., 0])
    kept = blobs.supported(found_blobs, line_width=3.0)
    assert len(found_blobs) == len(kept) + 1
    assert all(b.centre[0] < 220 for b in kept)
    assert [b.index for b in kept] == list(range(len(kept)))


def test_the_frame_measures_along_and_to_the_right() -> None:
    circle = np.array([(500 + 200 * np.cos(a), 500 + 200 * np.sin(a))
                       for a in np.linspace(0, 2 * np.pi, 400, endpoint=False)])
    road = frame.RoadFrame(circle)
    assert road.length == pytest.approx(2 * np.pi * 200, rel=0.01)
    # Driving clockwise on screen (y down): the right is towards the circle's centre.
    s, d = road.project(np.array([[700.0, 500.0], [680.0, 500.0], [500.0, 720.0]]))
    assert d[0] == pytest.approx(0.0, abs=0.5)
    assert d[1] == pytest.approx(20.0, abs=0.5)
    assert d[2] == pytest.approx(-20.0, abs=0.5)
    assert s[2] == pytest.approx(road.length / 4, rel=0.02)
    assert road.heading(0.0) == pytest.approx(90.0, abs=2.0)
    back = road.reversed()
    assert back.project(np.array([[680.0, 500.0]]))[1][0] == pytest.approx(-20.0, abs=0.5)


def test_an_arrow_votes_for_the_way_its_head_points() -> None:
    canvas = np.zeros((40, 80), dtype=np.uint8)
    cv2.arrowedLine(canvas, (10, 20), (70, 20), 255, 2, tipLength=0.3)
    rows, cols = np.nonzero(canvas)
    forward = direction.arrow_vote(cols.astype(float), rows.astype(float))
    backward = direction.arrow_vote(-cols.astype(float), rows.astype(float))
    assert forward > 0.2
    assert backward < -0.2


def test_lanes_follow_the_blobs_and_only_drift_between_windows() -> None:
    count, width = 3, 30.0
    d = np.array([-30.0, 0.0, 30.0])
    costs = lanes.placement_cost(d, np.array([0.0, 15.0, 30.0]), count, width)
    assert costs[0] == pytest.approx(0.0)
    assert costs[1] > costs[0]
    path = lanes._viterbi(np.array([[0.0, 5.0], [1.0, 0.9], [0.0, 5.0]]),
                          np.array([[0.0, 2.0], [2.0, 0.0]]))
    assert path.tolist() == [0, 0, 0]


def test_a_chequered_band_is_black_and_white_side_by_side() -> None:
    lightness = np.full((60, 60), 160, dtype=np.uint8)
    for r in range(20, 40, 4):
        for c in range(0, 60, 4):
            lightness[r : r + 2, c : c + 2] = 0
            lightness[r + 2 : r + 4, c + 2 : c + 4] = 0
            lightness[r : r + 2, c + 2 : c + 4] = 255
            lightness[r + 2 : r + 4, c : c + 2] = 255
    mask = finish.chequer_mask(lightness, 8)
    assert mask[30, 30]
    assert not mask[5, 30]
    assert not mask[55, 30]


def test_pairs_are_one_to_one_within_the_radius() -> None:
    traced = np.array([[0.0, 0.0], [1.0, 0.0], [50.0, 50.0]])
    printed = np.array([[0.5, 0.0], [100.0, 100.0]])
    pairs = score.pair_spaces(traced, printed, 5.0)
    assert len(pairs) == 1
    assert set(pairs.values()) == {0}


def test_a_picture_is_refused_before_it_is_decoded_when_too_large() -> None:
    ok, png = cv2.imencode(".png", np.zeros((8, 8, 3), dtype=np.uint8))
    assert ok
    data = bytearray(png.tobytes())
    side = int(MAX_PIXELS ** 0.5) + 10
    data[16:20] = side.to_bytes(4, "big")
    data[20:24] = side.to_bytes(4, "big")
    data[29:33] = zlib.crc32(bytes(data[12:29])).to_bytes(4, "big")  # the header's checksum
    with pytest.raises(TraceError, match="more than"):
        decode_picture(bytes(data), "bomb.png")
    with pytest.raises(TraceError, match="not a picture"):
        decode_picture(b"this is text", "notes.png")
    with pytest.raises(TraceError, match="at least"):
        decode_picture(cv2.imencode(".png", np.zeros((10, 10, 3), np.uint8))[1].tobytes(),
                       "tiny.png")
