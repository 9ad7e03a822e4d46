"""A stretch of road: the lanes of an open piece of track, from a centre line clicked by hand.

The editor's lane tool calls this: a designer clicks along the middle of a stretch of printed road,
chooses the lanes, their spacing, how many spaces each lane has (or how long a space is), how far
each lane is staggered, and gets the spaces (outlines that tile the road, with centres and
headings) and the moves between them by the straight rule, from the same road, cutting and
linking code as whole circuits.

A stretch may start where earlier lanes end (:class:`StretchStart`): its road then leaves square
from their end cut, in their direction, so the new spaces meet the old ones edge to edge even
when the road bends right after the join. A staggered lane runs past the end of the clicked line
by its stagger (straight on), which is where the next stretch picks it up.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import pairwise

from shapely import STRtree
from shapely.geometry import Polygon

from trackformat.builder.cutting import lane_offsets
from trackformat.builder.errors import BuildError
from trackformat.builder.lanes import Strip, even_cuts, shape_strips
from trackformat.builder.links import straight_rule
from trackformat.builder.road import Point, Road, limit_curvature, smooth_line
from trackformat.builder.track import MIN_STEP, TOUCH
from trackformat.model.track import Link, Space, SpaceKind

EPSILON = 0.01
"""How far (px) behind a join's entry the smooth line is aimed from, so it leaves straight on."""

FOLD_SHARE = 0.02
"""Two spaces of a stretch that overlap by more than this share of the smaller one fold over
each other (see :meth:`Stretch.folds`); less is rounding where they share an edge."""


@dataclass(frozen=True)
class Stretch:
    """What the lane tool adds: spaces lane by lane (from the driver's left) and their links."""

    lanes: tuple[tuple[Space, ...], ...]
    links: tuple[Link, ...]
    space_lengths: tuple[float, ...] = ()
    """Each lane's length of a space along its own line, in px (what the designer reads back)."""
    folded: frozenset[str] = frozenset()
    """Ids of the spaces where an edge of their lane runs backwards (see :meth:`folds`)."""

    @property
    def spaces(self) -> list[Space]:
        return [space for lane in self.lanes for space in lane]

    @property
    def counts(self) -> list[int]:
        """Spaces in each lane, from the left."""
        return [len(lane) for lane in self.lanes]

    def folds(self) -> list[Space]:
        """The spaces that cross themselves or lie over another space of the stretch.

        Where the road turns tighter than its lanes can follow, the inside edge of the road runs
        backwards and a space of the inside lane, cut square across the road at both ends, has
        its two cuts cross: it folds over itself (or over its neighbour); and a hairpin narrower
        than the road lays its way back over its way out. Such spaces cannot be printed; the
        designer must widen the bend or lay fewer lanes. Spaces that only share an edge (up to
        :data:`FOLD_SHARE` of the smaller one's area, for rounding) do not count.
        """
        outlines = [Polygon(space.polygon) for space in self.spaces]
        folded = {k for k, (space, outline) in enumerate(zip(self.spaces, outlines, strict=True))
                  if space.id in self.folded or not outline.is_valid}
        tree = STRtree(outlines)
        for i, j in zip(*tree.query(outlines, predicate="intersects"), strict=True):
            if i >= j or i in folded or j in folded:
                continue
            a, b = outlines[i], outlines[j]
            if a.intersection(b).area > FOLD_SHARE * min(a.area, b.area):
                folded |= {int(i), int(j)}
        return [space for k, space in enumerate(self.spaces) if k in folded]


@dataclass(frozen=True)
class StretchStart:
    """The end cut of earlier lanes that a stretch continues from.

    ``point`` is the middle of the road on the rearmost of those lanes' end cuts and
    ``direction`` the way they run there (a unit vector, square to the cut); ``lanes`` gives, for
    lanes of the stretch (by position from the left) that continue an earlier lane, how far
    ahead of ``point`` that lane's end cut lies (a staggered lane ends further on).
    """

    point: Point
    direction: Point
    lanes: Mapping[int, float] = field(default_factory=dict)


@dataclass(frozen=True)
class StretchEnd:
    """The start cut of lanes already laid that a stretch ends on: the stretch closes the lap.

    ``point`` is the middle of the road on the rearmost of those lanes' start cuts (behind their
    first spaces) and ``direction`` the way they run there; ``lanes`` gives, for lanes of the
    stretch (by position from the left) that end on a lane's start, how far ahead of ``point``
    that start lies (a staggered lane starts further on). The road arrives straight along
    ``direction``, and each of those lanes ends exactly on its start cut: a whole number of
    spaces is fitted in, each a little longer or shorter than asked, so the last space of the lap
    meets the first edge to edge, staggered as the start is.
    """

    point: Point
    direction: Point
    lanes: Mapping[int, float] = field(default_factory=dict)


def build_stretch(
    centre_line: Sequence[Point],
    lane_ids: Sequence[str],
    spacing: float,
    spaces_per_lane: Sequence[int] | None,
    *,
    names: Sequence[Sequence[str]] | None = None,
    single_arrow: Collection[str] = (),
    smoothing: int = 8,
    space_length: float | None = None,
    stagger: Sequence[float] = (),
    start: StretchStart | None = None,
    end: StretchEnd | None = None,
) -> Stretch:
    """Lanes along an open centre line (board pixels, in the driving direction).

    ``spaces_per_lane[k]`` spaces are cut evenly along lane ``k``'s own line (so the inside of a
    bend gets shorter spaces when it has fewer); with ``space_length`` instead, each lane gets as
    many spaces of about that length as fit its own line. ``stagger[k]`` (a share of a space, 0
    to under 1) shifts lane ``k``'s spaces forward: it starts and ends that much further on. A
    staggered stretch is cut square across the road, the same number of spaces in every lane,
    so that the stagger holds round a bend (see :func:`_square_count`).
    ``start`` joins the stretch to earlier lanes (see :class:`StretchStart`); its first point
    replaces the first clicked point. ``end`` closes the lap on the start of the lanes (see
    :class:`StretchEnd`); its point replaces the last clicked point. Space ids default to
    ``<lane>-s<number>``; ``names`` gives them explicitly, lane by lane. Raises
    :class:`BuildError` saying what is wrong.
    """
    count = len(lane_ids)
    if not 1 <= count <= 4:
        raise BuildError(f"a stretch has 1 to 4 lanes, not {count}")
    if space_length is None:
        if spaces_per_lane is None or len(spaces_per_lane) != count:
            raise BuildError("give a number of spaces for every lane")
        if any(n < 1 for n in spaces_per_lane):
            raise BuildError("every lane needs at least one space")
    elif not space_length > 0:
        raise BuildError(f"a space length must be positive, got {space_length:g}")
    if spacing <= 0:
        raise BuildError(f"lane spacing must be positive, got {spacing:g}")
    shares = list(stagger) or [0.0] * count
    if len(shares) != count:
        raise BuildError(f"give a stagger for every one of the {count} lanes")
    if any(not 0 <= share < 1 for share in shares):
        raise BuildError("a lane's stagger is a share of a space, from 0 to under 1")
    points = [(float(x), float(y)) for x, y in centre_line]
    if len(points) < 2:
        raise BuildError("click at least two points along the middle of the road")
    offsets = lane_offsets(count, spacing)
    wanted = [] if space_length else list(spaces_per_lane or [])
    # Room past the last click for the staggered lanes: their stagger of the longest space the
    # outside lane could have.
    clicked = sum(math.dist(a, b) for a, b in pairwise(points))
    longest = space_length or 2 * (clicked + count * spacing) / min(wanted)
    lead = 0.0
    if start is not None:
        lead = max([*start.lanes.values(), 0.0]) + spacing / 4
    closing = dict(end.lanes) if end is not None else {}
    road, finish = _road(points, (start, lead), (end, spacing / 2), smoothing,
                         count * spacing / 2 + spacing / 20,
                         overhang=max(max(shares) * longest, *closing.values(), 0.0) + spacing)

    square = _square_count(finish, space_length, wanted, shares)
    strips = []
    for k, (lane, offset) in enumerate(zip(lane_ids, offsets, strict=True)):
        span = road.lane_distance(offset, finish) - road.lane_distance(offset, 0.0)
        if square:
            per_space = finish / square
        else:
            per_space = space_length if space_length else span / wanted[k]
        first = start.lanes[k] if start is not None and k in start.lanes else (
            shares[k] * per_space)
        last = finish + (closing[k] if k in closing else shares[k] * per_space)
        if last <= first:
            raise BuildError(f"lane {lane}: the road ends before the lane starts; click further")
        if square:
            # Cut square across the road, at equal steps of its middle line: side by side, the
            # lanes' cuts stay level (or a staggered lane's half a space on) round a bend too.
            strips.append(Strip(lane, offset, spacing, tuple(
                first + (last - first) * i / square for i in range(square + 1))))
            continue
        if space_length:
            length = road.lane_distance(offset, last) - road.lane_distance(offset, first)
            spaces = max(1, round(length / space_length))
        else:
            spaces = wanted[k]
        strips.append(Strip(lane, offset, spacing,
                            tuple(even_cuts(road, offset, first, last, spaces))))
    shapes = shape_strips(road, strips)
    rows = [shapes[lane] for lane in lane_ids]
    ids = (
        [list(row) for row in names]
        if names is not None
        else [[f"{lane}-s{index + 1}" for index in range(len(shapes[lane]))] for lane in lane_ids]
    )
    if [len(r) for r in ids] != [len(r) for r in rows]:
        raise BuildError("give one name per space of every lane")
    pairs = straight_rule(
        rows,
        ids,
        loop=None,
        min_step=spacing * MIN_STEP,
        touch=spacing * TOUCH,
        single_arrow=single_arrow,
    )
    lanes = tuple(
        tuple(
            Space(
                id=space_id,
                kind=SpaceKind.TRACK,
                lane=lane,
                polygon=list(shape.polygon),
                centre=shape.centre,
                heading=shape.heading,
            )
            for shape, space_id in zip(row, row_ids, strict=True)
        )
        for lane, row, row_ids in zip(lane_ids, rows, ids, strict=True)
    )
    lengths = tuple(
        (road.lane_distance(strip.offset, strip.cuts[-1])
         - road.lane_distance(strip.offset, strip.cuts[0])) / (len(strip.cuts) - 1)
        for strip in strips
    )
    folded = frozenset(
        space_id
        for strip, row_ids in zip(strips, ids, strict=True)
        for where in road.folds(strip.left) + road.folds(strip.right)
        for (a, b), space_id in zip(pairwise(strip.cuts), row_ids, strict=True)
        if a <= where <= b
    )
    return Stretch(lanes, tuple(Link(**{"from": a, "to": b}) for a, b in pairs), lengths,
                   folded)


def _square_count(
    finish: float, space_length: float | None, wanted: Sequence[int], shares: Sequence[float]
) -> int:
    """How many spaces every lane of a staggered stretch gets, or 0 when the stretch is not cut
    square across the road.

    Staggered lanes keep their offset only if they have as many spaces as each other, cut at the
    same steps along the road: with each lane cut to fit its own line, the inside of a bend gets
    a space fewer and the stagger drifts until a lane change lands level or a whole space on. So
    a staggered stretch (with one space length, or one number of spaces for every lane) gets the
    same number of spaces in every lane, cut square across the road: longer on the outside of a
    bend, shorter on the inside, as printed boards have them.
    """
    if not any(shares):
        return 0
    if space_length:
        return max(1, round(finish / space_length))
    if len(set(wanted)) == 1:
        return wanted[0]
    return 0


def _road(
    points: list[Point],
    joined: tuple[StretchStart | None, float],
    closed: tuple[StretchEnd | None, float],
    smoothing: int,
    min_radius: float,
    *,
    overhang: float,
) -> tuple[Road, float]:
    """The stretch's road, and the position on it of the last clicked point (or, closing the
    lap, of the end's point).

    ``joined`` is the start the stretch continues from, if any, and the ``lead`` it leaves
    straight for; ``closed`` the lane starts it ends on, if any, and the ``lag`` before their
    point where it comes onto their line. At a join the road starts at the join's point and runs
    straight on in its direction for ``lead`` px (past every earlier lane's staggered end), then
    bends towards the clicks, leaving that straight without a kink. Closing the lap, the smooth
    line through the clicks is aimed to arrive ``lag`` px before the end's point in the end's
    direction, then runs on to that point. Past the last click (or the end's point) it runs
    straight on for ``overhang`` px, for staggered lanes to end on. The road's direction is
    pinned at the join's point and entry, at the end's point and on the straight past the end,
    so an earlier stretch's staggered ends and the next stretch's starts lie on the same
    straight line, square to the cuts they meet. Not where it comes onto the end's line: the
    bend there was widened by the curvature limit, and a direction pinned against it would fold
    the inside edge of the road over the last few pixels.
    """
    start, lead = joined
    end, lag = closed
    knots = list(points)
    head: list[Point] = []
    tail: list[Point] = []
    before: list[Point] = []
    after: list[Point] = []
    if start is not None:
        (x, y), (dx, dy) = start.point, start.direction
        knots[0] = (x + lead * dx, y + lead * dy)
        head = [start.point]
        # A point just behind the entry makes the smooth line leave it in the join's direction.
        before = [(knots[0][0] - EPSILON * dx, knots[0][1] - EPSILON * dy)]
    if end is not None:
        (x, y), (dx, dy) = end.point, end.direction
        knots[-1] = (x - lag * dx, y - lag * dy)
        tail = [end.point]
        # And one just past the exit makes it arrive there in the end's direction.
        after = [(knots[-1][0] + EPSILON * dx, knots[-1][1] + EPSILON * dy)]
    if start is not None and math.dist(knots[0], knots[1]) < lead / 2:
        raise BuildError("click further from the lane ends the stretch joins")
    if end is not None and math.dist(knots[-1], knots[-2]) < lag / 2:
        raise BuildError("click further from the lane starts the stretch closes onto")
    if smoothing > 1 and (len(knots) > 2 or before or after):
        dense = smooth_line([*before, *knots, *after], closed=False, samples=smoothing)
        # Drop the pieces towards the helper points: knot j is vertex j * smoothing.
        dense = dense[len(before) * smoothing : len(dense) - len(after) * smoothing]
    else:
        dense = knots
    dense = limit_curvature(dense, closed=False, min_radius=min_radius)
    if end is not None:
        ending = end.direction
    else:
        (ax, ay), (bx, by) = dense[-2], dense[-1]
        norm = math.hypot(bx - ax, by - ay)
        if norm == 0:
            raise BuildError("the last two points of the road are the same")
        ending = ((bx - ax) / norm, (by - ay) / norm)
    line = [*head, *dense, *tail]
    bx, by = line[-1]
    line.append((bx + overhang * ending[0], by + overhang * ending[1]))
    last = len(line) - 2
    directions = {last: ending, last + 1: ending}
    if start is not None:
        directions.update({0: start.direction, 1: start.direction})
    road = Road(line, closed=False, directions=directions)
    return road, road.positions[last]
