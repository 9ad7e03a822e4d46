"""Rules: the start grid. It lies behind the finish line, pole first, with a slot for every car
of a full field.

Ids that name no space are left to the reference rules; here they are skipped.
"""

from __future__ import annotations

from collections.abc import Iterator

from trackformat.analysis import breadth_first
from trackformat.graph import TrackGraphs
from trackformat.lint.diagnostic import Severity
from trackformat.lint.registry import Finding, rule
from trackformat.model.track import Space, SpaceKind, Track

FULL_FIELD = 10
"""The most cars the game races at once; a grid should have a slot for each."""


def _moves_to_line(graphs: TrackGraphs) -> dict[str, int]:
    """Fewest moves from each track space to a finish-line space along the circuit (0 on it),
    worked out once per validation."""
    return graphs.remember(
        "moves_to_line",
        lambda: breadth_first(graphs.predecessors("circuit"), graphs.finish)[0],
    )


def half_lap(graphs: TrackGraphs) -> float:
    """Half the lap, in progress ranks: spaces ranked below it are past the line, the others
    behind it."""
    return (max(graphs.progress.values(), default=0) + 1) / 2


def _grid_slots(track: Track, graphs: TrackGraphs) -> Iterator[tuple[int, str, Space]]:
    """The grid's slots that name an existing space, with their position."""
    for position, slot in enumerate(track.grid):
        space = graphs.spaces.get(slot)
        if space is not None:
            yield position, slot, space


@rule(
    "GRID001",
    "grid-slot",
    "grid-pit",
    Severity.ERROR,
    example='A grid listing "pit-3", or "1-39" twice.',
)
def grid_slot(track: Track, graphs: TrackGraphs) -> Iterator[Finding]:
    """Each grid slot is a track space, used once.

    Cars start the race on the circuit, one car per slot: a pit-lane or box space cannot be a
    slot, and a space listed twice would put two cars on it. Replace the slot with the track
    space printed on the board.
    """
    used: dict[str, int] = {}
    for position, slot, space in _grid_slots(track, graphs):
        if space.kind != SpaceKind.TRACK:
            yield Finding(
                f"grid slot {position + 1} is {slot}, a {space.kind.value} space: grid slots are "
                "track spaces; use the space printed on the board's grid",
                elements=(slot,),
                pointer=f"/grid/{position}",
                point=graphs.centre(slot),
                group="grid slots that are not track spaces",
            )
        elif slot in used:
            yield Finding(
                f"grid slot {position + 1} is {slot}, already slot {used[slot] + 1}: one car per "
                "slot; remove the second mention or replace it with the next slot",
                elements=(slot,),
                pointer=f"/grid/{position}",
                point=graphs.centre(slot),
                group="grid slots naming a space again",
            )
        else:
            used[slot] = position


def _ranked_slots(track: Track, graphs: TrackGraphs) -> Iterator[tuple[int, str, int]]:
    """Track-space slots that can reach the line, each once, with their moves to it.

    Slots that cannot reach the line at all are left to the reachability rules.
    """
    if not graphs.finish:
        return
    distance = _moves_to_line(graphs)
    seen: set[str] = set()
    for position, slot, space in _grid_slots(track, graphs):
        if space.kind != SpaceKind.TRACK or slot in seen or slot not in distance:
            continue
        seen.add(slot)
        yield position, slot, distance[slot]


@rule(
    "GRID002",
    "grid-behind-line",
    "grid-pit",
    Severity.ERROR,
    example="A grid slot on the far side of the circuit, half a lap from the line.",
)
def grid_behind_line(track: Track, graphs: TrackGraphs) -> Iterator[Finding]:
    """Every grid slot lies behind the finish line.

    The grid is the stretch just before the line: from each slot a car reaches the line in fewer
    moves than half a lap. A slot further away, or on the first space past the line itself, is
    on the wrong side of the line: the slot or the finish line is misplaced.
    """
    half = half_lap(graphs)
    for position, slot, moves in _ranked_slots(track, graphs):
        if moves == 0:
            problem, places = "is on the first space past the finish line", "slots past the line"
        elif moves >= half:
            problem = f"is {moves} moves from the finish line, more than half a lap ({half:g})"
            places = "slots far from the line"
        else:
            continue
        yield Finding(
            f"grid slot {position + 1} ({slot}) {problem}: the grid lies just behind the line; "
            "move the slot, or check the finish line",
            elements=(slot,),
            pointer=f"/grid/{position}",
            point=graphs.centre(slot),
            group=f"grid {places}",
        )


@rule(
    "GRID003",
    "grid-order",
    "grid-pit",
    Severity.ERROR,
    example="A grid listing 1-37 before 1-39 (pole must be the slot nearest the line).",
)
def grid_order(track: Track, graphs: TrackGraphs) -> Iterator[Finding]:
    """The grid is listed from the line backwards, pole position first.

    The first slot is the pole, the slot nearest the finish line; each later slot is no nearer
    the line than the one before it (side by side is fine). Nearness is the fewest moves to the
    line along the circuit. Reorder the grid so that it reads back from the line.
    """
    previous: tuple[int, str, int] | None = None
    for position, slot, moves in _ranked_slots(track, graphs):
        if previous is not None and moves < previous[2]:
            before = "the pole" if previous[0] == 0 else f"slot {previous[0] + 1}"
            yield Finding(
                f"grid slot {position + 1} ({slot}) is {moves} moves from the line, nearer than "
                f"{before} ({previous[1]}, {previous[2]} moves): list the grid from the line "
                "backwards, pole first",
                elements=(slot, previous[1]),
                pointer=f"/grid/{position}",
                point=graphs.centre(slot),
                group="grid slots out of order",
            )
        if previous is None or moves >= previous[2]:
            previous = (position, slot, moves)


@rule(
    "GRID004",
    "grid-size",
    "grid-pit",
    Severity.WARNING,
    example="A grid of 6 slots.",
)
def grid_size(track: Track, graphs: TrackGraphs) -> Iterator[Finding]:
    """The grid has a slot for each car of a full field of 10.

    The game races up to 10 cars, so a grid with fewer slots cannot start a full race (a
    warning); a track with no grid at all cannot start any race (an error). Add the slots
    printed on the board, pole first.
    """
    count = len(track.grid)
    if count >= FULL_FIELD:
        return
    if count == 0:
        yield Finding(
            "the track has no grid, so no race can start: use the Grid tool to click the start "
            "slots, pole first (in a file, /grid lists them)",
            pointer="/grid",
            severity=Severity.ERROR,
        )
        return
    yield Finding(
        f"the grid has {count} slot{'s' if count != 1 else ''}, fewer than the "
        f"{FULL_FIELD} cars of a full field: add the remaining slots behind the last",
        elements=tuple(track.grid),
        pointer="/grid",
        point=graphs.centre(track.grid[-1]),
    )
