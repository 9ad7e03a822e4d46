"""How the compiled race kernel starts and scales: the process that compiles it on an empty
cache, a new process's test drive with a warm cache, and a test drive on one worker process
against two. A cold test drive is measured too: it races on the reference engine while the
kernel compiles in a process of its own (:mod:`trackformat.sim.batch.engines`).

Prints figures, no assertions. Each start is a fresh process, the one a user gets: the compile
process a test drive starts (``python -m trackformat.sim.batch.testdrive``, the batch's spec on
its stdin), and ``python -m trackformat testdrive`` racing once, each from the interpreter's
start to its exit. Times are the child's CPU time (user + system, from ``resource``), and its
wall-clock time as well; the workers' rows are wall-clock (the work is in other processes), so
a busy machine shows in them: run it on a quiet one. One worker and two take turns, for a few
rounds, so that a drift of the machine's speed shows as a spread of the rounds' ratios rather
than as the ratio itself.

    python benchmarks/kernel_speed.py                    # Monaco, 10 strong cars, 2 laps
    python benchmarks/kernel_speed.py --bot cautious --races 200
    python benchmarks/kernel_speed.py --skip-cold        # keep the user's cache, measure warm only
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from trackformat.process import one_job_process  # noqa: E402


def _child(command: list[str], cache: str | None, stdin: bytes | None = None) -> tuple[float,
                                                                                    float]:
    """(CPU s, wall s) of a new process running ``command`` to its end; ``cache``: its
    NUMBA_CACHE_DIR (None: the user's)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    if cache is not None:
        env["NUMBA_CACHE_DIR"] = cache
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command, env=env, check=True, cwd=ROOT, input=stdin,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def compile_process(cache: str, bot: str, cars: int, laps: int) -> tuple[float, float]:
    """(CPU s, wall s) of the process a test drive starts to compile the kernel (the one the
    editor and the command line start on an empty cache), from its start to its end."""
    from trackformat.io import load_track
    from trackformat.rules import load_ruleset
    from trackformat.sim.batch.engines import compile_command
    from trackformat.sim.batch.testdrive import DriveSpec

    spec = DriveSpec.of(load_track(ROOT / "tracks" / "monaco.json"), load_ruleset("formula-d"),
                        (bot,) * cars, seed=0, laps=laps)
    return _child(compile_command(), cache, json.dumps(dataclasses.asdict(spec)).encode())


def command_line(cache: str | None, bot: str, cars: int, laps: int) -> tuple[float, float]:
    """(CPU s, wall s) of ``python -m trackformat testdrive`` racing once, from the
    interpreter's start to its exit: what a user waits for with a warm cache."""
    return _child([sys.executable, "-m", "trackformat", "testdrive",
                   str(ROOT / "tracks" / "monaco.json"), "--races", "1", "--cars", str(cars),
                   "--laps", str(laps), "--bot", bot], cache)


FIRST_DRIVE_RACE = """
import resource, time
from trackformat.io import load_track
from trackformat.rules import load_ruleset
from trackformat.sim.batch import engines
from trackformat.sim.batch.testdrive import Chunk, DriveSpec, prepare, run_chunk
spec = DriveSpec.of(load_track({track!r}), load_ruleset("formula-d"), ({bot!r},) * {cars},
                    seed=0, laps={laps})
context = prepare(spec, cold="race", say=lambda line: None)
run_chunk(context, Chunk(0, 0, 1))
usage = resource.getrusage(resource.RUSAGE_SELF)
print(usage.ru_utime + usage.ru_stime, context.racer is None, flush=True)
for compiling in engines._compiling.values():
    compiling.process.wait()
    print(time.perf_counter() - compiling.started, flush=True)
"""


def first_drive_race(cache: str, bot: str, cars: int, laps: int) -> tuple[float, float, bool,
                                                                            float | None]:
    """A test drive's first race in a new process on an empty cache, which races on the
    reference engine while the kernel compiles alongside: (CPU s and wall s of the test drive's
    process to its first race, whether the reference engine raced it, wall s of the compile)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), NUMBA_CACHE_DIR=cache)
    code = FIRST_DRIVE_RACE.format(track=str(ROOT / "tracks" / "monaco.json"), bot=bot,
                                   cars=cars, laps=laps)
    started = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-c", code], env=env, cwd=ROOT, text=True,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert child.stdout is not None
    cpu, reference = child.stdout.readline().split()
    wall = time.perf_counter() - started
    rest = child.stdout.readline().strip()
    child.wait()
    return float(cpu), wall, reference == "True", float(rest) if rest else None


def batch_rate(bot: str, cars: int, laps: int, races: int, workers: int) -> float:
    """Races per second (wall-clock) of a kernel test drive on ``workers`` processes, the
    workers' start included."""
    from trackformat.io import load_track
    from trackformat.rules import load_ruleset
    from trackformat.sim.batch.testdrive import DriveSpec, prepare, run_batch

    spec = DriveSpec.of(load_track(ROOT / "tracks" / "monaco.json"), load_ruleset("formula-d"),
                        (bot,) * cars, seed=7, laps=laps, engine="kernel")
    context = prepare(spec)
    started = time.perf_counter()
    run_batch(spec, races, workers=workers, context=context)
    return races / (time.perf_counter() - started)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="strong")
    parser.add_argument("--cars", type=int, default=10)
    parser.add_argument("--laps", type=int, default=2)
    parser.add_argument("--races", type=int, default=2000, help="races of the workers' batches")
    parser.add_argument("--rounds", type=int, default=3,
                        help="rounds of the workers' batches, one worker and two in turns")
    parser.add_argument("--skip-cold", action="store_true")
    args = parser.parse_args(argv)
    one_job_process()  # as the command line sets up its process (its workers inherit it)
    print(f"Monaco, {args.cars} {args.bot} cars, {args.laps} laps")
    if not args.skip_cold:
        with tempfile.TemporaryDirectory() as empty:
            cpu, wall, reference, compiled = first_drive_race(empty, args.bot, args.cars,
                                                              args.laps)
            engine = "the reference engine" if reference else "the kernel"
            alongside = (f"compiled alongside in {compiled:.1f} s wall" if compiled is not None
                         else "compile alongside not seen")
            print(f"cold test drive to its first race: {cpu:6.1f} s CPU, {wall:6.1f} s wall "
                  f"(empty cache: raced on {engine}; the kernel {alongside})")
        with tempfile.TemporaryDirectory() as empty:
            cpu, wall = compile_process(empty, args.bot, args.cars, args.laps)
            print(f"the kernel's compile process:   {cpu:6.1f} s CPU, {wall:6.1f} s wall "
                  "(empty cache)")
            cpu, wall = command_line(empty, args.bot, args.cars, args.laps)
            print(f"warm start, a test drive of one race on the command line: {cpu:6.1f} s CPU, "
                  f"{wall:6.1f} s wall (the cache the compile filled)")
    else:
        command_line(None, args.bot, args.cars, args.laps)  # fills the user's cache if needed
        cpu, wall = command_line(None, args.bot, args.cars, args.laps)
        print(f"warm start, a test drive of one race on the command line: {cpu:6.1f} s CPU, "
              f"{wall:6.1f} s wall")
    # This machine's speed drifts within minutes: one worker and two take turns, round by
    # round (which goes first alternating), and each round's ratio compares runs minutes apart.
    ratios = []
    for round_ in range(args.rounds):
        rates = {}
        for workers in ((1, 2) if round_ % 2 == 0 else (2, 1)):
            rates[workers] = batch_rate(args.bot, args.cars, args.laps, args.races, workers)
        ratios.append(rates[2] / rates[1])
        print(f"test drive of {args.races} races, round {round_ + 1}: {rates[1]:6.1f} races/s on "
              f"1 worker, {rates[2]:6.1f} on 2 ({ratios[-1]:.2f} times), {os.cpu_count()} cores",
              flush=True)
    if len(ratios) > 1:
        print(f"two workers against one, median of {len(ratios)} rounds: "
              f"{statistics.median(ratios):.2f} times")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
