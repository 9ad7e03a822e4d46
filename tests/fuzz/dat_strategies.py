"""Hypothesis strategies for hostile GP Online ``.dat`` files: the real-layout fixtures of
``tests/data/gponline/`` changed line by line and number by number, and boards generated from
scratch (2 to 4 lanes of any length, laid on a circle, a line, one point or anywhere, with any
node types, finish marks, pit nodes, attributes and grid).

A mutated fixture keeps most of a real file's shape, so it reaches the lane finder, the corner
runs and the outlines; a generated board reaches shapes no fixture has (all nodes on one point,
lanes of one node, lanes crossed by every move).
"""

from __future__ import annotations

import math
from pathlib import Path

from hypothesis import strategies as st

FIXTURES = {
    path.name: path.read_text()
    for path in sorted((Path(__file__).parent.parent / "data" / "gponline").glob("*.dat"))
}
"""The fixtures' text, read once: small real-layout files (ovals, two and four lanes, a partial
lane, the older layout)."""

NASTY_NUMBERS = st.sampled_from([
    "0", "-1", "1", "01", "+7", "99000", "99001", "100000", "2147483647", "2147483648",
    "-2147483649", "1e9", "0.5", "nan", "NaN", "inf", "Infinity", "1_0", "", "x", "٣",
    "9" * 40, "-0", "F", "f",
])
NASTY_LINES = st.sampled_from([
    "", " ", "\t", "F", "1 2 3", "1 2 3 4 F F", "0 0 0 0", "1 1", "a b", "1 1 1 1 F",
    "board.png 0", "x" * 300, "\x00", "\ufeff1 2 3 1",
])


@st.composite
def mutated_dat(draw: st.DrawFn, max_changes: int = 4) -> str:
    """A fixture with a few random changes: a line replaced, removed, doubled or moved, a number
    swapped for a nasty one, an empty line added, a node sent onto another one's point, the
    file cut short, or its line endings changed."""
    lines = FIXTURES[draw(st.sampled_from(sorted(FIXTURES)))].split("\n")
    for _ in range(draw(st.integers(min_value=1, max_value=max_changes))):
        at = draw(st.integers(min_value=0, max_value=max(len(lines) - 1, 0)))
        action = draw(st.sampled_from([
            "number", "number", "number", "replace", "remove", "double", "move", "empty",
            "stack", "cut", "text",
        ]))
        if not lines:
            lines = [""]
        if action == "number":
            fields = lines[at].split(" ")
            fields[draw(st.integers(min_value=0, max_value=len(fields) - 1))] = draw(NASTY_NUMBERS)
            lines[at] = " ".join(fields)
        elif action == "replace":
            lines[at] = draw(NASTY_LINES)
        elif action == "remove":
            del lines[at]
        elif action == "double":
            lines.insert(at, lines[at])
        elif action == "move":
            lines.insert(draw(st.integers(min_value=0, max_value=len(lines))), lines.pop(at))
        elif action == "empty":
            lines.insert(at, "")
        elif action == "stack":
            # A node line given the coordinates of another node line.
            other = lines[draw(st.integers(min_value=0, max_value=len(lines) - 1))].split(" ")
            fields = lines[at].split(" ")
            if len(fields) >= 4 and len(other) >= 4:
                fields[1:3] = other[1:3]
                lines[at] = " ".join(fields)
        elif action == "cut":
            del lines[at:]
        else:
            lines[at] = draw(st.text(max_size=30))
    ending = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    return ending.join(lines)


SHAPES = ["circle", "line", "point", "anywhere", "huge circle"]


@st.composite
def generated_dat(draw: st.DrawFn) -> str:
    """A board made from scratch: lanes of nodes with straight-on and diagonal moves around a
    loop, finish marks on the first row, a few curves, blocked and pit nodes, attributes and a
    grid; the geometry may be a sound circle or a degenerate line or point."""
    lanes = draw(st.sampled_from([2, 2, 3, 3, 4, 4, 1, 5]))
    per_lane = draw(st.integers(min_value=1, max_value=60))
    shape = draw(st.sampled_from(SHAPES))
    shuffle = draw(st.booleans())
    sound_finish = draw(st.sampled_from([True, True, True, False]))
    ids = list(range(lanes * per_lane))
    if shuffle:
        ids = draw(st.permutations(ids))
    node = {(lane, k): ids[lane * per_lane + k] for lane in range(lanes) for k in range(per_lane)}
    # Mostly straights, so that many boards get as far as the lanes and corners; type 5 (an
    # old finish mark) and the others now and then.
    kinds = st.sampled_from([1] * 12 + [2, 2, 3, 3, 6] + ([4, 0, 5, 7] if draw(st.booleans())
                                                             else []))
    lines = [draw(st.sampled_from(["board.png", "my board v2.jpg", "x" * 1200 + ".png"]))
             + " " + draw(st.sampled_from(["0", "3", "2 0.25 4"]))]
    radius = 300 if shape != "huge circle" else 49_000
    for (lane, k), number in sorted(node.items(), key=lambda item: item[1]):
        angle = 2 * math.pi * k / per_lane
        if shape in ("circle", "huge circle"):
            r = radius + 25 * lane
            x, y = radius + 200 + r * math.cos(angle), radius + 200 + r * math.sin(angle)
        elif shape == "line":
            x, y = 10 + 20 * k, 10 + 20 * lane
        elif shape == "point":
            x, y = 100, 100
        else:
            x = draw(st.integers(min_value=0, max_value=2000))
            y = draw(st.integers(min_value=0, max_value=2000))
        finish = k == 0 if sound_finish else draw(st.booleans())
        lines.append(f"{number} {round(x)} {round(y)} {draw(kinds)}" + (" F" if finish else ""))
    edges = []
    for (lane, k), number in node.items():
        ahead = (k + 1) % per_lane
        edges.append(f"{number} {node[(lane, ahead)]}")
        for side in (lane - 1, lane + 1):
            if 0 <= side < lanes and draw(st.integers(0, 3)):
                edges.append(f"{number} {node[(side, ahead)]}")
    attributes = [f"{number} {draw(st.sampled_from(['0.0', '0.5', '1.0', '2.5', '1e3']))}"
                  for number in draw(st.lists(st.sampled_from(ids), max_size=8))]
    grid = [f"{number} {draw(st.sampled_from(['0.0', '90.0', '359.9', '-45']))}"
            for number in draw(st.lists(st.sampled_from(ids), max_size=6, unique=True))]
    for section in [edges, attributes, grid] if grid else [edges, attributes]:
        lines += ["", *section]
    return "\n".join(lines) + "\n"


PICTURES = st.sampled_from(["none", "none", "bomb", "wide", "junk", "small"])
"""What lies beside a generated file under the picture's name."""
