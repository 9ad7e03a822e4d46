"""GP Online's track as its loader holds it, before the builder works on it.

This is the state the game's loader (``MapEditor.loadNodes``) leaves: the header's picture and
info-box corner, nodes kept by id in a hash map (their order is the map's, see
:mod:`javaorder`), each node's moves in a hash set, the legacy finish type turned into a
straight on the line, an attribute kept as a curve's distance when its node is a curve and as a
garage when it is a pit node (ignored on any other node), and each grid slot's angle. What the
loader itself trips over (a header it cannot split, an info-box corner it has no name for) is a
:class:`GameRefusal`. The text is expected to have passed the reading loop's check
(:func:`~trackformat.interop.gponline.readback.game_problem`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from trackformat.interop.gponline.dat import NodeType
from trackformat.interop.gponline.javaorder import JavaHashSet

INFO_CORNERS = 4
"""GP Online names four info-box corners (NE, SE, SW, NW): 0 to 3."""
CURVES = (NodeType.CURVE_1, NodeType.CURVE_2, NodeType.CURVE_3)


class GameRefusal(ValueError):
    """What GP Online's loader or builder refuses, with the rule broken and the game's own
    words (its exception message) when it has any."""

    def __init__(self, rule: str, message: str, game_says: str = "",
                 nodes: tuple[int, ...] = ()) -> None:
        self.rule, self.message, self.game_says = rule, message, game_says
        self.nodes = nodes
        """The nodes at fault, so that a caller can name the spaces they came from."""
        said = f' (GP Online says: "{game_says}")' if game_says else ""
        super().__init__(f"{message}{said}")


@dataclass(eq=False)
class GameNode:
    """A node as the game holds it; ``distance`` is the builder's (-1 until it is placed)."""

    id: int
    type: NodeType
    finish: bool
    x: int
    y: int
    children: JavaHashSet = field(default_factory=JavaHashSet)
    garage: bool = False
    grid_angle: float | None = None
    distance: float = -1.0

    @property
    def is_pit(self) -> bool:
        return self.type == NodeType.PIT


@dataclass
class GameTrack:
    """The loaded track: nodes in the game's order, by id, and the curve distance attributes."""

    nodes: list[GameNode]
    by_id: dict[int, GameNode]
    attributes: dict[int, float]
    image: str
    info_corner: int

    def children(self, node: GameNode) -> list[GameNode]:
        """``node``'s moves, in the order its hash set gives them."""
        return [self.by_id[i] for i in node.children]

    def is_curve(self, node: GameNode, seen: frozenset[int] = frozenset()) -> bool:
        """A curve node, or a blocked node whose first move (in hash set order) leads to one:
        GP Online treats such a blocked node as part of the curve it stands in."""
        if node.type in CURVES:
            return True
        if node.type != NodeType.BLOCKED or not len(node.children):
            return False
        if node.id in seen:  # Java recurses until its stack overflows
            raise GameRefusal(
                "blocked", f"blocked nodes {sorted(seen)} lead round to one another by their "
                "first moves; GP Online would never stop asking whether they are curves",
                nodes=tuple(sorted(seen)),
            )
        first = self.by_id[next(iter(node.children))]
        return self.is_curve(first, seen | {node.id})


def _java_split(line: str) -> list[str]:
    """``line.split(" ")`` as Java does it: trailing empty fields dropped."""
    parts = line.split(" ")
    while parts and parts[-1] == "":
        parts.pop()
    return parts


_JAVA_INT = re.compile(r"[+-]?[0-9]+")


def _header(line: str) -> tuple[str, int]:
    """The picture and info-box corner, read as the game does: the picture ends at the first
    space after its first ``.``, then come the corner and, optionally, the weather (its rain
    probability and shortest period, which the game holds as whole numbers)."""
    if not line:
        raise GameRefusal("header", "the header line is empty")
    dot = line.find(".")
    if dot < 0:
        raise GameRefusal("header", "the header's picture name has no '.' and extension")
    parts = _java_split(line[dot:])
    if len(parts) < 2 or _JAVA_INT.fullmatch(parts[1]) is None:
        raise GameRefusal(
            "header", "the header has no info-box corner number after the picture's name"
        )
    corner = int(parts[1])
    if not 0 <= corner < INFO_CORNERS:
        raise GameRefusal(
            "header",
            f"the header's info-box corner is {corner}; GP Online has corners 0 to "
            f"{INFO_CORNERS - 1} (NE, SE, SW, NW)",
        )
    if len(parts) > 2 and not (
        len(parts) == 4 and all(_JAVA_INT.fullmatch(p) for p in parts[2:])
    ):
        raise GameRefusal(
            "header",
            "the header's weather must be two whole numbers (rain probability, shortest "
            f"period); found {' '.join(parts[2:])!r}",
        )
    return line[:dot] + parts[0], corner


def load_game_track(text: str) -> GameTrack:
    """The track as GP Online's loader leaves it (see the module docstring)."""
    lines = re.split(r"\r\n|\r|\n", text)
    image, corner = _header(lines[0])
    by_id: dict[int, GameNode] = {}
    order = JavaHashSet(nodes=False)
    raw_attributes: dict[int, float] = {}
    grid: dict[int, float] = {}
    empty = 0
    for line in lines[1:]:
        parts = _java_split(line)
        if line == "":
            empty += 1
        elif empty == 0:
            node_id, kind = int(parts[0]), NodeType(int(parts[3]))
            finish = kind == NodeType.FINISH or (len(parts) > 4 and parts[4] == "F")
            if kind == NodeType.FINISH:
                kind = NodeType.STRAIGHT  # the legacy finish type is a straight on the line
            by_id[node_id] = GameNode(node_id, kind, finish, int(parts[1]), int(parts[2]))
            order.add(node_id)
        elif empty == 1:
            a, b = by_id[int(parts[0])], by_id[int(parts[1])]
            if a is not b:  # a move onto itself is ignored; a move replaces its reverse
                a.children.add(b.id)
                b.children.discard(a.id)
        elif empty == 2:
            raw_attributes[int(parts[0])] = float(parts[1])
        else:
            grid[int(parts[0])] = float(parts[1])
    track = GameTrack([by_id[i] for i in order], by_id, {}, image, corner)
    for node_id, value in raw_attributes.items():
        node = by_id[node_id]
        if node.is_pit:
            node.garage = True
        elif track.is_curve(node):
            track.attributes[node_id] = value
    for node_id, angle in grid.items():
        by_id[node_id].grid_angle = angle
    return track
