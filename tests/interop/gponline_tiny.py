"""A tiny GP Online track written by hand, line by line, and ways to break it.

Three lanes of twelve rows, staggered as printed boards are (lane 2 half a row ahead of lanes 1
and 3), one three-stop corner, a pit lane of four nodes with a garage, and a grid of ten: the
smallest track GP Online's loader accepts, from which each test of a builder rule makes a file
the game refuses by changing one thing. Node ``10 * row + lane`` is lane ``lane`` in row ``row``;
pit nodes are 901 to 904.
"""

from __future__ import annotations

ROWS = 12
CURVE = (5, 6, 7)
"""Rows of the corner; lane 3 leaves it a row later (row 8), one lane behind another."""


def node(lane: int, row: int) -> int:
    return 10 * (row % ROWS) + lane


def _in_corner(lane: int, row: int) -> bool:
    return row in CURVE or (lane == 3 and row == CURVE[-1] + 1)


def _attribute(lane: int, row: int) -> float:
    """Half steps along the corner: lane 2 half a row ahead of the outer lanes."""
    return (row - CURVE[0]) + (1.0 if lane == 2 else 0.5)


def tiny_sections(pit: bool = True) -> list[list[str]]:
    """The header, nodes, edges, attributes and grid, each a list of lines."""
    nodes, edges, attributes, grid = [], [], [], []
    for row in range(ROWS):
        for lane in (1, 2, 3):
            x, y = 100 + 60 * row + (30 if lane == 2 else 0), 100 + 40 * lane
            kind = 3 if _in_corner(lane, row) else 1
            nodes.append(f"{node(lane, row)} {x} {y} {kind}" + (" F" if row == 0 else ""))
            if _in_corner(lane, row):
                attributes.append(f"{node(lane, row)} {_attribute(lane, row)}")
            edges.append(f"{node(lane, row)} {node(lane, row + 1)}")
        edges += [f"{node(1, row)} {node(2, row)}", f"{node(3, row)} {node(2, row)}",
                  f"{node(2, row)} {node(1, row + 1)}", f"{node(2, row)} {node(3, row + 1)}"]
    for slot in range(10):
        grid.append(f"{node(1 if slot % 2 == 0 else 3, ROWS - 1 - slot // 2)} 0.0")
    if pit:
        nodes += ["901 700 300 7", "902 760 300 7", "903 820 300 7", "904 880 300 7"]
        edges += [f"{node(3, 10)} 901", "901 902", "902 903", "903 904", f"904 {node(3, 1)}"]
        attributes.append("902 1.0")
    return [["tiny.png 0"], nodes, edges, attributes, grid]


def text_of(sections: list[list[str]]) -> str:
    """The ``.dat`` text: the header and node lines together, the other sections after one
    empty line each."""
    header, nodes, *rest = sections
    return "\n\n".join("\n".join(lines) for lines in [header + nodes, *rest]) + "\n"


def tiny_dat(pit: bool = True) -> str:
    """The tiny track's text, which GP Online loads."""
    return text_of(tiny_sections(pit))
