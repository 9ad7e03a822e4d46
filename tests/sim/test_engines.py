"""A test drive on a cold kernel: it races on the reference engine while the kernel compiles in
a process of its own, then on the kernel, and the report is the kernel's own.

The compile itself is stood in for by a small process that ends when the test says so: a real
compile takes a minute, and the kernel's compile is tested elsewhere; what is tested here is
what the batch does around it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from dataclasses import asdict, replace
from pathlib import Path

import pytest

from tests.factories import ring
from trackformat.io import load_track
from trackformat.io.jsonio import dumps_document
from trackformat.rules import load_ruleset
from trackformat.sim.batch import engines
from trackformat.sim.batch.report import batch_report
from trackformat.sim.batch.testdrive import DriveContext, DriveSpec, Progress, prepare, run_batch

BOTS = ("cautious", "random", "strong")
RACES = 40


def spec() -> DriveSpec:
    return DriveSpec.of(ring(), load_ruleset("formula-d"), BOTS, seed=11, engine="kernel")


def report_of(cold: str, lines: list[str],
              progress: Progress | None = None) -> tuple[str, DriveContext]:
    context = prepare(spec(), cold=cold, say=lines.append)
    stats = run_batch(context.spec, RACES, progress=progress, context=context)
    return dumps_document(batch_report(stats, context)), context


@pytest.fixture
def cold(monkeypatch: pytest.MonkeyPatch) -> None:
    """A kernel not in the cache, on a machine of two cores, no compile running yet."""
    monkeypatch.setattr(engines, "kernel_is_cached", lambda spec: False)
    monkeypatch.setattr(engines, "cores", lambda: 2)
    monkeypatch.setattr(engines, "_compiling", {})


def stand_in(monkeypatch: pytest.MonkeyPatch, code: str, *args: str) -> None:
    monkeypatch.setattr(engines, "compile_command",
                        lambda: [sys.executable, "-c", code, *args])


def prepared_cold(monkeypatch: pytest.MonkeyPatch, code: str) -> tuple[DriveContext, list[str]]:
    """The spec prepared to race at once on a cold kernel whose compile is stood in for by
    ``code``: the batch's context and the lines it said."""
    stand_in(monkeypatch, code)
    lines: list[str] = []
    return prepare(spec(), cold="race", say=lines.append), lines


@pytest.mark.usefixtures("cold")
def test_a_cold_batch_races_on_the_reference_engine_until_the_kernel_is_compiled(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    warm_lines: list[str] = []
    kernel_only, _ = report_of("compile", warm_lines)
    reference = prepare(replace(spec(), engine="reference"))
    reference_only = dumps_document(batch_report(run_batch(reference.spec, RACES,
                                                           context=reference), reference))
    flag = tmp_path / "compiled"
    # The stand-in reads its spec, as the real compile does, and ends once the flag is up.
    stand_in(monkeypatch, "import pathlib, sys, time\nsys.stdin.read()\n"
             "while not pathlib.Path(sys.argv[1]).exists(): time.sleep(0.01)", str(flag))
    seen: list[int] = []

    def progress(done: int, total: int) -> None:
        seen.append(done)
        if done >= 10 and not flag.exists():
            flag.touch()
            (compiling,) = engines._compiling.values()
            compiling.process.wait(timeout=30)

    lines: list[str] = []
    text, context = report_of("race", lines, progress)
    assert lines[0] == ("trackformat: compiling the race kernel in a process of its own, once;"
                        " the reference engine races meanwhile (the same races)")
    assert len(lines) == 2 and lines[1].startswith("trackformat: race kernel compiled in ")
    meanwhile = int(lines[1].split(" after ")[1].split()[0])
    assert 10 <= meanwhile < RACES, "the first races on the reference engine, then the kernel"
    assert lines[1].endswith(f"it races on after {meanwhile} races on the reference engine")
    assert context.racer is not None
    assert seen[-1] == RACES
    assert text == kernel_only == reference_only
    assert warm_lines == [], "a warm kernel has nothing to say"


@pytest.mark.usefixtures("cold")
def test_a_compile_that_fails_leaves_the_batch_on_the_reference_engine_and_says_why(
        monkeypatch: pytest.MonkeyPatch) -> None:
    context, lines = prepared_cold(
        monkeypatch, "import sys\nsys.stdin.read()\nsys.exit('LLVM ERROR: out of memory')")
    (compiling,) = engines._compiling.values()
    compiling.process.wait(timeout=30)
    text = dumps_document(batch_report(run_batch(context.spec, RACES, context=context), context))
    assert lines[1] == ("trackformat: the race kernel did not compile (LLVM ERROR: out of "
                        "memory); the reference engine races on")
    assert context.racer is None
    expected, _ = report_of("compile", [])
    assert text == expected, "the reference engine's report is the kernel's"


@pytest.mark.usefixtures("cold")
def test_on_one_core_a_cold_kernel_is_compiled_before_racing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engines, "cores", lambda: 1)
    context, lines = prepared_cold(monkeypatch, "raise SystemExit('no process should be started')")
    assert engines._compiling == {} and lines == []
    assert context.racer is not None


@pytest.mark.usefixtures("cold")
def test_a_worker_follows_another_process_compile_through_the_cache(
        monkeypatch: pytest.MonkeyPatch) -> None:
    stand_in(monkeypatch, "raise SystemExit('a follower starts no compile')")
    context = prepare(spec(), cold="follow", say=lambda line: None)
    assert context.racer is None and engines._compiling == {}
    monkeypatch.setattr(engines, "kernel_is_cached", lambda spec: True)
    assert context.racer is not None


@pytest.mark.usefixtures("cold")
def test_a_compile_holds_off_only_the_compiles_of_its_own_mix_of_drivers(
        monkeypatch: pytest.MonkeyPatch) -> None:
    prepared_cold(monkeypatch, "import sys\nsys.stdin.read()\nimport time\ntime.sleep(60)")
    (started,) = engines._compiling.values()
    try:
        strong_only = replace(spec(), bots=("strong",) * 3)
        assert engines.compiling_elsewhere(spec())
        assert not engines.compiling_elsewhere(strong_only), (
            "a line-up of strong drivers races on a race loop of its own: its compile waits "
            "for no other")
    finally:
        started.process.kill()
        started.process.wait()


@pytest.mark.skipif(os.name != "posix", reason="a process is not asked whether it runs")
@pytest.mark.usefixtures("cold")
def test_the_mark_of_a_compile_that_stopped_holds_off_no_compile(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # A compile stopped (killed, crashed, the machine shut down) leaves its mark: the batches
    # of the next ten minutes used to race on the reference engine, waiting for it.
    ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                           capture_output=True, text=True, check=True)
    mark = engines._mark(spec())
    mark.parent.mkdir(parents=True, exist_ok=True)
    mark.write_text(str(os.getpid()), encoding="utf-8")
    assert engines.compiling_elsewhere(spec()), "a compile in a process that runs"
    mark.write_text(ended.stdout.strip(), encoding="utf-8")
    assert not engines.compiling_elsewhere(spec())
    _, lines = prepared_cold(monkeypatch, "import sys\nsys.stdin.read()")
    (started,) = engines._compiling.values()
    started.process.wait()
    assert lines == ["trackformat: compiling the race kernel in a process of its own, once; the "
                     "reference engine races meanwhile (the same races)"]


def test_an_unknown_way_for_a_cold_kernel_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown way 'wait' for a cold kernel: choose one of "
                                         "compile, race, follow"):
        prepare(spec(), cold="wait")


@pytest.mark.usefixtures("cold")
def test_a_batch_follows_a_compile_another_process_started(
        monkeypatch: pytest.MonkeyPatch) -> None:
    first, lines = prepared_cold(
        monkeypatch, "import sys\nsys.stdin.read()\nimport time\ntime.sleep(60)")
    (started,) = engines._compiling.values()
    assert engines.compiling_elsewhere(spec())
    try:
        # Another process (the editor's live drive starts one per newer edit) finds the mark.
        monkeypatch.setattr(engines, "_compiling", {})
        second = prepare(spec(), cold="race", say=lines.append)
        assert engines._compiling == {}, "no second compile"
        assert lines[1] == ("trackformat: the race kernel is being compiled by another "
                            "process; the reference engine races meanwhile (the same races)")
        assert first.racer is None and second.racer is None
        monkeypatch.setattr(engines, "kernel_is_cached", lambda spec: True)
        assert second.racer is not None, "the compile done, the follower races on the kernel"
    finally:
        started.process.kill()
        started.process.wait()


@pytest.mark.usefixtures("cold")
def test_a_batch_goes_on_while_the_compile_process_has_not_read_its_spec_yet(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A real board's spec is more than a pipe holds; the compile process reads it once it has
    # imported the project. This one reads it only once the test goes on, after the compile
    # has started: a batch that waited for it to read would wait here until its deadline.
    go, got = tmp_path / "go", tmp_path / "got"
    stand_in(monkeypatch,
             "import os, sys, time\n"
             "deadline = time.time() + 30\n"
             "while not os.path.exists(sys.argv[1]) and time.time() < deadline:\n"
             "    time.sleep(0.02)\n"
             "told = os.path.exists(sys.argv[1])\n"
             "spec = sys.stdin.read()\n"
             "open(sys.argv[2], 'w').write(('told ' if told else 'alone ') + spec)\n",
             str(go), str(got))
    monaco = load_track(Path(__file__).resolve().parents[2] / "tracks" / "monaco.json")
    big = DriveSpec.of(monaco, load_ruleset("formula-d"), ("strong",) * 10, seed=3)
    compiling = engines.BackgroundCompile(big)
    go.touch()
    assert compiling.process.wait(timeout=60) == 0
    told, spec = got.read_text(encoding="utf-8").split(" ", 1)
    assert told == "told", "the batch waited for the compile process to read its spec"
    assert len(spec) > 65536 and json.loads(spec) == json.loads(json.dumps(asdict(big)))


def test_a_process_that_ends_first_still_hands_its_compile_process_the_whole_spec(
        tmp_path: Path) -> None:
    # A test drive over before its compile process has read the spec (the process reads it
    # after its imports): the compile must still get all of it, or it would fail and the next
    # test drive would start cold again.
    got = tmp_path / "got"
    reader = ("import os, sys, time\ntime.sleep(1.5)\n"
              f"open({str(got)!r} + '.part', 'w').write(sys.stdin.read())\n"
              f"os.replace({str(got)!r} + '.part', {str(got)!r})\n")
    monaco = Path(__file__).resolve().parents[2] / "tracks" / "monaco.json"
    batch = (
        "import sys\n"
        "from trackformat.io import load_track\n"
        "from trackformat.rules import load_ruleset\n"
        "from trackformat.sim.batch import engines\n"
        "from trackformat.sim.batch.testdrive import DriveSpec\n"
        f"engines.compile_command = lambda: [sys.executable, '-c', {reader!r}]\n"
        f"engines._mark = lambda spec: __import__('pathlib').Path({str(tmp_path / 'mark')!r})\n"
        f"spec = DriveSpec.of(load_track({str(monaco)!r}), load_ruleset('formula-d'),\n"
        "                    ('strong',) * 10, seed=3)\n"
        "compiling = engines.BackgroundCompile(spec)\n"
        "print(compiling.process.pid)\n")
    done = subprocess.run([sys.executable, "-c", batch], capture_output=True, text=True,
                          check=True, timeout=120)
    assert done.stdout.strip().isdigit()
    for _ in range(600):  # the compile process writes what it read
        if got.exists():
            break
        time.sleep(0.05)
    spec = json.loads(got.read_text(encoding="utf-8"))
    assert len(spec["track"]["spaces"]) > 100 and spec["bots"] == ["strong"] * 10
