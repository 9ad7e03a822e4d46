"""The text report of a test drive: the JSON report's figures as a few lines for people, and
its corners as a table in lap order (docs/testdrive.md, "Reading the text report")."""

from __future__ import annotations

from typing import Any

from trackformat.sim.batch.compare import corner_labels, percent, with_interval


def _rate(share: float, interval: list[float] | None) -> str:
    """A rate with its 95% interval when the report has one: ``12.5% (9.1-16.9)``."""
    return percent(share) if interval is None else with_interval(share, interval)


def _figure(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else f"{value:.1f}"
    return str(value)


def report_text(report: dict[str, Any], source: str) -> str:
    """The report as a few lines and a table of corners, in lap order."""
    turns, per_lap = report["turns"]["per_race"], report["turns"]["per_lap"]
    cars_total = report["races"] * report["cars"]
    lineup = ", ".join(dict.fromkeys(report["bots"]))
    repairs = (f" with team repairs ({report['team_repairs']} WP a team)"
               if report.get("team_repairs") else "")
    out = ", ".join(f"{cause} {n}" for cause, n in report["dnf"].items()) or "none"
    win_cis = report.get("winner_share_ci", {})
    wins = ", ".join(f"{bot} {_rate(share, win_cis.get(bot))}"
                     for bot, share in report["winner_share"].items())
    if report["no_winner"]:
        wins += (f" (no winner in {_rate(report['no_winner'], report.get('no_winner_ci'))}"
                 " of races)")
    rows = [
        ("turns per race", f"mean {_figure(turns['mean'])}, median {_figure(turns['median'])}, "
                           f"p90 {_figure(turns['p90'])} (min {_figure(turns['min'])}, "
                           f"max {_figure(turns['max'])})"),
        ("turns per lap", f"mean {_figure(per_lap['mean'])}, median {_figure(per_lap['median'])}, "
                          f"p90 {_figure(per_lap['p90'])}"),
        ("finished", f"{report['finished']} of {cars_total} cars "
                     f"({_rate(report['finish_rate'], report.get('finish_rate_ci'))})"),
        ("out", out),
        ("wins", wins),
    ]
    if "pit_stops" in report:  # reports written before pit stops were counted have none
        rows.insert(3, ("pit stops", f"{report['pit_stops']} "
                                     f"({report['pit_stops_per_car']:.2f} per car)"))
    by_build = report.get("by_build", {})
    rows += [("build", f"{label}: {row['finished']} of {row['cars']} cars finished "
                       f"({_rate(row['finish_rate'], row.get('finish_rate_ci'))}), wins "
                       f"{_rate(row['winner_share'], row.get('winner_share_ci'))}")
             for label, row in by_build.items()]
    if report["completed"] < report["races"]:
        rows.append(("turn limit", f"{report['races'] - report['completed']} races stopped "
                                   "before every car was through"))
    rows += [("note", note) for note in report.get("notes", [])]
    lines = [
        f"{report['track']} ({source}): {report['races']} races of {report['cars']} cars "
        f"({lineup}), {report['ruleset']}{repairs}, {report['laps']} laps, "
        f"seed {report['seed']}",
        *(f"  {key:<16}{value}" for key, value in rows),
    ]
    header = ("corner", "stops", "entries", "overshoot", "mean", "out", "spins", "tyres WP")
    table = [header] + [
        (label, str(c["stops"]), str(c["entries"]),
         _rate(c["overshoot_rate"], c.get("overshoot_rate_ci")),
         _figure(c["mean_overshoot"]), str(c["eliminations"]), str(c["spins"]),
         str(c["tyre_wp"]))
        for c, label in zip(report["corners"], corner_labels(report["corners"]), strict=True)
    ]
    if len(table) > 1:
        widths = [max(len(row[i]) for row in table) for i in range(len(header))]
        lines.append("")
        for row in table:
            cells = [row[0].ljust(widths[0])] + [
                cell.rjust(width) for cell, width in zip(row[1:], widths[1:], strict=True)
            ]
            lines.append("  " + "  ".join(cells))
    return "\n".join(lines)
