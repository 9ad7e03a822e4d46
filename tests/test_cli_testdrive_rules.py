"""``trackformat testdrive`` and the rules around the pit lane and the optional rules: pit
stops at boxes and garages, a pit lane with nowhere to stop, builds given to the cars and the
team race's repairs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.factories import edit, ring
from tests.test_cli_testdrive import run
from trackformat.io import save_track

SHORT = "tyres=2,brakes=7,gearbox=3,body=3,engine=3,suspension=2"
"""A build short of tyres (and long of brakes): its cars stop at the pits."""


@pytest.fixture
def ring_file(tmp_path: Path) -> str:
    path = tmp_path / "ring.json"
    save_track(ring(), path)
    return str(path)


def _teams_in_line(document: dict[str, Any]) -> None:
    """The ring's pit lane as GP Online draws one: no boxes beside it, two of its own spaces
    the teams' garages."""
    pit = document["pit_lane"]
    boxes = set(pit["boxes"])
    document["spaces"] = [s for s in document["spaces"] if s["id"] not in boxes]
    document["links"] = [link for link in document["links"]
                         if link["from"] not in boxes and link["to"] not in boxes]
    pit["boxes"], pit["garages"] = [], pit["spaces"][1:3]


def _nowhere_to_stop(document: dict[str, Any]) -> None:
    """The ring's pit lane with neither boxes nor garages."""
    _teams_in_line(document)
    document["pit_lane"]["garages"] = []


def test_cars_stop_at_garages_in_line_as_at_boxes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "in-line.json"
    save_track(edit(ring(), _teams_in_line), path)
    out_file = tmp_path / "drive.json"
    code, out, err = run(capsys, str(path), "--races", "6", "--cars", "4", "--bot", "cautious",
                         "--laps", "2", "--engine", "reference", "--json", str(out_file))
    assert code == 0, err
    report = json.loads(out_file.read_text(encoding="utf-8"))
    garages = {s: c["pit_stops"] for s, c in report["spaces"].items() if c["pit_stops"]}
    assert report["pit_stops"] > 0 and set(garages) <= {"pit-1", "pit-2"}, garages
    assert report["notes"] == [] and "note" not in out


def test_a_pit_lane_with_nowhere_to_stop_is_said_to_see_no_pit_stop(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "nowhere.json"
    save_track(edit(ring(), _nowhere_to_stop), path)
    out_file = tmp_path / "drive.json"
    code, out, err = run(capsys, str(path), "--races", "2", "--cars", "2", "--bot", "random",
                         "--engine", "reference", "--json", str(out_file))
    assert code == 0, err
    note = ("no pit stops: the pit lane has neither team boxes beside it nor garages in it, and "
            "a car turns into the pit lane only to stop at its team's place")
    assert f"  note            {note}\n" in out
    report = json.loads(out_file.read_text(encoding="utf-8"))
    assert report["notes"] == [note] and report["pit_stops"] == 0


@pytest.mark.usefixtures("compiled_kernel")  # else the reference engine races while it compiles
def test_builds_are_given_to_the_cars_in_turn_and_reported_by_build(
    ring_file: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    texts = []
    for engine, workers in (("reference", "1"), ("kernel", "2")):
        out_file = tmp_path / f"{engine}.json"
        code, out, err = run(capsys, ring_file, "--races", "4", "--cars", "4", "--laps", "2",
                             "--bots", "cautious,random", "--builds",
                             "brakes=7, tyres=2,gearbox=3,body=3,engine=3,suspension=2;standard",
                             "--team-race", "--engine", engine, "--workers", workers,
                             "--json", str(out_file))
        assert code == 0, err
        texts.append(out_file.read_text(encoding="utf-8"))
    assert texts[0] == texts[1], "the same races on both engines, in workers too"
    report = json.loads(texts[0])
    assert report["builds"] == [SHORT, "standard", SHORT, "standard"]
    by_build = report["by_build"]
    assert list(by_build) == [SHORT, "standard"]
    assert by_build[SHORT]["wear"] == {"tyres": 2, "brakes": 7, "gearbox": 3, "body": 3,
                                       "engine": 3, "suspension": 2}
    assert by_build["standard"]["wear"]["tyres"] == 6
    assert [row["cars"] for row in by_build.values()] == [8, 8]
    assert sum(row["finished"] for row in by_build.values()) == report["finished"]
    assert sum(row["wins"] for row in by_build.values()) + round(
        report["no_winner"] * 4) == 4
    for row in by_build.values():
        assert row["finish_rate"] == round(row["finished"] / 8, 4)
        assert row["finish_rate_ci"][0] <= row["finish_rate"] <= row["finish_rate_ci"][1]
    assert report["team_repairs"] == 4
    assert "formula-d with team repairs (4 WP a team), 2 laps" in out
    for label, row in by_build.items():
        assert (f"  build           {label}: {row['finished']} of 8 cars finished ("
                in out), out


def test_no_builds_no_build_lines(ring_file: str, tmp_path: Path,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    out_file = tmp_path / "plain.json"
    code, out, err = run(capsys, ring_file, "--races", "1", "--cars", "2", "--bot", "random",
                         "--engine", "reference", "--json", str(out_file))
    assert code == 0, err
    report = json.loads(out_file.read_text(encoding="utf-8"))
    assert not {"builds", "by_build", "team_repairs"} & set(report)
    assert "  build " not in out and "team repairs" not in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--builds", "tyres=15,brakes=1,gearbox=1,body=1,engine=1,suspension=1"],
         "trackformat testdrive: car 1's build gives tyres 15: tyres take 1 to 14\n"),
        (["--builds", "standard;tyres=6,brakes=3,gearbox=3,body=3,engine=2,suspension=2"],
         "trackformat testdrive: car 2's build totals 19 WP, not 20\n"),
        (["--builds", "standard;tyre=6"], "car 2's build: unknown category 'tyre'"),
        (["--builds", "late-braker"], "car 1's build: no build named 'late-braker'"),
        (["--builds", ""], "a build is missing"),
        (["--builds", SHORT, "--ruleset", "formule-de-basic"],
         "car 1's build: the formule-de-basic rules have no building your car"),
        (["--team-race", "--cars", "3"],
         "cannot test drive: the team race's repairs are shared by teams of two cars: 3 cars "
         "do not make teams of two"),
        (["--team-race", "--ruleset", "formule-de-basic"],
         "the formule-de-basic rules have no team race"),
    ],
)
def test_a_bad_build_or_team_race_exits_2_saying_what_is_wrong(
    ring_file: str, capsys: pytest.CaptureFixture[str], argv: list[str], message: str,
) -> None:
    code, out, err = run(capsys, ring_file, "--races", "1", "--cars", "2",
                         "--engine", "reference", *argv)
    assert code == 2
    assert message in err, err
    assert "Traceback" not in err and out == ""


def test_a_ruleset_file_names_the_builds_a_test_drive_gives(
    ring_file: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from trackformat.rules import load_ruleset

    document = load_ruleset("formula-d").model_dump(mode="json")
    document["builds"] = {"late-braker": {"tyres": 4, "brakes": 7, "gearbox": 3, "body": 2,
                                          "engine": 2, "suspension": 2}}
    rules = tmp_path / "house.json"
    rules.write_text(json.dumps(document), encoding="utf-8")
    out_file = tmp_path / "named.json"
    code, out, err = run(capsys, ring_file, "--ruleset", str(rules), "--races", "2",
                         "--cars", "2", "--bot", "cautious", "--builds", "late-braker;standard",
                         "--engine", "reference", "--json", str(out_file))
    assert code == 0, err
    report = json.loads(out_file.read_text(encoding="utf-8"))
    assert report["builds"] == ["late-braker", "standard"]
    assert report["by_build"]["late-braker"]["wear"]["brakes"] == 7
    assert "  build           late-braker: " in out
