"""Rules: references. Every id names one element, and everything the track names exists.

These come first because every other check trusts them: the graphs quietly skip a link to a
space that does not exist, so only these rules say that it was there. The small helpers at the
bottom (where a link is in the file, how to list ids in a message) are shared by the other rule
modules of this package.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from trackformat.graph import TrackGraphs
from trackformat.lint.diagnostic import Severity
from trackformat.lint.registry import RULES, Finding, rule
from trackformat.model.track import Link, SpaceKind, Track

TOPIC = "references"


@rule(
    "REF001",
    "duplicate-id",
    TOPIC,
    Severity.ERROR,
    example='two entries of "spaces" both have "id": "1-5".',
)
def duplicate_id(track: Track, graphs: TrackGraphs) -> Iterator[Finding]:
    """An id is used by two spaces, two lanes or two corners.

    Links, corners, the finish line, the grid and the pit lane name spaces by id, and spaces name
    their lane by id, so each id must name exactly one element of its list. When an id is used
    twice the validator and the editor use the first element and the second one is unreachable
    by name. Give the second element a new id, or delete it if it is a copy made by mistake.
    """
    lists: tuple[tuple[str, str, list[tuple[str, tuple[float, float] | None]]], ...] = (
        ("spaces", "space", [(s.id, (s.centre[0], s.centre[1])) for s in track.spaces]),
        ("lanes", "lane", [(lane.id, None) for lane in track.lanes]),
        ("corners", "corner", [(corner.id, None) for corner in track.corners]),
    )
    for key, noun, items in lists:
        first: dict[str, int] = {}
        for position, (item_id, point) in enumerate(items):
            if item_id not in first:
                first[item_id] = position
                continue
            yield Finding(
                f"{noun} id {item_id} is used twice in /{key}, at /{key}/{first[item_id]} and "
                f"/{key}/{position}; references to {item_id} reach only the first one, so give "
                f"the other a new id",
                elements=(item_id,),
                pointer=f"/{key}/{position}",
                point=point,
                group=f"ids used again in /{key}",
            )


@rule(
    "REF002",
    "link-unknown-space",
    TOPIC,
    Severity.ERROR,
    example='{"from": "1-5", "to": "1-99"} in "links" on a track with no space 1-99.',
)
def link_unknown_space(track: Track, graphs: TrackGraphs) -> Iterator[Finding]:
    """A link names a space that does not exist, or leads from a space to itself.

    A link is one move of one space, so both of its ends must be spaces of the track, and they
    must differ. Links are checked in /links and in the pit lane's /pit_lane/entry and
    /pit_lane/exit. The graphs of moves leave such a link out, so until it is fixed the move it
    was meant to allow does not exist. Usually the space was renamed or deleted after the link
    was drawn: point the link at the right space, or delete it.
    """
    spaces = graphs.spaces
    for pointer, link in link_entries(graphs):
        if link.from_ != link.to and link.from_ in spaces and link.to in spaces:
            continue  # the usual case, decided without building anything
        missing = [end for end in dict.fromkeys((link.from_, link.to)) if end not in graphs.spaces]
        known = next((end for end in (link.from_, link.to) if end in graphs.spaces), None)
        point = graphs.centre(known) if known is not None else None
        if missing:
            names = " or ".join(missing) if len(missing) > 1 else missing[0]
            which = "spaces" if len(missing) > 1 else "space"
            yield Finding(
                f"{_link_noun(pointer)} {link_name(link)} names {which} {names}, which the track "
                f"does not have; point it at an existing space or delete it",
                elements=(link.from_, link.to),
                pointer=pointer,
                point=point,
                group="links naming a missing space",
            )
        elif link.from_ == link.to:
            yield Finding(
                f"{_link_noun(pointer)} {link_name(link)} leads from a space to itself; a move "
                f"always ends on another space, so delete it",
                elements=(link.from_,),
                pointer=pointer,
                point=point,
                group="links from a space to itself",
            )


@rule(
    "REF003",
    "space-lane",
    TOPIC,
    Severity.ERROR,
    example='a track space with "lane": null, or "lane": "7" on a track whose lanes are 1 to 3.',
)
def space_lane(track: Track, graphs: TrackGraphs) -> Iterator[Finding]:
    """A track space has no lane or an unknown one, or a pit or box space has a lane.

    Every space of the circuit is in exactly one lane, one of those listed in /lanes: the lane
    decides which moves change lane, how the finish line and the grid are laid out and which
    cars are side by side. Pit-lane spaces and boxes are in no lane; a lane on one of them is
    ignored, and is reported as a warning because it usually means the space was given the
    wrong kind.
    """
    lane_ids = [lane.id for lane in track.lanes]
    known = ", ".join(lane_ids) if lane_ids else "none"
    for position, space in enumerate(track.spaces):
        pointer = f"/spaces/{position}"
        point = (space.centre[0], space.centre[1])
        if space.kind == SpaceKind.TRACK:
            if space.lane is None:
                yield Finding(
                    f"track space {space.id} has no lane; give it one of the lanes in /lanes "
                    f"({known})",
                    elements=(space.id,),
                    pointer=pointer,
                    point=point,
                    group="track spaces with no lane",
                )
            elif space.lane not in lane_ids:
                yield Finding(
                    f"track space {space.id} is in lane {space.lane}, which is not in /lanes "
                    f"(lanes: {known})",
                    elements=(space.id,),
                    pointer=f"{pointer}/lane",
                    point=point,
                    group="track spaces in a lane not in /lanes",
                )
        elif space.lane is not None:
            yield Finding(
                f"{kind_noun(space.kind)} {space.id} has lane {space.lane}, but pit and box "
                f"spaces are in no lane: remove the lane, or make it a track space",
                elements=(space.id,),
                pointer=f"{pointer}/lane",
                point=point,
                severity=Severity.WARNING,
                group="pit and box spaces with a lane",
            )


@rule(
    "REF004",
    "unknown-reference",
    TOPIC,
    Severity.ERROR,
    example='a corner whose "spaces" list 1-99 on a track with no such space.',
)
def unknown_reference(track: Track, graphs: TrackGraphs) -> Iterator[Finding]:
    """A corner, the finish line, the grid or the pit lane names a space that does not exist.

    Each of these lists spaces by id; an id with no space behind it is skipped by every check
    and every measurement, so a corner would be measured short or a grid slot would be missing
    without anything else saying why. Entries of /ignore that name an element that does not
    exist, or a code that is no rule, are warnings: they silence nothing, and were probably
    left behind when the element was renamed.
    """
    def missing(ids: Iterable[str], base: str) -> Iterator[tuple[int, str, str]]:
        for position, space_id in enumerate(ids):
            if space_id not in graphs.spaces:
                yield position, space_id, f"{base}/{position}"

    for index, corner in enumerate(track.corners):
        for _, space_id, pointer in missing(corner.spaces, f"/corners/{index}/spaces"):
            yield Finding(
                f"corner {corner.id} lists space {space_id}, which the track does not have",
                elements=(corner.id, space_id),
                pointer=pointer,
                group="corner entries",
            )
    if track.finish_line is not None:
        for _, space_id, pointer in missing(track.finish_line.spaces, "/finish_line/spaces"):
            yield Finding(
                f"the finish line lists space {space_id}, which the track does not have",
                elements=(space_id,),
                pointer=pointer,
                group="finish-line entries",
            )
    for position, space_id, pointer in missing(track.grid, "/grid"):
        yield Finding(
            f"grid slot {position + 1} is space {space_id}, which the track does not have",
            elements=(space_id,),
            pointer=pointer,
            group="grid slots",
        )
    if track.pit_lane is not None:
        for _, space_id, pointer in missing(track.pit_lane.spaces, "/pit_lane/spaces"):
            yield Finding(
                f"the pit lane lists space {space_id}, which the track does not have",
                elements=(space_id,),
                pointer=pointer,
                group="pit-lane entries",
            )
        for _, space_id, pointer in missing(track.pit_lane.boxes, "/pit_lane/boxes"):
            yield Finding(
                f"the pit lane lists box {space_id}, which the track does not have",
                elements=(space_id,),
                pointer=pointer,
                group="boxes",
            )
        for _, space_id, pointer in missing(track.pit_lane.garages, "/pit_lane/garages"):
            yield Finding(
                f"the pit lane lists garage {space_id}, which the track does not have",
                elements=(space_id,),
                pointer=pointer,
                group="garages",
            )
    element_ids = (
        set(graphs.spaces) | {lane.id for lane in track.lanes} | {c.id for c in track.corners}
    )
    for index, entry in enumerate(track.ignore):
        if entry.code not in RULES:
            yield Finding(
                f"ignore entry {index + 1} names code {entry.code}, which is no validator rule; "
                f"it silences nothing",
                pointer=f"/ignore/{index}/code",
                severity=Severity.WARNING,
                group="ignore entries naming no rule",
            )
        for position, element_id in enumerate(entry.elements):
            if element_id not in element_ids:
                yield Finding(
                    f"ignore entry {index + 1} ({entry.code}) names {element_id}, which is no "
                    f"space, lane or corner of the track; it silences nothing for it",
                    elements=(element_id,),
                    pointer=f"/ignore/{index}/elements/{position}",
                    severity=Severity.WARNING,
                    group="ignored elements the track does not have",
                )


@rule(
    "REF005",
    "duplicate-link",
    TOPIC,
    Severity.WARNING,
    example='{"from": "1-5", "to": "1-6"} listed twice in "links".',
)
def duplicate_link(track: Track, graphs: TrackGraphs) -> Iterator[Finding]:
    """The same link is listed twice.

    A move either exists or not, so a second copy adds nothing; it is harmless to the game but
    usually a sign of a slip in editing, and deleting one copy later would leave the move in
    place. A pit entry or exit belongs in /pit_lane/entry or /pit_lane/exit only, not in /links
    as well.
    """
    if len(link_pointers(graphs)) == len(link_entries(graphs)):
        return  # every link listed once
    first: dict[tuple[str, str], str] = {}
    for pointer, link in link_entries(graphs):
        pair = (link.from_, link.to)
        if pair not in first:
            first[pair] = pointer
            continue
        hint = "delete one of them"
        for key in ("entry", "exit"):
            lists = {_list_of(first[pair]), _list_of(pointer)}
            if lists == {"/links", f"/pit_lane/{key}"}:
                hint = f"a pit {key} is listed only in /pit_lane/{key}, so delete it from /links"
        yield Finding(
            f"link {link_name(link)} is listed twice, at {first[pair]} and {pointer}; {hint}",
            elements=pair,
            pointer=pointer,
            point=graphs.centre(link.from_),
            group="links listed again",
        )


# Helpers shared by the rule modules of this package.


def link_entries(graphs: TrackGraphs) -> list[tuple[str, Link]]:
    """Every link of the file with its JSON pointer: /links, then pit entry and exit links
    (listed once per validation: several rules go through them all)."""
    return graphs.remember("link_entries", lambda: _link_entries(graphs.track))


def _link_entries(track: Track) -> list[tuple[str, Link]]:
    entries = [(f"/links/{i}", link) for i, link in enumerate(track.links)]
    if track.pit_lane is not None:
        entries += [(f"/pit_lane/entry/{i}", link) for i, link in enumerate(track.pit_lane.entry)]
        entries += [(f"/pit_lane/exit/{i}", link) for i, link in enumerate(track.pit_lane.exit)]
    return entries


def link_pointers(graphs: TrackGraphs) -> dict[tuple[str, str], str]:
    """JSON pointer of each link (from, to) in the file, the first one if it is listed twice
    (worked out once per validation: several rules ask)."""
    return graphs.remember("link_pointers", lambda: _link_pointers(graphs))


def _link_pointers(graphs: TrackGraphs) -> dict[tuple[str, str], str]:
    pointers: dict[tuple[str, str], str] = {}
    for pointer, link in link_entries(graphs):
        pointers.setdefault((link.from_, link.to), pointer)
    return pointers


def link_name(link: Link | tuple[str, str]) -> str:
    """A link as designers read it: ``1-5 -> 1-6``."""
    if isinstance(link, Link):
        return f"{link.from_} -> {link.to}"
    return f"{link[0]} -> {link[1]}"


def id_list(ids: Sequence[str], limit: int = 5) -> str:
    """Ids for a message: ``a, b and c``, or ``a, b, c, d, e and 7 more`` past ``limit``."""
    shown = list(ids[:limit])
    rest = len(ids) - len(shown)
    if rest > 0:
        return f"{', '.join(shown)} and {rest} more"
    if len(shown) <= 1:
        return "".join(shown)
    return f"{', '.join(shown[:-1])} and {shown[-1]}"


def in_file_order(graphs: TrackGraphs, ids: Iterable[str]) -> list[str]:
    """Space ids sorted as the spaces appear in the file (unknown ids last)."""
    far = len(graphs.track.spaces)
    return sorted(ids, key=lambda i: (graphs.space_position.get(i, far), i))


def kind_noun(kind: SpaceKind) -> str:
    """How a message names a space of this kind."""
    return {SpaceKind.TRACK: "space", SpaceKind.PIT: "pit space", SpaceKind.BOX: "box"}[kind]


def _link_noun(pointer: str) -> str:
    if pointer.startswith("/pit_lane/entry"):
        return "pit entry link"
    if pointer.startswith("/pit_lane/exit"):
        return "pit exit link"
    return "link"


def _list_of(pointer: str) -> str:
    return pointer.rsplit("/", 1)[0]
