"""``trackformat par``: the exact par of a track, and where its turns go.

A designer asks what a track is worth before anyone races it: how many game turns a car alone
needs at best, how sure that is, which corners and straights take the time, which gear the best
line takes into each corner, and what it costs. The answer is solved once per track, ruleset
and race length, and kept in the user's cache folder (docs/par.md); ``info`` shows it once it
is there. A track no race can start on, an unknown ruleset and laps out of range exit 2 with a
message.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from trackformat.cli import EXIT_OK, EXIT_UNUSABLE, read_ruleset, read_track
from trackformat.cli.output import emit, error
from trackformat.cli.paths import FileRoles
from trackformat.par import MAX_LAPS, ParError, par_report
from trackformat.rules import DEFAULT_PRESET
from trackformat.words import ordinal

EXIT_CODES_HELP = """\
exit codes:
  0  par was solved (or found in the cache) and printed
  2  the track or the ruleset cannot be read, no race can start on the track, or the
     laps are out of range (the message says which)
  3  internal error in trackformat (please report it with the track that caused it)

docs/par.md explains the definition, the output and the JSON document.
"""

SHOWN_IN_TEXT = 0.05
"""The least chance a row of the gear plan needs to be printed (the JSON has them all)..."""
ROWS_IN_TEXT = 8
"""... and the most rows printed for a corner (the likeliest, in lap order)."""


def laps_value(text: str) -> int:
    """A ``--laps`` value: a whole number of laps, 1 to :data:`MAX_LAPS`."""
    stripped = text.strip()
    if not (stripped.isascii() and stripped.isdigit()) or not 1 <= int(stripped) <= MAX_LAPS:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a race length: give a whole number of laps, 1 to {MAX_LAPS}")
    return int(stripped)


def cmd_par(args: argparse.Namespace) -> int:
    source = str(Path(args.track))
    track = read_track(args.track)
    if track is None:
        return EXIT_UNUSABLE
    rules = read_ruleset(args.ruleset)
    if rules is None:
        return EXIT_UNUSABLE
    laps = args.laps if args.laps is not None else track.metadata.laps

    def solving() -> None:
        print(f"solving par of {track.metadata.name} ({laps} lap{'s' if laps > 1 else ''}, "
              f"{rules.name}): this takes a while once, then it is kept", file=sys.stderr)

    try:
        document, cached = par_report(track, rules, laps, solving)
    except ParError as err:
        error(f"trackformat par: {source}: {err}")
        return EXIT_UNUSABLE
    if args.json:
        # json's own layout: the project's (dumps_document) takes seconds for this many rows.
        emit(json.dumps({"file": source, "cached": cached, **document}, ensure_ascii=False,
                        indent=1))
    else:
        emit(par_text(document, source, cached))
    return EXIT_OK


# -- text ---------------------------------------------------------------------------------------


def par_text(document: dict[str, Any], source: str, cached: bool) -> str:
    """The par document as a short report for people."""
    laps = document["laps"]
    if document["par"] is None:
        return (f"{document['track']} ({source}): no par for {laps} lap"
                f"{'s' if laps > 1 else ''} under {document['ruleset']}: every way of "
                "driving it alone risks elimination (a corner too short for its stops, a track "
                "the car cannot get round?)")
    lines = [f"{document['track']} ({source}): par {document['par']:.2f} turns for "
             f"{laps} lap{'s' if laps > 1 else ''} under {document['ruleset']}",
             "  a car alone, pole to flag, playing at best and never eliminated "
             "(docs/par.md)", ""]
    lines += _distribution_lines(document["distribution"])
    lines += ["", "Where the turns go (expected turns started there):"]
    for row in document["segments"]:
        if row["turns"] >= 0.005:
            label = (f"corner {row['name']} ({row['stops']} stop{'s' if row['stops'] > 1 else ''})"
                     if row["kind"] == "corner" else
                     f"straight {row['name']}" if row["kind"] == "straight" else row["name"])
            lines.append(f"  {row['turns']:6.2f}  {label}")
    lines += ["", "Gear plan on the last lap (from which space, in which gear; the chance of a "
                  "turn there):"]
    for corner in document["gear_plan"]:
        likeliest = sorted(corner["turns"], key=lambda row: -row["chance"])[:ROWS_IN_TEXT]
        shown = [row for row in corner["turns"]
                 if row["chance"] >= SHOWN_IN_TEXT and row in likeliest]
        if not shown:
            continue
        lines.append(f"  {corner['name']} ({corner['stops']} stop"
                     f"{'s' if corner['stops'] > 1 else ''}):")
        for row in shown:
            where = "in the corner" if row["in_corner"] else "into it"
            lines.append(f"    {row['space']:>8}  {row['chance']:5.0%}  {ordinal(row['gear'])}"
                         f" gear ({row['gear_chance']:.0%}), {where}")
    lines += ["", "Costs along the optimal line:"]
    lines += _cost_lines(document["costs"])
    solve = document["solve"]
    lines += ["", f"Solved over {solve['places']:,} places and {solve['states']:,} states (the "
                  f"best policy visits {solve['policy_states']:,}) in {solve['cpu_seconds']:.1f} "
                  "s of CPU; " + ("this answer came from the cache" if cached else
                                  "kept in the cache for next time")]
    return "\n".join(lines)


def _distribution_lines(rows: list[dict[str, Any]]) -> list[str]:
    """The chance of finishing within each number of turns, where it is worth reading."""
    shown = [row for row in rows
             if row["within"] >= 0.001 and row["within"] - row["chance"] < 0.999]
    cells = [f"{row['turns']}: {row['within']:.1%}" for row in shown]
    lines = ["Chance of finishing within k turns:"]
    for start in range(0, len(cells), 6):
        lines.append("  " + "   ".join(cells[start:start + 6]))
    return lines


def _cost_lines(costs: dict[str, Any]) -> list[str]:
    lines = []
    for name in ("tyres", "brakes", "gearbox", "engine"):
        cost = costs[name]
        lines.append(f"  {name:<9} {cost['expected_wp']:5.2f} WP expected, some paid in "
                     f"{cost['chance']:.0%} of races")
    for name, words in (("overshoot", "an overshoot"), ("spin", "a spin"),
                        ("pit_stop", "a pit stop")):
        cost = costs[name]
        lines.append(f"  {words:<13} in {cost['chance']:.1%} of races "
                     f"({cost['expected']:.2f} expected)")
    lines.append(f"  the start: a stall {costs['stall']['chance']:.0%}, a super start "
                 f"{costs['super_start']['chance']:.0%}")
    return lines


def register(command: Callable[[str, str], argparse.ArgumentParser]) -> None:
    """Add the ``par`` command to the command line's parser."""
    par = command("par", "the exact par of a track: the least expected turns of a car alone")
    par.epilog = EXIT_CODES_HELP
    par.add_argument("track", metavar="TRACK", help="track file")
    par.add_argument("--laps", type=laps_value, metavar="N",
                     help=f"laps of the race, 1 to {MAX_LAPS} (default: the track's)")
    par.add_argument("--ruleset", default=DEFAULT_PRESET, metavar="NAME|PATH",
                     help=f"preset name or ruleset file (default {DEFAULT_PRESET})")
    par.add_argument("--json", action="store_true",
                     help='print one JSON document whose "par" is the expected turns')
    par.set_defaults(run=cmd_par, file_roles=FileRoles(inputs=("track", "ruleset"),
                                                       outputs=()))
