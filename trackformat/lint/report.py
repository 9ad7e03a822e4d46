"""A validation report: the diagnostics of one track, counted and rendered as text or JSON."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from trackformat.lint.diagnostic import Diagnostic, Severity


@dataclass(frozen=True)
class Report:
    """Every diagnostic the validator raised for a track, in a stable order."""

    diagnostics: tuple[Diagnostic, ...]
    ignored: int = 0
    """Diagnostics silenced by the track's ignore list."""
    source: str = ""
    facts: dict[str, Any] = field(default_factory=dict)
    """Figures the validator computed on the way (the shortest lap), for the report's reader."""
    corner_paths: dict[str, tuple[int | None, int | None]] = field(default_factory=dict)
    """Each corner's computed (long, short) path lengths, by corner id."""

    def count(self, severity: Severity) -> int:
        return sum(1 for d in self.diagnostics if d.severity == severity)

    @property
    def errors(self) -> int:
        return self.count(Severity.ERROR)

    @property
    def warnings(self) -> int:
        return self.count(Severity.WARNING)

    @property
    def ok(self) -> bool:
        """True when there is no error (warnings and notes do not fail a track)."""
        return self.errors == 0

    def codes(self) -> Counter[str]:
        return Counter(d.code for d in self.diagnostics)

    def summary(self) -> str:
        parts = [
            f"{self.errors} error{'s' if self.errors != 1 else ''}",
            f"{self.warnings} warning{'s' if self.warnings != 1 else ''}",
            f"{self.count(Severity.INFO)} note{'s' if self.count(Severity.INFO) != 1 else ''}",
        ]
        if self.ignored:
            parts.append(f"{self.ignored} ignored")
        return ", ".join(parts)

    def to_text(self) -> str:
        lines = []
        prefix = f"{self.source}: " if self.source else ""
        for d in self.diagnostics:
            where = []
            if d.location.elements:
                shown = ", ".join(d.location.elements[:6])
                if len(d.location.elements) > 6:
                    shown += f", ... ({len(d.location.elements)} in all)"
                where.append(shown)
            if d.location.pointer:
                where.append(d.location.pointer)
            suffix = f"  [{'; '.join(where)}]" if where else ""
            lines.append(f"{prefix}{d.severity.value} {d.code} {d.rule}: {d.message}{suffix}")
        for key, value in self.facts.items():
            lines.append(f"{prefix}{key.replace('_', ' ')}: {value}")
        lines.append(f"{prefix}{self.summary()}")
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        return {
            "file": self.source,
            "ok": self.ok,
            "counts": {s.value: self.count(s) for s in Severity} | {"ignored": self.ignored},
            "facts": self.facts,
            "corner_paths": {k: list(v) for k, v in self.corner_paths.items()},
            "diagnostics": [d.to_json() for d in self.diagnostics],
        }
