"""Rule: side-by-side lanes are staggered, so that a lane change advances half a space.

On every printed Formula D board the spaces of neighbouring lanes are offset by half a space
along the straights, and a diagonal move lands on the space half a space ahead in the next lane.
A digitised track whose lanes are laid level with each other, while its diagonal links still
point one space ahead, lets a car change lane and come back and be where two straight moves would
have taken it: every lane change is free, and every diagonal lands a space too far. Nothing in the
links alone looks wrong, and the track races, which is why a separate check is needed.

The check is topological, so it holds on any board without measuring spaces: a lane change and
back (``a -> b -> c`` with ``c`` in ``a``'s lane) must land where one straight move from ``a``
lands, never further. Inside bends the inside lane's spaces are shorter and a real board may let
such a zig-zag gain a space, so only stretches that turn less than :data:`STRAIGHT_TURN` are
judged.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from trackformat.adjacency import Adjacency
from trackformat.graph import TrackGraphs
from trackformat.lint.diagnostic import Severity
from trackformat.lint.registry import Finding, rule
from trackformat.model.track import SpaceKind, Track

STRAIGHT_TURN = 15.0
"""Degrees of heading a stretch may turn, over a lane change and back, and still be judged.

Measured on the traced Monaco board: its 374 lane-change-and-back moves all land one straight
move ahead where the spaces involved turn by less than 20 degrees; the six that gain a second
space all lie in bends turning more than that."""

RUN_GAP = 3
"""Offending lane changes at most this many moves apart along the lap are one stretch."""


@dataclass(frozen=True)
class Zigzag:
    """A lane change and back that lands ``gained`` straight moves ahead of ``start``."""

    start: str
    across: str
    back: str
    gained: int


def _turn(first: float, second: float) -> float:
    """Unsigned difference of two headings in degrees, 0 to 180."""
    return abs((second - first + 180.0) % 360.0 - 180.0)


def _straight(graphs: TrackGraphs, circuit: Adjacency, space: str) -> str | None:
    """The one successor of ``space`` in its own lane, or None where there is not exactly one."""
    lane = graphs.lane_of(space)
    ahead = [s for s in circuit.get(space, ()) if graphs.lane_of(s) == lane]
    return ahead[0] if len(ahead) == 1 else None


def _is_track(graphs: TrackGraphs, space: str) -> bool:
    found = graphs.spaces.get(space)
    return found is not None and found.kind is SpaceKind.TRACK and found.lane is not None


def zigzags(graphs: TrackGraphs) -> Iterator[Zigzag]:
    """Every lane change and back, on a stretch straighter than :data:`STRAIGHT_TURN`, that
    lands two or more straight moves ahead of where it started."""
    circuit = graphs.successors("circuit")
    for start in circuit:
        if not _is_track(graphs, start):
            continue
        lane = graphs.lane_of(start)
        ahead: list[str] = []
        here = start
        for _ in range(3):
            following = _straight(graphs, circuit, here)
            if following is None or following == start:
                break
            ahead.append(following)
            here = following
        if len(ahead) < 2:
            continue
        for across in circuit[start]:
            if not _is_track(graphs, across) or graphs.lane_of(across) == lane:
                continue
            for back in circuit.get(across, ()):
                if back not in ahead[1:]:
                    continue
                path = (across, back, ahead[0], ahead[1])
                heading = graphs.spaces[start].heading
                if max(_turn(heading, graphs.spaces[s].heading) for s in path) > STRAIGHT_TURN:
                    continue
                yield Zigzag(start, across, back, ahead.index(back) + 1)


def _stretches(graphs: TrackGraphs, found: Sequence[Zigzag]) -> list[list[Zigzag]]:
    """Zig-zags grouped by the pair of lanes they cross between, in both directions, into runs
    along the lap (see :data:`RUN_GAP`), the runs in lap order."""
    by_pair: dict[frozenset[str], list[Zigzag]] = {}
    for zigzag in found:
        pair = frozenset((graphs.lane_of(zigzag.start) or "", graphs.lane_of(zigzag.across) or ""))
        by_pair.setdefault(pair, []).append(zigzag)
    runs: list[list[Zigzag]] = []
    for pair_found in by_pair.values():
        ordered = sorted(pair_found, key=lambda z: graphs.progress.get(z.start, 0))
        run: list[Zigzag] = []
        for zigzag in ordered:
            if run and _gap(graphs, run[-1], zigzag) > RUN_GAP:
                runs.append(run)
                run = []
            run.append(zigzag)
        runs.append(run)
    runs.sort(key=lambda r: graphs.progress.get(r[0].start, 0))
    return runs


def _gap(graphs: TrackGraphs, last: Zigzag, following: Zigzag) -> int:
    """Moves along the lap between the starts of two zig-zags of one lane pair."""
    return graphs.progress.get(following.start, 0) - graphs.progress.get(last.start, 0)


@rule(
    "LAP006",
    "lanes-not-staggered",
    "lap",
    Severity.WARNING,
    example="lanes 1 and 2 laid level on a straight, with links 1-4 -> 2-5 -> 1-6: a lane change "
    "and back lands where two straight moves do.",
)
def lanes_not_staggered(track: Track, graphs: TrackGraphs) -> Iterator[Finding]:
    """A lane change and back lands further than one straight move: the lanes are not staggered.

    On a printed board the spaces of neighbouring lanes are offset by half a space along the
    straights, so a diagonal move advances half a space and a lane change followed by one back
    lands where a single straight move would. Where it lands two spaces ahead, the lanes were
    laid level with each other (or the diagonal arrows point one space too far), and every lane
    change is free: races on the file will not play like the board. Stagger the lanes by half a
    space, or point each diagonal link at the space half a space ahead. One warning is given per
    stretch of track, naming its spaces; bends turning more than 15 degrees are not judged, since
    the short spaces of an inside lane may rightly allow it there.
    """
    found = list(zigzags(graphs))
    for run in _stretches(graphs, found):
        first = run[0]
        starts = list(dict.fromkeys(z.start for z in run))
        lanes = sorted((graphs.lane_of(first.start) or "", graphs.lane_of(first.across) or ""),
                       key=lambda lane: graphs.lane_number(lane) or 0)
        span = starts[0] if len(starts) == 1 else f"{starts[0]} to {starts[-1]}"
        moves = "two" if first.gained == 2 else str(first.gained)
        elements = tuple(dict.fromkeys(s for z in run for s in (z.start, z.across, z.back)))
        yield Finding(
            f"lanes {lanes[0]} and {lanes[1]} are not staggered from {span} ({len(run)} lane "
            f"change{'s' if len(run) != 1 else ''} and back): for instance "
            f"{first.start} -> {first.across} -> {first.back} lands {moves} straight moves "
            "ahead, so changing lane costs nothing here; on a board, side-by-side lanes are "
            "offset by half a space and a diagonal lands half a space ahead",
            elements=elements,
            pointer=graphs.space_pointer(first.start),
            point=graphs.centre(first.start),
        )
