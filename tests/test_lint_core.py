"""The validator's machinery: the rule registry, the ignore list, reports as text and JSON."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

from tests.factories import edit, ring
from trackformat.graph import TrackGraphs, build_graphs
from trackformat.lint import RULES, TOPICS, Finding, Rule, Severity, all_rules, validate
from trackformat.lint.runner import run_rules
from trackformat.model import Track


def test_every_rule_is_registered_once_with_a_stable_code_and_documentation() -> None:
    rules = all_rules()
    assert len(rules) >= 30
    assert len({r.name for r in rules}) == len(rules)
    for r in rules:
        assert re.fullmatch(r"[A-Z]+\d{3}", r.code), r.code
        assert re.fullmatch(r"[a-z]+(-[a-z]+)*", r.name), r.name
        assert r.topic in TOPICS
        assert r.summary, f"{r.code} has no docstring summary"
    assert {r.topic for r in rules} == set(TOPICS)


def test_a_sound_track_has_no_error_or_warning() -> None:
    report = validate(ring())
    assert [d for d in report.diagnostics if d.severity != Severity.INFO] == []
    assert report.ok
    assert report.facts["shortest_lap"] == 40


def _overlapping_space(doc: dict) -> None:
    copy = dict(next(s for s in doc["spaces"] if s["id"] == "2-5"))
    copy["id"] = "extra"
    doc["spaces"].append(copy)


def test_ignore_list_silences_only_the_named_code_and_elements() -> None:
    broken = edit(ring(), _overlapping_space)
    before = validate(broken)
    assert "GEOM002" in before.codes()

    def ignore(doc: dict) -> None:
        _overlapping_space(doc)
        doc["ignore"] = [{"code": "GEOM002", "elements": ["extra"], "reason": "test"}]

    after = validate(edit(ring(), ignore))
    assert "GEOM002" not in after.codes()
    assert after.ignored == before.codes()["GEOM002"]
    assert after.errors == before.errors - before.codes()["GEOM002"]


def test_report_renders_text_and_json_with_locations() -> None:
    report = validate(edit(ring(), _overlapping_space), source="ring.json")
    text = report.to_text()
    assert text.splitlines()[-1].startswith("ring.json: ")
    assert "error GEOM002" in text and "extra" in text
    data = json.loads(json.dumps(report.to_json()))
    assert data["file"] == "ring.json" and data["ok"] is False
    assert data["counts"]["error"] == report.errors
    first = data["diagnostics"][0]
    assert first["severity"] == "error"
    assert set(first["location"]) == {"elements", "pointer", "point"}


def test_a_crashing_rule_is_reported_and_does_not_stop_the_others() -> None:
    def crash(track: Track, graphs: TrackGraphs) -> Iterator[Finding]:
        """Always fails."""
        raise ZeroDivisionError("boom")
        yield  # pragma: no cover

    def fine(track: Track, graphs: TrackGraphs) -> Iterator[Finding]:
        """Always finds one thing."""
        yield Finding("something", elements=("1-0",))

    bad = Rule("TEST001", "crash", Severity.ERROR, "references", crash)
    good = Rule("TEST002", "fine", Severity.WARNING, "references", fine)
    track = ring()
    diagnostics, ignored = run_rules(track, build_graphs(track), [bad, good])
    assert [d.code for d in diagnostics] == ["INTERNAL", "TEST002"]
    assert "boom" in diagnostics[0].message and ignored == 0
    assert "TEST001" not in RULES


def test_selecting_codes_runs_only_those_rules() -> None:
    report = validate(edit(ring(), _overlapping_space), codes=["GEOM002"])
    assert set(report.codes()) == {"GEOM002"}
