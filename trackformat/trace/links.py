"""The moves between traced spaces: straight on along each lane, and the lane changes the
board's geometry allows.

The geometry is the builder's own rule (:func:`~trackformat.builder.straight_rule`): a car
moves to the next space of its lane, or diagonally into the nearest space ahead of it in a
neighbouring lane that its own space touches. Running the builder's rule on traced spaces makes
the draft's links the same links a designer would get from the builder, so the two tools agree.
"""

from __future__ import annotations

from collections.abc import Sequence

from trackformat.builder import SpaceShape, straight_rule
from trackformat.builder.links import LinkPair
from trackformat.builder.track import MIN_STEP, TOUCH
from trackformat.trace.arrows import Arrow
from trackformat.trace.rows import TracedSpace

Polygon2 = tuple[tuple[float, float], ...]


def space_shapes(rows: Sequence[Sequence[TracedSpace]], outlines: Sequence[Sequence[Polygon2]],
                 lane_ids: Sequence[str]) -> list[list[SpaceShape]]:
    """The builder's shapes of the traced spaces, lane by lane.

    ``outlines`` are the spaces' published outlines (which meet their neighbours'), and a
    space's ``start`` and ``end`` are its ends along the lap, as the builder's rule wants.
    """
    shapes: list[list[SpaceShape]] = []
    for lane_id, row, row_outlines in zip(lane_ids, rows, outlines, strict=True):
        shapes.append([
            SpaceShape(strip=lane_id, index=i, polygon=outline, centre=space.centre,
                       heading=0.0, start=space.s - space.length / 2,
                       end=space.s + space.length / 2)
            for i, (space, outline) in enumerate(zip(row, row_outlines, strict=True))
        ])
    return shapes


def geometry_links(shapes: Sequence[Sequence[SpaceShape]], ids: Sequence[Sequence[str]], *,
                   lap: float, lane_width: float) -> list[LinkPair]:
    """Every move of the straight rule between the traced spaces.

    Parameters
    ----------
    shapes : list of lists of SpaceShape
        Each lane's spaces in driving order, the driver's left lane first.
    ids : list of lists of str
        Their ids, alike.
    lap : float
        Length of the lap along the frame, for moves across the finish line.
    lane_width : float
        Width of a lane in pixels: the builder's tolerances are shares of it.
    """
    return straight_rule(shapes, ids, loop=lap, min_step=lane_width * MIN_STEP,
                         touch=lane_width * TOUCH)


def near_corners(ids: Sequence[Sequence[str]], corner_spaces: set[str], reach: int = 2
                 ) -> set[str]:
    """The corners' spaces and the ``reach`` spaces of the same lane either side of them:
    where a board prints arrows."""
    near: set[str] = set()
    for row in ids:
        count = len(row)
        for k, space_id in enumerate(row):
            if space_id in corner_spaces:
                near.update(row[(k + step) % count] for step in range(-reach, reach + 1))
    return near


def read_lane_changes(links: Sequence[LinkPair], lane_of: dict[str, int],
                      arrows: dict[str, Arrow | None], zone: set[str]
                      ) -> tuple[list[LinkPair], list[LinkPair]]:
    """``links`` with the lane changes of the arrow ``zone`` (the spaces in and near corners)
    as the arrows read there allow, and the lane changes kept there without an arrow read.

    Straight moves and lane changes outside the zone are kept as they are. In the zone, a lane
    change from a space whose arrow was read is kept when the arrow forks to that side and
    dropped when it does not; one from a space whose arrow (or that side of it) could not be
    read is kept as the geometry laid it, and returned among the guesses.
    """
    kept: list[LinkPair] = []
    guessed: list[LinkPair] = []
    for a, b in links:
        here, there = lane_of.get(a), lane_of.get(b)
        if here is None or there is None or here == there or a not in zone:
            kept.append((a, b))
            continue
        arrow = arrows.get(a)
        allowed = None if arrow is None else arrow.left if there < here else arrow.right
        if allowed is None:
            kept.append((a, b))
            guessed.append((a, b))
        elif allowed:
            kept.append((a, b))
    return kept, guessed
