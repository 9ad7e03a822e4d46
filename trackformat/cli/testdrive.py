"""``trackformat testdrive``: race bots on a track many times and report how it plays.

Prints a short report for people and, with ``--json``, writes the full one for programs (and
for ``render --heatmap``); ``testdrive compare A.json B.json`` lists what changed between two
such reports beyond their 95% intervals. The same arguments give the same JSON whatever
``--workers`` is, and on a Dask cluster (``--scheduler``, docs/scale.md) too.
Unreadable files, unknown bots and races that cannot start exit 2 with a message saying what
is wrong and where. docs/testdrive.md explains every figure.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from trackformat.cli.paths import FileRoles, refuse_output_onto_picture
from trackformat.cli.progress import ProgressBar
from trackformat.cli.testdrive_text import report_text
from trackformat.collector import settle
from trackformat.io import (
    TrackFileError,
    check_writable,
    dumps_document,
    load_track,
    write_text_atomically,
)
from trackformat.model.track import Track
from trackformat.rules import (
    DEFAULT_PRESET,
    BuildError,
    Ruleset,
    RulesetError,
    build_lineup,
    load_ruleset,
)
from trackformat.sim.batch.compare import ReportError, changes_json, compare
from trackformat.sim.batch.racelog import MAX_LAPS, RaceCannotStart, check_start
from trackformat.sim.batch.report import batch_report
from trackformat.sim.batch.report_file import ReportFileError, read_json_report
from trackformat.sim.batch.stats import DriveStats
from trackformat.sim.batch.testdrive import (
    ENGINES,
    DriveContext,
    DriveError,
    DriveSpec,
    Progress,
    bot_lineup,
    driver_factories,
    prepare,
    run_batch,
)

EXIT_OK, EXIT_UNUSABLE = 0, 2
DEFAULT_BOT = "strong"
"""The bot of every car unless told otherwise: it plays sensibly and finishes its races, so the
report shows the track, not a bot's blunders."""


def whole_number(minimum: int, maximum: int | None = None,
                 why: str = "") -> Callable[[str], int]:
    """An argparse type: a whole number from ``minimum`` to ``maximum`` (None: no most), so a
    number out of bounds is a usage error (exit 2) before any work; ``why`` ends the message
    (the bound's reason)."""
    reason = f": {why}" if why else ""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{value} is less than {minimum}{reason}")
        if maximum is not None and value > maximum:
            raise argparse.ArgumentTypeError(f"{value} is more than {maximum}{reason}")
        return value

    return parse


LAPS_WHY = f"a race has 1 to {MAX_LAPS} laps, as many as a track file may give"
"""Why ``--laps`` is bounded: a race of 100,000 laps runs for hours and tells nothing more."""


def output_problem(name: str, option: str) -> str:
    """Why the output file ``name`` (of ``option``) cannot be written, found before any work
    and without creating anything; empty when nothing is known against it. A folder on its way
    that is a file is named: the file system says only "File exists" or "Not a directory"."""
    path = Path(name)
    try:
        if path.is_dir():
            return f"{name}: is a folder; {option} needs a file name"
        for folder in path.parents:
            if folder.exists():
                if not folder.is_dir():
                    return f"{name}: cannot be written: {folder} is a file, not a folder"
                break
    except OSError as err:  # a name too long to look up
        return f"{name}: cannot be written: {err.strerror or err}"
    return ""


def _cores() -> int:
    """Cores this process may run on (fewer than the machine's under a CPU affinity mask)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


def _fail(message: str) -> int:
    print(message, file=sys.stderr)
    return EXIT_UNUSABLE


class Unusable(Exception):
    """The batch cannot run where it was asked to: the message says why."""


def _on_cluster(address: str, spec: DriveSpec, races: int,
                progress: Progress) -> tuple[DriveStats, str]:
    """The batch run on the Dask cluster at ``address``, and words on where it ran."""
    try:
        from trackformat.sim.batch import cluster
    except ModuleNotFoundError as err:
        if (err.name or "").split(".")[0] not in ("dask", "distributed"):
            raise
        raise Unusable("--scheduler needs dask.distributed: install trackformat with its "
                       "cluster extra (pip install \".[cluster]\")") from None
    try:
        client = cluster.connect(address)
    except cluster.ClusterError as err:
        raise Unusable(str(err)) from None
    try:
        workers, threads = cluster.cluster_size(client)
        stats = cluster.run_on_cluster(client, spec, races, progress=progress)
    except cluster.ClusterError as err:
        raise Unusable(str(err)) from None
    finally:
        cluster.disconnect(client)
    return stats, (f"the Dask cluster at {address}: {workers} worker{'s' if workers > 1 else ''}"
                   f", {threads} thread{'s' if threads > 1 else ''}")


def _run(args: argparse.Namespace, spec: DriveSpec, context: DriveContext,
         progress: Progress) -> tuple[DriveStats, str]:
    """The batch, run where the arguments say, and words on where that was."""
    if args.scheduler is not None:
        return _on_cluster(args.scheduler, spec, args.races, progress)
    workers = 1 if args.workers is None else args.workers or _cores()
    stats = run_batch(spec, args.races, workers=workers, progress=progress, context=context)
    return stats, f"{workers} worker{'s' if workers > 1 else ''}"


def _engines(engine: str, context: DriveContext) -> str:
    """Which engine raced, in words: the kernel's races raced on the reference engine while it
    compiled are told apart."""
    kernel = context.kernel
    if kernel is None or not kernel.races_meanwhile:
        return f"{engine} engine"
    if kernel.given_up:
        return "reference engine"
    return (f"{engine} engine, {kernel.races_meanwhile} on the reference engine while the "
            "kernel compiled")


def _say_engine(spec: DriveSpec, say: Callable[[str], None]) -> None:
    """Tell the user why a test drive with no ``--engine`` races on the reference engine: a
    bot of its line-up is one the compiled engine does not race."""
    from trackformat.sim.drivers.bots import COMPILED_DRIVERS

    missing = sorted(set(spec.bots) - COMPILED_DRIVERS)
    say(f"trackformat: only the reference engine races {', '.join(missing)} drivers: it "
        "races this test drive (the same rules, slower than the compiled engine)")


def _par_problem(track: Track, rules: Ruleset, laps: int) -> str:
    """Why par drivers cannot race ``track`` under ``rules`` (par cannot be solved there);
    empty when they can. Par is solved in the races, once per box, and says so."""
    from trackformat.par.driver import par_driver_problem

    return par_driver_problem(track, rules, laps)


UNRACEABLE = ("LAP003", "LAP004", "PATH001", "REACH002", "REACH003")
"""Validator rules whose errors make races meaningless: no finish line, no lap, a lap that
misses the line, spaces from which the line cannot be reached, traps. A track with one of them
is not test-driven; other errors (an overlap, a misprinted corner) still let cars race."""


def _unraceable(track: Track, source: str) -> str:
    """Why the track cannot be test-driven, in the validator's words; empty when it can."""
    from trackformat.lint import Severity, validate

    report = validate(track, codes=UNRACEABLE, source=source)
    errors = [d for d in report.diagnostics if d.severity == Severity.ERROR]
    if not errors:
        return ""
    shown = [f"{source}: {d.code} {d.rule}: {d.message}" for d in errors[:10]]
    if len(errors) > 10:
        shown.append(f"{source}: ... and {len(errors) - 10} more")
    return (f"{source}: cannot test drive: the validator finds the track unraceable "
            f"({len(errors)} error{'s' if len(errors) > 1 else ''}; "
            f"`trackformat validate {source}` lists every problem)\n" + "\n".join(shown))


def _read_report(path: str) -> Any:
    """A JSON document from ``path``; :class:`ReportError` saying what is wrong with it.

    Read as :mod:`trackformat.sim.batch.report_file` reads every report: a regular file only
    (a named pipe would wait for a writer forever, a device never ends), at most its size
    limit, JSON that Python's parser can hold."""
    try:
        return read_json_report(Path(path), "test-drive report", hint=(
            "; a test-drive report is written by `trackformat testdrive TRACK --json FILE`"))
    except ReportFileError as err:
        raise ReportError(f"{path}: {err.reason}") from None


def cmd_compare(before: str, after: str, json_out: str | None) -> int:
    """``testdrive compare A.json B.json``: the rates that moved beyond their 95% intervals."""
    try:
        reports = _read_report(before), _read_report(after)
        changes = compare(*reports, before_name=before, after_name=after)
    except ReportError as err:
        return _fail(f"trackformat testdrive compare: {err}")
    document = {"before": before, "after": after, "changes": changes_json(changes)}
    if json_out == "-":
        sys.stdout.write(dumps_document(document))
        return EXIT_OK
    print(f"{before} -> {after}: {reports[0]['races']} and {reports[1]['races']} races")
    if changes:
        print(f"  changed beyond their 95% intervals ({len(changes)}):")
        for change in changes:
            print(f"  {change.text()}")
    else:
        print("  nothing changed beyond the 95% intervals: what differs may be chance "
              "(more races narrow the intervals)")
    if json_out is not None:
        try:
            write_text_atomically(Path(json_out), dumps_document(document))
        except OSError as err:
            return _fail(f"{json_out}: cannot be written: {err.strerror or err}")
        print(f"  wrote {json_out}")
    return EXIT_OK


def cmd_testdrive(args: argparse.Namespace) -> int:
    if args.track == "compare" and not Path(args.track).exists():
        if len(args.reports) != 2:
            return _fail("trackformat testdrive compare: needs two test-drive reports: "
                         "`trackformat testdrive compare A.json B.json`")
        before, after = args.reports
        problem = output_problem(args.json, "--json") if args.json not in (None, "-") else ""
        if problem:
            return _fail(problem)
        return cmd_compare(before, after, args.json)
    if args.reports:
        return _fail(f"trackformat testdrive: one track at a time; unexpected "
                     f"{' '.join(args.reports)}")
    source = str(Path(args.track))
    names = [n.strip() for n in args.bots.split(",")] if args.bots else [args.bot]
    json_out = args.json
    if json_out not in (None, "-"):
        # Found out now, not after every race has run.
        problem = output_problem(json_out, "--json")
        try:
            if not problem:
                check_writable(Path(json_out))
        except (OSError, ValueError) as err:
            problem = f"{json_out}: cannot be written: {getattr(err, 'strerror', None) or err}"
        if problem:
            return _fail(problem)
    try:
        track = load_track(args.track)
        refuse_output_onto_picture(args.json, track, args.track)
    except TrackFileError as err:
        return _fail(err.render())
    unraceable = _unraceable(track, source)
    if unraceable:
        return _fail(unraceable)
    try:
        rules = load_ruleset(args.ruleset)
    except RulesetError as err:
        return _fail(err.render())
    try:
        rules = rules.with_team_repairs() if args.team_race else rules
    except ValueError as err:  # a ruleset with no team race
        return _fail(f"trackformat testdrive: {err}")
    try:
        check_start(track, rules, args.cars, args.laps)  # before a line-up of that many cars
    except RaceCannotStart as err:
        return _fail(f"{source}: cannot test drive: {err}")
    try:
        bots = bot_lineup(names, args.cars)
        builds = (build_lineup(args.builds.split(";"), args.cars, rules.car_build, rules.builds,
                               rules.name) if args.builds is not None else ())
    except (DriveError, BuildError, ValueError) as err:
        return _fail(f"trackformat testdrive: {err}")
    bar = ProgressBar(sys.stderr)
    if "par" in bots:
        problem = _par_problem(track, rules, args.laps or track.metadata.laps)
        if problem:
            return _fail(f"{source}: cannot test drive par drivers: {problem}")
        bar.say("trackformat: par drivers solve par before their first race, once for each "
                "pit box their cars stop at")
    try:
        spec = DriveSpec.of(track, rules, bots, seed=args.seed, laps=args.laps,
                            engine=args.engine, builds=builds)
        if args.engine is None and spec.engine != ENGINES[0]:
            _say_engine(spec, bar.say)
        context = prepare(spec, cold="race", say=bar.say)
    except DriveError as err:
        return _fail(f"{source}: cannot test drive: {err}")
    settle()
    started = time.perf_counter()
    try:
        stats, where = _run(args, spec, context, bar)
    except Unusable as err:
        return _fail(f"trackformat testdrive: {err}")
    finally:
        bar.clear()
    elapsed = time.perf_counter() - started
    if context.kernel is not None and context.kernel.compiling:
        bar.say("trackformat: the race kernel is still compiling, in a process of its own: the "
                "next test drive will race on it")
    report = {"file": source, **batch_report(stats, context)}
    text = dumps_document(report)
    if json_out == "-":
        sys.stdout.write(text)
        return EXIT_OK
    print(report_text(report, source))
    print(f"\n  {args.races} races in {elapsed:.1f} s ({args.races / max(elapsed, 1e-9):.1f} "
          f"races/s, {where}, {_engines(spec.engine, context)})")
    if json_out is not None:
        try:
            write_text_atomically(Path(json_out), text)
        except OSError as err:
            return _fail(f"{json_out}: cannot be written: {err.strerror or err}")
        print(f"  wrote {json_out}")
    return EXIT_OK


def register(command: Callable[[str, str], argparse.ArgumentParser]) -> None:
    """Add the ``testdrive`` command to the command line's parser."""
    drive = command("testdrive", "race bots on a track many times and report how it plays")
    drive.usage = ("%(prog)s TRACK [options]\n       %(prog)s compare A.json B.json "
                   "[--json OUT]")
    drive.add_argument("track", metavar="TRACK",
                       help="track file; or `compare`, then two test-drive reports (JSON) to "
                            "list the rates that changed beyond their 95%% intervals")
    drive.add_argument("reports", nargs="*", help=argparse.SUPPRESS)
    drive.add_argument("--races", type=whole_number(1), default=100, metavar="N",
                       help="races to run (default 100)")
    drive.add_argument("--cars", type=whole_number(1), default=6, metavar="K",
                       help="cars in each race (default 6)")
    who = drive.add_mutually_exclusive_group()
    known = ", ".join(sorted(driver_factories()))
    who.add_argument("--bot", default=DEFAULT_BOT, metavar="NAME",
                     help=f"the bot driving every car (default {DEFAULT_BOT}; bots: {known})")
    who.add_argument("--bots", metavar="A,B,...",
                     help="bots given to the cars in turn: car 1 A, car 2 B, ... then A again")
    drive.add_argument("--ruleset", default=DEFAULT_PRESET, metavar="NAME|PATH",
                       help=f"preset name or ruleset file (default {DEFAULT_PRESET})")
    drive.add_argument("--builds", metavar="A;B;...",
                       help="builds given to the cars in turn, like --bots (building your "
                            "car): a build's name in the ruleset, standard (the ruleset's WP), "
                            "or tyres=N,brakes=N,gearbox=N,body=N,engine=N,suspension=N")
    drive.add_argument("--team-race", action="store_true",
                       help="the team race's repairs: each team of two cars (1-2, 3-4, ...) "
                            "shares 4 repair WP at its pit stops; needs an even --cars")
    drive.add_argument("--laps", type=whole_number(1, MAX_LAPS, LAPS_WHY), metavar="L",
                       help=f"laps per race, 1 to {MAX_LAPS} (default: the track's)")
    drive.add_argument("--seed", type=int, default=0, metavar="S",
                       help="seed of the batch: the same seed gives the same report (default 0)")
    where = drive.add_mutually_exclusive_group()
    where.add_argument("--workers", type=whole_number(0), nargs="?", const=0, metavar="W",
                       help="processes to race in; --workers alone or 0: every core (default 1)")
    where.add_argument("--scheduler", metavar="ADDRESS",
                       help="race on the Dask cluster of this scheduler (tcp://HOST:8786); "
                            "needs the cluster extra, see docs/scale.md")
    drive.add_argument("--engine", choices=ENGINES,
                       help="the compiled race kernel (the default) or the readable reference "
                            "engine: the same races, the same report; the default is the "
                            "reference engine for a line-up with bots the kernel lacks (par)")
    drive.add_argument("--json", metavar="OUT",
                       help="write the full report (or the comparison) as JSON to OUT "
                            "('-': to stdout, no text)")
    drive.set_defaults(run=cmd_testdrive, file_roles=FileRoles(
        ("track", "reports", "ruleset"), ("json",)))
