"""How long ``trackformat validate`` takes on hostile track files, and how much memory.

docs/bad-input.md promises that the largest track file allowed validates in a few seconds of CPU
and a few hundred MB, whatever it holds. A file is capped at 4 MB, but 4 MB of short entries is
a list of half a million references: grid slots, finish-line entries, ignore entries, corner
spaces. Each case here builds such a file from a small sound ring, runs the command line on it
in a child process (as a user would), and prints its wall time, CPU time, peak memory and how
many lines it printed.

    python benchmarks/validate_hostile.py                     # every case
    python benchmarks/validate_hostile.py grid-copies ignore  # the cases whose name starts so
    python benchmarks/validate_hostile.py --root OTHER        # time another checkout's code

``--root`` runs the trackformat package of another checkout on the same files, so that a change
can be timed before and after in one run (the machine's speed drifts between runs): for the last
commit, ``git archive HEAD trackformat | tar -x -C BEFORE`` (an empty folder of yours) and
``--root BEFORE --root .``. The files are written in format version 1, as
benchmarks/validate_speed.py's rings are, so loading them includes upgrading them to the current
version.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
for folder in (ROOT, ROOT / "benchmarks"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

from validate_speed import ring_document  # noqa: E402

from trackformat.io.jsonio import MAX_FILE_BYTES as LIMIT  # noqa: E402

MARGIN = 4096
"""Room left under the limit when a list is filled, so that a file is always read."""


def dumps(document: dict[str, Any]) -> str:
    """A document as compact JSON: the most entries a hostile file can pack in its 4 MB."""
    return json.dumps(document, separators=(",", ":"))


def base() -> dict[str, Any]:
    """The sound 3-lane ring of 120 spaces with a pit lane that every case starts from."""
    return ring_document(3, 40)


def size(document: dict[str, Any]) -> int:
    """The document's size in bytes, written as a hostile file is."""
    return len(dumps(document).encode("utf-8"))


def fill(document: dict[str, Any], items: list[Any], entry: Any, count: int | None) -> None:
    """Append ``count`` copies of ``entry`` to ``items`` (a list inside ``document``); with no
    count, as many as keep the file just under the 4 MB limit."""
    if count is None:
        count = (LIMIT - MARGIN - size(document)) // (len(dumps(entry).encode("utf-8")) + 1)
    items.extend([entry] * count)


def fill_distinct(document: dict[str, Any], items: list[Any], make: Callable[[int], Any],
                  count: int | None) -> None:
    """Append ``make(0)``, ``make(1)``... to ``items``: ``count`` entries, or with no count as
    many as keep the file just under the 4 MB limit."""
    if count is not None:
        items.extend(make(n) for n in range(count))
        return
    room, n = LIMIT - MARGIN - size(document), 0
    while (room := room - len(dumps(make(n)).encode("utf-8")) - 1) > 0:
        items.append(make(n))
        n += 1


@dataclass(frozen=True)
class Case:
    """A hostile file: its name, what it holds, and how to build it."""

    name: str
    holds: str
    build: Callable[[int | None], dict[str, Any]]
    """The file's document, with the given number of hostile entries (None: fill to 4 MB)."""


def _listing(where: Callable[[dict[str, Any]], list[Any]], entry: Any | Callable[[int], Any]
             ) -> Callable[[int | None], dict[str, Any]]:
    """A case that adds ``entry`` (or ``entry(n)``, each different) to a list of the ring."""

    def build(count: int | None) -> dict[str, Any]:
        document = base()
        if callable(entry):
            fill_distinct(document, where(document), entry, count)
        else:
            fill(document, where(document), entry, count)
        return document

    return build


def _grid(document: dict[str, Any]) -> list[Any]:
    return document["grid"]


def _line(document: dict[str, Any]) -> list[Any]:
    return document["finish_line"]["spaces"]


def _corners(count: int | None) -> dict[str, Any]:
    """``count`` corners (6,000) of 60 spaces, 20 in each lane, each a space further round than
    the one before, so that every corner shares spaces with many others."""
    document = base()
    for n in range(count if count is not None else 6000):
        ks = [(n + k) % 40 for k in range(20)]
        document["corners"].append({
            "id": f"c{n}", "name": "", "stops": 1,
            "spaces": [f"{lane}-{k}" for lane in (1, 2, 3) for k in ks],
            "printed_long": 19, "printed_short": 17})
    return document


def _corners_unknown(count: int | None) -> dict[str, Any]:
    """``count`` corners (6,000) of 60 spaces that the track does not have."""
    document = base()
    document["corners"] = [
        {"id": f"c{n}", "name": "", "stops": 1, "spaces": [f"x{k}" for k in range(60)]}
        for n in range(count if count is not None else 6000)
    ]
    return document


def _small_corners(document: dict[str, Any], count: int | None) -> dict[str, Any]:
    """``document`` with corners of one space in each lane, each a space further round, with
    printed paths their links do not give: every corner-by-corner check has a finding."""
    per_lane = len(document["spaces"]) // 3

    def corner(n: int) -> dict[str, Any]:
        k = (7 * n) % per_lane
        return {"id": f"c{n}", "stops": 1, "spaces": [f"{lane}-{k}" for lane in (1, 2, 3)],
                "printed_long": 9, "printed_short": 9}

    fill_distinct(document, document["corners"], corner, count)
    return document


def _ring(per_lane: int) -> dict[str, Any]:
    """A sound 3-lane ring with whole-pixel coordinates: the most spaces a file can hold while
    still drawing a real track."""
    document = ring_document(3, per_lane)
    for space in document["spaces"]:
        space["polygon"] = [[round(x), round(y)] for x, y in space["polygon"]]
        space["centre"] = [round(c) for c in space["centre"]]
        space["heading"] = round(space["heading"])
    return document


def _spaces(count: int | None) -> dict[str, Any]:
    """A sound ring of ``count`` spaces, or of as many as fit in 4 MB (some 19,000)."""
    if count is not None:
        return _ring(max(count // 3, 40))
    # Spaces further round take more bytes (longer ids, larger coordinates): start from a
    # guess made on small rings and take off 1% until the file fits.
    small, large = (size(_ring(n)) for n in (100, 200))
    per_lane = 100 + (LIMIT - MARGIN - small) * 100 // (large - small)
    while size(document := _ring(per_lane)) > LIMIT - MARGIN:
        per_lane -= per_lane // 100
    return document


def _pit_ways(count: int | None) -> dict[str, Any]:
    """A ring of ``count`` spaces (600) whose pit lane is entered from every track space and
    left onto every one: every entry against every exit, and every corner between them (600
    took over 100 s of CPU, and the work grew with the cube of the spaces)."""
    document = _ring((count or 600) // 3)
    track = [s["id"] for s in document["spaces"] if s["kind"] == "track"]
    document["pit_lane"]["entry"] = [{"from": t, "to": "pit-0"} for t in track]
    document["pit_lane"]["exit"] = [{"from": "pit-6", "to": t} for t in track]
    return document


CASES = (
    Case("ignore-unknown", "ignore entries, each naming a space the track does not have",
         _listing(lambda d: d["ignore"], lambda n: {"code": "GEOM002", "elements": [f"g{n}"]})),
    Case("ignore-code", "ignore entries naming a code that is no rule",
         _listing(lambda d: d["ignore"], {"code": "NOPE"})),
    Case("grid-copies", "grid slots, every one the pole's space again",
         _listing(_grid, "1-39")),
    Case("grid-unknown", "grid slots naming a space the track does not have",
         _listing(_grid, "x")),
    Case("grid-distinct", "grid slots, each naming another space the track does not have",
         _listing(_grid, lambda n: f"g{n}")),
    Case("grid-pit", "grid slots on a pit-lane space", _listing(_grid, "pit-0")),
    Case("finish-copies", "finish-line entries, every one the same space",
         _listing(_line, "1-0")),
    Case("finish-unknown", "finish-line entries naming a space the track does not have",
         _listing(_line, "x")),
    Case("finish-pit", "finish-line entries on a pit-lane space", _listing(_line, "pit-0")),
    Case("corners", "6,000 corners of 60 spaces, overlapping one another", _corners),
    Case("corners-unknown", "6,000 corners of 60 spaces the track does not have",
         _corners_unknown),
    Case("corners-small", "corners of 3 spaces, each printed wrong, on the ring",
         lambda count: _small_corners(base(), count)),
    Case("corners-ring", "corners of 3 spaces on a ring of 4,500 spaces",
         lambda count: _small_corners(_ring(1500), count)),
    Case("link-copies", "copies of one link",
         _listing(lambda d: d["links"], {"from": "1-0", "to": "1-1"})),
    Case("box-copies", "pit-lane boxes, every one the first box again",
         _listing(lambda d: d["pit_lane"]["boxes"], "box-1")),
    Case("pit-copies", "pit-lane spaces, every one the first again",
         _listing(lambda d: d["pit_lane"]["spaces"], "pit-0")),
    Case("pit-ways", "a pit lane entered from and left onto each of 600 spaces", _pit_ways),
    Case("spaces", "a sound ring of 3 lanes, as many spaces as fit", _spaces),
)
"""Every case, each filling a 4 MB file unless given a count."""


@dataclass(frozen=True)
class Run:
    """What one ``validate`` run cost and printed."""

    seconds: float
    cpu_seconds: float
    peak_mb: float
    exit_code: int
    """The command's exit code; -9 when it was stopped at the time limit."""
    lines: int


def run_validate(path: Path, root: Path = ROOT, timeout: float = 600) -> Run:
    """``python -m trackformat validate PATH`` with ``root``'s trackformat, timed. Peak memory
    and CPU time are the child's own (``os.wait4``), not the largest of every child so far."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    start = time.perf_counter()
    with tempfile.TemporaryFile() as out:
        child = subprocess.Popen(
            [sys.executable, "-m", "trackformat", "validate", str(path)],
            cwd=root, env=env, stdout=out, stderr=subprocess.STDOUT,
        )
        deadline = start + timeout
        while True:
            pid, status, usage = os.wait4(child.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() > deadline:
                child.kill()
                pid, status, usage = os.wait4(child.pid, 0)
                break
            time.sleep(0.01)
        seconds = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        lines = sum(1 for _ in out)
    return Run(seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024,
               child.returncode, lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("cases", nargs="*", metavar="CASE",
                        help="cases to run, by name or start of a name (default: every case)")
    parser.add_argument("--root", type=Path, action="append",
                        help="a checkout whose trackformat package is timed (repeat to compare; "
                        "default: this one)")
    parser.add_argument("--count", type=int, default=None,
                        help="hostile entries per file (default: as many as fit in 4 MB)")
    parser.add_argument("--timeout", type=float, default=600,
                        help="seconds a run may take before it is stopped (default: 600)")
    parser.add_argument("--list", action="store_true", help="list the cases and stop")
    args = parser.parse_args(argv)
    chosen = [c for c in CASES if not args.cases or any(c.name.startswith(p) for p in args.cases)]
    if args.list:
        for case in chosen:
            print(f"{case.name:<16} {case.holds}")
        return 0
    roots: list[Path] = [root.resolve() for root in args.root or [ROOT]]

    header = (f"{'case':<16} {'MB':>5} {'entries':>8} {'root':<10} {'wall s':>7} {'cpu s':>6}"
              f" {'peak MB':>8} {'exit':>4} {'lines':>7}")
    print(header)
    print("-" * len(header))
    with tempfile.TemporaryDirectory() as folder:
        for case in chosen:
            path = Path(folder) / f"{case.name}.json"
            document = case.build(args.count)
            text = dumps(document)
            path.write_text(text, encoding="utf-8")
            for root in roots:
                run = run_validate(path, root, args.timeout)
                print(f"{case.name:<16} {len(text) / 1e6:>5.2f} {_entries(document):>8}"
                      f" {root.name:<10.10} {run.seconds:>7.2f} {run.cpu_seconds:>6.2f}"
                      f" {run.peak_mb:>8.0f} {run.exit_code:>4} {run.lines:>7}", flush=True)
    return 0


def _entries(document: dict[str, Any]) -> int:
    """How many hostile entries a case's file holds: the length of its longest list."""
    pit_lane = document["pit_lane"]
    lists = [document["grid"], document["finish_line"]["spaces"], document["ignore"],
             document["links"], document["spaces"], document["corners"], pit_lane["boxes"],
             pit_lane["entry"], pit_lane["spaces"], *(c["spaces"] for c in document["corners"])]
    return max(len(items) for items in lists)


if __name__ == "__main__":
    sys.exit(main())
