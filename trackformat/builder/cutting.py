"""Where each lane of a plan is cut across: anchored cuts, fitted corner limits, lanes in step.

A lane is cut either on its own (its anchors and targets are stations of the centre line) or
*beside* a reference lane: each listed boundary of the lane sits beside a boundary of the
reference. Between two such boundaries outside any corner, when both lanes have the same number
of spaces, the lane is cut exactly where the reference is, so the two run in step with cuts
straight across the road, as printed straights are. Elsewhere (in corners, and where the counts
differ) the limits are fitted and the spaces spread evenly along the lane. A lane may also be
held in step beside its reference shifted by part of a space (``LanePlan.stagger``), as real
boards stagger neighbouring lanes by half a space.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Sequence
from itertools import pairwise

from trackformat.builder.errors import BuildError
from trackformat.builder.lanes import Strip, anchored_cuts, fit_anchors, unwrapped
from trackformat.builder.plan import LanePlan, TrackPlan
from trackformat.builder.road import Road

Stations = Callable[[float], float]
"""Road position of a station (see :mod:`trackformat.builder.plan`)."""


def lane_offsets(lanes: int, spacing: float) -> list[float]:
    """Offsets of the lane centres to the driver's right, first lane leftmost, centred on 0."""
    return [(k - (lanes - 1) / 2) * spacing for k in range(lanes)]


def corner_indices(plan: TrackPlan) -> dict[str, set[int]]:
    """Each lane's indices that lie inside a corner of the plan."""
    inside: dict[str, set[int]] = {lane.id: set() for lane in plan.lanes}
    for corner in plan.corners:
        for lane, (first, last) in corner.ranges.items():
            inside.setdefault(lane, set()).update(range(first, last + 1))
    return inside


def lane_strips(road: Road, station: Stations, plan: TrackPlan) -> list[Strip]:
    """The cut strip of every lane of ``plan``, reference lanes first, in lane order."""
    offsets = dict(zip((lane.id for lane in plan.lanes),
                       lane_offsets(len(plan.lanes), plan.lane_spacing), strict=True))
    by_id = {lane.id: lane for lane in plan.lanes}
    inside = corner_indices(plan)
    done: dict[str, Strip] = {}

    def make(lane: LanePlan, chain: tuple[str, ...]) -> Strip:
        if lane.id in done:
            return done[lane.id]
        try:
            if lane.follow is None:
                strip = _own_strip(road, station, lane, offsets[lane.id], plan)
            else:
                if lane.follow not in by_id:
                    raise BuildError(f"follows unknown lane {lane.follow!r}")
                if lane.follow in chain:
                    raise BuildError(f"follows lane {lane.follow}, which follows it back")
                reference = make(by_id[lane.follow], (*chain, lane.id))
                strip = _strip_beside(road, lane, offsets[lane.id], plan, reference,
                                      inside.get(lane.id, set()))
        except BuildError as err:
            message = str(err)
            prefix = f"lane {lane.id}: "
            raise BuildError(message if message.startswith("lane ") else prefix + message) \
                from None
        done[lane.id] = strip
        return strip

    return [make(lane, ()) for lane in plan.lanes]


def _check(lane: LanePlan) -> None:
    if lane.spaces < 2:
        raise BuildError("needs at least two spaces")


def _own_strip(
    road: Road, station: Stations, lane: LanePlan, offset: float, plan: TrackPlan
) -> Strip:
    _check(lane)
    if lane.stagger:
        raise BuildError("a stagger is a shift beside another lane: give the lane to follow")
    if 0 not in lane.anchors:
        raise BuildError("boundary 0 (the finish line) must be anchored")
    anchors = {i: station(s) for i, s in lane.anchors.items()}
    if lane.targets:
        targets = {i: station(s) for i, s in lane.targets.items()}
        anchors = fit_anchors(road, offset, lane.spaces, anchors, targets,
                              pull=plan.pull, full_lap=True)
    cuts = anchored_cuts(road, offset, lane.spaces, anchors, full_lap=True,
                         squeeze=plan.squeeze)
    return Strip(lane.id, offset, plan.lane_spacing, cuts)


def _strip_beside(
    road: Road,
    lane: LanePlan,
    offset: float,
    plan: TrackPlan,
    reference: Strip,
    in_corner: Collection[int],
) -> Strip:
    """A lane cut beside ``reference``: in step on equal straights, fitted elsewhere."""
    _check(lane)
    reference_count = len(reference.cuts) - 1
    pairs = sorted({0: 0, **lane.beside}.items())
    for i, j in pairs:
        if not 0 <= i < lane.spaces or not 0 <= j < reference_count:
            raise BuildError(
                f"boundary {i} beside boundary {j} of lane {reference.name}: boundaries run "
                f"0..{lane.spaces - 1} and 0..{reference_count - 1}"
            )
    pairs.append((lane.spaces, reference_count))
    for (i, j), (i2, j2) in pairwise(pairs):
        if i2 <= i or j2 <= j:
            raise BuildError(f"boundary {i2} beside {j2} is out of order after {i} beside {j}")
    held = staggered(road, lane, reference)
    fixed: dict[int, float] = {0: held.get(0, reference.cuts[0])}
    targets: dict[int, float] = {}
    in_step: list[tuple[int, int, int, int]] = []
    for (i, j), (i2, j2) in pairwise(pairs):
        straight = not any(k in in_corner for k in range(i, i2))
        if any(k in held for k in range(i, i2 + 1)):
            if i not in held and i not in fixed:
                targets[i] = reference.cuts[j]
            continue
        if straight and i2 - i == j2 - j:
            in_step.append((i, i2, j, j2))
            fixed[i], fixed[i2] = reference.cuts[j], reference.cuts[j2]
        elif i not in fixed:
            targets[i] = reference.cuts[j]
    fixed.update((i, p) for i, p in held.items() if i != 0)
    targets = {i: p for i, p in targets.items() if i not in fixed and i != lane.spaces}
    fixed.pop(lane.spaces, None)
    anchors = fit_anchors(road, offset, lane.spaces, fixed, targets, pull=plan.pull,
                          full_lap=True)
    cuts = list(anchored_cuts(road, offset, lane.spaces, anchors, full_lap=True,
                              squeeze=plan.squeeze))
    for i, i2, j, j2 in in_step:
        cuts[i : i2 + 1] = reference.cuts[j : j2 + 1]
    for i, position in held.items():
        if 0 < i < lane.spaces:
            cuts[i] = unwrapped(road, cuts[0], position)
    return Strip(lane.id, offset, plan.lane_spacing, tuple(cuts))


def staggered(road: Road, lane: LanePlan, reference: Strip) -> dict[int, float]:
    """Road positions of the boundaries that ``lane.stagger`` holds beside ``reference``.

    Boundary ``lane.spaces`` is boundary 0 (a full lap), and a boundary that two stretches hold
    must be held at the same place.
    """
    count = len(reference.cuts) - 1
    lap = reference.cuts[-1] - reference.cuts[0]

    def beside(boundary: float) -> float:
        whole = math.floor(boundary)
        laps, index = divmod(whole, count)
        cuts = reference.cuts
        return cuts[index] + (boundary - whole) * (cuts[index + 1] - cuts[index]) + laps * lap

    held: dict[int, float] = {}
    for number, stretch in enumerate(lane.stagger, start=1):
        what = f"stagger {number} (boundaries {stretch.first}..{stretch.last})"
        if not 0 <= stretch.first <= stretch.last <= lane.spaces:
            raise BuildError(f"{what}: boundaries run forward within 0..{lane.spaces}")
        if not -1 < stretch.offset < 1:
            raise BuildError(f"{what}: offset {stretch.offset:g} is not a share of a space "
                             "(between -1 and 1)")
        for k in range(stretch.last - stretch.first + 1):
            boundary = (stretch.first + k) % lane.spaces
            position = road.wrap(beside(stretch.beside + k + stretch.offset))
            earlier = held.get(boundary)
            if earlier is not None and abs(_ahead(position - earlier, road.length)) > 1e-6:
                raise BuildError(f"{what}: boundary {boundary} is held elsewhere by another "
                                 "stretch; stretches may share an end only where they agree")
            held[boundary] = position
    return held


def _ahead(delta: float, loop: float) -> float:
    return (delta + loop / 2) % loop - loop / 2


def check_lane_ids(lanes: Sequence[LanePlan]) -> None:
    """Lane ids are distinct: every space id and reference depends on it."""
    ids = [lane.id for lane in lanes]
    if len(set(ids)) != len(ids):
        raise BuildError(f"lane ids must be distinct, got {ids}")

