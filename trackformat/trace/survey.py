"""The survey of a board picture: its spaces' colours and blobs, the road round the lap, which
way the lap runs, and the lanes along it (stages 1 to 4 of the tracer).

Everything later (the rows of spaces, the finish line, the corners, the links) is read off the
survey; keeping it in one value lets each later stage be run and tested on its own.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import cv2
import numpy as np
from numpy.typing import NDArray

from trackformat.trace import blobs as blob_stage
from trackformat.trace import centreline, direction, kerbs, lanes, palette, stops
from trackformat.trace.errors import TraceError
from trackformat.trace.frame import RoadFrame
from trackformat.trace.picture import Image

Stage = Callable[[float, str], None]
"""Told the share of the work done and the stage starting (see ``pipeline.Progress``)."""


@dataclass
class Clock:
    """Seconds spent in each stage, for the report and the benchmark."""

    start: float = field(default_factory=time.perf_counter)
    last: float = 0.0
    seconds: dict[str, float] = field(default_factory=dict)

    def lap(self, stage: str) -> None:
        now = time.perf_counter()
        self.seconds[f"seconds_{stage}"] = now - (self.last or self.start)
        self.seconds["seconds_total"] = now - self.start
        self.last = now


@dataclass(frozen=True)
class Survey:
    """What the tracer knows of a picture once its lanes are fitted."""

    lightness: NDArray[np.uint8]
    """The picture's lightness (Lab L, 0 to 255)."""
    red: NDArray[np.bool_]
    """The pixels of the kerbs' red."""
    boxes: list[stops.YellowBox]
    """The yellow boxes with a figure read in them (the corners' stops)."""
    palette: palette.Palette
    blobs: list[blob_stage.Blob]
    spare: list[blob_stage.Blob]
    """The blobs dropped for want of neighbours on two sides: scenery, but also a row of
    spaces off the road, such as a pit lane (a chain has one neighbour at each end, so its
    ends drop first, then the next ones); the pit lane is looked for among them."""
    line_width: float
    """Width of the printed lines between spaces, in pixels."""
    space_length: float
    """Length of a space along its lane, in pixels."""
    frame: RoadFrame
    """The centre line, in the driving direction."""
    closed: bool
    """Whether the centre line closed by itself (False: joined across gaps)."""
    direction: direction.Direction
    placed: list[lanes.Placed]
    fit: lanes.LaneFit


def survey(image: Image, lanes_count: int, *, space_length: float | None = None,
           stage: Stage, clock: Clock) -> Survey:
    """Survey ``image`` for a circuit of ``lanes_count`` lanes (see :class:`Survey`).

    Raises :class:`TraceError` (without the picture's name) when it holds no road.
    """
    stage(0.05, "finding the colours of the spaces")
    expected = None if space_length is None else 0.6 * space_length ** 2
    lab, found = _fills(image, expected)
    clock.lap("palette")

    stage(0.25, "finding the spaces")
    plain = palette.to_lab(image)
    lightness = np.ascontiguousarray(plain[..., 0])
    red = kerbs.red_mask(plain)
    boxes = stops.yellow_boxes(plain, found.space_area)
    del plain
    every = blob_stage.find_blobs(palette.fill_masks(lab, found), found, lightness)
    del lab
    gap = centreline.line_width(every, found.space_area)
    blobs = blob_stage.supported(every, gap)
    kept = {blob.centre for blob in blobs}
    spare = [blob for blob in every if blob.centre not in kept]
    clock.lap("blobs")

    stage(0.45, "following the road")
    length = space_length or 1.3 * math.sqrt(found.space_area)
    road = centreline.road_mask(blobs, image.shape[:2], gap, found.space_area)
    line, closed = centreline.centre_line(road, length)
    del road
    frame = RoadFrame(line)
    way = direction.driving_direction(blobs, frame)
    if not way.forward:
        frame = frame.reversed()
    clock.lap("road")

    stage(0.6, "fitting the lanes")
    placed = lanes.place(blobs, frame)
    width = lanes.lane_width(placed, gap)
    fit = lanes.fit_lanes(placed, frame, lanes_count, width, length / 2)
    clock.lap("lanes")
    return Survey(lightness=lightness, red=red, boxes=boxes, palette=found, blobs=blobs,
                  spare=spare, line_width=gap, space_length=length, frame=frame, closed=closed,
                  direction=way, placed=placed, fit=fit)


def _fills(image: Image, expected_area: float | None) -> tuple[palette.Lab, palette.Palette]:
    """The picture in Lab and its palette, from the picture as it is or slightly smoothed,
    whichever makes more blobs of one size.

    A JPEG scan's fills are speckled (compression noise, the print's own grain), which a
    light blur evens out; a small picture's lines between spaces are a pixel wide, which the
    same blur washes out. Trying both and keeping the better is cheaper than guessing which
    kind of picture this is.
    """
    best: tuple[palette.Lab, palette.Palette] | None = None
    error: TraceError | None = None
    smoothed = np.asarray(cv2.GaussianBlur(image, (3, 3), 0), dtype=np.uint8)
    for picture in (image, smoothed):
        lab = palette.to_lab(picture)
        try:
            found = palette.find_palette(lab, expected_area=expected_area)
        except TraceError as err:
            error = err
            continue
        if best is None or found.spaces_seen > best[1].spaces_seen:
            best = (lab, found)
    if best is None:
        assert error is not None
        raise error
    return best
