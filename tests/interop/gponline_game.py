"""What the GP Online tests compare: how the game itself reads a ``.dat``, and a track's facts.

:func:`game_reads` is a small transcription of the game's reading loop, line by line as a Java
``BufferedReader`` gives them: the header line, then node lines until an empty line, then edges
until an empty line, then attributes, then the grid. It is stricter than the toolkit's reader on
purpose: a file it cannot read is a file GP Online cannot load.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from trackformat.graph import build_graphs
from trackformat.model import Track


@dataclass
class GameRead:
    header: list[str]
    nodes: dict[int, tuple[int, int, int, bool]] = field(default_factory=dict)
    edges: list[tuple[int, int]] = field(default_factory=list)
    attributes: dict[int, float] = field(default_factory=dict)
    grid: list[tuple[int, float]] = field(default_factory=list)


def game_reads(text: str) -> GameRead:
    """Read ``text`` the way GP Online does; raises ValueError where the game would fail."""
    lines = iter(text.splitlines())
    read = GameRead(header=next(lines).split(" "))
    for line in lines:
        if line == "":
            break
        number, x, y, kind, *flag = line.split(" ")
        if flag not in ([], ["F"]):
            raise ValueError(f"node line {line!r}")
        read.nodes[int(number)] = (int(x), int(y), int(kind), flag == ["F"])
    for line in lines:
        if line == "":
            break
        a, b = line.split(" ")
        read.edges.append((int(a), int(b)))
    for line in lines:
        if line == "":
            break
        node, value = line.split(" ")
        read.attributes[int(node)] = float(value)
    for line in lines:
        if line == "":
            break
        node, angle = line.split(" ")
        read.grid.append((int(node), float(angle)))
    for node, _ in read.grid:
        if node not in read.nodes:
            raise ValueError(f"grid slot {node} is no node")
    for a, b in read.edges:
        if a not in read.nodes or b not in read.nodes:
            raise ValueError(f"edge {a} {b} names no node")
    return read


def track_facts(track: Track, rename: dict[str, int] | None = None) -> dict[str, object]:
    """What an import/export round trip must keep: lanes in order, spaces, links, corners and
    their stops, the pit lane, grid and finish line; ids mapped through ``rename``."""
    name = (lambda s: str(rename[s])) if rename else (lambda s: s)
    graphs = build_graphs(track)
    pit = track.pit_lane
    return {
        "lanes": [[name(s) for s in graphs.lanes[lane]] for lane in graphs.lane_order],
        "spaces": sorted((name(s.id), s.kind.value, s.lane) for s in track.spaces),
        "links": sorted((name(a), name(b)) for a, b in graphs.link_kinds),
        "corners": sorted(
            (c.stops, tuple(sorted(name(s) for s in c.spaces))) for c in track.corners
        ),
        "stops": [c.stops for c in track.corners],
        "grid": [name(s) for s in track.grid],
        "pit": (
            ([name(s) for s in pit.spaces], [name(s) for s in pit.boxes]) if pit else None
        ),
        "finish": [name(s) for s in track.finish_line.spaces] if track.finish_line else [],
    }
