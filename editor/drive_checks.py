"""What the editor settles before a test drive, without Qt: its defaults, and whether the track
is sound enough for the figures to mean anything."""

from __future__ import annotations

from collections import Counter

from trackformat.lint import Diagnostic, Report, Severity, all_rules

DEFAULT_BOTS = "strong"
"""Drivers who push, overshoot now and then and so show where a track bites (a cautious
driver never overshoots); the same default as `trackformat testdrive`."""
DEFAULT_RACES, DEFAULT_SEED = 100, 0
"""The command line's defaults, so that the editor and `trackformat testdrive` agree."""

RACE_TOPICS = frozenset({"reachability", "lap", "shortest-path", "references"})
RACE_CODES = frozenset({"CORNER001", "CORNER008", "GRID001", "GRID002", "GRID003"})
"""Errors that change where cars can go, so that a test drive's figures mean nothing."""


def race_breaking(report: Report) -> list[Diagnostic]:
    """The errors of ``report`` that make a test drive's result meaningless."""
    topics = {rule.code: rule.topic for rule in all_rules()}
    return [
        d
        for d in report.diagnostics
        if d.severity == Severity.ERROR
        and (topics.get(d.code) in RACE_TOPICS or d.code in RACE_CODES)
    ]


def broken_track_warning(errors: list[Diagnostic]) -> str:
    """What to tell the designer before racing on a track with ``errors``."""
    codes = Counter(d.code for d in errors)
    listed = ", ".join(f"{code} x{n}" if n > 1 else code for code, n in sorted(codes.items()))
    first = errors[0]
    return (
        f"This track has {len(errors)} error{'s' if len(errors) != 1 else ''} that change where "
        f"cars can go ({listed}), so a test drive's figures would mean nothing: cars get blocked, "
        f"trapped or never finish. First: {first.code}: {first.message}. "
        "Fix them first (see Problems), or race anyway?"
    )
