"""Rules: the paths through corners. A corner can be driven through, and its printed long and
short numbers agree with the paths its links allow.

Unknown space ids in a corner are left to the reference rules; every rule here looks only at the
ids that name an existing space.
"""

from __future__ import annotations

from collections.abc import Iterator

from trackformat.analysis import CornerMeasure, measure_corner
from trackformat.graph import TrackGraphs
from trackformat.lint.diagnostic import Severity
from trackformat.lint.registry import Finding, rule
from trackformat.lint.rules.corners import (
    corner_name,
    middle_of,
    placed_corners,
    route_text,
    track_spaces_of,
)
from trackformat.model.track import Track


def _measured(track: Track, graphs: TrackGraphs) -> Iterator[tuple[int, CornerMeasure]]:
    for position, corner in placed_corners(track, graphs):
        yield position, measure_corner(graphs, corner)


def _printed_mismatch(
    graphs: TrackGraphs, position: int, measure: CornerMeasure, which: str
) -> Finding | None:
    corner = measure.corner
    if which == "long":
        printed, computed, route = corner.printed_long, measure.long, measure.long_route
        adjective = "longest"
    else:
        printed, computed, route = corner.printed_short, measure.short, measure.short_route
        adjective = "shortest"
    if printed is None or computed is None or printed == computed:
        return None
    return Finding(
        f"{corner_name(corner)} is printed with a {adjective} path of {printed} spaces, "
        f"but its links give {computed}: {route_text(route)}; correct printed_{which}, "
        "or the corner's spaces and arrows if the print is right",
        elements=(corner.id, *route),
        pointer=f"/corners/{position}/printed_{which}",
        point=middle_of(graphs, route),
        group=f"corners whose printed {which} path differs",
    )


@rule(
    "CORNER005",
    "printed-long",
    "corners",
    Severity.ERROR,
    example='"printed_long": 5 on a corner whose longest path through is 4 spaces.',
)
def printed_long(track: Track, graphs: TrackGraphs) -> Iterator[Finding]:
    """A corner's printed long number equals its longest path through.

    The board prints, beside each corner, how many spaces the longest path through it counts
    (usually along the outside). The validator walks the corner's links from every space a car
    can enter it on to every space it can leave it from; a different count means a space or an
    arrow of the corner is missing or extra, or the number was mistyped. The message shows the
    computed path so you can compare it with the board.
    """
    for position, measure in _measured(track, graphs):
        finding = _printed_mismatch(graphs, position, measure, "long")
        if finding is not None:
            yield finding


@rule(
    "CORNER006",
    "printed-short",
    "corners",
    Severity.ERROR,
    example='"printed_short": 2 on a corner whose shortest path through is 4 spaces.',
)
def printed_short(track: Track, graphs: TrackGraphs) -> Iterator[Finding]:
    """A corner's printed short number equals its shortest path through.

    The board prints how many spaces the shortest path through each corner counts (usually along
    the inside, cutting across lanes where the arrows allow). A different count from the one the
    links give means a space or an arrow of the corner is missing or extra, or the number was
    mistyped. The message shows the computed path so you can compare it with the board.
    """
    for position, measure in _measured(track, graphs):
        finding = _printed_mismatch(graphs, position, measure, "short")
        if finding is not None:
            yield finding


@rule(
    "CORNER007",
    "printed-missing",
    "corners",
    Severity.INFO,
    example="A corner without printed_long and printed_short.",
)
def printed_missing(track: Track, graphs: TrackGraphs) -> Iterator[Finding]:
    """A corner gives its printed long and short numbers.

    The printed numbers are optional, but when they are given the validator checks the corner's
    spaces and arrows against them, which catches most mistakes in a corner. The message says
    what the links give, so that you can compare it with the board and fill the numbers in.
    """
    for position, measure in _measured(track, graphs):
        corner = measure.corner
        absent = [
            (field, value)
            for field, printed, value in (
                ("printed_long", corner.printed_long, measure.long),
                ("printed_short", corner.printed_short, measure.short),
            )
            if printed is None and value is not None
        ]
        if not absent:
            continue
        given = " and ".join(
            f"a {field.removeprefix('printed_')} path of {value}" for field, value in absent
        )
        fills = " and ".join(f"{field} to {value}" for field, value in absent)
        yield Finding(
            f"{corner_name(corner)} has no {' or '.join(f for f, _ in absent)}; its links give "
            f"{given}: if the board prints the same, set {fills}",
            elements=(corner.id,),
            pointer=f"/corners/{position}",
            point=middle_of(graphs, track_spaces_of(graphs, corner)),
            group="corners without printed paths",
        )


@rule(
    "CORNER008",
    "no-way-through",
    "corners",
    Severity.ERROR,
    example="A corner whose exit spaces have no link leading out of it.",
)
def no_way_through(track: Track, graphs: TrackGraphs) -> Iterator[Finding]:
    """A car can drive through every corner: in at an entry, out at an exit.

    A corner needs a space that a link enters from outside the corner, a space that a link leaves
    the corner from, and a chain of links inside the corner between them. Otherwise the corner
    is cut off from the circuit, usually because its spaces list is wrong (a corner that lists
    every space of the track has no way out) or an arrow is missing.
    """
    for position, measure in _measured(track, graphs):
        corner = measure.corner
        inside = track_spaces_of(graphs, corner)
        if not inside:
            problem = "lists no track space"
        elif not measure.entries:
            problem = "has no space that a link enters from outside the corner"
        elif not measure.exits:
            problem = "has no space with a link leaving the corner"
        elif measure.short is None:
            problem = (
                f"has no chain of links from an entry ({', '.join(measure.entries)}) "
                f"to an exit ({', '.join(measure.exits)})"
            )
        else:
            continue
        yield Finding(
            f"{corner_name(corner)} {problem}, so no car can drive through it: check the corner's "
            "spaces and the arrows into, inside and out of it",
            elements=(corner.id,),
            pointer=f"/corners/{position}",
            point=middle_of(graphs, inside),
            group="corners no car can drive through",
        )
