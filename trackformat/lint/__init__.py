"""The validator: registered rules that explain every problem of a track and where it is."""

from trackformat.lint.diagnostic import Diagnostic, Location, Severity
from trackformat.lint.registry import RULES, TOPICS, Finding, Rule, rule
from trackformat.lint.report import Report
from trackformat.lint.runner import validate


def all_rules() -> list[Rule]:
    """Every registered rule, in code order (imports the rule modules on first use)."""
    from trackformat.lint import rules  # noqa: F401

    return [RULES[code] for code in sorted(RULES)]


__all__ = [
    "RULES",
    "TOPICS",
    "Diagnostic",
    "Finding",
    "Location",
    "Report",
    "Rule",
    "Severity",
    "all_rules",
    "rule",
    "validate",
]
