"""Two test-drive reports side by side: which rates an edit changed beyond chance.

A rate is counted over a batch of races (overshoots of a corner over its entries, cars finished
over cars raced), so two batches never give the same figure even on the same track. A change is
only worth a designer's attention when the two 95% Wilson intervals of the rate do not overlap:
then the edit, not the dice, moved it. The command line (``testdrive compare``) and the editor's
test-drive panel both ask this module.

The rates are read back from the counts of the JSON report (not from its rounded rates), so a
report written before intervals were added compares just as well. A report is a file the user
names, perhaps edited by hand or by a hostile program: every figure read is checked where it is
(a count of 400 digits, a share of NaN), so that a bad report is refused with the place at fault
rather than crashing the arithmetic of the intervals, and the work is linear in the corners.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from trackformat.sim.batch.report_file import name, shown
from trackformat.sim.batch.stats import wilson

CORNER_RATES = (("overshoots", "overshoots"), ("spins", "spin-outs"),
                ("eliminations", "eliminations"))
"""Per corner: the count in the report over its entries, and the words a designer reads."""


MAX_COUNT = 10**15
"""Largest count read from a report: a million races of a thousand cars entering a thousand
corners stay far below. A larger one is not a test drive's, and would overflow the floating-point
arithmetic of the intervals (a count of 400 digits has no float at all)."""

MAX_LISTED = 10
"""Corner ids listed when two reports' corners differ; the rest are counted."""


class ReportError(ValueError):
    """The data is not a test-drive report, or two reports cannot be compared: says why."""


@dataclass(frozen=True)
class Rate:
    """One rate of a report: ``successes`` out of ``trials``, and what it is called."""

    key: str
    """Stable across reports of the same track: ``corner:<id>:overshoots``, ``finish_rate``..."""
    label: str
    """For people: ``Casino overshoots``, ``cars finishing``."""
    successes: int
    trials: int

    @property
    def share(self) -> float:
        return self.successes / self.trials if self.trials else 0.0

    @cached_property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval, computed once: a comparison asks for it again and again
        (a report may have tens of thousands of corners)."""
        return wilson(self.successes, self.trials)


@dataclass(frozen=True)
class Change:
    """A rate whose 95% intervals before and after do not overlap."""

    before: Rate
    after: Rate

    @property
    def label(self) -> str:
        return self.after.label

    def text(self) -> str:
        """``Casino overshoots 12.5% -> 31.0%``."""
        return f"{self.label} {percent(self.before.share)} -> {percent(self.after.share)}"


def percent(share: float) -> str:
    return f"{100 * share:.1f}%"


def with_interval(share: float, interval: tuple[float, float] | list[float]) -> str:
    """``12.5% (9.1-16.9)``: a rate and its interval, in percent."""
    low, high = interval
    return f"{percent(share)} ({100 * low:.1f}-{100 * high:.1f})"


def beyond_chance(before: Rate, after: Rate) -> bool:
    """Whether the two 95% intervals are apart (neither reaches the other)."""
    low_before, high_before = before.interval
    low_after, high_after = after.interval
    return high_before < low_after or high_after < low_before


def _count(data: Mapping[str, Any], key: str, where: str) -> int:
    """``data[key]``, a count of at most :data:`MAX_COUNT`; :class:`ReportError` naming the
    place otherwise."""
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_COUNT:
        raise ReportError(f"{where}: {key!r} should be a count (a whole number from 0 to "
                          f"{MAX_COUNT:,}), not {shown(value)}")
    return value


def _share(data: Mapping[str, Any], key: str, where: str, default: float) -> float:
    """``data[key]`` (``default`` when missing), a share from 0 to 1; :class:`ReportError`
    naming the place otherwise. NaN and Infinity are JSON to Python's parser, and 1e308 of
    the races is a number no race count can multiply."""
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ReportError(f"{where}: {key!r} should be a share (a number from 0 to 1), "
                          f"not {shown(value)}")
    if isinstance(value, float) and not math.isfinite(value):
        raise ReportError(f"{where}: {key!r} is not a finite number ({shown(value)}): it should "
                          "be a share, from 0 to 1")
    if not 0 <= value <= 1:
        raise ReportError(f"{where}: {key!r} should be a share (a number from 0 to 1), "
                          f"not {shown(value)}")
    return float(value)


def _place(text: str) -> str:
    """A key of the report as part of a place in a message: ``strong``, or quoted when it
    would break the line or run on (``'a\\nb'``)."""
    return text if text.isprintable() and len(text) <= 40 else name(text)


def _listed(ids: Iterable[str]) -> str:
    """Corner ids for a message: the first :data:`MAX_LISTED`, then how many more."""
    ordered = sorted(ids)
    first = ", ".join(_place(i) for i in ordered[:MAX_LISTED])
    more = len(ordered) - MAX_LISTED
    return first + (f" and {more:,} more" if more > 0 else "")


def _mapping(data: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(data, Mapping):
        raise ReportError(f"{where}: should be a JSON object")
    return data


def corner_ids(report: Mapping[str, Any]) -> list[str]:
    """The corners of a checked report, in lap order."""
    return [str(corner["id"]) for corner in report["corners"]]


def rates_of(report: Any, where: str = "report") -> dict[str, Rate]:
    """Every rate of a test-drive report, by key; :class:`ReportError` when ``report`` is not
    one (``where`` names it in the message: a file name)."""
    report = _mapping(report, where)
    missing = [key for key in ("races", "cars", "finished", "corners", "by_bot")
               if key not in report]
    if missing:
        raise ReportError(f"{where}: not a test-drive report (no {', '.join(missing)}); "
                          "write one with `trackformat testdrive TRACK --json FILE`")
    races, cars = _count(report, "races", where), _count(report, "cars", where)
    rates = {"finish_rate": Rate("finish_rate", "cars finishing",
                                 _count(report, "finished", where), races * cars)}
    no_winner = _share(report, "no_winner", where, default=0.0)
    rates["no_winner"] = Rate("no_winner", "races without a winner", round(no_winner * races),
                              races)
    by_bot = _mapping(report["by_bot"], f"{where}: by_bot")
    for bot, figures in by_bot.items():
        place = f"{where}: by_bot.{_place(bot)}"
        figures = _mapping(figures, place)
        rates[f"bot:{bot}:wins"] = Rate(f"bot:{bot}:wins", f"{bot} wins",
                                        _count(figures, "wins", place), races)
        rates[f"bot:{bot}:finish_rate"] = Rate(
            f"bot:{bot}:finish_rate", f"{bot} cars finishing",
            _count(figures, "finished", place), _count(figures, "cars", place))
    corners = report["corners"]
    if not isinstance(corners, list):
        raise ReportError(f"{where}: corners should be a list")
    for number, corner in enumerate(corners):
        place = f"{where}: corners[{number}]"
        corner = _mapping(corner, place)
        if not isinstance(corner.get("id"), str):
            raise ReportError(f"{place}: has no corner id")
    for number, (corner, label) in enumerate(zip(corners, corner_labels(corners),
                                                 strict=True)):
        place = f"{where}: corners[{number}]"
        entries = _count(corner, "entries", place)
        for count, words in CORNER_RATES:
            key = f"corner:{corner['id']}:{count}"
            rates[key] = Rate(key, f"{label} {words}", _count(corner, count, place), entries)
    return rates


def corner_labels(corners: Sequence[Mapping[str, Any]]) -> list[str]:
    """What each corner of a report is called where people read it: its name, and its id
    beside a name that two corners share (Monaco's board prints "Casino" on two)."""
    # Counted once, not looked up per corner: a report of 40,000 corners took minutes.
    names = Counter(_corner_name(corner) for corner in corners)
    return [f"{name} ({corner['id']})" if names[name] > 1 else name
            for corner, name in ((c, _corner_name(c)) for c in corners)]


def _corner_name(corner: Mapping[str, Any]) -> str:
    """What a checked corner is called: its name, or its id when it has none (or a name that
    is not text)."""
    given = corner.get("name")
    return given if isinstance(given, str) and given else str(corner["id"])


def compare(before: Any, after: Any, before_name: str = "before",
            after_name: str = "after", strict: bool = True) -> list[Change]:
    """The rates that changed beyond their intervals from ``before`` to ``after``: overall
    rates first, then corners in lap order. :class:`ReportError` when either is not a report,
    or, when ``strict``, when they are of tracks with different corners (nothing to put side by
    side). Not strict (the editor, where an edit may add a corner), the corners both have are
    compared."""
    old, new = rates_of(before, before_name), rates_of(after, after_name)
    old_corners, new_corners = corner_ids(before), corner_ids(after)
    if strict and set(old_corners) != set(new_corners):
        gone = set(old_corners) - set(new_corners)
        added = set(new_corners) - set(old_corners)
        detail = "; ".join(part for part in (
            f"only {before_name} has {_listed(gone)}" if gone else "",
            f"only {after_name} has {_listed(added)}" if added else "") if part)
        raise ReportError(f"{before_name} and {after_name} are reports of tracks with different "
                          f"corners ({detail}): nothing to compare")
    return [Change(old[key], rate) for key, rate in new.items()
            if key in old and beyond_chance(old[key], rate)]


def changes_json(changes: list[Change]) -> list[dict[str, Any]]:
    """The changes for programs: key, label, and each side's rate, counts and interval."""

    def side(rate: Rate) -> dict[str, Any]:
        low, high = rate.interval
        return {"rate": round(rate.share, 4), "ci": [round(low, 4), round(high, 4)],
                "count": rate.successes, "of": rate.trials}

    return [{"key": c.after.key, "label": c.label, "before": side(c.before),
             "after": side(c.after)} for c in changes]
