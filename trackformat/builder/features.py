"""What is printed on the lanes: corners, finish line, start grid, pit lane and team boxes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import pairwise

from trackformat.builder.errors import BuildError
from trackformat.builder.lanes import Strip, even_cuts
from trackformat.builder.links import LinkPair
from trackformat.builder.plan import CornerPlan, PitPlan, SpaceRef
from trackformat.builder.road import Road
from trackformat.model.track import Corner, FinishLine, Link, PitLane


class SpaceNames:
    """Ids of track spaces, ``"<lane>-<index>"`` with the index zero-padded to one width.

    Padding keeps the ids of a lane in driving order when sorted as text ("1-009" before
    "1-010"), which is how they appear in files, diffs and the editor's lists.
    """

    def __init__(self, counts: Mapping[str, int]) -> None:
        self.counts = dict(counts)
        longest = max(self.counts.values(), default=1)
        self.width = len(str(max(longest - 1, 0)))

    def __call__(self, lane: str, index: int) -> str:
        return f"{lane}-{index:0{self.width}d}"

    def ref(self, ref: SpaceRef, what: str) -> str:
        """The id of ``ref``, or a :class:`BuildError` naming ``what`` referred to it."""
        lane, index = ref
        if lane not in self.counts:
            raise BuildError(f"{what}: no lane {lane!r} (lanes are {', '.join(self.counts)})")
        if not 0 <= index < self.counts[lane]:
            raise BuildError(
                f"{what}: lane {lane} has spaces 0..{self.counts[lane] - 1}, not {index}"
            )
        return self(lane, index)


def corner(plan: CornerPlan, names: SpaceNames) -> Corner:
    """The corner with every space of its lane ranges, lane by lane in driving order."""
    spaces: list[str] = []
    for lane, (first, last) in plan.ranges.items():
        if last < first:
            raise BuildError(f"corner {plan.id}: lane {lane} range {first}..{last} runs backwards")
        what = f"corner {plan.id}"
        spaces += [names.ref((lane, index), what) for index in range(first, last + 1)]
    return Corner(
        id=plan.id,
        name=plan.name,
        stops=plan.stops,
        spaces=spaces,
        printed_long=plan.printed_long,
        printed_short=plan.printed_short,
    )


def finish_line(lanes: Sequence[str], names: SpaceNames) -> FinishLine:
    """The line just behind index 0 of every lane."""
    return FinishLine(spaces=[names(lane, 0) for lane in lanes])


def grid(slots: Sequence[SpaceRef], names: SpaceNames) -> list[str]:
    """Grid slot ids, pole first; a slot used twice is a mistake in the plan."""
    ids = [names.ref(slot, f"grid slot {n}") for n, slot in enumerate(slots, start=1)]
    if len(set(ids)) != len(ids):
        raise BuildError("grid: a space is used for two slots")
    return ids


GRID_SLOTS = 10
"""Slots of a full field's grid: the game races up to ten cars."""
GRID_ROW = 3
"""Spaces from one pair of staggered grid slots to the next, along a lane."""


def staggered_grid(counts: Mapping[str, int], slots: int = GRID_SLOTS) -> list[SpaceRef]:
    """The usual start grid behind the finish line, pole first, as lane references.

    ``counts`` gives each lane's number of spaces, lanes in order from the driver's left (index
    0 of each is the first space past the line). The pole is the last space of the first lane,
    just behind the line; the second slot is one space further back in the last lane; every
    :data:`GRID_ROW` spaces the pair repeats, so cars stand staggered on the outer lanes as
    printed boards draw them. With one lane the slots stand one behind another. Slots that would
    fall off a short lane are left out.
    """
    lanes = list(counts)
    if not lanes:
        return []
    first, last = lanes[0], lanes[-1]
    refs: list[SpaceRef] = []
    for n in range(slots):
        if first == last:
            lane, back = first, 1 + n
        else:
            lane, back = (first, 1) if n % 2 == 0 else (last, 2)
            back += GRID_ROW * (n // 2)
        if back > counts[lane]:
            break
        refs.append((lane, counts[lane] - back))
    return refs


PIT_PREFIX = "pit"
BOX_PREFIX = "box"


def pit_space_ids(count: int) -> list[str]:
    """Ids of ``count`` pit spaces in driving order (``pit-00`` ...), zero-padded to one width
    so that they sort in driving order; the tracer names the pit spaces it finds alike."""
    width = len(str(max(count - 1, 0)))
    return [f"{PIT_PREFIX}-{i:0{width}d}" for i in range(count)]


def pit_ids(plan: PitPlan) -> tuple[list[str], list[str]]:
    """Ids of the pit spaces (``pit-00`` ...) and boxes (``box-1`` ...), in driving order."""
    boxes = [f"{BOX_PREFIX}-{n}" for n in range(1, len(plan.boxes) + 1)]
    return pit_space_ids(plan.spaces), boxes


def pit_strips(
    road: Road, plan: PitPlan, beside: Strip, right: bool, lane_width: float
) -> list[Strip]:
    """The pit lane's strip beside the track's outer edge, and one strip per box beyond it."""
    count = len(beside.cuts) - 1
    for name, boundary in (("start", plan.start), ("end", plan.end)):
        if not 0 <= boundary <= count:
            raise BuildError(f"pit lane {name}: lane {beside.name} has boundaries 0..{count}")
    if plan.spaces < 2:
        raise BuildError("pit lane: needs at least two spaces")
    start, end = _boundary(beside, plan.start), _boundary(beside, plan.end)
    if end <= start:
        end += road.length
    side = 1.0 if right else -1.0
    edge = beside.right if right else beside.left
    pit_offset = edge + side * (plan.gap * lane_width + lane_width / 2)
    cuts = (_given_cuts(beside, plan, start, road.length) or _beside_cuts(beside, plan)
            or tuple(even_cuts(road, pit_offset, start, end, plan.spaces)))
    strips = [Strip(PIT_PREFIX, pit_offset, lane_width, cuts, taper=plan.taper,
                    outer="right" if right else "left")]
    if plan.box_side not in ("inside", "outside") or plan.box_width <= 0:
        raise BuildError(f"pit lane: boxes stand inside or outside it, with a positive width, "
                         f"not {plan.box_side!r} and {plan.box_width:g}")
    box_width = plan.box_width * lane_width
    box_offset = pit_offset + side * (lane_width + box_width) / 2 * (
        -1.0 if plan.box_side == "inside" else 1.0)
    _, boxes = pit_ids(plan)
    for box, (first, last) in zip(boxes, plan.boxes, strict=True):
        if not 0 <= first <= last <= plan.spaces - 2:
            raise BuildError(
                f"{box}: must stand beside pit spaces 0..{plan.spaces - 2} (so a car can drive "
                f"out to the next one), not {first}..{last}"
            )
        strips.append(Strip(box, box_offset, box_width, (cuts[first], cuts[last + 1])))
    return strips


def _given_cuts(
    beside: Strip, plan: PitPlan, start: float, loop: float
) -> tuple[float, ...] | None:
    """The pit lane's cuts where the plan gives its inner boundaries (None when it does not)."""
    if not plan.boundaries:
        return None
    if len(plan.boundaries) != plan.spaces - 1:
        raise BuildError(f"pit lane boundaries: give the {plan.spaces - 1} inner boundaries of its "
                         f"{plan.spaces} spaces, not {len(plan.boundaries)}")
    count = len(beside.cuts) - 1
    cuts = [start]
    for number, boundary in enumerate((*plan.boundaries, plan.end), start=1):
        if not 0 <= boundary <= count:
            raise BuildError(f"pit lane boundary {number}: lane {beside.name} has boundaries "
                             f"0..{count}, not {boundary:g}")
        position = start + (_boundary(beside, boundary) - start) % loop
        if position <= cuts[-1]:
            raise BuildError(f"pit lane boundary {number} ({boundary:g}) is not ahead of the one "
                             "before it")
        cuts.append(position)
    return tuple(cuts)


def _beside_cuts(beside: Strip, plan: PitPlan) -> tuple[float, ...] | None:
    """The lane's own cuts, when the pit lane has a space beside each of its spaces.

    Then every pit space sits square beside a track space, as on printed boards; otherwise
    (None) the pit spaces are spread evenly.
    """
    count = len(beside.cuts) - 1
    if plan.start != int(plan.start) or plan.end != int(plan.end):
        return None
    first, last = int(plan.start), int(plan.end)
    spanned = last - first if last > first else last + count - first
    if spanned != plan.spaces:
        return None
    if last > first:
        return beside.cuts[first : last + 1]
    lap = beside.cuts[-1] - beside.cuts[0]
    return (*beside.cuts[first:count], *(c + lap for c in beside.cuts[: last + 1]))


def _boundary(strip: Strip, boundary: float) -> float:
    """Road position of a (possibly fractional) boundary of a strip."""
    whole = min(int(boundary), len(strip.cuts) - 2)
    fraction = boundary - whole
    return strip.cuts[whole] + fraction * (strip.cuts[whole + 1] - strip.cuts[whole])


def pit_lane(plan: PitPlan, names: SpaceNames) -> tuple[PitLane, list[LinkPair]]:
    """The pit lane element and its inner links: along the lane, and in and out of each box."""
    pits, boxes = pit_ids(plan)
    links: list[LinkPair] = list(pairwise(pits))
    for box, (first, last) in zip(boxes, plan.boxes, strict=True):
        # In from the first pit space beside the box, out to the one after it: two moves, like
        # driving past, so a box that spans two pit spaces is never a shortcut.
        links += [(pits[first], box), (box, pits[last + 1])]
        if plan.enter_boxes_alongside and last > first:
            links.append((pits[last], box))
    entry = [Link(from_=names.ref(ref, "pit entry"), to=pits[0]) for ref in plan.entry]
    exit_ = [Link(from_=pits[-1], to=names.ref(ref, "pit exit")) for ref in plan.exit]
    if not entry or not exit_:
        raise BuildError("pit lane: needs at least one entry and one exit")
    return PitLane(spaces=pits, entry=entry, exit=exit_, boxes=boxes), links
