"""Where a stretch of lanes meets lanes already laid: the cuts at their open ends, the line across
the road those cuts make, and the moves across the join.

The lane tool lays a circuit stretch by stretch. A stretch starts where earlier lanes stop (on the
cut ahead of their last spaces), and the stretch that comes round to the start ends where the
lanes start (on the cut behind their first spaces), closing the lap. Both ends work alike: the
cuts of the lanes met give the middle of the road, the way it runs there and how far ahead each
staggered lane's cut lies; and the moves across the join are those of the straight rule, found
from the outlines, since the spaces on either side were cut on different roads.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from shapely.geometry import Polygon

from trackformat.builder.errors import BuildError
from trackformat.builder.road import Point
from trackformat.builder.track import MIN_STEP, TOUCH
from trackformat.model.track import Link, Space

Cut = tuple[Point, Point]
"""A cut straight across a lane, from its left end to its right end as the driver sees it."""


def front_cut(space: Space) -> Cut:
    """The cut ahead of a space: the side of its outline that lies furthest ahead among those
    running across the space (within 45 degrees of square to its heading)."""
    heading = math.radians(space.heading)
    ahead = (math.cos(heading), math.sin(heading))
    polygon = [(float(x), float(y)) for x, y in space.polygon]
    best: tuple[float, Point, Point] | None = None
    for a, b in zip(polygon, polygon[1:] + polygon[:1], strict=True):
        dx, dy = b[0] - a[0], b[1] - a[1]
        length = math.hypot(dx, dy)
        if length == 0 or abs(dx * ahead[0] + dy * ahead[1]) > length * math.sqrt(0.5):
            continue
        reach = ((a[0] + b[0]) / 2 - space.centre[0]) * ahead[0] + (
            (a[1] + b[1]) / 2 - space.centre[1]) * ahead[1]
        if best is None or reach > best[0]:
            best = (reach, a, b)
    if best is None:
        raise BuildError(f"space {space.id} has no side across it to join")
    _, a, b = best
    # Left to right: the driver's right is (-ahead.y, ahead.x) with y pointing down.
    if (b[0] - a[0]) * -ahead[1] + (b[1] - a[1]) * ahead[0] < 0:
        a, b = b, a
    return a, b


def back_cut(space: Space) -> Cut:
    """The cut behind a space, from its left end to its right end as the driver sees it: the
    front cut of the space turned round, its ends swapped back."""
    turned = space.model_copy(update={"heading": (space.heading + 180.0) % 360.0})
    right, left = front_cut(turned)
    return left, right


def middle(cut: Cut) -> Point:
    (ax, ay), (bx, by) = cut
    return ((ax + bx) / 2, (ay + by) / 2)


@dataclass(frozen=True)
class CutLine:
    """The line across the road that the open ends of some lanes lie on.

    ``point`` is the middle of the road on the rearmost of their cuts, ``direction`` the way the
    lanes run there (a unit vector, square to the cuts), and ``ahead`` how far ahead of ``point``
    each lane's cut lies, by lane position from the left (a staggered lane's by part of a space).
    """

    point: Point
    direction: Point
    ahead: dict[int, float]


def cut_line(cuts: Mapping[int, Cut], offsets: Sequence[float]) -> CutLine:
    """The line of the ``cuts`` of lanes at ``offsets`` (by lane position): the way across is the
    mean of the cuts', and the middle of the road lies where each lane's offset puts it."""
    across = [(right[0] - left[0], right[1] - left[1]) for left, right in cuts.values()]
    rx, ry = sum(a[0] for a in across), sum(a[1] for a in across)
    norm = math.hypot(rx, ry)
    if norm == 0:
        raise BuildError("the lanes met run different ways; join them one stretch at a time")
    right_way = (rx / norm, ry / norm)
    direction = (right_way[1], -right_way[0])
    middles = {k: middle(cut) for k, cut in cuts.items()}
    along = {k: m[0] * direction[0] + m[1] * direction[1] for k, m in middles.items()}
    side = sum(m[0] * right_way[0] + m[1] * right_way[1] - offsets[k]
               for k, m in middles.items()) / len(middles)
    base = min(along.values())
    point = (side * right_way[0] + base * direction[0], side * right_way[1] + base * direction[1])
    return CutLine(point, direction, {k: along[k] - base for k in cuts})


def lanes_entered(spaces: Iterable[Space], links: Iterable[Link]) -> dict[str, set[str | None]]:
    """The lanes each space already has a move into, by space id."""
    lane_of = {s.id: s.lane for s in spaces}
    entered: dict[str, set[str | None]] = {}
    for link in links:
        entered.setdefault(link.from_, set()).add(lane_of.get(link.to))
    return entered


def join_links(
    behind: Mapping[int, Space],
    ahead: Mapping[int, Space],
    entered: Mapping[str, set[str | None]],
    spacing: float,
) -> list[Link]:
    """The moves across a join, from the last spaces before it (``behind``, by lane position) to
    the first ones after it (``ahead``): straight on into the same lane, and diagonally into a
    next lane's first space where it touches and lies ahead (the straight rule), unless the space
    behind already has a move into that lane (``entered``, see :func:`lanes_entered`).

    On staggered lanes that is the lane half a space behind moving into the next lane's last
    space before the join (a move it has already), and the lane half a space ahead moving across
    onto the next lane's first space after it; on level lanes, every lane moving diagonally onto
    the first space after the join: the same moves as anywhere along the stretch.
    """
    links = []
    for position, last in behind.items():
        if position in ahead:
            links.append(Link(**{"from": last.id, "to": ahead[position].id}))
        heading = math.radians(last.heading)
        outline = Polygon(last.polygon)
        for other in (position - 1, position + 1):
            first = ahead.get(other)
            if first is None or first.lane in entered.get(last.id, set()):
                continue
            forward = ((first.centre[0] - last.centre[0]) * math.cos(heading)
                       + (first.centre[1] - last.centre[1]) * math.sin(heading))
            if (forward >= MIN_STEP * spacing
                    and outline.distance(Polygon(first.polygon)) <= TOUCH * spacing):
                links.append(Link(**{"from": last.id, "to": first.id}))
    return links
