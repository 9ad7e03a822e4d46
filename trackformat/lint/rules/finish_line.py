"""Rules: the lap at its finish line. The line names one track space per lane, in lane order
(LAP004), and is crossed only from the spaces right behind it (LAP005).

Kept beside :mod:`~trackformat.lint.rules.lap`, whose topic it shares: laps are counted from
this line.
"""

from __future__ import annotations

from collections.abc import Iterator

from trackformat.graph import TrackGraphs
from trackformat.lint.diagnostic import Severity
from trackformat.lint.registry import Finding, rule
from trackformat.lint.rules.corners import lane_is_partial
from trackformat.lint.rules.lap import TOPIC
from trackformat.lint.rules.references import id_list, link_name, link_pointers
from trackformat.model.track import SpaceKind, Track
from trackformat.words import ordinal


@rule(
    "LAP004",
    "finish-line",
    TOPIC,
    Severity.ERROR,
    example='"finish_line": {"spaces": ["2-0", "1-0", "3-0"]} (lanes out of order).',
)
def finish_line(track: Track, graphs: TrackGraphs) -> Iterator[Finding]:
    """The finish line is missing, or is not one track space per lane in lane order.

    The finish line is given by the first space past it in each lane, listed in the order of
    /lanes (the driver's left to right). Laps, the order of the lanes and the shortest lap are
    all counted from it, so it must name exactly one track space in each lane.

    A partial lane, whose links do not run all round the lap (a stretch where the track is one
    lane wider, on real boards), may not reach the line: with no space on it, it gets a note and
    is left out of the line's order.
    """
    line = track.finish_line
    if line is None:
        yield Finding(
            "the track has no finish line; in the editor, use the Finish line tool on the first "
            "space past the line (in a file, /finish_line lists it for each lane, left to right)"
        )
        return
    lanes_of: dict[str, list[str]] = {lane.id: [] for lane in track.lanes}
    for position, space_id in enumerate(line.spaces):
        space = graphs.spaces.get(space_id)
        if space is None:
            continue  # an unknown id is REF004's
        if space.kind != SpaceKind.TRACK:
            yield Finding(
                f"the finish line lists {space_id}, which is a {space.kind.value} space, not a "
                f"track space",
                elements=(space_id,),
                pointer=f"/finish_line/spaces/{position}",
                point=graphs.centre(space_id),
                group="finish-line entries that are not track spaces",
            )
        elif space.lane in lanes_of:
            lanes_of[space.lane].append(space_id)
    well_placed = True
    for lane_id, ids in lanes_of.items():
        if len(ids) == 1:
            continue
        if not ids and lane_is_partial(graphs, lane_id):
            yield Finding(
                f"the partial lane {lane_id} has no space on the finish line; if it reaches the "
                "line, add its first space past it",
                pointer="/finish_line/spaces",
                severity=Severity.INFO,
            )
            continue
        well_placed = False
        if not ids:
            yield Finding(
                f"the finish line has no space in lane {lane_id}; it needs one space in every "
                f"lane",
                pointer="/finish_line/spaces",
            )
        else:
            # Each space named once, however often it is listed (a line can list one space
            # half a million times).
            distinct = list(dict.fromkeys(ids))
            if len(distinct) == len(ids):
                problem = f"has {len(ids)} spaces in lane {lane_id} ({id_list(ids)})"
            else:
                problem = (
                    f"lists {id_list(distinct)} in lane {lane_id}, {len(ids):,} entries in all"
                )
            yield Finding(
                f"the finish line {problem}; it needs exactly one in each lane",
                elements=tuple(distinct),
                pointer="/finish_line/spaces",
                point=graphs.centre(ids[0]),
            )
    crossing = [lane for lane in track.lanes if lanes_of[lane.id]]
    if not well_placed or len(line.spaces) != len(crossing):
        return
    for position, (space_id, lane) in enumerate(zip(line.spaces, crossing, strict=True)):
        actual = graphs.lane_of(space_id)
        if actual is not None and actual != lane.id:
            nth = ordinal(position + 1)
            yield Finding(
                f"the {nth} space of the finish line is {space_id}, in lane {actual}, but the "
                f"{nth} lane of /lanes is {lane.id}; list the line's spaces in lane order, "
                f"left to right",
                elements=(space_id,),
                pointer=f"/finish_line/spaces/{position}",
                point=graphs.centre(space_id),
            )


@rule(
    "LAP005",
    "line-crossing",
    TOPIC,
    Severity.ERROR,
    example="a link from 1-20 to the finish-line space 1-0, half a lap before the line.",
)
def line_crossing(track: Track, graphs: TrackGraphs) -> Iterator[Finding]:
    """The finish line is crossed from somewhere other than right behind it.

    Every lap crosses the finish line, once: the links onto the line's spaces must come from the
    spaces just behind it, whose every move crosses the line (or, where the lanes are staggered
    across the line, moves onto the space just behind it in the next lane). A link onto the line
    from a space that can also drive on elsewhere lets a car cut the lap short; a line space
    that no link enters can never be crossed in its lane.
    """
    finish = set(graphs.finish)
    if not finish:
        return
    pointers = link_pointers(graphs)
    # A lane the line does not cut is LAP004's; a move into it is not a way round the line.
    covered = {graphs.lane_of(s) for s in finish}
    behind_line = {u for u, _ in graphs.crossing_links}
    entered: set[str] = set()
    ahead = graphs.successors("circuit")
    for u, v in graphs.crossing_links:
        entered.add(v)
        elsewhere = sorted(
            w for w in ahead[u]
            if w not in finish and graphs.lane_of(w) in covered
            and (w not in behind_line or graphs.lane_of(w) == graphs.lane_of(u))
        )
        if elsewhere:
            yield Finding(
                f"link {link_name((u, v))} crosses the finish line from {u}, which also leads "
                f"on to {id_list(elsewhere)} without crossing it; the line is crossed only from "
                f"the spaces right behind it",
                elements=(u, v),
                pointer=pointers.get((u, v)),
                point=graphs.centre(u),
            )
    for position, space_id in enumerate(track.finish_line.spaces if track.finish_line else []):
        if space_id in finish and space_id not in entered:
            lane = graphs.lane_of(space_id)
            yield Finding(
                f"no link enters the finish-line space {space_id} from behind the line, so the "
                f"line can never be crossed in lane {lane}; link the last space of the lane "
                f"to it",
                elements=(space_id,),
                pointer=f"/finish_line/spaces/{position}",
                point=graphs.centre(space_id),
                group="finish-line spaces no link enters",
            )
