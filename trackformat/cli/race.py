"""``trackformat race`` and ``replay``: one race written as a log, and a log raced again.

``race`` prints the finish order and writes the race's events as JSON lines; ``replay`` races the
log's setup again and says whether every event is the same (exit 0) or where the first one
differs (exit 1). Unreadable files, unknown bots, numbers out of bounds and a log whose setup
is not a race's exit 2 with a message.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from trackformat.cli.paths import FileRoles, refuse_output_onto_picture
from trackformat.cli.testdrive import LAPS_WHY, output_problem, whole_number
from trackformat.io import TrackFileError, load_track
from trackformat.io.files import FileRefused, require_regular_file
from trackformat.rules import (
    BuildError,
    RulesetError,
    build_lineup,
    lineup_points,
    load_ruleset,
)
from trackformat.sim.batch.racelog import (
    MAX_LAPS,
    RaceCannotStart,
    RaceLogError,
    check_start,
    race,
    replay,
    write_log,
)

EXIT_OK, EXIT_DIFFERENT, EXIT_UNUSABLE = 0, 1, 2

CARS_WHY = "a race has at least one car, and at most one per grid slot of the track"


def cmd_race(args: argparse.Namespace) -> int:
    # Found out before the race, and without creating anything.
    problem = output_problem(args.log, "--log") if args.log is not None else ""
    if problem:
        print(problem, file=sys.stderr)
        return EXIT_UNUSABLE
    try:
        track = load_track(args.track)
        refuse_output_onto_picture(args.log, track, args.track)
        rules = load_ruleset(args.ruleset)
        if args.team_race:
            rules = rules.with_team_repairs()
        check_start(track, rules, args.cars, args.laps)  # before a line-up of that many cars
        bots = [b.strip() for b in args.bots.split(",") if b.strip()]
        lineup = [bots[car % len(bots)] for car in range(args.cars)] if bots else []
        if not lineup:
            raise RaceLogError("name at least one bot")
        builds = (build_lineup(args.builds.split(";"), args.cars, rules.car_build, rules.builds,
                               rules.name) if args.builds is not None else ())
        setup, result = race(track, rules, lineup, args.seed, args.laps,
                             lineup_points(builds, rules.builds))
    except TrackFileError as err:
        print(err.render(), file=sys.stderr)
        return EXIT_UNUSABLE
    except RaceCannotStart as err:
        print(f"trackformat race: {args.track}: {err}", file=sys.stderr)
        return EXIT_UNUSABLE
    except (RulesetError, RaceLogError, BuildError, ValueError) as err:
        print(f"trackformat race: {err}", file=sys.stderr)
        return EXIT_UNUSABLE
    if args.log is not None:  # written first: a race whose log is lost has failed
        try:
            write_log(Path(args.log), setup, result)
        except (OSError, ValueError) as err:
            why = getattr(err, "strerror", None) or err
            print(f"{args.log}: cannot be written: {why}", file=sys.stderr)
            return EXIT_UNUSABLE
    order = ", ".join(f"car {car + 1} ({lineup[car]})" for car in result.finish_order)
    print(
        f"{track.metadata.name}: {result.turns} turns; finish order: {order or 'nobody finished'}"
    )
    if args.log is not None:
        print(f"wrote {args.log}: {len(result.events)} events")
    return EXIT_OK


def cmd_replay(args: argparse.Namespace) -> int:
    try:
        require_regular_file(Path(args.log), "race log")
    except FileRefused as err:
        print(f"{args.log}: {err.reason}", file=sys.stderr)
        return EXIT_UNUSABLE
    except OSError:
        pass  # a missing log is reported by the replay itself, in its own words
    try:
        check = replay(Path(args.log), load_track(args.track))
    except TrackFileError as err:
        print(err.render(), file=sys.stderr)
        return EXIT_UNUSABLE
    except (RulesetError, RaceLogError) as err:
        print(f"trackformat replay: {err}", file=sys.stderr)
        return EXIT_UNUSABLE
    if check.same:
        print(f"{args.log}: replayed exactly, {check.events} events")
        return EXIT_OK
    assert check.difference is not None
    line, logged, raced = check.difference
    print(f"{args.log}: line {line} differs\n  log:   {logged}\n  raced: {raced}")
    return EXIT_DIFFERENT


def register(command: Callable[[str, str], argparse.ArgumentParser]) -> None:
    """Add ``race`` and ``replay`` to the command line."""
    one = command("race", "race bots once on a track, and write the race's log")
    one.add_argument("track", metavar="TRACK", help="track file")
    one.add_argument(
        "--bots", default="cautious", help="bots cycled over the cars (default cautious)"
    )
    one.add_argument("--cars", type=whole_number(1, why=CARS_WHY), default=6,
                     help="number of cars, at most one per grid slot (default 6)")
    one.add_argument("--seed", type=int, default=1, help="the race's seed (default 1)")
    one.add_argument("--laps", type=whole_number(1, MAX_LAPS, LAPS_WHY),
                     help=f"laps, 1 to {MAX_LAPS} (default: the track's)")
    one.add_argument("--ruleset", default="formula-d", help="preset name or ruleset file")
    one.add_argument("--builds", metavar="A;B;...",
                     help="builds cycled over the cars (building your car): a build's name, "
                          "standard, or tyres=N,brakes=N,gearbox=N,body=N,engine=N,suspension=N")
    one.add_argument("--team-race", action="store_true",
                     help="the team race's repairs: 4 WP a team of two cars, at its pit stops")
    one.add_argument("--log", metavar="OUT.jsonl", help="write the race's events as JSON lines")
    one.set_defaults(run=cmd_race, file_roles=FileRoles(("track", "ruleset"), ("log",)))

    again = command("replay", "race a log's setup again and check every event is the same")
    again.add_argument("log", metavar="LOG.jsonl", help="a log written by `race --log`")
    again.add_argument("track", metavar="TRACK", help="the track it was raced on")
    again.set_defaults(run=cmd_replay)
