"""Running the registered rules over a track and applying its ignore list."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace

from trackformat.analysis import measure_corner, shortest_lap
from trackformat.collector import collection_deferred
from trackformat.graph import TrackGraphs, build_graphs
from trackformat.lint.diagnostic import Diagnostic, Severity
from trackformat.lint.registry import RULES, Rule
from trackformat.lint.report import Report
from trackformat.model.track import Ignore, Track


def _ignored(diagnostic: Diagnostic, ignores: Iterable[Ignore]) -> bool:
    for entry in ignores:
        if entry.code != diagnostic.code:
            continue
        if not entry.elements or set(entry.elements) & set(diagnostic.location.elements):
            return True
    return False


def run_rules(
    track: Track, graphs: TrackGraphs, rules: Iterable[Rule]
) -> tuple[list[Diagnostic], int]:
    """Diagnostics of ``rules`` on the track, and how many the ignore list silenced."""
    kept: list[Diagnostic] = []
    ignored = 0
    for rule in rules:
        try:
            findings = list(rule.check(track, graphs))
        except Exception as err:  # a rule's bug must not hide every other rule's findings
            kept.append(
                Diagnostic(
                    "INTERNAL",
                    Severity.ERROR,
                    f"rule {rule.code} ({rule.name}) failed: {type(err).__name__}: {err}",
                    rule="internal-error",
                )
            )
            continue
        for finding in findings:
            diagnostic = Diagnostic(
                code=rule.code,
                severity=finding.severity or rule.severity,
                message=finding.message,
                location=finding.location(),
                rule=rule.name,
            )
            if _ignored(diagnostic, track.ignore):
                ignored += 1
            else:
                kept.append(diagnostic)
    return kept, ignored


def _masked(diagnostic: Diagnostic) -> str:
    """The message with the diagnostic's own element ids blanked: two diagnostics of one rule
    whose messages then read the same have one cause at different places."""
    ids = sorted(set(diagnostic.location.elements), key=len, reverse=True)
    if not ids:
        return diagnostic.message
    pattern = "|".join(re.escape(i) for i in ids)
    return re.sub(rf"(?<![\w-])(?:{pattern})(?![\w-])", "\x00", diagnostic.message)


def group_repeats(diagnostics: Sequence[Diagnostic]) -> list[Diagnostic]:
    """One diagnostic per cause: repeats of one rule's message about single other elements
    (every space drawn but not linked yet, say) become one problem whose culprits are all of
    theirs. The first keeps its place, message and board point; the message names the others."""
    groups: dict[tuple[str, Severity, str], list[Diagnostic]] = {}
    for diagnostic in diagnostics:
        key = (diagnostic.code, diagnostic.severity, _masked(diagnostic))
        groups.setdefault(key, []).append(diagnostic)
    merged: list[Diagnostic] = []
    for repeats in groups.values():
        first = repeats[0]
        # Only repeats about one space each: a diagnostic about a pair (a link) is its own.
        if len(repeats) == 1 or any(len(d.location.elements) != 1 for d in repeats):
            merged.extend(repeats)
            continue
        elements = list(dict.fromkeys(e for d in repeats for e in d.location.elements))
        others = [d.location.elements[0] for d in repeats[1:]]
        if len(others) > 5:
            shown = f"{', '.join(others[:5])} and {len(others) - 5} more"
        else:
            shown = " and ".join([", ".join(others[:-1]), others[-1]] if others[:-1] else others)
        message = f"{first.message} (the same for {shown})"
        location = replace(first.location, elements=tuple(elements))
        merged.append(replace(first, message=message, location=location))
    return merged


def _order(diagnostic: Diagnostic) -> tuple[int, str, tuple[str, ...], str]:
    return (
        diagnostic.severity.rank,
        diagnostic.code,
        diagnostic.location.elements,
        diagnostic.message,
    )


def validate(
    track: Track,
    graphs: TrackGraphs | None = None,
    *,
    codes: Iterable[str] | None = None,
    source: str = "",
) -> Report:
    """Check ``track`` with every registered rule (or only those in ``codes``)."""
    from trackformat.lint import rules  # noqa: F401  (imported here: registers every rule)

    with collection_deferred():
        return _validate(track, graphs, codes, source)


def _validate(track: Track, graphs: TrackGraphs | None, codes: Iterable[str] | None,
              source: str) -> Report:
    graphs = graphs or build_graphs(track)
    selected = [RULES[c] for c in codes] if codes is not None else list(RULES.values())
    found, ignored = run_rules(track, graphs, selected)
    diagnostics = group_repeats(sorted(found, key=_order))
    facts: dict[str, object] = {}
    # Measured for the rules anyway (and remembered): handed on for the editor's corner labels.
    corner_paths = {
        corner.id: (measure.long, measure.short)
        for corner in track.corners
        for measure in [measure_corner(graphs, corner)]
    }
    lap = shortest_lap(graphs)
    if lap is not None:
        facts["shortest_lap"] = lap.moves
    return Report(tuple(sorted(diagnostics, key=_order)), ignored, source, facts, corner_paths)

