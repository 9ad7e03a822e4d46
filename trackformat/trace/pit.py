"""The pit lane: a row of spaces beside the lanes near the finish line, off the lap.

Printed boards draw the pit lane as a row of spaces beside the main straight, on the pit side,
often narrower or in a lighter grey, with the team boxes beside it. Its spaces are blobs of the
fill colour like the lanes' own, but in no lane: the lane fit leaves them out, and most were set
aside as scenery already, since a row one space wide has one neighbour at each end and is peeled
from its ends (:attr:`~trackformat.trace.survey.Survey.spare`). So the pit lane is looked for
among the blobs in no lane: a chain of them, each a space or two ahead of the last, at about one
offset beyond the first or the last lane, passing within a few spaces of the finish line. A chain
shorter than :data:`MIN_SPACES` is no pit lane: none is made up where none is found.

The pit lane is a guess as a whole (the tracer cannot tell a pit lane from a service road drawn
in the same grey), so every space of it stays below the confidence the editor marks, and every
link of it is reported as guessed. The team boxes (coloured blocks) are not traced.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from trackformat.trace.frame import RoadFrame
from trackformat.trace.lanes import LaneFit, Placed
from trackformat.trace.rows import (
    FRAGMENT,
    GAP,
    GUESSED,
    TOO_LONG,
    TracedSpace,
    band_space,
    cut,
    union,
)

MIN_SPACES = 4
"""Fewest spaces in a chain that is taken for the pit lane."""
CLEAR = 0.1
"""Least distance of a pit space's middle beyond the outer lane's edge, in lane widths (a space
of the lane itself lies within 0.35 of its middle, 0.15 inside the edge)."""
REACH = 4.5
"""Greatest distance of a pit space's middle beyond the outer lane's edge, in lane widths: the
boxes may stand between the lanes and the pit lane (on Monaco it runs 2.7 lane widths out)."""
STEP = 2.6
"""Most space lengths from one space of the chain to the next (one may be missing)."""
SIDEWAYS = 0.6
"""Most drift sideways from one space of the chain to the next, in lane widths."""
NEAR_LINE = 3.0
"""The chain passes within this many space lengths of the finish line."""
CONFIDENCE = 0.4
"""A pit space's confidence at best: under the editor's mark (0.5), so every one is checked."""
DOORS = 2
"""Track spaces the pit lane is entered from and leads back onto: the one beside its end and
the next (a straight move and a diagonal, as boards allow)."""


@dataclass(frozen=True)
class PitRow:
    """The pit lane found beside the lanes."""

    spaces: list[TracedSpace]
    """Its spaces in driving order (their ``lane`` is the lane they run beside)."""
    beside: int
    """The lane it runs beside: 0 (on the driver's left) or the last lane (on the right)."""
    entry: list[int]
    """Indices in that lane's row of the spaces it is entered from."""
    exit: list[int]
    """Indices in that lane's row of the spaces it leads back onto."""


@dataclass(frozen=True)
class BesideBlob:
    """A blob in no lane, where it lies beside the lanes."""

    placed: Placed
    rel: float
    """Signed distance along the lap from the finish line (negative: behind it)."""
    beyond: float
    """Distance of its middle beyond the outer lane's edge on its side, in lane widths."""
    side: int
    """+1 beyond the last lane (the driver's right), -1 beyond the first."""


def beside_lanes(placed: Sequence[Placed], fit: LaneFit, origin: float) -> list[BesideBlob]:
    """The blobs lying beside the lanes (between :data:`CLEAR` and :data:`REACH` lane widths
    beyond the outer lane's edge, on either side), with where they lie."""
    if not placed:
        return []
    s = np.array([p.s for p in placed])
    x = fit.positions(s, np.array([p.d for p in placed]))
    rel = fit.frame.ahead(s - origin)
    edge = fit.count - 0.5
    cells: list[BesideBlob] = []
    for p, position, along in zip(placed, x, rel, strict=True):
        side = 1 if position > edge else -1 if position < -0.5 else 0
        beyond = position - edge if side > 0 else -0.5 - position
        if side and CLEAR <= beyond <= REACH:
            cells.append(BesideBlob(p, float(along), float(beyond), side))
    return cells


def chains(cells: Sequence[BesideBlob], length: float) -> list[list[BesideBlob]]:
    """The cells strung into chains along the lap: each cell joins the chain, on its side, whose
    last cell lies at most :data:`STEP` spaces behind it and :data:`SIDEWAYS` lane widths
    aside (the nearest such), or starts a chain of its own."""
    found: list[list[BesideBlob]] = []
    for cell in sorted(cells, key=lambda c: c.rel):
        fits = [chain for chain in found
                if chain[-1].side == cell.side
                and 0.0 <= cell.rel - chain[-1].rel <= STEP * length
                and abs(cell.beyond - chain[-1].beyond) <= SIDEWAYS]
        if fits:
            min(fits, key=lambda chain: cell.rel - chain[-1].rel).append(cell)
        else:
            found.append([cell])
    return found


def find_pit_lane(placed: Sequence[Placed], fit: LaneFit, origin: float,
                  lane_rows: Sequence[Sequence[TracedSpace]], length: float) -> PitRow | None:
    """The pit lane among the blobs in no lane, or None when there is none to find.

    Parameters
    ----------
    placed : list of Placed
        The blobs in no lane (set aside as scenery, or left out by the lane fit).
    fit : LaneFit
        The lanes along the lap.
    origin : float
        The finish line's position along the lap.
    lane_rows : list of lists of TracedSpace
        Each lane's spaces in driving order from the line: the entry and exit are among the
        outer lane's.
    length : float
        A space's length.
    """
    near = [chain for chain in chains(beside_lanes(placed, fit, origin), length)
            if len(chain) >= MIN_SPACES
            and chain[0].rel - NEAR_LINE * length <= 0.0 <= chain[-1].rel + NEAR_LINE * length]
    if not near:
        return None
    chain = max(near, key=lambda c: (len(c), -min(abs(c[0].rel), abs(c[-1].rel))))
    beside = fit.count - 1 if chain[0].side > 0 else 0
    spaces = pit_spaces(chain, beside, fit.frame, length)
    entry, exit_ = doors(lane_rows[beside], spaces, fit.frame, origin)
    return PitRow(spaces=spaces, beside=beside, entry=entry, exit=exit_)


def pit_spaces(chain: Sequence[BesideBlob], beside: int, frame: RoadFrame, length: float
               ) -> list[TracedSpace]:
    """The chain as spaces in driving order: fragments of one space joined, a blob several
    spaces long cut across (where the pit lane runs into the road at its ends), and a space
    guessed where one is missing between two, each marked a guess."""
    spaces = [TracedSpace(lane=beside, s=c.placed.s, length=c.placed.back + c.placed.front,
                          centre=c.placed.blob.centre, outline=c.placed.blob.shape,
                          confidence=CONFIDENCE, how=GUESSED) for c in chain]
    rel = np.array([c.rel for c in chain])
    steps = np.diff(rel)
    apart = steps[steps >= FRAGMENT * length]
    typical = float(np.median(apart)) if len(apart) else length
    joined: list[TracedSpace] = []
    for k, space in enumerate(spaces):
        if joined and steps[k - 1] < FRAGMENT * typical:
            joined[-1] = union(joined[-1], space, frame)
        else:
            joined.append(space)
    usual = float(np.median([space.length for space in joined]))
    whole: list[TracedSpace] = []
    for space in joined:
        parts = round(space.length / usual)
        whole += cut(space, parts, frame) if space.length > TOO_LONG * usual else [space]
    width = float(np.median([c.placed.across for c in chain]))
    out: list[TracedSpace] = []
    for space in whole:
        if out:
            previous = out[-1]
            gap = float(frame.ahead(space.s - previous.s))
            missing = round(gap / typical) - 1
            if gap > GAP * typical and missing >= 1:
                _, offsets = frame.project(np.array([previous.centre, space.centre]))
                share = gap / (missing + 1)
                for j in range(1, missing + 1):
                    middle = float(offsets[0] + (offsets[1] - offsets[0]) * j / (missing + 1))
                    out.append(band_space(beside, previous.s + j * share, share, middle, width,
                                          frame))
        out.append(space)
    return [replace(space, how=GUESSED, confidence=min(space.confidence, CONFIDENCE))
            for space in out]


def doors(row: Sequence[TracedSpace], pit: Sequence[TracedSpace], frame: RoadFrame,
          origin: float) -> tuple[list[int], list[int]]:
    """Where the pit lane leaves and rejoins the lane ``row`` beside it: from the last
    :data:`DOORS` spaces of the lane whose middle lies behind the pit lane's first space, behind
    the line; onto the first :data:`DOORS` whose middle lies ahead of its last space, past the
    line (a car moves forward in and out; the pit lane leaves before the finish line and
    rejoins after it, as the validator wants). Ahead and behind are by a quarter of a space at
    least, so that a move is never sideways."""
    count = len(row)
    if count < 2 or not pit:
        return [], []
    rel = [float(frame.ahead(space.s - origin)) for space in row]
    step = float(np.median(np.diff(np.unwrap(
        np.array([space.s for space in row]), period=frame.length))))
    first = float(frame.ahead(pit[0].s - origin))
    last = float(frame.ahead(pit[-1].s - origin))
    behind = [k for k in range(count // 2, count) if rel[k] <= first - step / 4]
    ahead = [k for k in range(count // 2) if rel[k] >= last + step / 4]
    entry = sorted(behind, key=lambda k: rel[k])[-DOORS:]
    exit_ = sorted(ahead, key=lambda k: rel[k])[:DOORS]
    return entry, exit_


__all__ = ["BesideBlob", "PitRow", "beside_lanes", "chains", "doors", "find_pit_lane",
           "pit_spaces"]
