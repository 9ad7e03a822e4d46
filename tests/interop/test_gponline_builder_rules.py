"""Every rule of GP Online's track builder, each on a small hand-made file the game refuses.

Each file is the tiny track of :mod:`tests.interop.gponline_tiny` (which the game loads) with
one thing changed, and the check must refuse it for that rule, in the game's own words. The
rules are listed in docs/interop.md ("What GP Online's builder enforces"); each of these files
was also run through the game's own loader, built from its public source, which refused each
the same way (and never finished loading the pit lane that runs in a circle), but the grid of
nine slots, which its newest version takes (the export keeps the older versions' ten).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.interop.gponline_tiny import ROWS, node, text_of, tiny_dat, tiny_sections
from trackformat.interop.gponline.gamecheck import game_build, game_refusal, race_refusal
from trackformat.interop.gponline.javaorder import JavaHashSet

Sections = list[list[str]]


def _changed(change: Callable[[Sections], None]) -> str:
    sections = tiny_sections()
    change(sections)
    return text_of(sections)


def _edges(sections: Sections, add: tuple[str, ...] = (), drop: tuple[str, ...] = ()) -> None:
    sections[2][:] = [e for e in sections[2] if e not in drop] + list(add)


def _attributes(sections: Sections, **values: float) -> None:
    """Set the attribute of nodes ``n<id>=value``."""
    for key, value in values.items():
        sections[3][:] = [line for line in sections[3] if line.split()[0] != key[1:]]
        sections[3].append(f"{key[1:]} {value}")


def _type(sections: Sections, ids: tuple[int, ...], kind: int) -> None:
    lines = []
    for line in sections[1]:
        parts = line.split()
        if int(parts[0]) in ids:
            parts[3] = str(kind)
        lines.append(" ".join(parts))
    sections[1][:] = lines


def _finish(sections: Sections, ids: tuple[int, ...]) -> None:
    sections[1][:] = [line.removesuffix(" F") + (" F" if int(line.split()[0]) in ids else "")
                      for line in sections[1]]


def _header(line: str) -> Callable[[Sections], None]:
    return lambda sections: sections[0].__setitem__(0, line)


def _blocked_pair(sections: Sections) -> None:
    """Lane 1's rows 2 and 3 become two blocked nodes in a row (1004 then 1003)."""
    sections[1][:] = [n for n in sections[1] if n.split()[0] not in ("21", "31")]
    sections[1] += ["1004 220 140 4", "1003 280 140 4"]
    _edges(sections, add=("11 1004", "1004 1003", "22 1003", "1003 41"),
           drop=tuple(e for e in sections[2] if set(e.split()) & {"21", "31"}))
    sections[4][:] = [g for g in sections[4] if g.split()[0] not in ("21", "31")]
    sections[4] += ["61 0.0", "63 0.0"]


def _lane_change_from_behind(sections: Sections) -> None:
    """Lane 3's row 6 changes into lane 2's row 7, from behind lane 2's row 6."""
    _edges(sections, add=("63 72",), drop=("73 72", "62 73"))
    _attributes(sections, n73=3.5, n83=4.5)


CASES: list[tuple[str, Callable[[Sections], None], str, str]] = [
    ("header: no extension", _header("tiny 0"), "header", ""),
    ("header: info-box corner 4", _header("tiny.png 4"), "header", ""),
    ("header: weather with a fraction", _header("tiny.png 0 30.5 4"), "header", ""),
    ("finish line of one node", lambda s: _finish(s, (2,)), "finish",
     "Invalid finish line width 1"),
    ("finish line of two nodes", lambda s: _finish(s, (1, 2)), "finish",
     "Invalid finish line width 2"),
    ("finish line of five nodes", lambda s: _finish(s, (1, 2, 3, 11, 13)), "finish",
     "Invalid finish line width 5"),
    ("four finish nodes not staggered", lambda s: _finish(s, (1, 2, 3, 41)), "finish",
     "Malformed Finish line of width 4"),
    ("finish nodes side by side", lambda s: _edges(s, drop=("1 2", "3 2")), "finish",
     "Finish line seems to be disjoint"),
    ("a straight leading nowhere", lambda s: _edges(s, drop=("41 51", "41 42")), "dead end",
     "Found dead-end node: 41"),
    ("a curve without attribute", lambda s: s[3].remove("61 1.5"), "curve attribute",
     "Found curve without distance attribute: 61"),
    ("a curve leading nowhere", lambda s: _edges(s, drop=("61 71", "61 62")), "dead end",
     "Found dead-end curve: 61"),
    ("a curve exit with no restart", lambda s: _edges(s, drop=("81 82",)), "curve exit",
     "Curve exit 81 82 93 might be missing edges"),
    ("the lap ending in a curve",
     lambda s: (_type(s, (111, 112, 113), 3), _attributes(s, n111=0.5, n112=1.0, n113=0.5)),
     "curve exit", "Track cannot end in a curve"),
    ("a team box beside the pit lane",
     lambda s: (s[1].append("905 760 340 7"), _edges(s, add=("901 905", "905 903"))),
     "pit lane", "Pit lane is branching"),
    ("a pit lane leading nowhere", lambda s: _edges(s, drop=("904 13",)), "pit lane",
     "Pit lane has dead-end: 904"),
    ("a pit lane entered from a curve", lambda s: _edges(s, add=("63 901",), drop=("103 901",)),
     "curve exit", "Curve exit 901 81 82 93 might be missing edges"),
    ("a pit exit onto a node never reached",
     lambda s: (s[1].append("950 940 300 1"), _edges(s, add=("904 950", "950 23"))),
     "pit lane", "Distance not defined at pit lane exit"),
    ("a pit lane in a circle", lambda s: _edges(s, add=("904 901",), drop=("904 13",)),
     "pit lane", ""),
    ("a node no move enters", lambda s: (s[1].append("960 940 300 1"), _edges(s, add=("960 23",))),
     "reached", ""),
    ("nodes the lap never reaches",
     lambda s: (s[1].extend(["970 940 300 1", "971 960 300 1", "972 980 300 1"]),
                _edges(s, add=("970 971", "971 972", "972 970"))),
     "reached", "Track contains unreachable node: 970 (940,300)"),
    ("a move backwards", lambda s: _edges(s, add=("41 21",)), "forward",
     "Distance does not increase when moving forwards, track might contain a cycle: 21 -> 22"),
    ("a curve moving to two nodes level", lambda s: _attributes(s, n62=2.5), "lanes at curves",
     "Identical distances for child nodes, unable to deduce lanes: 61"),
    ("a grid of nine slots", lambda s: s[4].pop(), "grid", ""),
    ("a blocked node as near the line as the finish",
     lambda s: (s[1].append("999 200 100 4"), _edges(s, add=("1 999", "999 12"))), "lanes",
     "Finish line nodes don't have the lowest distance"),
    ("a lane change from behind", _lane_change_from_behind, "lanes",
     "Internal error when calculating lanes: 73"),
    ("outer lanes meeting a curve unlevel",
     lambda s: (_edges(s, drop=("12 23",)), _attributes(s, n83=4.5)), "curve ends",
     "Distances not properly configured at curve: 42, 53"),
    ("a blocked node leading only to a blocked node", _blocked_pair, "blocked",
     "Track seems to be completely blocked"),
]


def test_the_tiny_track_loads_with_its_lanes_grid_and_pit_lane() -> None:
    built = game_build(tiny_dat())
    assert [lane[:3] for lane in built.lanes] == [[1, 11, 21], [2, 12, 22], [3, 13, 23]]
    assert len(built.lanes[0]) == ROWS and len(built.grid) == 10
    assert built.grid[0] == node(1, ROWS - 1)  # pole: the slot nearest the line
    assert built.distances[901] < built.distances[902] < built.distances[904]
    assert game_refusal(tiny_dat(pit=False)) is None


@pytest.mark.parametrize(("change", "rule", "says"), [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_a_file_breaking_one_rule_is_refused_for_it(
    change: Callable[[Sections], None], rule: str, says: str
) -> None:
    refusal = game_refusal(_changed(change))
    assert refusal is not None
    assert (refusal.rule, refusal.game_says) == (rule, says), str(refusal)


def test_a_pit_lane_entered_from_a_curve_is_refused_with_the_reason() -> None:
    refusal = game_refusal(_changed(lambda s: _edges(s, add=("63 901",), drop=("103 901",))))
    assert refusal is not None
    assert ("curve node 63 moves into pit node 901: GP Online enters its pit lane only from a "
            "straight") in str(refusal)


def test_nodes_not_numbered_from_0_would_be_misread_by_the_race() -> None:
    # The tiny track loads (its nodes are numbered by row and lane); the game's race looks each
    # node up by its number as a position in its list of nodes, and would misread them.
    assert game_refusal(tiny_dat()) is None
    refusal = race_refusal(tiny_dat())
    assert refusal is not None and refusal.rule == "numbering"
    assert refusal.game_says == "Index 904 out of bounds for length 40"
    assert "numbered 1 to 904, not 0 to 39" in str(refusal)
    renumbered = _renumbered(tiny_dat())
    assert race_refusal(renumbered) is None


def _renumbered(text: str) -> str:
    """``text`` with its nodes numbered 0 to N - 1, in the order they are listed."""
    sections = [part.splitlines() for part in text.split("\n\n")]
    new = {line.split()[0]: str(k) for k, line in enumerate(sections[0][1:])}
    for lines in sections:
        for k, line in enumerate(lines):
            fields = line.split(" ")
            if lines is sections[0] and k == 0:
                continue
            take = 2 if lines is sections[1] else 1
            lines[k] = " ".join([new.get(f, f) for f in fields[:take]] + fields[take:])
    return "\n\n".join("\n".join(lines) for lines in sections) + "\n"


def test_a_refusal_names_the_nodes_at_fault() -> None:
    refusal = game_refusal(_changed(lambda s: _attributes(s, n62=2.5)))
    assert refusal is not None and refusal.nodes == (61, 71, 62)  # the moves in Java order
    assert "curve node 61 moves to two nodes at the same distance" in str(refusal)


def test_a_hash_set_iterates_as_java_does() -> None:
    # Nodes hash to their id plus one: 15 and 31 share bucket 0 (16 and 32), 1 lies in bucket 2;
    # within a bucket the members come in the order they were put in.
    nodes = JavaHashSet()
    for member in (31, 1, 15):
        nodes.add(member)
    assert list(nodes) == [31, 15, 1]
    nodes.discard(31)
    nodes.add(31)  # put in again: last of its bucket
    assert list(nodes) == [15, 31, 1]
    # A map of Integer ids grows to 32 buckets past 12 members, 64 past 24: 40 wraps to 8.
    ids = JavaHashSet(nodes=False)
    for member in (40, *range(20)):
        ids.add(member)
    assert list(ids)[:10] == [0, 1, 2, 3, 4, 5, 6, 7, 40, 8]
