"""The par driver (``testdrive --bot par``, ``race --bots par``): named wherever drivers are,
par's own policy when alone, and never a move that puts it out while another way on exists.

Small rings only (tests/par/rings.py): par solves them in about a second."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest

from tests.par.rings import short_ring
from tests.par.test_brute_force import formula_d_with_few_wp
from tests.par.test_simulation import ParDriver as PolicyDriver
from trackformat.cli import main
from trackformat.io import track_from_document, track_to_document
from trackformat.model.track import Track
from trackformat.par.driver import solution_for
from trackformat.par.solve import solve
from trackformat.rules import load_ruleset
from trackformat.sim import (
    DRIVERS,
    Board,
    Driver,
    GearOption,
    Move,
    RaceState,
    RandomDriver,
    run_race,
)


def ring_file(tmp_path: Path, track: Track | None = None) -> Path:
    path = tmp_path / "ring.json"
    path.write_text(json.dumps(track_to_document(track or short_ring())), encoding="utf-8")
    return path


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_testdrive_races_par_drivers_on_the_compiled_engine_and_says_it_solves_first(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["testdrive", str(ring_file(tmp_path)), "--bot", "par", "--races",
                          "6", "--cars", "2"], capsys)
    assert code == 0, err
    assert "6 races of 2 cars (par)" in out
    assert "wins            par 100.0%" in out
    assert "kernel engine" in out.splitlines()[-1]
    assert "par drivers solve par before their first race" in err
    assert "Traceback" not in err


def test_testdrive_json_counts_the_par_drivers_wins(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["testdrive", str(ring_file(tmp_path)), "--bots", "par,random",
                          "--races", "4", "--cars", "2", "--json", "-"], capsys)
    assert code == 0, err
    report = json.loads(out)
    assert report["races"] == 4 and report["bots"] == ["par", "random"]
    by_bot = report["by_bot"]
    assert by_bot["par"]["cars"] == 4 and by_bot["random"]["cars"] == 4
    wins = by_bot["par"]["wins"] + by_bot["random"]["wins"]
    assert wins == round(4 * (1 - report["no_winner"]))


def test_both_engines_give_the_same_test_drive_of_par_drivers(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    reports = []
    for engine in ("kernel", "reference"):
        code, out, err = run(["testdrive", str(ring_file(tmp_path)), "--bots", "par,strong",
                              "--races", "12", "--cars", "2", "--laps", "2", "--engine", engine,
                              "--json", "-"], capsys)
        assert code == 0, err
        reports.append(json.loads(out))
    assert reports[0] == reports[1]
    assert reports[0]["by_bot"]["par"]["cars"] == 12 and reports[0]["pit_stops"] > 0


def test_rules_par_cannot_solve_are_refused_before_any_race(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = str(ring_file(tmp_path))
    code, out, err = run(["testdrive", path, "--bot", "par", "--races", "2", "--cars", "2",
                          "--team-race"], capsys)
    assert code == 2 and out == ""
    assert "cannot test drive par drivers" in err and "team race" in err
    code, out, err = run(["race", path, "--bots", "par", "--cars", "2", "--team-race"], capsys)
    assert code == 2 and out == ""
    assert "team race" in err and "Traceback" not in err


def test_race_names_the_par_driver_and_its_log_replays_exactly(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, log = str(ring_file(tmp_path)), str(tmp_path / "race.jsonl")
    code, out, err = run(["race", path, "--bots", "par,strong", "--cars", "2", "--seed", "3",
                          "--log", log], capsys)
    assert code == 0, err
    first = out.splitlines()[0]
    assert first.startswith("Short ring: ") and " turns; finish order: " in first
    assert "(par)" in first and "(strong)" in first
    code, out, _ = run(["replay", log, path], capsys)
    assert code == 0 and "replayed exactly" in out


def test_alone_it_races_as_par_s_policy_race_for_race() -> None:
    """The registered driver alone and the policy of test_simulation.py (par's gear, the move
    of least expected value) give the same races, event for event."""
    track, rules, laps = short_ring(), formula_d_with_few_wp(), 2
    board = Board.of(track)
    policy = PolicyDriver(solve(track, rules, laps))
    for seed in range(150):
        alone = run_race(board, rules, [DRIVERS["par"](seed)], seed=seed, laps=laps)
        assert alone.events == run_race(board, rules, [policy], seed=seed, laps=laps).events


def test_one_solve_serves_every_copy_of_a_track() -> None:
    rules = formula_d_with_few_wp()
    first = solution_for(short_ring(), rules, 1, None)
    assert solution_for(short_ring(), rules, 1, None) is first
    assert solution_for(short_ring(), rules, 2, None) is not first


def four_car_ring() -> Track:
    """The short ring with a straight behind the line long enough for a grid of four."""
    document = track_to_document(short_ring(per_lane=26))
    document["grid"] = ["1-25", "2-24", "1-23", "2-22"]
    return track_from_document(document, "four-car ring")


class Reckless(RandomDriver):
    """Any gear and any move that does not put the car out at once, at random: cars that run
    out of tyres and brakes in traffic, where some ways on put a car out and some do not. At
    each such choice the par driver is asked what it would do in the car's place."""

    def __init__(self, seed: int, par: Driver, asked: list[bool]) -> None:
        super().__init__(seed)
        self.par = par
        self.asked = asked
        """Each time the par driver was asked: whether it chose a way out of the race."""

    def choose_gear(self, state: RaceState, car: int,
                    options: Sequence[GearOption]) -> GearOption:
        if any(o.eliminates for o in options) and not all(o.eliminates for o in options):
            self.asked.append(self.par.choose_gear(state, car, options).eliminates)
        return self.rng.choice([o for o in options if not o.eliminates] or list(options))

    def choose_move(self, state: RaceState, car: int, roll: int,
                    moves: Sequence[Move]) -> Move:
        if state.cars[car].gear and any(m.eliminated for m in moves) and not all(
                m.eliminated for m in moves):
            chosen = self.par.choose_move(state, car, roll, moves)
            self.asked.append(chosen.eliminated is not None)
        return self.rng.choice([m for m in moves if m.eliminated is None] or list(moves))


def test_in_traffic_it_never_takes_a_way_out_of_the_race_when_another_exists() -> None:
    board, rules = Board.of(four_car_ring()), load_ruleset("formula-d")
    par = DRIVERS["par"](0)
    asked: list[bool] = []
    for seed in range(60):
        run_race(board, rules, [Reckless(seed, par, asked) for _ in range(4)], seed=seed,
                 laps=2)
    assert len(asked) >= 10  # the races did put cars there
    assert not any(asked)
