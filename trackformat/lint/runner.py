"""Running the registered rules over a track and applying its ignore list."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from trackformat.analysis import measure_corner, shortest_lap
from trackformat.collector import collection_deferred
from trackformat.graph import TrackGraphs, build_graphs
from trackformat.lint.diagnostic import Diagnostic, Severity
from trackformat.lint.registry import RULES, Finding, Rule
from trackformat.lint.report import Report
from trackformat.model.track import Ignore, Track

ONE_BY_ONE = 10
"""Findings of one group (see :attr:`Finding.group`) reported one by one; more than this many
become one diagnostic."""
PLACES_SHOWN = 5
"""Places a grouped diagnostic names after its first; the rest are counted."""


class IgnoreList:
    """The track's ignore list, looked up by code: checking a diagnostic against it takes the
    same time however long the list is (a list of 20,000 entries, checked entry by entry for
    each of the 20,000 warnings it drew, took 29 s)."""

    def __init__(self, entries: Iterable[Ignore]) -> None:
        self.whole_codes: set[str] = set()
        """Codes silenced for the whole track (entries that name no element)."""
        self.elements: dict[str, set[str]] = {}
        """By code, the elements whose diagnostics are silenced."""
        for entry in entries:
            if entry.elements:
                self.elements.setdefault(entry.code, set()).update(entry.elements)
            else:
                self.whole_codes.add(entry.code)

    def watches(self, code: str) -> bool:
        """Whether any entry names ``code``: if none does, a rule's findings need no check."""
        return code in self.whole_codes or code in self.elements

    def silences(self, code: str, elements: Iterable[str]) -> bool:
        """Whether a diagnostic of ``code`` about ``elements`` is silenced: an entry of its code
        names no element, or one of these."""
        if code in self.whole_codes:
            return True
        named = self.elements.get(code)
        return named is not None and not named.isdisjoint(elements)


class _Group:
    """The findings of one rule with one group and severity, gathered while the rule runs:
    the first few whole, the rest only counted, so that half a million of them cost little
    memory."""

    def __init__(self) -> None:
        self.first: list[Finding] = []
        self.count = 0
        self.elements: dict[str, None] = {}

    def add(self, finding: Finding) -> None:
        self.count += 1
        if len(self.first) <= max(ONE_BY_ONE, PLACES_SHOWN):
            self.first.append(finding)
        for element in finding.elements:
            self.elements[element] = None

    def diagnostics(self, rule: Rule, severity: Severity, places: str) -> list[Diagnostic]:
        """The findings one by one when they are few, else one diagnostic: the first finding,
        with how many more places have the same problem and where the next few are."""
        if self.count <= ONE_BY_ONE:
            return [_diagnostic(rule, severity, finding) for finding in self.first]
        first, rest = self.first[0], self.count - 1
        shown = [f.pointer or ", ".join(f.elements) for f in self.first[1 : PLACES_SHOWN + 1]]
        listed = ", ".join(shown)
        if rest > len(shown):
            listed += f" and {rest - len(shown):,} more"
        merged = first._replace(
            message=f"{first.message} (the same for {rest:,} more {places}: {listed})",
            elements=tuple(self.elements),
        )
        return [_diagnostic(rule, severity, merged)]


def _diagnostic(rule: Rule, severity: Severity, finding: Finding) -> Diagnostic:
    return Diagnostic(
        code=rule.code,
        severity=severity,
        message=finding.message,
        location=finding.location(),
        rule=rule.name,
    )


def _run_rule(
    rule: Rule, track: Track, graphs: TrackGraphs, ignores: IgnoreList
) -> tuple[list[Diagnostic], int]:
    """One rule's diagnostics, its repeated findings grouped, and how many it had silenced.

    Findings are checked against the ignore list one by one, before they are grouped: an entry
    naming one grid slot's space silences that slot, not every slot grouped with it."""
    kept: list[Diagnostic] = []
    groups: dict[tuple[str, Severity], _Group] = {}
    ignored = 0
    watched = ignores.watches(rule.code)
    for finding in rule.check(track, graphs):
        if watched and ignores.silences(rule.code, finding.elements):
            ignored += 1
            continue
        severity = finding.severity or rule.severity
        if finding.group is None:
            kept.append(_diagnostic(rule, severity, finding))
        else:
            key = (finding.group, severity)
            group = groups.get(key)
            if group is None:
                group = groups[key] = _Group()
            group.add(finding)
    for (places, severity), group in groups.items():
        kept += group.diagnostics(rule, severity, places)
    return kept, ignored


def run_rules(
    track: Track, graphs: TrackGraphs, rules: Iterable[Rule]
) -> tuple[list[Diagnostic], int]:
    """Diagnostics of ``rules`` on the track, and how many the ignore list silenced."""
    ignores = IgnoreList(track.ignore)
    kept: list[Diagnostic] = []
    ignored = 0
    for rule in rules:
        try:
            diagnostics, silenced = _run_rule(rule, track, graphs, ignores)
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
        kept += diagnostics
        ignored += silenced
    return kept, ignored


def _masked(message: str, element: str) -> str:
    """The message with the diagnostic's own element id blanked: two diagnostics of one rule
    whose messages then read the same have one cause at different places.

    The id is blanked where it stands as a whole word (not inside a longer id such as 1-50 for
    1-5). A plain search, not a regular expression: compiling one per diagnostic took most of
    the 25 s that the 78,000 diagnostics of a file of 6,000 corners took."""
    if not element:
        return message
    pieces: list[str] = []
    start = 0
    while (found := message.find(element, start)) >= 0:
        end = found + len(element)
        if _is_word_edge(message, found - 1) and _is_word_edge(message, end):
            pieces += [message[start:found], "\x00"]
            start = end
        else:
            pieces.append(message[start : found + 1])
            start = found + 1
    return "".join(pieces) + message[start:]


def _is_word_edge(message: str, index: int) -> bool:
    """Whether ``message[index]`` ends an id: it is outside the message, or not a letter, digit,
    underscore or dash."""
    if index < 0 or index >= len(message):
        return True
    char = message[index]
    return not (char.isalnum() or char in "_-")


def group_repeats(diagnostics: Sequence[Diagnostic]) -> list[Diagnostic]:
    """One diagnostic per cause: repeats of one rule's message about single other elements
    (every space drawn but not linked yet, say) become one problem whose culprits are all of
    theirs. The first keeps its place, message and board point; the message names the others."""
    groups: dict[tuple[str, Severity, str] | int, list[Diagnostic]] = {}
    for position, diagnostic in enumerate(diagnostics):
        elements = diagnostic.location.elements
        # Only repeats about one space each: a diagnostic about a pair (a link) is its own.
        key = (
            (diagnostic.code, diagnostic.severity, _masked(diagnostic.message, elements[0]))
            if len(elements) == 1
            else position
        )
        groups.setdefault(key, []).append(diagnostic)
    merged: list[Diagnostic] = []
    for repeats in groups.values():
        first = repeats[0]
        if len(repeats) == 1:
            merged.extend(repeats)
            continue
        culprits = tuple(dict.fromkeys(e for d in repeats for e in d.location.elements))
        others = [d.location.elements[0] for d in repeats[1:]]
        if len(others) > 5:
            shown = f"{', '.join(others[:5])} and {len(others) - 5} more"
        else:
            shown = " and ".join([", ".join(others[:-1]), others[-1]] if others[:-1] else others)
        message = f"{first.message} (the same for {shown})"
        location = replace(first.location, elements=culprits)
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

