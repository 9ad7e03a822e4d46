"""The test-drive panel's report on its own: the corner table's cells and tints, and the
summary's HTML."""

from __future__ import annotations

from editor.panels import testdrive_report as drive_panel_report


def test_a_rate_that_fell_is_tinted_green(qtbot) -> None:  # type: ignore[no-untyped-def]
    table = drive_panel_report.CornerTable()
    qtbot.addWidget(table)

    def report(overshoots: int) -> dict:  # type: ignore[type-arg]
        corner = {"id": "c", "name": "Casino", "stops": 1, "entries": 200,
                  "overshoots": overshoots, "overshoot_rate": overshoots / 200,
                  "mean_overshoot": 1.0, "eliminations": 0, "spins": 0, "tyre_wp": 0}
        return {"races": 50, "cars": 4, "finished": 200, "no_winner": 0.0, "by_bot": {},
                "corners": [corner]}

    changes = table.show_report(report(25), pinned=report(62))
    assert [c.text() for c in changes] == ["Casino overshoots 31.0% -> 12.5%"]
    assert table.cell(0, 3).background().color() == drive_panel_report.FELL
    assert table.cell(0, 3).text() == "12.5%", "a report without intervals shows the rate"
    assert table.cell(0, 8).text() == "overshoots 31.0% -> 12.5%"


def test_two_corners_of_one_name_show_their_ids(qtbot) -> None:  # type: ignore[no-untyped-def]
    table = drive_panel_report.CornerTable()
    qtbot.addWidget(table)
    corners = [{"id": corner_id, "name": "Casino", "stops": 1, "entries": 200, "overshoots": 2,
                "overshoot_rate": 0.01, "mean_overshoot": 1.0, "eliminations": 0, "spins": 0,
                "tyre_wp": 0} for corner_id in ("massenet", "casino")]
    corners.append({**corners[0], "id": "mirabeau", "name": "Mirabeau"})
    table.show_report({"races": 50, "cars": 4, "finished": 200, "no_winner": 0.0,
                       "by_bot": {}, "corners": corners})
    assert [table.cell(row, 0).text() for row in range(3)] == [
        "Casino (massenet)", "Casino (casino)", "Mirabeau"]


def test_report_html_escapes_names() -> None:
    report = {
        "track": "<b>",
        "races": 1,
        "cars": 1,
        "laps": 1,
        "ruleset": "r",
        "turns": {"per_race": {"mean": 1, "median": 1, "p90": 1}},
        "finish_rate": 1.0,
        "dnf": {},
        "winner_share": {"random": 1.0},
        "corners": [],
    }
    assert "&lt;b&gt;" in drive_panel_report.report_html(report)
    assert "Note" not in drive_panel_report.report_html(report), "an older report has no notes"
    report["notes"] = ["no pit stops: <none>"]
    assert "<p>Note: no pit stops: &lt;none&gt;.</p>" in drive_panel_report.report_html(report)
