"""``trackformat par``: the JSON document and the text, the cache, and bad input refused with
exit 2 and a message (never a traceback)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from tests.par.rings import short_ring, small_rules
from trackformat.cli import main
from trackformat.io import track_to_document
from trackformat.par import cached_par
from trackformat.par.solve import solve
from trackformat.rules import load_ruleset


@pytest.fixture(autouse=True)
def _own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test keeps its pars in a cache folder of its own."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


def ring_file(tmp_path: Path, change: object = None) -> Path:
    document = track_to_document(short_ring())
    if callable(change):
        change(document)
    path = tmp_path / "ring.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_json_gives_the_par_and_comes_from_the_cache_the_second_time(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = ring_file(tmp_path)
    code, out, err = run(["par", str(path), "--laps", "1", "--json"], capsys)
    assert code == 0
    document = json.loads(out)
    assert document["par"] == pytest.approx(solve(short_ring(), load_ruleset(), 1).par)
    assert document["cached"] is False and "solving par" in err
    assert {"distribution", "segments", "gear_plan", "costs", "solve"} <= set(document)
    code, out, err = run(["par", str(path), "--laps", "1", "--json"], capsys)
    assert code == 0 and json.loads(out)["cached"] is True and err == ""
    assert json.loads(out)["par"] == document["par"]


def test_info_can_show_a_cached_par(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    track = short_ring()
    assert cached_par(track, laps=1) is None
    code, out, _ = run(["par", str(ring_file(tmp_path)), "--laps", "1", "--json"], capsys)
    assert code == 0
    assert cached_par(track, laps=1) == json.loads(out)["par"]
    assert cached_par(track, laps=2) is None  # another race length is another par


def test_info_shows_par_once_solved(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = ring_file(tmp_path)
    code, out, _ = run(["info", str(path)], capsys)
    assert code == 0 and "not solved yet (trackformat par TRACK solves it)" in out
    code, out, _ = run(["par", str(path), "--json"], capsys)
    solved = json.loads(out)["par"]
    code, out, _ = run(["info", str(path)], capsys)
    laps = short_ring().metadata.laps
    assert code == 0 and f"par           {solved:.2f} turns ({laps} laps, formula-d)" in out
    code, out, _ = run(["info", str(path), "--json"], capsys)
    assert json.loads(out)["par"] == solved and json.loads(out)["par_status"] == "solved"


def test_the_text_says_the_par_where_the_turns_go_and_what_it_costs(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["par", str(ring_file(tmp_path)), "--laps", "1"], capsys)
    assert code == 0
    assert "par " in out and "turns for 1 lap under formula-d" in out
    for heading in ("Chance of finishing within", "Where the turns go", "Gear plan",
                    "Costs along the optimal line"):
        assert heading in out
    assert "corner Three (3 stops)" in out


@pytest.mark.parametrize("laps", ["0", "21", "two", "-1", "1.5"])
def test_laps_out_of_range_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                  laps: str) -> None:
    code, out, err = run(["par", str(ring_file(tmp_path)), f"--laps={laps}"], capsys)
    assert code == 2 and out == ""
    assert "1 to 20" in err and "Traceback" not in err


def test_an_unknown_ruleset_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["par", str(ring_file(tmp_path)), "--ruleset", "no-such-rules"], capsys)
    assert code == 2 and "no-such-rules" in err and "Traceback" not in err


def test_a_track_no_race_can_start_on_exits_2(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    def no_grid(document: dict[str, object]) -> None:
        document["grid"] = []

    code, _, err = run(["par", str(ring_file(tmp_path, no_grid))], capsys)
    assert code == 2 and "grid" in err and "Traceback" not in err


def test_an_unreadable_track_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["par", str(tmp_path / "missing.json")], capsys)
    assert code == 2 and "missing.json" in err
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    code, _, err = run(["par", str(broken)], capsys)
    assert code == 2 and "broken.json" in err


def test_rules_par_does_not_model_are_refused(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    document = load_ruleset().model_dump(mode="json")
    document["movement"]["brakes_per_space"] = 0
    rules = tmp_path / "free-brakes.json"
    rules.write_text(json.dumps(document), encoding="utf-8")
    code, _, err = run(["par", str(ring_file(tmp_path)), "--ruleset", str(rules)], capsys)
    assert code == 2 and "brakes_per_space" in err


def test_the_track_file_is_not_written(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    path = ring_file(tmp_path)
    before = path.read_bytes()
    run(["par", str(path), "--laps", "1"], capsys)
    assert path.read_bytes() == before


def test_a_track_no_policy_finishes_safely_has_no_par(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tight = short_ring(per_lane=16, corners=(("one", 3, 2, 1), ("two", 7, 3, 2),
                                             ("three", 12, 3, 3)))
    path = tmp_path / "tight.json"
    path.write_text(json.dumps(track_to_document(tight)), encoding="utf-8")
    rules = tmp_path / "small.json"
    rules.write_text(small_rules().model_dump_json(), encoding="utf-8")
    code, out, _ = run(["par", str(path), "--laps", "1", "--ruleset", str(rules), "--json"],
                       capsys)
    assert code == 0 and json.loads(out)["par"] is None  # null: JSON has no infinity
    code, out, _ = run(["par", str(path), "--laps", "1", "--ruleset", str(rules)], capsys)
    assert code == 0 and "no par" in out and "risks elimination" in out
    assert cached_par(tight, small_rules(), 1) == math.inf
