"""GP Online's track text format (``.dat``): reading it into plain records and writing it back.

This module knows the file's syntax only; what the records mean for a Formula D track (lanes,
corners, the pit lane) is worked out in :mod:`importer` and :mod:`exporter`.

The format, as the game's own editor writes and reads it (LF or CRLF line endings):

1. header, one line: ``<image file> <info-box corner 0-4> [<rain probability> <min weather
   period>]``; the image name may hold spaces and ends at its first ``.`` and the extension;
2. nodes, ``id x y type [F]``, right after the header line: integer board pixels; ``F`` marks a
   finish-line node;

then, each after a single empty line:

3. edges, ``from to``: one-space moves;
4. attributes, ``id value``: a curve node's relative position in its corner, or a garage mark;
5. grid (optional), ``id angle``: a start slot and the car's heading in degrees.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from enum import IntEnum


class NodeType(IntEnum):
    """The node types of GP Online."""

    UNKNOWN = 0
    STRAIGHT = 1
    CURVE_2 = 2
    CURVE_1 = 3
    BLOCKED = 4
    FINISH = 5
    """Legacy: a straight node on the finish line (newer files use a trailing ``F``)."""
    CURVE_3 = 6
    PIT = 7


CURVE_STOPS = {NodeType.CURVE_1: 1, NodeType.CURVE_2: 2, NodeType.CURVE_3: 3}
"""Stops demanded by each curve type."""


@dataclass(frozen=True)
class DatNode:
    id: int
    x: int
    y: int
    type: NodeType
    finish: bool = False
    line: int = field(default=0, compare=False)
    """Line of the file it came from (0 when built in memory), for messages only."""


@dataclass
class DatFile:
    """The records of a ``.dat`` file, in file order."""

    image: str
    info_corner: int = 0
    rain_probability: float | None = None
    min_weather_period: int | None = None
    nodes: list[DatNode] = field(default_factory=list)
    edges: list[tuple[int, int]] = field(default_factory=list)
    attributes: dict[int, float] = field(default_factory=dict)
    grid: list[tuple[int, float]] = field(default_factory=list)


class DatError(ValueError):
    """A ``.dat`` file that cannot be read, with the line at fault."""

    def __init__(self, source: str, line: int | None, message: str) -> None:
        self.source, self.line, self.message = source, line, message
        where = f"line {line}: " if line else ""
        super().__init__(f"{source}: {where}{message}")


_HEADER = re.compile(r"^(?P<image>[^.]*\.\S+)(?P<rest>(\s+\S+)*)\s*$")


_INTEGER = re.compile(r"[+-]?[0-9]+")
_DECIMAL = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")
JAVA_INT = 2**31
"""GP Online reads every integer of the file as a Java ``int``: -2,147,483,648 to 2,147,483,647."""
MAX_NODES = 10_000
"""Most nodes a file may hold: a printed board has 200 to 600 spaces, the real files at most 613
nodes. The limit bounds the work of importing a hostile file (and an export is held to it)."""


MAX_DAT_BYTES = 1024 * 1024
"""Largest ``.dat`` file read: 1 MB. The real ones are about 20 KB (600 nodes); the limit leaves
room for any board while bounding the work of importing a hostile file."""


def decode_dat(data: bytes, source: str) -> str:
    """The text of a ``.dat`` file's bytes, as the importer reads them; raises
    :class:`DatError` for what it refuses: more than :data:`MAX_DAT_BYTES`, or a NUL byte near
    the start (binary data). UTF-8 (with or without a byte order mark), else Latin-1.

    The export reads its own text back through this too: a board picture name holding a NUL
    would otherwise be written into a file the importer then refuses."""
    if len(data) > MAX_DAT_BYTES:
        raise DatError(source, None, f"is larger than {MAX_DAT_BYTES // 1024 // 1024} MB, far "
                       "more than a GP Online track file")
    if b"\x00" in data[:4096]:
        raise DatError(source, None, "binary data, not a GP Online track file")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def _number(text: str, kind: type[int] | type[float], what: str, source: str, line: int) -> float:
    """``text`` as the game reads it (Java's ``Integer.parseInt`` / ``Double.parseDouble``),
    only stricter: plain digits, no ``_``, no infinity or NaN, integers within a Java ``int``."""
    pattern = _INTEGER if kind is int else _DECIMAL
    if pattern.fullmatch(text) is None:
        raise DatError(
            source,
            line,
            f"{what} should be {'an integer' if kind is int else 'a number'}, found {text!r}",
        )
    if kind is int:
        if len(text.lstrip("+-").lstrip("0")) > 10 or not -JAVA_INT <= int(text) < JAVA_INT:
            raise DatError(
                source, line, f"{what} {text[:20]}{'...' if len(text) > 20 else ''} is too "
                "large: GP Online reads integers from -2147483648 to 2147483647"
            )
        return int(text)
    value = float(text)
    if value in (math.inf, -math.inf):
        raise DatError(source, line, f"{what} {text[:20]!r} is too large")
    return value


def _sections(text: str) -> list[list[tuple[int, str]]]:
    """The lines with their numbers, split at each empty line as the game reads them: two empty
    lines in a row leave an empty section between them (an export with no attributes but a grid
    has one). Empty lines before the header and at the end of the file are ignored."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    sections: list[list[tuple[int, str]]] = [[]]
    for number, raw in enumerate(lines, start=1):
        if raw.strip():
            sections[-1].append((number, raw.strip()))
        elif sections[0]:
            sections.append([])
    while sections and not sections[-1]:
        sections.pop()
    return sections


def parse_dat(text: str, source: str = "<dat>") -> DatFile:
    """Read the text of a ``.dat`` file; raises :class:`DatError` naming the line at fault.

    The game's layout has the node lines right after the header line; the older layout this
    toolkit once wrote, with an empty line after the header, is read too.
    """
    sections = _sections(text)
    if not sections:
        raise DatError(source, None, "the file is empty")
    if len(sections[0]) > 1:
        # The game's layout: the node lines follow the header line directly. Otherwise the
        # older layout, with an empty line between them, which splits them already.
        sections = [sections[0][:1], sections[0][1:], *sections[1:]]
    if len(sections) < 3 or not sections[1] or not sections[2]:
        raise DatError(
            source,
            None,
            "a track needs a header line, the node lines right after it, then an empty line and "
            "the edge lines; found "
            + ("no node lines" if len(sections) < 2 or not sections[1] else "no edge lines"),
        )
    if len(sections) > 5:
        raise DatError(
            source,
            # The first line past the grid (a section between two empty lines may be empty).
            next((section[0][0] for section in sections[5:] if section), None),
            "more than four sections after the header (nodes, edges, attributes, grid)",
        )

    dat = _parse_header(sections[0], source)
    if len(sections[1]) > MAX_NODES:
        raise DatError(
            source,
            sections[1][MAX_NODES][0],
            f"more than {MAX_NODES:,} nodes: a GP Online track has a few hundred",
        )
    seen: dict[int, int] = {}
    for number, text_line in sections[1]:
        parts = text_line.split()
        if len(parts) not in (4, 5) or (len(parts) == 5 and parts[4].upper() != "F"):
            raise DatError(source, number, f"a node is 'id x y type [F]', found {text_line!r}")
        node_id = int(_number(parts[0], int, "node id", source, number))
        if node_id in seen:
            raise DatError(
                source, number, f"node {node_id} is already defined on line {seen[node_id]}"
            )
        seen[node_id] = number
        kind = int(_number(parts[3], int, "node type", source, number))
        if kind not in NodeType._value2member_map_:
            raise DatError(source, number, f"node type {kind} is not one of 0-7")
        dat.nodes.append(
            DatNode(
                id=node_id,
                x=int(_number(parts[1], int, "x", source, number)),
                y=int(_number(parts[2], int, "y", source, number)),
                type=NodeType(kind),
                finish=len(parts) == 5,
                line=number,
            )
        )
    for number, text_line in sections[2]:
        parts = text_line.split()
        if len(parts) != 2:
            raise DatError(source, number, f"an edge is 'from to', found {text_line!r}")
        a, b = (int(_number(p, int, "edge end", source, number)) for p in parts)
        for end in (a, b):
            if end not in seen:
                raise DatError(source, number, f"edge names node {end}, which is not defined")
        dat.edges.append((a, b))
    if len(sections) > 3:
        for number, text_line in sections[3]:
            parts = text_line.split()
            if len(parts) != 2:
                raise DatError(source, number, f"an attribute is 'id value', found {text_line!r}")
            node_id = int(_number(parts[0], int, "attribute node id", source, number))
            if node_id not in seen:
                raise DatError(
                    source, number, f"attribute names node {node_id}, which is not defined"
                )
            dat.attributes[node_id] = float(
                _number(parts[1], float, "attribute value", source, number)
            )
    if len(sections) > 4:
        for number, text_line in sections[4]:
            parts = text_line.split()
            if len(parts) != 2:
                raise DatError(source, number, f"a grid slot is 'id angle', found {text_line!r}")
            node_id = int(_number(parts[0], int, "grid node id", source, number))
            if node_id not in seen:
                raise DatError(
                    source, number, f"grid slot names node {node_id}, which is not defined"
                )
            dat.grid.append(
                (node_id, float(_number(parts[1], float, "grid angle", source, number)))
            )
    return dat


def _parse_header(section: list[tuple[int, str]], source: str) -> DatFile:
    number, text_line = section[0]
    match = _HEADER.match(text_line)
    if match is None:
        raise DatError(
            source,
            number,
            "the header starts with the board image's file name (with its extension), "
            f"found {text_line!r}",
        )
    rest = match["rest"].split()
    if len(rest) not in (1, 3):
        raise DatError(
            source,
            number,
            "after the image name the header holds the info-box corner (0-4), optionally "
            "followed by the rain probability and the minimum weather period; "
            f"found {match['rest'].strip()!r}",
        )
    corner = int(_number(rest[0], int, "info-box corner", source, number))
    if not 0 <= corner <= 4:
        raise DatError(source, number, f"info-box corner should be 0 to 4, found {corner}")
    dat = DatFile(image=match["image"].strip(), info_corner=corner)
    if len(rest) == 3:
        dat.rain_probability = float(_number(rest[1], float, "rain probability", source, number))
        dat.min_weather_period = int(
            _number(rest[2], int, "minimum weather period", source, number)
        )
    return dat


def _format_value(value: float) -> str:
    return f"{value:.1f}" if value == round(value, 1) else repr(value)


def format_dat(dat: DatFile) -> str:
    """The text of a ``.dat`` file (LF line endings) in the game's layout: the header line, the
    node lines right after it, then edges, attributes and grid, each after one empty line."""
    header = f"{dat.image} {dat.info_corner}"
    if dat.rain_probability is not None and dat.min_weather_period is not None:
        rain = dat.rain_probability
        # Real files write whole percents as integers ("30"); the game is not asked to read more.
        header += f" {int(rain) if rain == int(rain) else repr(rain)} {dat.min_weather_period}"
    lines = [header]
    lines += [f"{n.id} {n.x} {n.y} {int(n.type)}" + (" F" if n.finish else "") for n in dat.nodes]
    # Each later section after one empty line; an empty attribute section before a grid is
    # just its empty line, so that the game reads the grid as the grid.
    sections = [
        [f"{a} {b}" for a, b in dat.edges],
        [f"{node} {_format_value(value)}" for node, value in dat.attributes.items()],
    ]
    if dat.grid:
        sections.append([f"{node} {_format_value(angle)}" for node, angle in dat.grid])
    for section in sections:
        lines += ["", *section]
    return "\n".join(lines) + "\n"
