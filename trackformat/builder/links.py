"""The moves between spaces: the straight rule or lane changes written space by space, single
arrows, and a designer's overrides.

On a printed board the arrows are drawn only near corners; everywhere else a car may go straight
ahead or move one lane over while going forward. The builder writes all those moves as links, so
that the links of a track file are its whole movement graph. A track designed from scratch gets
its lane changes from the geometry (the straight rule); a real board's are facts read off it,
space by space (:func:`written_lane_changes`), since only the print says where the arrows fork.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence

from trackformat.builder.errors import BuildError
from trackformat.builder.lanes import SpaceShape
from trackformat.builder.plan import LaneChanges

LinkPair = tuple[str, str]
"""A move, as (from space id, to space id)."""

CORNER_STEP = 0.5
"""In a corner, a lane change lands at least this share of the target space ahead of the end of
the space it starts from. Where lanes are cut out of step, a move half beside and half ahead is
allowed on a straight, but in a corner it would let a weaving car count more spaces than the
printed longest path; the designer's arrows (overrides) say where it is allowed after all."""


def _ahead(delta: float, loop: float | None) -> float:
    """A signed distance along the road, folded to the nearer way round on a closed road."""
    if loop is None:
        return delta
    return (delta + loop / 2) % loop - loop / 2


def diagonal_target(
    space: SpaceShape,
    beside: Sequence[SpaceShape],
    *,
    loop: float | None,
    min_step: float,
    touch: float,
    careful: Callable[[SpaceShape], bool] | None = None,
) -> int | None:
    """Index in ``beside`` (an adjacent lane) of the space a lane change from ``space`` reaches.

    The nearest space ahead: of the spaces that touch ``space`` (a move is one space, so the two
    meet, if only at a corner; ``touch`` px apart at most, for cuts of adjacent lanes that nearly
    meet) and whose middle is at least ``min_step`` ahead of its middle, the
    one that starts furthest forward. With lanes cut in step that is the space right ahead of the
    one beside; with lanes out of step, the one beside the front of ``space``. When ``careful``
    says either space is in a corner, the target must also start no more than
    :data:`CORNER_STEP` of its length behind the end of ``space``. None when no space qualifies.
    """
    length = space.end - space.start
    best: tuple[float, int] | None = None
    for k, other in enumerate(beside):
        starts_after_end = _ahead(other.start - space.end, loop)
        ends_after_start = _ahead(other.end - space.start, loop)
        forward = _ahead(other.middle - space.middle, loop)
        near = starts_after_end <= length and ends_after_start >= -length
        if not near or forward < min_step or space.outline.distance(other.outline) > touch:
            continue
        if (careful is not None and (careful(space) or careful(other))
                and starts_after_end < -CORNER_STEP * (other.end - other.start)):
            continue
        if best is None or starts_after_end > best[0]:
            best = (starts_after_end, k)
    return None if best is None else best[1]


def straight_rule(
    lanes: Sequence[Sequence[SpaceShape]],
    ids: Sequence[Sequence[str]],
    *,
    loop: float | None,
    min_step: float,
    touch: float,
    single_arrow: Collection[str] = (),
    in_corners: Collection[str] = (),
) -> list[LinkPair]:
    """Every move of the straight rule, lane by lane, space by space.

    ``lanes`` are listed from the driver's left, each in driving order, with ``ids`` beside them.
    Each space links to the next one in its lane (the last to the first on a closed track, when
    ``loop`` is the road's length) and, unless it carries a single straight arrow, diagonally to
    :func:`diagonal_target` in each adjacent lane, carefully for spaces ``in_corners``.
    """
    name = {(shape.strip, shape.index): space_id
            for row, row_ids in zip(lanes, ids, strict=True)
            for shape, space_id in zip(row, row_ids, strict=True)}

    def careful(shape: SpaceShape) -> bool:
        return name[(shape.strip, shape.index)] in in_corners

    links: list[LinkPair] = []
    for k, (row, row_ids) in enumerate(zip(lanes, ids, strict=True)):
        for i, space in enumerate(row):
            here = row_ids[i]
            if i + 1 < len(row):
                links.append((here, row_ids[i + 1]))
            elif loop is not None:
                links.append((here, row_ids[0]))
            if here in single_arrow:
                continue
            for side in (k - 1, k + 1):
                if not 0 <= side < len(lanes):
                    continue
                target = diagonal_target(space, lanes[side], loop=loop, min_step=min_step,
                                         touch=touch, careful=careful if in_corners else None)
                if target is not None:
                    links.append((here, ids[side][target]))
    return links


def straight_on(ids: Sequence[Sequence[str]], *, closed: bool) -> list[LinkPair]:
    """The move from each space to the next in its lane (the last to the first when closed)."""
    links: list[LinkPair] = []
    for row in ids:
        links += [(row[i], row[i + 1]) for i in range(len(row) - 1)]
        if closed and len(row) > 1:
            links.append((row[-1], row[0]))
    return links


def written_lane_changes(
    changes: Sequence[LaneChanges],
    counts: Mapping[str, int],
    name: Callable[[str, int], str],
    *,
    single_arrow: Collection[str] = (),
) -> list[LinkPair]:
    """The lane changes ``changes`` write, as links between the ids ``name`` gives.

    ``counts`` are the spaces of each lane, listed from the driver's left: a change goes into an
    adjacent lane, and its target counts round the lap. A run that names a missing lane or space,
    writes a second move from one space into the same lane, or leaves a single-arrow space is a
    mistake in the facts, refused with the run named.
    """
    order = list(counts)
    links: list[LinkPair] = []
    seen: dict[tuple[str, int, str], int] = {}
    for number, run in enumerate(changes, start=1):
        what = (f"lane changes {number} ({run.lane} -> {run.into}, spaces "
                f"{run.first}..{run.last})")
        for lane in (run.lane, run.into):
            if lane not in counts:
                raise BuildError(f"{what}: no lane {lane!r} (lanes are {', '.join(order)})")
        if abs(order.index(run.lane) - order.index(run.into)) != 1:
            raise BuildError(f"{what}: a lane change goes into an adjacent lane")
        if not 0 <= run.first <= run.last < counts[run.lane]:
            raise BuildError(
                f"{what}: lane {run.lane} has spaces 0..{counts[run.lane] - 1}, and the run "
                "must go forward"
            )
        for index in range(run.first, run.last + 1):
            key = (run.lane, index, run.into)
            if key in seen:
                raise BuildError(
                    f"{what}: space {name(run.lane, index)} already has a lane change into lane "
                    f"{run.into} (lane changes {seen[key]})"
                )
            seen[key] = number
            here = name(run.lane, index)
            if here in single_arrow:
                raise BuildError(f"{what}: {here} carries a single straight arrow")
            links.append((here, name(run.into, (index + run.offset) % counts[run.into])))
    return links


def apply_overrides(
    links: Sequence[LinkPair],
    *,
    add: Iterable[LinkPair] = (),
    remove: Iterable[LinkPair] = (),
    known: Collection[str],
) -> list[LinkPair]:
    """``links`` with the designer's arrows applied: ``remove`` taken out, then ``add`` put in.

    An override that names an unknown space, removes a link that is not there or adds one that
    already is, is a mistake in the plan (most often a stale index after a change of counts), so
    it is refused with the link named rather than silently ignored.
    """
    result = list(links)
    present = set(result)
    for pair in remove:
        _check_known(pair, known)
        if pair not in present:
            raise BuildError(
                f"override removes the link {pair[0]} -> {pair[1]}, which is not there"
            )
        present.discard(pair)
    result = [pair for pair in result if pair in present]
    for pair in add:
        _check_known(pair, known)
        if pair[0] == pair[1]:
            raise BuildError(f"override adds a link from {pair[0]} to itself")
        if pair in present:
            raise BuildError(
                f"override adds the link {pair[0]} -> {pair[1]}, which is already there"
            )
        present.add(pair)
        result.append(pair)
    return result


def _check_known(pair: LinkPair, known: Collection[str]) -> None:
    for end in pair:
        if end not in known:
            raise BuildError(f"override link {pair[0]} -> {pair[1]} names unknown space {end!r}")
