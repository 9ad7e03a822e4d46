"""How fast GP Online files import: seconds per stage for generated boards of growing size, and
for any ``.dat`` files named on the command line.

Prints a table, no assertions. The generated boards are three staggered lanes round a long
stadium, numbered across the lanes row by row as real files are, with moves straight on and
diagonally into the next lane, a corner at each end; a real board has 400 to 600 nodes.

    python benchmarks/gponline_import_speed.py                   # 600, 4,000 and 9,900 nodes
    python benchmarks/gponline_import_speed.py --nodes 9900      # one size (at most 10,000)
    python benchmarks/gponline_import_speed.py Zandvoort.dat     # real files

Columns: ``read`` parses the text, ``import`` makes the track (lanes, corners, pit lane and the
outlines of the spaces), ``validate`` runs every rule on the result.
"""

from __future__ import annotations

import argparse
import math
import time
from pathlib import Path

from trackformat.interop.gponline import import_dat, parse_dat
from trackformat.lint import validate

LANES = 3
STEP = 24.0
LANE_WIDTH = 20.0


def generated_board(nodes: int) -> str:
    """The text of a ``.dat`` with about ``nodes`` nodes (see the module docstring)."""
    rows = max(40, nodes // LANES)
    corner_rows = 12
    straight = (rows - 2 * corner_rows) // 2
    rows = 2 * straight + 2 * corner_rows
    radius = 120.0
    left, right, middle = 200.0, 200.0 + straight * STEP, 400.0

    def place(row: float, lane: int) -> tuple[float, float, int]:
        r = radius + lane * LANE_WIDTH
        u = row % rows
        if u < straight:
            return left + u * STEP, middle + r, 1
        if u < straight + corner_rows:
            a = math.radians(90 - (u - straight + 0.5) * 180 / corner_rows)
            return right + r * math.cos(a), middle + r * math.sin(a), 2
        if u < 2 * straight + corner_rows:
            return right - (u - straight - corner_rows) * STEP, middle - r, 1
        a = math.radians(-90 - (u - 2 * straight - corner_rows + 0.5) * 180 / corner_rows)
        return left + r * math.cos(a), middle + r * math.sin(a), 3

    def node_id(row: int, lane: int) -> int:
        return (row % rows) * LANES + lane

    lines = ["board.png 0"]
    for row in range(rows):
        for lane in range(LANES):
            x, y, kind = place(row + 0.5 * (lane % 2), lane)
            finish = " F" if row == 0 else ""
            lines.append(f"{node_id(row, lane)} {round(x)} {round(y)} {kind}{finish}")
    lines.append("")
    for row in range(rows):
        for lane in range(LANES):
            here = node_id(row, lane)
            lines.append(f"{here} {node_id(row + 1, lane)}")
            for side in (lane - 1, lane + 1):
                if 0 <= side < LANES:
                    # Staggered: an odd lane is half a row ahead of its even neighbours.
                    ahead = row if lane % 2 == 0 else row + 1
                    lines.append(f"{here} {node_id(ahead, side)}")
    lines.append("")
    lines.append(f"{node_id(straight + 1, 0)} 0.0")
    lines.append("")
    lines += [f"{node_id(rows - k, lane)} 0.0" for k in (1, 2) for lane in (0, 1)]
    return "\n".join(lines) + "\n"


def measure(name: str, text: str) -> None:
    start = time.perf_counter()
    dat = parse_dat(text, name)
    read = time.perf_counter()
    result = import_dat(dat, name)
    imported = time.perf_counter()
    report = validate(result.track)
    checked = time.perf_counter()
    print(
        f"{name:<28} {len(dat.nodes):>7} {read - start:>7.2f} {imported - read:>7.2f} "
        f"{checked - imported:>9.2f}  {report.summary()}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=Path, help="GP Online .dat files to import")
    parser.add_argument("--nodes", type=int, nargs="*", default=[600, 4000, 9900])
    args = parser.parse_args()
    print(f"{'board':<28} {'nodes':>7} {'read s':>7} {'import s':>7} {'validate s':>9}")
    for path in args.files:
        measure(path.name, path.read_text(encoding="latin-1"))
    if not args.files:
        for nodes in args.nodes:
            measure(f"generated, {nodes} nodes", generated_board(nodes))


if __name__ == "__main__":
    main()
