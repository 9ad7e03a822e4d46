"""The registry of validator rules: each rule registered once with a stable code.

A rule is a small pure function ``(track, graphs) -> Iterator[Finding]``. The registry gives it
its code, name, default severity, topic and documentation, so that the docs, the command line and
the editor's filters all come from one list.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import NamedTuple

from trackformat.graph import TrackGraphs
from trackformat.lint.diagnostic import Location, Severity
from trackformat.model.track import Track


class Finding(NamedTuple):
    """What a rule yields: a message and where; the runner adds code and severity.

    A named tuple rather than a frozen dataclass: as immutable, and made in half the time, which
    counts when a hostile file has a rule find the same problem at a million places.
    """

    message: str
    elements: tuple[str, ...] = ()
    pointer: str | None = None
    point: tuple[float, float] | None = None
    severity: Severity | None = None
    """Overrides the rule's default severity for this finding (rarely needed)."""
    group: str | None = None
    """For a problem that a hostile or half-made file can repeat at thousands of places (every
    grid slot naming a missing space): what the places are, in the plural ("grid slots").
    Findings of one rule with the same group and severity are one problem; past a few of them
    the runner reports them as one diagnostic that counts them and names the first places, so
    that a 4 MB list gives one line, not half a million."""

    def location(self) -> Location:
        return Location(self.elements, self.pointer, self.point)


RuleCheck = Callable[[Track, TrackGraphs], Iterator[Finding]]


@dataclass(frozen=True)
class Rule:
    """A registered check. ``summary`` and ``explanation`` come from the function's docstring."""

    code: str
    name: str
    severity: Severity
    topic: str
    check: RuleCheck = field(repr=False)
    example: str = ""
    """A short example of a track that breaks the rule, for the docs."""

    @property
    def summary(self) -> str:
        doc = inspect.getdoc(self.check) or ""
        return doc.split("\n\n", 1)[0].replace("\n", " ")

    @property
    def explanation(self) -> str:
        doc = inspect.getdoc(self.check) or ""
        parts = doc.split("\n\n", 1)
        return parts[1] if len(parts) > 1 else ""


RULES: dict[str, Rule] = {}
"""Every rule by code, in registration order."""

TOPICS = ("references", "reachability", "lap", "shortest-path", "corners", "geometry", "grid-pit")


def rule(
    code: str, name: str, topic: str, severity: Severity = Severity.ERROR, example: str = ""
) -> Callable[[RuleCheck], RuleCheck]:
    """Register the decorated function as a rule."""
    if topic not in TOPICS:
        raise ValueError(f"unknown topic {topic!r}")

    def register(check: RuleCheck) -> RuleCheck:
        if code in RULES:
            raise RuntimeError(f"rule code {code} registered twice")
        if any(r.name == name for r in RULES.values()):
            raise RuntimeError(f"rule name {name} registered twice")
        RULES[code] = Rule(code, name, severity, topic, check, example)
        return check

    return register
