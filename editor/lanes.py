"""Adding a stretch of lanes to a track (the lane tool's edit), without Qt.

The stretch comes from the builder (:func:`trackformat.builder.stretch.build_stretch`); here it is
given ids that continue each lane, lanes the track does not have yet are added, and a stretch
started at the open end of earlier lanes is joined to them: it leaves square from their end cut,
so the new spaces meet the old ones edge to edge even where the road bends at the join, and
staggered lanes carry on from where each one ended. A circuit is laid stretch by stretch round
the board, and the stretch whose last click lands on the start of the lanes closes the lap: it
ends exactly on their start cut, a whole number of spaces fitted in, staggered as the start is,
and its last spaces lead onto the first ones. A stretch laid as the pit lane gets pit spaces with
ids of their own ("pit-000", ...), appended to the track's pit lane.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from editor.edits import EditError
from trackformat.builder import joins
from trackformat.builder.cutting import lane_offsets
from trackformat.builder.errors import BuildError
from trackformat.builder.features import PIT_PREFIX
from trackformat.builder.stretch import Stretch, StretchEnd, StretchStart, build_stretch
from trackformat.lint.rules.references import id_list
from trackformat.model import Lane, Link, PitLane, Space, SpaceKind, Track

Point = tuple[float, float]

JOIN_REACH = 1.6
"""A stretch joins an earlier lane whose open end (or, closing the lap, open start) lies within
this many lane widths of the stretch's first (last) point, beyond the lane's own distance from
the middle of the road."""

PRINTED_STAGGER = (0.5,)
"""The stagger of the printed boards: every other lane half a space ahead. On the traced Monaco
board (tracks/monaco.json) the middle lane's spaces lie 0.47 to 0.52 of a space ahead of the
outer lanes' (0.50 the median, over its 57 straight spaces) and the outer lanes are level; the
validator's LAP006 expects exactly that of every straight, so it is the lane tool's default."""


@dataclass(frozen=True)
class LaneSettings:
    """What the designer chooses in the lane tool's options."""

    lanes: int = 3
    spacing: float = 40.0
    spaces: tuple[int, ...] = (10,)
    """Spaces per lane, from the left; one number applies to every lane."""
    space_length: float = 0.0
    """Length of a space in px; when set (above 0), each lane gets as many spaces as fit its
    own line and ``spaces`` is not used."""
    stagger: tuple[float, ...] = PRINTED_STAGGER
    """How far each lane's spaces lie ahead, as a share of a space, from the left; one number
    applies to every other lane (the second, the fourth), as boards stagger neighbours."""
    pit: bool = False
    """The stretch is the pit lane: one lane of pit spaces, continuing the track's pit lane."""

    def per_lane(self) -> list[int]:
        if len(self.spaces) == 1:
            return [self.spaces[0]] * self.lanes
        if len(self.spaces) != self.lanes:
            raise EditError(f"give one number of spaces, or one for each of the {self.lanes} lanes")
        return list(self.spaces)

    def per_lane_stagger(self) -> list[float]:
        if not self.stagger:
            return [0.0] * self.lanes
        if len(self.stagger) == 1:
            return [self.stagger[0] if k % 2 else 0.0 for k in range(self.lanes)]
        if len(self.stagger) != self.lanes:
            raise EditError(f"give one stagger, or one for each of the {self.lanes} lanes")
        return list(self.stagger)

    def as_pit_lane(self) -> LaneSettings:
        """The settings for a pit lane: one lane, unstaggered, its first number of spaces."""
        return replace(self, lanes=1, spaces=self.spaces[:1], stagger=())


def _numbers(text: str, kind: type[int] | type[float], example: str) -> tuple[float, ...]:
    """The numbers of "12" or "14, 13, 12" (commas or spaces between), or an error showing
    ``example`` of what is wanted."""
    try:
        return tuple(kind(part) for part in re.split(r"[,\s]+", text.strip()) if part)
    except ValueError:
        raise EditError(f"{example} (not {text!r})") from None


def parse_counts(text: str) -> tuple[int, ...]:
    """ "12" or "14, 13, 12" as spaces per lane."""
    counts = tuple(int(n) for n in _numbers(text, int, "spaces per lane are whole numbers, "
                                                    "like 12 or 14,13,12"))
    if not counts or any(c < 1 or c > 500 for c in counts):
        raise EditError("spaces per lane are between 1 and 500")
    return counts


def parse_stagger(text: str) -> tuple[float, ...]:
    """ "0.5" (every other lane) or "0, 0.5, 0" (lane by lane) as shares of a space; "" none."""
    shares = _numbers(text, float, "a stagger is a share of a space, like 0.5 or 0,0.5,0")
    if any(not 0 <= share < 1 for share in shares):
        raise EditError("a lane's stagger is a share of a space, from 0 to under 1")
    return shares


def lane_ids_for(track: Track, count: int) -> list[str]:
    """The ids of the first ``count`` lanes, inventing "1", "2", ... where the track has fewer."""
    ids = [lane.id for lane in track.lanes][:count]
    number = 1
    while len(ids) < count:
        if str(number) not in ids and str(number) not in {lane.id for lane in track.lanes}:
            ids.append(str(number))
        number += 1
    return ids


def _next_numbers(track: Track, lane_ids: Sequence[str], counts: Sequence[int]) -> list[list[str]]:
    """Ids continuing each lane's numbers, ``<lane>-<number>`` zero-padded to three figures so
    that a lane's ids sort in driving order (the pit lane's are ``pit-000``, ...)."""
    taken = {s.id for s in track.spaces}
    names = []
    for lane, count in zip(lane_ids, counts, strict=True):
        used = [
            int(m.group(1))
            for s in track.spaces
            if (m := re.fullmatch(rf"{re.escape(lane)}-(\d+)", s.id))
        ]
        number = max(used, default=-1) + 1
        row: list[str] = []
        while len(row) < count:
            candidate = f"{lane}-{number:03d}"
            if candidate not in taken:
                row.append(candidate)
            number += 1
        names.append(row)
    return names


def front_cut(space: Space) -> joins.Cut:
    """The cut ahead of a space, from its left end to its right end (as the driver sees it)."""
    try:
        return joins.front_cut(space)
    except BuildError as err:
        raise EditError(str(err)) from None


def back_cut(space: Space) -> joins.Cut:
    """The cut behind a space, from its left end to its right end (as the driver sees it)."""
    try:
        return joins.back_cut(space)
    except BuildError as err:
        raise EditError(str(err)) from None


def _lane_moves(track: Track) -> list[Link]:
    lane_of = {s.id: s.lane for s in track.spaces}
    return [k for k in track.links
            if lane_of.get(k.from_) is not None and lane_of.get(k.from_) == lane_of.get(k.to)]


def open_ends(track: Track) -> dict[str, Space]:
    """Track spaces with no move on in their own lane, by id: where lanes can be continued."""
    has_next = {k.from_ for k in _lane_moves(track)}
    return {s.id: s for s in track.spaces
            if s.kind == SpaceKind.TRACK and s.lane is not None and s.id not in has_next}


def open_starts(track: Track) -> dict[str, Space]:
    """Track spaces with no move into them from their own lane, by id: where lanes start, and
    where the stretch that comes round to them closes the lap."""
    has_previous = {k.to for k in _lane_moves(track)}
    return {s.id: s for s in track.spaces
            if s.kind == SpaceKind.TRACK and s.lane is not None and s.id not in has_previous}


def _meet(
    candidates: Mapping[int, Iterable[Space]],
    point: Point,
    offsets: Sequence[float],
    spacing: float,
    cut: Callable[[Space], joins.Cut],
) -> dict[int, tuple[Space, joins.Cut]]:
    """For each lane position, the candidate whose ``cut`` lies nearest ``point`` within reach
    (see :data:`JOIN_REACH`), with that cut."""
    met: dict[int, tuple[Space, joins.Cut]] = {}
    for position, spaces in candidates.items():
        near = []
        for space in spaces:
            line = cut(space)
            distance = math.dist(joins.middle(line), point)
            if distance <= JOIN_REACH * spacing + abs(offsets[position]):
                near.append((distance, space.id, space, line))
        if near:
            _, _, space, line = min(near, key=lambda found: found[:2])
            met[position] = (space, line)
    return met


def _by_lane(spaces: Iterable[Space], lane_ids: Sequence[str]) -> dict[int, list[Space]]:
    found = list(spaces)
    return {k: [s for s in found if s.lane == lane] for k, lane in enumerate(lane_ids)}


def find_join(
    track: Track, first: Point, lane_ids: Sequence[str], spacing: float, *, pit: bool = False
) -> tuple[StretchStart | None, dict[int, Space]]:
    """Where a stretch starting near ``first`` continues earlier lanes (or, a ``pit`` lane
    stretch, the pit lane), and the lane ends it continues (by lane position); (None, {}) when
    no lane of the stretch ends near there."""
    offsets = lane_offsets(len(lane_ids), spacing)
    if pit:
        chain = track.pit_lane.spaces if track.pit_lane is not None else []
        candidates = {0: [s for s in track.spaces if chain and s.id == chain[-1]]}
    else:
        candidates = _by_lane(open_ends(track).values(), lane_ids)
    met = _meet(candidates, first, offsets, spacing, front_cut)
    if not met:
        return None, {}
    line = joins.cut_line({k: cut for k, (_, cut) in met.items()}, offsets)
    return (StretchStart(line.point, line.direction, line.ahead),
            {k: space for k, (space, _) in met.items()})


def find_close(
    track: Track, last: Point, lane_ids: Sequence[str], spacing: float
) -> tuple[StretchEnd | None, dict[int, Space]]:
    """Where a stretch ending near ``last`` ends on the start of lanes already laid, closing the
    lap, and the lanes' first spaces it leads onto (by lane position); (None, {}) when no lane
    of the stretch starts near there."""
    offsets = lane_offsets(len(lane_ids), spacing)
    candidates = _by_lane(open_starts(track).values(), lane_ids)
    met = _meet(candidates, last, offsets, spacing, back_cut)
    if not met:
        return None, {}
    line = joins.cut_line({k: cut for k, (_, cut) in met.items()}, offsets)
    return (StretchEnd(line.point, line.direction, line.ahead),
            {k: space for k, (space, _) in met.items()})


@dataclass(frozen=True)
class Laying:
    """A stretch as the lane tool lays it, and the lanes already laid that it meets."""

    stretch: Stretch
    joined: dict[int, Space]
    """The earlier lanes' last spaces it continues, by lane position from the left."""
    closed: dict[int, Space]
    """The lanes' first spaces it ends on (closing the lap), by lane position."""
    folds: tuple[Space, ...]
    """Its spaces that fold over themselves or each other (see :meth:`Stretch.folds`)."""

    def closing(self) -> str:
        """What the stretch ends on, for the status bar: "" when no lane's start."""
        if not self.closed:
            return ""
        lanes = ", ".join(s.lane or "" for s in self.closed.values())
        return (f"the stretch ends on the start of lane{'s' if len(self.closed) > 1 else ''} "
                f"{lanes} ({id_list([s.id for s in self.closed.values()])}): Enter joins them")


def lay(track: Track, centre_line: Sequence[Point], settings: LaneSettings) -> Laying:
    """The stretch along ``centre_line`` as it would be added, joined to the lane ends near its
    first point and closing on the lane starts near its last; raises :class:`EditError` when it
    cannot be built."""
    if not centre_line:
        raise EditError("click at least two points along the middle of the road")
    if settings.pit:
        settings = settings.as_pit_lane()
    lane_ids = [PIT_PREFIX] if settings.pit else lane_ids_for(track, settings.lanes)
    by_length = settings.space_length > 0
    counts = None if by_length else settings.per_lane()
    stagger = settings.per_lane_stagger()
    length = settings.space_length if by_length else None
    try:
        start, joined = find_join(track, centre_line[0], lane_ids, settings.spacing,
                                  pit=settings.pit)
        end, closed = (None, {}) if settings.pit else find_close(
            track, centre_line[-1], lane_ids, settings.spacing)
        if counts is None:
            # Built once to learn how many spaces each lane gets, then named to continue it.
            counts = build_stretch(centre_line, lane_ids, settings.spacing, None,
                                   space_length=length, stagger=stagger, start=start,
                                   end=end).counts
        stretch = build_stretch(centre_line, lane_ids, settings.spacing, counts,
                                names=_next_numbers(track, lane_ids, counts),
                                space_length=length, stagger=stagger, start=start, end=end)
    except BuildError as err:
        raise EditError(str(err)) from None
    if settings.pit:
        pit_spaces = tuple(s.model_copy(update={"kind": SpaceKind.PIT, "lane": None})
                           for s in stretch.spaces)
        stretch = replace(stretch, lanes=(pit_spaces,))
    return Laying(stretch, joined, closed, tuple(stretch.folds()))


def preview(
    track: Track, centre_line: Sequence[Point], settings: LaneSettings
) -> Stretch:
    """The stretch as it would be added (raises :class:`EditError` when it cannot be built)."""
    return lay(track, centre_line, settings).stretch


def fold_message(folds: Sequence[Space]) -> str:
    """Why a stretch that folds is refused, and what to do instead."""
    lanes = sorted({s.lane for s in folds if s.lane is not None}, key=lambda i: (len(i), i))
    if not lanes:
        who, remedy = "the pit lane folds over itself", "narrow the lane width"
    elif len(lanes) == 1:
        who, remedy = f"lane {lanes[0]} folds over itself", "lay fewer lanes"
    else:
        who, remedy = f"lanes {', '.join(lanes)} fold over themselves", "lay fewer lanes"
    return (f"{who} on this bend ({id_list([s.id for s in folds])}): the road turns too tightly "
            f"for its width; click a wider bend, or {remedy}")


def add_stretch(
    track: Track, centre_line: Sequence[Point], settings: LaneSettings
) -> Track:
    """The track with the stretch added, new lanes created, joined to open lane ends and, closing
    the lap, to the lane starts it ends on; refused where its lanes fold over themselves."""
    laying = lay(track, centre_line, settings)
    if laying.folds:
        raise EditError(fold_message(laying.folds))
    if settings.pit:
        return _add_pit_lane(track, laying)
    stretch = laying.stretch
    lane_ids = lane_ids_for(track, settings.lanes)
    lanes = list(track.lanes) + [
        Lane(id=i) for i in lane_ids if i not in {lane.id for lane in track.lanes}
    ]
    joined = joins.join_links(laying.joined, {k: lane[0] for k, lane in enumerate(stretch.lanes)},
                              joins.lanes_entered(track.spaces, track.links), settings.spacing)
    closing = joins.join_links({k: lane[-1] for k, lane in enumerate(stretch.lanes)},
                               laying.closed, joins.lanes_entered(stretch.spaces, stretch.links),
                               settings.spacing)
    return track.model_copy(
        update={
            "lanes": lanes,
            "spaces": [*track.spaces, *stretch.spaces],
            "links": [*track.links, *stretch.links, *joined, *closing],
        }
    )


def _add_pit_lane(track: Track, laying: Laying) -> Track:
    """The track with the stretch's pit spaces at the end of its pit lane: linked on from its
    last space, which must be where the stretch starts (the pit lane is one chain), and the pit
    exit moved to the new last space."""
    pit = track.pit_lane or PitLane(spaces=[])
    added = [s.id for s in laying.stretch.spaces]
    links = list(laying.stretch.links)
    if pit.spaces:
        if not laying.joined:
            raise EditError(f"the pit lane is one chain of spaces: start its next stretch at its "
                            f"end, {pit.spaces[-1]}")
        links.insert(0, Link(**{"from": pit.spaces[-1], "to": added[0]}))
    exits = [k.model_copy(update={"from_": added[-1]}) for k in pit.exit]
    pit = pit.model_copy(update={"spaces": [*pit.spaces, *added], "exit": exits})
    return track.model_copy(update={
        "spaces": [*track.spaces, *laying.stretch.spaces],
        "links": [*track.links, *links],
        "pit_lane": pit,
    })
