"""How long ``testdrive compare`` takes on reports of many corners: seconds for 10,000, 20,000
and 40,000 corners.

A printed board has a dozen corners; a hostile (or generated) report may have tens of thousands,
and the comparison must stay linear in them: twice the corners, about twice the time. Each row
writes two reports (every corner named alike, the worst case for telling corners apart by name)
and runs the command as a user does, in this process, from reading the files to the printed
answer. Prints a table, no assertions.

    python benchmarks/compare_big.py
    python benchmarks/compare_big.py --corners 5000 80000
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from trackformat import cli  # noqa: E402


def big_report(corners: int, overshoots: int) -> dict[str, Any]:
    """A test-drive report of ``corners`` corners, all called "Hairpin", 100 races of 4 cars."""
    return {
        "races": 100, "cars": 4, "finished": 380, "no_winner": 0.0,
        "by_bot": {"strong": {"cars": 400, "wins": 100, "finished": 380}},
        "corners": [{"id": f"c{number}", "name": "Hairpin", "entries": 200,
                     "overshoots": overshoots, "spins": 0, "eliminations": 0}
                    for number in range(corners)],
    }


def seconds(corners: int) -> float:
    """Wall-clock seconds of ``testdrive compare`` on two reports of ``corners`` corners."""
    with tempfile.TemporaryDirectory() as folder:
        before, after = Path(folder) / "before.json", Path(folder) / "after.json"
        before.write_text(json.dumps(big_report(corners, 25)), encoding="utf-8")
        after.write_text(json.dumps(big_report(corners, 62)), encoding="utf-8")
        printed = io.StringIO()
        started = time.perf_counter()
        with contextlib.redirect_stdout(printed):
            code = cli.main(["testdrive", "compare", str(before), str(after)])
        elapsed = time.perf_counter() - started
    if code != cli.EXIT_OK:
        raise SystemExit(f"testdrive compare exited {code} on {corners} corners")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corners", type=int, nargs="+", default=[10_000, 20_000, 40_000],
                        metavar="N", help="corners per report (default 10000 20000 40000)")
    args = parser.parse_args()
    seconds(10)  # the first command imports the race engine's package: not timed
    print(f"{'corners':>8}  {'seconds':>8}")
    for corners in args.corners:
        print(f"{corners:>8,}  {seconds(corners):>8.2f}")


if __name__ == "__main__":
    main()
