"""The lane changes the arrows printed in a space allow, read from the arrow's shape.

In and near corners, each space carries an arrow: straight on only, or forked, one head
straight on and one bending into the next lane on the left or on the right. Seen along the
road, a forked arrow's ink reaches far to one side in the front part of the space, where a
straight arrow's stays near the middle; on Monaco's scan the front ink of a fork reaches about
three quarters of the way to the space's side, a straight arrow's a quarter. So the front ink's
reach to each side, as a share of half the lane's width, says where the arrow forks.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from trackformat.trace.frame import Points

MIN_INK = 0.03
"""A space holds an arrow when at least this share of it is ink."""
FORK = 0.45
"""Front ink reaching further than this share of half a lane's width to a side is a head
bending into the lane on that side."""
STRAIGHT = 0.36
"""Front ink reaching no further than this share is no head bending to that side; between
the two, the arrow cannot be read on that side (small pictures draw heads a few pixels
wide)."""
FRONT = 60
"""The front of an arrow: its ink beyond this percentile along the road."""


@dataclass(frozen=True)
class Arrow:
    """What an arrow allows besides straight on (None: that side could not be read)."""

    left: bool | None
    """A lane change into the lane on the driver's left."""
    right: bool | None
    """A lane change into the lane on the driver's right."""


def read_arrow(ink: Points, centre: tuple[float, float], tangent: np.ndarray,
               normal: np.ndarray, half_width: float, area: float) -> Arrow | None:
    """The arrow of a space, or None when the space holds too little ink to have one.

    Parameters
    ----------
    ink : (N, 2) array
        The ink pixels inside the space.
    centre : (x, y)
        The space's centre.
    tangent, normal : (2,) arrays
        The road's direction and its right there.
    half_width : float
        Half a lane's width, in pixels.
    area : float
        The space's area, in pixels.
    """
    if len(ink) < max(8.0, MIN_INK * area):
        return None
    offset = ink - np.asarray(centre)
    along, across = offset @ tangent, offset @ normal
    front = across[along >= np.percentile(along, FRONT)]
    return Arrow(left=_side(float(-front.min()) / half_width),
                 right=_side(float(front.max()) / half_width))


def _side(reach: float) -> bool | None:
    """Whether a head bends to a side the front ink reaches ``reach`` half-widths into."""
    if reach > FORK:
        return True
    if reach <= STRAIGHT:
        return False
    return None
