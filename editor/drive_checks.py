"""What the editor settles before a test drive, without Qt: its defaults, whether the track is
sound enough for the figures to mean anything, and whether a race can start on it at all."""

from __future__ import annotations

from collections import Counter

from trackformat.lint import Diagnostic, Report, Severity, all_rules
from trackformat.model import Track
from trackformat.rules import load_ruleset
from trackformat.sim import Board
from trackformat.sim.core.dice import Dice
from trackformat.sim.race.grid import new_race

DEFAULT_BOTS = "strong"
"""Drivers who push, overshoot now and then and so show where a track bites (a cautious
driver never overshoots); the same default as `trackformat testdrive`."""
DEFAULT_RACES, DEFAULT_SEED = 100, 0
"""The command line's defaults, so that the editor and `trackformat testdrive` agree."""

RACE_TOPICS = frozenset({"reachability", "lap", "shortest-path", "references"})
RACE_CODES = frozenset({"CORNER001", "CORNER008", "GRID001", "GRID002", "GRID003"})
"""Errors that change where cars can go, so that a test drive's figures mean nothing."""
RACE_ANYWAY = "Race anyway"
"""The broken-track dialog's button that races all the same (the other is Cancel): a plain
Yes would answer "fix them first, or race anyway?" with nothing."""


def race_breaking(report: Report) -> list[Diagnostic]:
    """The errors of ``report`` that make a test drive's result meaningless."""
    topics = {rule.code: rule.topic for rule in all_rules()}
    return [
        d
        for d in report.diagnostics
        if d.severity == Severity.ERROR
        and (topics.get(d.code) in RACE_TOPICS or d.code in RACE_CODES)
    ]


def why_no_race(track: Track) -> str | None:
    """Why no race can even start on ``track`` (no finish line, track spaces in no lane, no grid
    slot on the circuit), in the race engine's words; None when one car at least can start.
    Racing such a track "anyway" is no choice to offer: the batch would fail at once."""
    try:
        new_race(Board.of(track), load_ruleset("formula-d"), 1, 1, Dice(0), [])
    except ValueError as err:  # RaceSetupError, and a board that cannot be built
        return str(err)
    return None


def broken_track_warning(errors: list[Diagnostic], no_race: str | None = None) -> str:
    """What to tell the designer before racing on a track with ``errors``: that its figures
    would mean nothing, and whether to race anyway. When ``no_race`` says why no race can start
    at all (:func:`why_no_race`), the warning says that instead, with no question to answer."""
    one = len(errors) == 1
    codes = Counter(d.code for d in errors)
    listed = ", ".join(f"{code} x{n}" if n > 1 else code for code, n in sorted(codes.items()))
    head = (f"This track has {len(errors)} error{'' if one else 's'} that "
            f"change{'s' if one else ''} where cars can go ({listed})")
    fix = f"Fix {'it' if one else 'them'} first (see Problems)"
    if no_race is not None:
        return f"{head}, and no race can start on it: {no_race.rstrip('.')}. {fix}."
    first = errors[0]
    return (
        f"{head}, so a test drive's figures would mean nothing: cars get blocked, trapped or "
        f"never finish. {'The error' if one else 'The first'}: {first.code}: "
        f"{first.message.rstrip('.')}. {fix}, or race anyway?"
    )
