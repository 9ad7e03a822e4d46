"""``trackformat testdrive`` as a designer uses it: the report, the JSON file, bad input."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from tests.factories import edit, ring
from trackformat import cli
from trackformat.cli.progress import ProgressBar
from trackformat.io import save_track


@pytest.fixture
def ring_file(tmp_path: Path) -> str:
    path = tmp_path / "ring.json"
    save_track(ring(), path)
    return str(path)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(["testdrive", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_a_test_drive_prints_a_report_and_writes_the_json(
    ring_file: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_file = tmp_path / "out" / "drive.json"
    code, out, err = run(capsys, ring_file, "--races", "3", "--cars", "3",
                         "--bots", "random,cautious", "--seed", "4", "--json", str(out_file))
    assert code == 0, err
    assert "\r" not in err and "test drive [" not in err, "no progress bar off a terminal"
    assert out.startswith(f"Test ring ({ring_file}): 3 races of 3 cars (random, cautious)")
    assert "North" in out and "South" in out and f"wrote {out_file}" in out
    report = json.loads(out_file.read_text(encoding="utf-8"))
    assert report["file"] == ring_file
    assert (report["races"], report["seed"], report["cars"]) == (3, 4, 3)
    assert report["bots"] == ["random", "cautious", "random"]
    assert set(report["winner_share"]) == {"random", "cautious"}
    assert {"per_race", "per_lap", "histogram"} <= set(report["turns"])
    assert [c["name"] for c in report["corners"]] == ["North", "South"]
    assert {"name", "entries", "overshoot_rate", "mean_overshoot", "eliminations", "spins",
            "tyre_wp"} <= set(report["corners"][0])
    assert report["spaces"]["1-0"].keys() == {"stops", "overshoots", "eliminations", "pit_stops"}
    assert report["pit_stops"] == sum(s["pit_stops"] for s in report["spaces"].values())
    assert report["pit_stops_per_car"] == round(report["pit_stops"] / 9, 4)
    assert f"  pit stops       {report['pit_stops']} (" in out
    assert report["finished"] + sum(report["dnf"].values()) == 9
    assert report["notes"] == [] and "note" not in out, "the ring's teams have boxes"


def test_the_same_arguments_give_the_same_json_with_more_workers(
    ring_file: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    texts = []
    for workers in ("1", "2"):
        out_file = tmp_path / f"w{workers}.json"
        code, _, err = run(capsys, ring_file, "--races", "6", "--cars", "2", "--bot", "random",
                           "--laps", "1", "--workers", workers, "--json", str(out_file))
        assert code == 0, err
        texts.append(out_file.read_text(encoding="utf-8"))
    assert texts[0] == texts[1]
    assert json.loads(texts[0])["laps"] == 1


def test_json_to_stdout_prints_only_the_json(
    ring_file: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, ring_file, "--races", "1", "--cars", "2", "--bot", "random",
                       "--json", "-")
    assert code == 0
    assert json.loads(out)["races"] == 1


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["missing.json"], "missing.json: no such file"),
        (["{ring}", "--bot", "fast"], "unknown bot 'fast' (bots: "),
        (["{ring}", "--bots", "random,"], "a bot name is missing"),
        (["{ring}", "--ruleset", "no-such-preset"], "no preset of that name"),
        (["{ring}", "--ruleset", "{bad_rules}"], "bad_rules.json: /name: required field"),
        (["{ring}", "--cars", "11"], "the track has 10 grid slots on the circuit"),
        (["{ring}", "--json", "{folder}"], "is a folder"),
        (["{not_json}"], "line 1, column 1: not valid JSON"),
        (["{ring}", "--races", "0"], "--races: 0 is less than 1"),
        (["{ring}", "--cars", "many"], "--cars: 'many' is not a whole number"),
    ],
)
def test_bad_input_exits_2_with_a_message(
    ring_file: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    argv: list[str], message: str,
) -> None:
    bad_rules = tmp_path / "bad_rules.json"
    bad_rules.write_text("{}", encoding="utf-8")
    not_json = tmp_path / "notes.json"
    not_json.write_text("laps: 2\n", encoding="utf-8")
    names = {"ring": ring_file, "bad_rules": str(bad_rules), "folder": str(tmp_path),
             "not_json": str(not_json)}
    code, out, err = run(capsys, *(arg.format(**names) for arg in argv), "--races", "1")
    assert code == 2
    assert message in err
    assert "Traceback" not in err and out == ""


def test_the_progress_bar_draws_on_a_terminal_only() -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    terminal, pipe = Terminal(), io.StringIO()
    for stream in (terminal, pipe):
        bar = ProgressBar(stream)
        bar(5, 20)
        bar.clear()
    assert "\rtest drive [#######-----------------------] 5/20 races" in terminal.getvalue()
    assert pipe.getvalue() == ""


def _dead_end(document: dict[str, Any]) -> None:
    """Every link out of 2-20 removed: a car that drives onto it can go no further."""
    document["links"] = [link for link in document["links"] if link["from"] != "2-20"]


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda d: d.update(finish_line=None), "LAP004"),
        (_dead_end, "REACH003"),
    ],
)
def test_an_unraceable_track_is_refused_before_racing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], change: Any, reason: str
) -> None:
    path = tmp_path / "broken.json"
    save_track(edit(ring(), change), path)
    report = tmp_path / "drive.json"
    code, out, err = run(capsys, str(path), "--races", "2", "--json", str(report))
    assert code == 2
    assert f"{path}: cannot test drive: the validator finds the track unraceable" in err
    assert reason in err
    assert out == "" and not report.exists()


def test_other_validation_errors_still_let_cars_race(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A printed corner number that does not match is an error, but cars race all the same."""
    path = tmp_path / "misprinted.json"
    save_track(edit(ring(), lambda d: d["corners"][0].update(printed_long=99)), path)
    code, out, err = run(capsys, str(path), "--races", "1", "--cars", "2", "--laps", "1")
    assert code == 0, err
    assert "1 races of 2 cars" in out


def test_an_unwritable_json_path_is_found_before_racing(
    ring_file: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "notes.txt"
    blocker.write_text("a file, not a folder", encoding="utf-8")
    target = blocker / "drive.json"
    code, out, err = run(capsys, ring_file, "--races", "2", "--json", str(target))
    assert code == 2
    assert f"{target}: cannot be written" in err
    assert out == "", "no race was run"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt", "ring.json"]


@pytest.mark.usefixtures("compiled_kernel")  # else the reference engine races while it compiles
def test_both_engines_write_the_same_report(
    ring_file: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    texts = []
    for engine in ("kernel", "reference"):
        out_file = tmp_path / f"{engine}.json"
        code, out, err = run(capsys, ring_file, "--races", "5", "--cars", "4", "--bots",
                             "random,cautious", "--engine", engine, "--json", str(out_file))
        assert code == 0, err
        assert f"{engine} engine)" in out
        texts.append(out_file.read_text(encoding="utf-8"))
    assert texts[0] == texts[1]
    code, _, err = run(capsys, ring_file, "--engine", "fast")
    assert code == 2 and "--engine: invalid choice: 'fast'" in err


@pytest.mark.usefixtures("compiled_kernel")  # the kernel takes over from a stand-in compile
def test_a_cold_kernel_does_not_hold_up_the_test_drive(
    ring_file: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import sys

    from trackformat.sim.batch import engines

    arguments = ("--races", "30", "--cars", "3", "--bots", "strong,cautious", "--seed", "2")
    code, _, err = run(capsys, ring_file, *arguments, "--engine", "reference", "--json",
                       str(tmp_path / "reference.json"))
    assert code == 0, err
    # Cold, on two cores: a stand-in for the compile, done once it has read its spec (waited
    # for, so that the kernel takes over at the first chunk whatever the machine's speed).
    monkeypatch.setattr(engines, "kernel_is_cached", lambda spec: False)
    monkeypatch.setattr(engines, "cores", lambda: 2)
    monkeypatch.setattr(engines, "_compiling", {})
    monkeypatch.setattr(engines, "compile_command",
                        lambda: [sys.executable, "-c", "import sys; sys.stdin.read()"])
    started = engines.BackgroundCompile.__init__

    def start_and_finish(self: engines.BackgroundCompile, spec: Any) -> None:
        started(self, spec)
        self.process.wait(timeout=30)

    monkeypatch.setattr(engines.BackgroundCompile, "__init__", start_and_finish)
    code, _, err = run(capsys, ring_file, *arguments, "--json", str(tmp_path / "cold.json"))
    assert code == 0, err
    lines = err.splitlines()
    assert lines[0].startswith("trackformat: compiling the race kernel in a process of its own")
    assert lines[1].startswith("trackformat: race kernel compiled in ")
    assert lines[1].endswith("it races on after 0 races on the reference engine")
    cold = json.loads((tmp_path / "cold.json").read_text(encoding="utf-8"))
    reference = json.loads((tmp_path / "reference.json").read_text(encoding="utf-8"))
    assert cold == reference


def test_a_test_drive_done_before_the_compile_says_the_kernel_is_still_compiling(
    ring_file: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import sys

    from trackformat.sim.batch import engines

    monkeypatch.setattr(engines, "kernel_is_cached", lambda spec: False)
    monkeypatch.setattr(engines, "cores", lambda: 2)
    monkeypatch.setattr(engines, "_compiling", {})
    monkeypatch.setattr(engines, "compile_command", lambda: [
        sys.executable, "-c", "import sys, time; sys.stdin.read(); time.sleep(60)"])
    try:
        code, out, err = run(capsys, ring_file, "--races", "2", "--cars", "2")
    finally:
        compiling = next(iter(engines._compiling.values()), None)
        assert compiling is not None
        compiling.process.kill()
        compiling.process.wait()
    assert code == 0, err
    assert err.splitlines()[-1] == ("trackformat: the race kernel is still compiling, in a "
                                    "process of its own: the next test drive will race on it")
    assert "kernel engine, 2 on the reference engine while the kernel compiled)" in out


def test_a_house_ruleset_beyond_the_kernel_races_on_the_reference_engine(
    ring_file: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    from tests.sim.test_kernel_limits import house_rules, long_sixth_gear

    rules = tmp_path / "long-sixth.json"
    rules.write_text(json.dumps(house_rules(long_sixth_gear).model_dump(mode="json",
                                                                        by_alias=True)))
    outputs = {}
    for engine in ("kernel", "reference"):
        out_file = tmp_path / f"{engine}.json"
        code, out, err = run(capsys, ring_file, "--ruleset", str(rules), "--races", "3",
                             "--cars", "3", "--engine", engine, "--json", str(out_file))
        assert code == 0, err
        assert "Traceback" not in err
        outputs[engine] = json.loads(out_file.read_text())
        assert out.splitlines()[-2].endswith("1 worker, reference engine)"), out
        if engine == "kernel":
            assert err.splitlines() == [
                "trackformat: the compiled engine keeps moves of at most 48 spaces, and this "
                "ruleset's moves reach 75 (a die face of 72 and 3 slipstream spaces): the "
                "reference engine races instead (the same races, slower)"]
    assert outputs["kernel"] == outputs["reference"]


def test_a_track_space_in_no_lane_is_refused_with_its_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.factories import edit

    def unlaned(document: Any) -> None:
        for space in document["spaces"]:
            if space["id"] in ("2-18", "1-3"):
                space["lane"] = None

    path = tmp_path / "unlaned.json"
    save_track(edit(ring(), unlaned), path)
    for bot in ("strong", "random"):
        code, _out, err = run(capsys, str(path), "--races", "2", "--cars", "3", "--bot", bot)
        assert code == 2
        assert err == (f"{path}: cannot test drive: track spaces 1-3, 2-18 are in no lane, and "
                       "cars can move onto them: lane changes, slipstreams and contacts are all "
                       "read by lane, so every track space needs one (see REF003)\n")
