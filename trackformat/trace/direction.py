"""Which way the lap is driven, read from the arrows printed in the spaces.

The centre line has no direction of its own. The arrows printed in and near corners do: an
arrowhead is wider than its shaft, so the ink of an arrow spreads further sideways at its
front than at its back. Each space with enough ink votes with the correlation between how far
ahead a pixel is and how far it lies from the arrow's axis; the votes are summed over the board,
so grid numbers and stray marks (which vote at random) cancel out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from trackformat.trace.blobs import Blob
from trackformat.trace.frame import RoadFrame

MIN_INK_SHARE = 0.03
"""A space votes when at least this share of it is ink: an arrow, not a speck of dust."""


@dataclass(frozen=True)
class Direction:
    """The result of the vote."""

    forward: bool
    """True when the lap runs the way the frame's positions grow."""
    confidence: float
    """The summed vote over the summed weight, 0 (a coin toss) to 1 (every arrow agrees)."""
    voters: int
    """How many spaces voted."""


def arrow_vote(ink_along: np.ndarray, ink_across: np.ndarray) -> float:
    """One space's vote: the correlation, over its ink pixels, between how far ahead a pixel
    is and how far it lies from the ink's axis (+1: the heads point forward).

    Parameters
    ----------
    ink_along, ink_across : 1-D float arrays
        The ink pixels' offsets along the road and across it, from any origin.
    """
    if len(ink_along) < 8:
        return 0.0
    spread = np.abs(ink_across - np.median(ink_across))
    a = ink_along - ink_along.mean()
    b = spread - spread.mean()
    scale = float(np.sqrt((a @ a) * (b @ b)))
    return float(a @ b) / scale if scale > 0 else 0.0


def driving_direction(blobs: Sequence[Blob], frame: RoadFrame) -> Direction:
    """Whether the lap runs along ``frame`` or against it, by the arrows of ``blobs``."""
    total, weight, voters = 0.0, 0.0, 0
    for blob in blobs:
        if len(blob.ink) < MIN_INK_SHARE * blob.area:
            continue
        k = frame.nearest(np.array([blob.centre]))[0]
        offset = blob.ink - np.array(blob.centre)
        vote = arrow_vote(offset @ frame.tangents[k], offset @ frame.normals[k])
        strength = np.sqrt(len(blob.ink))
        total += vote * strength
        weight += abs(vote) * strength
        voters += 1
    if weight == 0:
        return Direction(forward=True, confidence=0.0, voters=0)
    return Direction(forward=bool(total >= 0), confidence=float(abs(total) / weight),
                     voters=voters)
