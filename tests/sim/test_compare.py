"""Rates with their 95% intervals, and which ones two test drives disagree on beyond chance."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from trackformat.sim.batch.compare import ReportError, compare, rates_of, with_interval
from trackformat.sim.batch.stats import wilson


@pytest.mark.parametrize(
    ("successes", "trials", "low", "high"),
    [  # Newcombe (1998), Statistics in Medicine 17:857-872, table I, method 3 (Wilson score)
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
    ],
)
def test_wilson_intervals_match_the_published_ones(
    successes: int, trials: int, low: float, high: float
) -> None:
    got = wilson(successes, trials)
    assert got == pytest.approx((low, high), abs=5e-5)


def test_a_rate_of_nothing_is_anywhere_and_extremes_stay_inside_0_and_1() -> None:
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(10, 10)
    assert low == pytest.approx(10 / (10 + 1.96**2), abs=1e-3)
    assert high == pytest.approx(1.0)
    assert wilson(0, 10)[0] == 0.0


def test_a_rate_reads_with_its_interval_in_percent() -> None:
    assert with_interval(0.125, wilson(25, 200)) == "12.5% (8.6-17.8)"


def report(overshoots: dict[str, int], entries: int = 200, finished: int = 380) -> dict[str, Any]:
    """A small test-drive report of two corners and 400 cars."""
    return {
        "races": 100, "cars": 4, "finished": finished, "no_winner": 0.0,
        "by_bot": {"strong": {"cars": 400, "wins": 100, "finished": finished}},
        "corners": [
            {"id": corner, "name": corner.title(), "entries": entries, "overshoots": count,
             "spins": 0, "eliminations": 0}
            for corner, count in overshoots.items()
        ],
    }


def test_only_rates_whose_intervals_part_are_changes() -> None:
    before = report({"casino": 25, "loews": 20})
    after = report({"casino": 62, "loews": 28})
    changes = compare(before, after)
    assert [c.text() for c in changes] == ["Casino overshoots 12.5% -> 31.0%"]


def test_the_same_report_changes_nothing() -> None:
    before = report({"casino": 25, "loews": 20})
    assert compare(before, copy.deepcopy(before)) == []


def test_overall_rates_are_compared_too() -> None:
    changes = compare(report({"casino": 25}, finished=380), report({"casino": 25}, finished=300))
    assert [c.text() for c in changes] == [
        "cars finishing 95.0% -> 75.0%", "strong cars finishing 95.0% -> 75.0%"]


def test_corners_with_the_same_name_are_told_apart_by_id() -> None:
    both = report({"casino": 25})
    both["corners"].append({**both["corners"][0], "id": "casino-2"})
    labels = {rate.label for rate in rates_of(both).values()}
    assert "Casino (casino) overshoots" in labels and "Casino (casino-2) overshoots" in labels


def test_reports_of_different_tracks_are_refused() -> None:
    with pytest.raises(ReportError, match=r"different corners.*only b\.json has loews"):
        compare(report({"casino": 25}), report({"casino": 25, "loews": 3}), "a.json", "b.json")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([1, 2], "should be a JSON object"),
        ({"type": "track"}, "not a test-drive report"),
        ({**report({"casino": 1}), "finished": "many"}, "'finished' should be a count"),
        ({**report({"casino": 1}), "corners": [{"name": "x"}]}, r"corners\[0\]: has no corner id"),
    ],
)
def test_what_is_not_a_report_says_why(data: Any, message: str) -> None:
    with pytest.raises(ReportError, match=message):
        rates_of(data, "x.json")
