"""How long reading, graph building and validation take as a track grows.

Prints a table, no assertions: run it before and after touching the graphs or a rule to see the
effect. A real Formula D board has 200-500 spaces; the 5,000-space ring shows how the validator
scales, since the editor re-validates on every edit and must stay interactive.

    python benchmarks/validate_speed.py               # default sizes, median of 5 runs
    python benchmarks/validate_speed.py --repeat 9 --rules
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from trackformat.graph import build_graphs  # noqa: E402
from trackformat.io import dumps_document, loads_track  # noqa: E402
from trackformat.lint import all_rules, validate  # noqa: E402
from trackformat.lint.runner import run_rules  # noqa: E402
from trackformat.model import Track  # noqa: E402

WIDTH = 40.0
"""Width of a lane (and roughly the length of a space), in board pixels."""
PIT_SPACES = 7


def ring_document(lanes: int, per_lane: int) -> dict[str, Any]:
    """A sound ring track of ``lanes`` x ``per_lane`` spaces, with two corners, grid and pit lane.

    Like the test ring, but the radius grows with ``per_lane`` so that spaces stay about square
    however long the lap is (a thin sliver of a space would trip the geometry rules and time
    something no real board has).
    """
    outer = max(500.0, per_lane * WIDTH / (2 * math.pi) + lanes * WIDTH)
    centre = outer + 3 * WIDTH
    size = math.ceil(2 * centre)

    def point(radius: float, angle: float) -> list[float]:
        return [round(centre + radius * math.cos(angle), 3),
                round(centre + radius * math.sin(angle), 3)]

    def space(space_id: str, kind: str, lane: str | None, r_in: float, k: float) -> dict[str, Any]:
        a0, a1 = 2 * math.pi * k / per_lane, 2 * math.pi * (k + 1) / per_lane
        r_out, mid = r_in + WIDTH, (a0 + a1) / 2
        return {
            "id": space_id, "kind": kind, "lane": lane,
            "polygon": [point(r_out, a0), point(r_out, a1), point(r_in, a1), point(r_in, a0)],
            "centre": point(r_in + WIDTH / 2, mid),
            "heading": round(math.degrees(mid) + 90.0, 3) % 360.0,
        }

    first = range(round(per_lane * 0.20), round(per_lane * 0.20) + max(3, per_lane // 10))
    second = range(round(per_lane * 0.55), round(per_lane * 0.55) + max(4, per_lane // 8))
    single_arrow = {first.start - 1, second.start - 1}
    spaces: list[dict[str, Any]] = []
    links: list[dict[str, str]] = []
    for lane in range(1, lanes + 1):
        r_in = outer - lane * WIDTH
        for k in range(per_lane):
            spaces.append(space(f"{lane}-{k}", "track", str(lane), r_in, k))
            ahead = (k + 1) % per_lane
            links.append({"from": f"{lane}-{k}", "to": f"{lane}-{ahead}"})
            if k not in single_arrow:
                links += [{"from": f"{lane}-{k}", "to": f"{other}-{ahead}"}
                          for other in (lane - 1, lane + 1) if 1 <= other <= lanes]

    pit_in = outer - (lanes + 1) * WIDTH
    pit_start = per_lane - 4
    pits = [f"pit-{i}" for i in range(PIT_SPACES)]
    for i, pit in enumerate(pits):
        spaces.append(space(pit, "pit", None, pit_in, pit_start + i))
        if i:
            links.append({"from": pits[i - 1], "to": pit})
    boxes = []
    for n, i in enumerate((2, 4), start=1):
        boxes.append(f"box-{n}")
        spaces.append(space(f"box-{n}", "box", None, pit_in - WIDTH, pit_start + i))
        links += [{"from": pits[i - 1], "to": f"box-{n}"}, {"from": f"box-{n}", "to": pits[i + 1]}]

    def corner(corner_id: str, stops: int, ks: range) -> dict[str, Any]:
        return {"id": corner_id, "name": corner_id.title(), "stops": stops,
                "spaces": [f"{lane}-{k}" for lane in range(1, lanes + 1) for k in ks],
                "printed_long": len(ks), "printed_short": len(ks)}

    return {
        "format": "formula-d-track", "format_version": 1,
        "metadata": {"name": f"Benchmark ring {lanes}x{per_lane}", "designer": "benchmarks",
                     "laps": 2, "notes": ""},
        "board": {"image": None, "width": size, "height": size},
        "lanes": [{"id": str(n), "name": ""} for n in range(1, lanes + 1)],
        "spaces": spaces,
        "links": links,
        "corners": [corner("first", 1, first), corner("second", 2, second)],
        "finish_line": {"spaces": [f"{lane}-0" for lane in range(1, lanes + 1)]},
        "grid": [f"{1 if slot % 2 == 0 else lanes}-{per_lane - 1 - slot}" for slot in range(10)],
        "pit_lane": {
            "spaces": pits,
            "entry": [{"from": f"{lanes}-{pit_start - 1}", "to": pits[0]}],
            "exit": [{"from": pits[-1], "to": f"{lanes}-{(pit_start + PIT_SPACES) % per_lane}"}],
            "boxes": boxes,
        },
        "ignore": [],
    }


def median_ms(action: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def measure(text: str, repeat: int) -> dict[str, float]:
    """Median times of loading, building the graphs and running the rules. The rules are timed
    on freshly built graphs each run: graphs remember what their rules worked out (the shortest
    lap, the link angles), and timing a second pass over the same graphs would hide that work."""
    track = loads_track(text)

    def rules_once() -> float:
        graphs = build_graphs(track)
        start = time.perf_counter()
        validate(track, graphs)
        return (time.perf_counter() - start) * 1000

    return {
        "load": median_ms(lambda: loads_track(text), repeat),
        "graphs": median_ms(lambda: build_graphs(track), repeat),
        "rules": statistics.median(rules_once() for _ in range(repeat)),
    }


def row(text: str, times: dict[str, float], previous: tuple[int, float] | None) -> str:
    """One line of the table; ``previous`` is the (spaces, total ms) of the row before, for the
    growth column."""
    track = loads_track(text)
    count = len(track.spaces)
    total = sum(times.values())
    # growth: the exponent k in time ~ size^k between this size and the previous one
    growth = (
        f"{math.log(total / previous[1]) / math.log(count / previous[0]):7.2f}"
        if previous else f"{'':>7}"
    )
    errors = validate(track).errors
    return (f"{count:>7} {len(text) / 1024:>6.0f} {times['load']:>8.1f} {times['graphs']:>8.1f}"
            f" {times['rules']:>8.1f} {total:>8.1f} {100 * total / count:>14.2f} {growth}"
            f" {errors:>6}")


def slowest_rules(track: Track, repeat: int, shown: int = 8) -> list[tuple[float, str]]:
    """Each rule alone on freshly built graphs, so that a rule is charged for the shared work
    (the shortest lap, the shapes of every space) it would do first in a validation."""
    timed = []
    for rule in all_rules():
        times = []
        for _ in range(repeat):
            graphs = build_graphs(track)
            start = time.perf_counter()
            run_rules(track, graphs, [rule])
            times.append((time.perf_counter() - start) * 1000)
        timed.append((statistics.median(times), f"{rule.code} {rule.name}"))
    return sorted(timed, reverse=True)[:shown]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Time load, graphs and rules on Monaco and on growing rings.")
    parser.add_argument("--lanes", type=int, default=3)
    parser.add_argument("--sizes", type=int, nargs="+", default=[40, 170, 500, 1700],
                        metavar="PER_LANE", help="spaces per lane of each ring")
    parser.add_argument("--repeat", type=int, default=5, help="runs per figure (median)")
    parser.add_argument("--rules", action="store_true",
                        help="also list the slowest rules on the largest ring")
    args = parser.parse_args(argv)

    print(f"{len(all_rules())} rules; median of {args.repeat} runs; times in ms\n")
    header = (f"{'spaces':>7} {'KB':>6} {'load':>8} {'graphs':>8} {'rules':>8} {'total':>8}"
              f" {'ms/100 spaces':>14} {'growth':>7} {'errors':>6}")
    print(header)
    print("-" * len(header))
    monaco = ROOT / "tracks" / "monaco.json"
    if monaco.exists():
        text = monaco.read_text(encoding="utf-8")
        print(row(text, measure(text, args.repeat), None) + "  Monaco")
    previous: tuple[int, float] | None = None
    largest: Track | None = None
    for per_lane in args.sizes:
        text = dumps_document(ring_document(args.lanes, per_lane))
        track = loads_track(text)
        largest = track
        times = measure(text, args.repeat)
        print(row(text, times, previous))
        previous = (len(track.spaces), sum(times.values()))
    print("\nload: parse + models; graphs: build_graphs; rules: every rule + shortest lap.")
    print("validation in process is graphs + rules (the editor and the command line have the")
    print("track loaded already); Monaco is the real board, the others generated rings.")
    print("growth 1.0 is linear, 2.0 quadratic; errors should be 0 (the rings are sound).")

    if args.rules and largest is not None:
        print(f"\nslowest rules on the {len(largest.spaces)}-space ring:")
        for ms, name in slowest_rules(largest, args.repeat):
            print(f"  {ms:8.1f} ms  {name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
