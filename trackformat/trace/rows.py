"""Each lane's spaces in driving order: blobs joined, split and gaps filled.

A lane is a row of spaces of about one length. The blobs of a lane mostly are its spaces, one
each, but not always: an arrow that cuts a space in two leaves two fragments (joined here),
a dividing line that did not print or was lost leaves one blob two spaces long (split here
into equal parts), and a space printed in another colour (the chequered finish line, a grid
number box) leaves a gap (filled here with spaces of the lane's local length). Every space
made rather than found carries a lower confidence and says how it was made.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
from shapely import make_valid
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from trackformat.trace.arrows import Arrow, read_arrow
from trackformat.trace.frame import Points, RoadFrame
from trackformat.trace.lanes import LaneFit, Placed

FRAGMENT = 0.45
"""Blobs of one lane whose centres are closer than this share of the lane's space length are
fragments of one space."""
TOO_LONG = 1.6
"""A blob longer than this many of its lane's spaces holds several."""
GAP = 1.5
"""Centres further apart than this many space lengths have a space missing between them."""
COVERED = 0.5
"""A space guessed into a gap is left out when the spaces either side cover more than this
share of it (the two slivers at Monaco's Loews hairpin: 74% and 90%)."""

PRINTED, JOINED, SPLIT, GUESSED = "printed", "joined", "split", "guessed"
"""How a space was found: one blob, fragments joined, part of a long blob, or a gap filled."""


@dataclass(frozen=True)
class TracedSpace:
    """A space of a lane as the tracer found it."""

    lane: int
    """0 is the driver's left lane."""
    s: float
    """Position of its middle along the lap."""
    length: float
    """Its length along the lap."""
    centre: tuple[float, float]
    outline: Points
    """The outline of its fill (the printed lines around it lie just outside)."""
    confidence: float
    """0 to 1: how sure the tracer is that this is a printed space, in this lane, here."""
    how: str
    """:data:`PRINTED`, :data:`JOINED`, :data:`SPLIT` or :data:`GUESSED`."""
    arrow: Arrow | None = None
    """The arrow read in it, for a space found whole with one in it."""


def blob_space(p: Placed, lane: int, fit: LaneFit, typical_area: float) -> TracedSpace:
    """The space of one blob; its confidence falls as it strays from its lane's middle and
    from a space's usual size."""
    off_middle = abs(fit.position(p.s, p.d) - lane)
    size = abs(np.log(max(p.blob.area, 1.0) / typical_area))
    confidence = float(np.clip(1.0 - 1.5 * off_middle - 0.5 * size, 0.05, 1.0))
    k = fit.frame.vertex(p.s)
    arrow = read_arrow(p.blob.ink, p.blob.centre, fit.frame.tangents[k], fit.frame.normals[k],
                       fit.width / 2, p.blob.area)
    return TracedSpace(lane=lane, s=p.s, length=p.back + p.front, centre=p.blob.centre,
                       outline=p.blob.shape, confidence=confidence, how=PRINTED, arrow=arrow)


def lane_row(spaces: Sequence[TracedSpace], frame: RoadFrame, fit: LaneFit,
             origin: float) -> list[TracedSpace]:
    """One lane's spaces in driving order from ``origin``, fragments joined, long blobs split
    and gaps filled.

    Parameters
    ----------
    spaces : list of TracedSpace
        The lane's blob spaces, in any order.
    frame : RoadFrame
        The centre line, in the driving direction.
    fit : LaneFit
        The lanes, for the outlines of spaces made to fill gaps.
    origin : float
        The position the lap starts from (the finish line). The row starts with the first
        space whose middle is no more than a quarter of a space behind it: a chequered band
        printed across a space's middle makes that space the lane's first, as the project's
        Monaco track reads the board.
    """
    row = sorted(spaces, key=lambda t: (t.s - origin) % frame.length)
    if len(row) < 3:
        return row
    row = _filled(_split(_joined(row, frame), frame), frame, fit)
    lead = 0.25 * float(np.median(_steps(row, frame)))
    first = min(range(len(row)), key=lambda k: (row[k].s - origin + lead) % frame.length)
    return row[first:] + row[:first]


def _steps(row: Sequence[TracedSpace], frame: RoadFrame) -> np.ndarray:
    """Distance from each space's middle to the next one's, round the lap."""
    s = np.array([t.s for t in row])
    return np.asarray(np.roll(s, -1) - s) % frame.length


def _local(values: np.ndarray, reach: int = 4) -> np.ndarray:
    """Each value's neighbourhood median (``reach`` either side, round the lap)."""
    count = len(values)
    index = (np.arange(count)[:, None] + np.arange(-reach, reach + 1)[None, :]) % count
    return np.asarray(np.median(values[index], axis=1))


def _joined(row: list[TracedSpace], frame: RoadFrame) -> list[TracedSpace]:
    """``row`` with fragments of one space joined into it."""
    typical = _local(_steps(row, frame))
    out: list[TracedSpace] = []
    for k, space in enumerate(row):
        if out and frame.ahead(space.s - out[-1].s) < FRAGMENT * typical[k]:
            out[-1] = union(out[-1], space, frame)
        else:
            out.append(space)
    if len(out) > 1 and frame.ahead(out[0].s - out[-1].s) < FRAGMENT * typical[0]:
        out[0] = union(out[-1], out[0], frame)
        out.pop()
    return out


def union(a: TracedSpace, b: TracedSpace, frame: RoadFrame) -> TracedSpace:
    """One space from two fragments: the convex hull of both (in ``a``'s lane)."""
    hull = Polygon(np.vstack([a.outline, b.outline])).convex_hull
    centre = (float(hull.centroid.x), float(hull.centroid.y))
    s, _ = frame.project(np.array([centre]))
    outline = np.asarray(hull.exterior.coords, dtype=np.float64)[:-1]
    return TracedSpace(lane=a.lane, s=float(s[0]), length=a.length + b.length, centre=centre,
                       outline=outline, confidence=0.7 * min(a.confidence, b.confidence),
                       how=JOINED)


def _split(row: list[TracedSpace], frame: RoadFrame) -> list[TracedSpace]:
    """``row`` with each blob several spaces long cut across into equal spaces."""
    typical = _local(np.array([t.length for t in row]))
    out: list[TracedSpace] = []
    for k, space in enumerate(row):
        parts = round(space.length / typical[k])
        if space.length > TOO_LONG * typical[k] and parts >= 2:
            out += cut(space, parts, frame)
        else:
            out.append(space)
    return out


def cut(space: TracedSpace, parts: int, frame: RoadFrame) -> list[TracedSpace]:
    """``space`` cut across the road into ``parts`` equal lengths."""
    shape = Polygon(space.outline)
    k = frame.vertex(space.s)
    tangent, normal = frame.tangents[k], frame.normals[k]
    centre = np.array(space.centre)
    along = (space.outline - centre) @ tangent
    back, front = float(along.min()), float(along.max())
    reach = 4.0 * (front - back) + 10.0
    pieces: list[TracedSpace] = []
    for j in range(parts):
        a = back + (front - back) * j / parts
        b = back + (front - back) * (j + 1) / parts
        band = Polygon([centre + tangent * a - normal * reach,
                        centre + tangent * b - normal * reach,
                        centre + tangent * b + normal * reach,
                        centre + tangent * a + normal * reach])
        piece = shape.intersection(band)
        if piece.is_empty or piece.geom_type != "Polygon":
            continue
        middle = (float(piece.centroid.x), float(piece.centroid.y))
        s, _ = frame.project(np.array([middle]))
        pieces.append(TracedSpace(
            lane=space.lane, s=float(s[0]), length=(front - back) / parts, centre=middle,
            outline=np.asarray(piece.exterior.coords, dtype=np.float64)[:-1],
            confidence=0.6 * space.confidence, how=SPLIT))
    return pieces if len(pieces) == parts else [space]


def _filled(row: list[TracedSpace], frame: RoadFrame, fit: LaneFit) -> list[TracedSpace]:
    """``row`` with spaces guessed into the gaps between spaces too far apart.

    A gap is the free road between the front of one space and the back of the next; it holds
    as many spaces of the lane's local length as fit (rounded), spread evenly over it. Centres
    further apart than :data:`GAP` steps are not enough: in a corner the spaces' lengths vary,
    and a space guessed between two long ones would overlap them.
    """
    steps = _steps(row, frame)
    typical = _local(steps)
    lengths = _local(np.array([t.length for t in row]))
    out: list[TracedSpace] = []
    for k, space in enumerate(row):
        out.append(space)
        ahead = row[(k + 1) % len(row)]
        start = space.s + space.length / 2
        free = steps[k] - space.length / 2 - ahead.length / 2
        missing = round(free / lengths[k])
        if steps[k] > GAP * typical[k] and free > 0.6 * lengths[k] and missing >= 1:
            length = free / missing
            around = (_valid(space.outline), _valid(ahead.outline))
            for j in range(missing):
                guess = guessed_space(space.lane, start + (j + 0.5) * length, length, frame,
                                      fit)
                if not _covered(guess, around):
                    out.append(guess)
    return out


def _covered(guess: TracedSpace, around: Sequence[Polygon]) -> bool:
    """Whether the spaces either side already cover much of ``guess`` (more than
    :data:`COVERED` of it): the gap along the lap is not free road there. At the apex of a
    hairpin the inside lane's space wraps round the bend, and its middle lies far from its
    neighbours' along the lap; the guesses filled into that seeming gap were thin slivers
    laid over it, each an overlap for the designer to delete."""
    shape = _valid(guess.outline)
    if shape.area <= 0:
        return True
    covered = sum(shape.intersection(other).area for other in around)
    return bool(covered > COVERED * shape.area)


def _valid(outline: Points) -> BaseGeometry:
    """The area inside ``outline``, mended where it crosses itself (a band guessed round a
    tight bend, a blob's traced edge)."""
    return make_valid(Polygon(outline))


def guessed_space(lane: int, s: float, length: float, frame: RoadFrame,
                  fit: LaneFit) -> TracedSpace:
    """A space where none was found: the lane's band between ``s ± length / 2``, drawn from
    the fitted lanes, with a low confidence for the designer to check."""
    return band_space(lane, s, length, fit.middle(lane, s), 0.9 * fit.width, frame)


def band_space(lane: int, s: float, length: float, middle: float, width: float,
               frame: RoadFrame) -> TracedSpace:
    """A guessed space of ``width`` whose middle lies ``middle`` to the right of the centre
    line, between ``s ± length / 2`` (a little shorter, so that it keeps off its neighbours)."""
    along = np.linspace(s - 0.45 * length, s + 0.45 * length, 5)
    left = [frame.point(t, middle - width / 2) for t in along]
    right = [frame.point(t, middle + width / 2) for t in along[::-1]]
    outline = np.array(left + right, dtype=np.float64)
    return TracedSpace(lane=lane, s=s % frame.length, length=length,
                       centre=frame.point(s, middle), outline=outline, confidence=0.2,
                       how=GUESSED)


def renumbered(space: TracedSpace, lane: int) -> TracedSpace:
    """``space`` moved to ``lane``."""
    return replace(space, lane=lane)
