"""Race logs (JSON lines) replay exactly; the team race's points are counted in test drives."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from tests.factories import edit, ring
from trackformat.cli import main
from trackformat.io import save_track
from trackformat.rules import load_ruleset
from trackformat.sim.batch.racelog import RaceLogError, race, read_setup, replay, write_log
from trackformat.sim.batch.report import batch_report
from trackformat.sim.batch.stats import DriveStats
from trackformat.sim.batch.testdrive import DriveSpec, prepare, run_batch


def test_a_logged_race_replays_event_for_event(tmp_path: Path) -> None:
    track = ring(lanes=2, per_lane=24)
    setup, result = race(track, load_ruleset("formula-d"), ["cautious", "random", "strong"], 11)
    log = tmp_path / "race.jsonl"
    write_log(log, setup, result)
    lines = log.read_text().splitlines()
    assert len(lines) == len(result.events) + 1
    assert json.loads(lines[1])["event"] == type(result.events[0]).__name__
    check = replay(log, track)
    assert check.same and check.events == len(result.events)


def test_a_tampered_log_names_the_first_line_that_differs(tmp_path: Path) -> None:
    track = ring(lanes=2, per_lane=24)
    log = tmp_path / "race.jsonl"
    write_log(log, *race(track, load_ruleset("formula-d"), ["cautious"] * 3, 4))
    lines = log.read_text().splitlines()
    moved = next(i for i, line in enumerate(lines) if '"event": "Moved"' in line)
    lines[moved] = lines[moved].replace('"roll": ', '"roll": 1', 1)
    log.write_text("\n".join(lines) + "\n")
    check = replay(log, track)
    assert not check.same and check.difference is not None
    assert check.difference[0] == moved + 1


def test_a_log_replays_only_on_its_own_track(tmp_path: Path) -> None:
    track = ring(lanes=2, per_lane=24)
    log = tmp_path / "race.jsonl"
    write_log(log, *race(track, load_ruleset("formula-d"), ["random"] * 2, 1))
    other = edit(track, lambda doc: doc["metadata"].update(name="Renamed"))
    with pytest.raises(RaceLogError, match="another version of the track"):
        replay(log, other)
    (tmp_path / "bad.jsonl").write_text('{"kind": "something else"}\n')
    with pytest.raises(RaceLogError, match="line 1: not a race log"):
        read_setup(tmp_path / "bad.jsonl")


def test_race_and_replay_commands(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    track_file = tmp_path / "ring.json"
    save_track(ring(lanes=2, per_lane=24), track_file)
    log = tmp_path / "out.jsonl"
    assert (
        main(["race", str(track_file), "--bots", "strong,random", "--cars", "4", "--log", str(log)])
        == 0
    )
    assert "finish order" in capsys.readouterr().out
    assert main(["replay", str(log), str(track_file)]) == 0
    assert "replayed exactly" in capsys.readouterr().out
    assert main(["race", str(track_file), "--bots", "nobody"]) == 2
    assert "unknown bot 'nobody'" in capsys.readouterr().err


def test_a_logged_race_with_builds_and_team_repairs_replays_them(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    track_file = tmp_path / "ring.json"
    save_track(ring(lanes=2, per_lane=24), track_file)
    log = tmp_path / "built.jsonl"
    short = "tyres=2,brakes=7,gearbox=3,body=3,engine=3,suspension=2"
    assert main(["race", str(track_file), "--bots", "cautious", "--cars", "4", "--laps", "3",
                 "--seed", "3", "--team-race", "--builds", f"{short};standard",
                 "--log", str(log)]) == 0
    capsys.readouterr()
    setup, lines = read_setup(log)
    assert setup.ruleset["team_repairs"] == {"points": 4}
    built = {"tyres": 2, "brakes": 7, "gearbox": 3, "body": 3, "engine": 3, "suspension": 2}
    assert setup.builds == (built, None, built, None)
    assert any('"event": "PitStop"' in line for line in lines), "short of tyres, they stop"
    assert main(["replay", str(log), str(track_file)]) == 0
    assert "replayed exactly" in capsys.readouterr().out
    # The builds are part of the race: another build in the header, another race.
    head = json.loads(log.read_text().splitlines()[0])
    head["builds"][0] = {**built, "tyres": 3, "brakes": 6}
    log.write_text("\n".join([json.dumps(head), *lines]) + "\n")
    assert main(["replay", str(log), str(track_file)]) == 1
    # A bad build and an odd team race are refused with a message.
    assert main(["race", str(track_file), "--cars", "2", "--builds", "tyres=15"]) == 2
    assert "car 1's build gives tyres 15: tyres take 1 to 14" in capsys.readouterr().err
    assert main(["race", str(track_file), "--cars", "3", "--team-race"]) == 2
    assert "3 cars do not make teams of two" in capsys.readouterr().err


def test_team_points_follow_the_booklet_scale() -> None:
    rules = load_ruleset("formula-d")
    assert rules.team_points == [10, 8, 6, 5, 4, 3, 2, 1]
    assert load_ruleset("formule-de-basic").team_points == []
    spec = DriveSpec.of(
        ring(lanes=2, per_lane=24), rules, ("strong", "strong", "random", "random"), 3
    )
    context = prepare(spec)
    stats = run_batch(spec, 6, 1, None, context)
    report = batch_report(stats, context)
    teams = report["teams"]
    assert [t["cars"] for t in teams] == [[1, 2], [3, 4]]
    assert sum(t["points"] for t in teams) > 0
    assert teams[0]["points"] > teams[1]["points"], "the strong team outscores the random one"
    assert sum(t["wins"] for t in teams) <= 6


def test_team_points_of_one_race_are_exact() -> None:
    from trackformat.sim import Board, RandomDriver, run_race

    board = Board.of(ring(lanes=2, per_lane=24))
    rules = load_ruleset("formula-d")
    result = run_race(board, rules, [RandomDriver(s) for s in range(4)], 9)
    stats = DriveStats()
    stats.add_race(result, board, ["random"] * 4, rules.team_points)
    expected: Counter[int] = Counter({0: 0, 1: 0})
    for place, car in enumerate(result.finish_order):
        expected[car // 2] += rules.team_points[place]
    assert stats.team_points == expected
