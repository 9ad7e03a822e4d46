"""What the validator says about a track: a diagnostic with a code, a severity and a location."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class Severity(StrEnum):
    """How bad a diagnostic is. Errors make ``validate`` exit 1; warnings and notes do not."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        return {"error": 0, "warning": 1, "info": 2}[self.value]


@dataclass(frozen=True)
class Location:
    """Where a diagnostic points: the elements at fault, a JSON pointer and a board point.

    The editor selects ``elements`` and centres the view on ``point``; a person with the file open
    follows ``pointer``.
    """

    elements: tuple[str, ...] = ()
    pointer: str | None = None
    point: tuple[float, float] | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "elements": list(self.elements),
            "pointer": self.pointer,
            "point": list(self.point) if self.point is not None else None,
        }


@dataclass(frozen=True)
class Diagnostic:
    """One problem found by one rule."""

    code: str
    severity: Severity
    message: str
    location: Location = field(default_factory=Location)
    rule: str = ""
    """The rule's name (kebab-case), filled in by the runner."""

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "rule": self.rule,
            "severity": self.severity.value,
            "message": self.message,
            "location": self.location.to_json(),
        }
