"""``trackformat moves``: the referee, every legal move of a position as the engine sees it.

Players settling a dispute, designers checking the arrows of a corner and tests pinning a rule
down all need the same answer: from this space, in this gear, with this roll, where may the car
go and what does it cost? The command builds the position as a real race state and asks the
engine (:func:`~trackformat.sim.legal_moves`, :func:`~trackformat.sim.slipstream_moves`,
:func:`~trackformat.sim.gear_options`); it decides no rule itself, so it answers exactly what a
race would. A position that cannot exist (a space the track lacks, two cars on one space, a gear
out of range) exits 2 naming the bad value, as a track that cannot be read does.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from trackformat.cli import EXIT_OK, EXIT_UNUSABLE, UsageError, read_ruleset, read_track
from trackformat.cli.moves_text import die_words, moves_text
from trackformat.cli.output import emit, error
from trackformat.io import dumps_document
from trackformat.model.track import SpaceKind, Track
from trackformat.rules import DEFAULT_PRESET, WEAR_CATEGORIES, Ruleset
from trackformat.sim import (
    Board,
    CarState,
    GearOption,
    Move,
    RaceState,
    Wear,
    gear_options,
    legal_moves,
    may_enter_pit,
    slipstream_moves,
)
from trackformat.words import ordinal

EXIT_CODES_HELP = """\
exit codes:
  0  the engine answered (notes, such as a roll the gear's die cannot show, do not fail)
  2  the track or the ruleset cannot be read, or the position cannot exist: a space the
     track lacks, two cars on one space, a gear, roll, lap, box or wear out of range
     (the message names the bad value)
  3  internal error in trackformat (please report it with the command that caused it)

docs/referee.md explains the output and the JSON document.
"""


@dataclass(frozen=True)
class Position:
    """The race state the engine is asked about, and what the referee must say about it."""

    state: RaceState
    roll: int | None
    notes: list[str]


def _results(rules: Ruleset, gear: int) -> list[int]:
    """The results the die of ``gear`` can show, lowest first, each once."""
    return sorted(set(rules.faces(gear)))


# -- the position -------------------------------------------------------------------------------


def _number(text: str) -> int:
    """A whole number of 0 or more typed by a user, or -1 for anything else."""
    text = text.strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) < 10 else -1


def _space(board: Board, text: str, option: str) -> str:
    if text not in board.kind:
        raise UsageError(f"{option} {text}: no such space on the track")
    return text


def _other(board: Board, text: str, gear: int, gears: int) -> tuple[str, int]:
    """An ``--other`` car: ``SPACE`` (in the car's gear) or ``SPACE:GEAR``; a space id may
    itself hold a colon, so a text that names a space is that space."""
    if text in board.kind or ":" not in text:
        return _space(board, text, "--other"), gear
    space, _, wanted = text.rpartition(":")
    _space(board, space, "--other")
    if not 1 <= _number(wanted) <= gears:
        raise UsageError(f"--other {text}: the gear after the colon must be 1 to {gears}")
    return space, int(wanted)


def _wear(items: list[str], start: Wear) -> Wear:
    """The starting wear with the ``--wear`` categories changed (``tyres=6,brakes=3``)."""
    changes: dict[str, int] = {}
    for item in (part.strip() for chunk in items for part in chunk.split(",")):
        if not item:
            continue
        name, equals, value = item.partition("=")
        name = name.strip().lower()
        if name not in WEAR_CATEGORIES or not equals:
            raise UsageError(f"--wear {item}: give CATEGORY=POINTS, the categories being "
                             f"{', '.join(WEAR_CATEGORIES)}")
        points = _number(value)
        if points < 0:
            raise UsageError(f"--wear {item}: {value.strip()!r} is not a number of wear "
                             "points (a whole number, 0 or more)")
        changes[name] = points
    return start.with_(**changes)


def _box(track: Track, board: Board, wanted: str | None, car_space: str) -> str | None:
    """The car's own place to stop: a box or a garage of the pit lane, or none."""
    pits = track.pit_lane
    places = [b for b in (*pits.boxes, *pits.garages) if b in board.kind] if pits else []
    if wanted is not None and wanted not in places:
        if not places:
            raise UsageError(f"--box {wanted}: the track has no box or garage")
        shown = ", ".join(places[:12]) + (", ..." if len(places) > 12 else "")
        raise UsageError(f"--box {wanted}: not a box or garage of the pit lane ({shown})")
    if board.kind[car_space] == SpaceKind.BOX and car_space != wanted:
        raise UsageError(f"--car {car_space}: a car stands only in its own box; give "
                         f"--box {car_space} (or put the car elsewhere)")
    return wanted


def build_position(track: Track, board: Board, rules: Ruleset,
                   args: argparse.Namespace) -> Position:
    """The race state of the command line's position, car 0 being the car asked about."""
    gears = len(rules.dice.gears)
    laps = args.laps if args.laps is not None else track.metadata.laps
    if laps < 1:
        raise UsageError(f"--laps {laps}: a race is 1 lap or more")
    if not 1 <= args.gear <= gears:
        raise UsageError(f"--gear {args.gear}: a gear is 1 to {gears}")
    if not 0 <= args.lap <= laps:
        raise UsageError(f"--lap {args.lap}: a race of {laps} laps has laps 0 (on a grid "
                         f"behind the finish line) to {laps}")
    space = _space(board, args.car, "--car")
    corner = board.corner_of.get(space)
    if args.stops < 0:
        raise UsageError(f"--stops {args.stops}: stops made are 0 or more")
    if corner is None and args.stops:
        raise UsageError(f"--stops {args.stops}: {space} is not in a corner")
    taken = {space: "the car"}
    others: list[tuple[str, int]] = []
    for text in args.other or []:
        other, gear = _other(board, text, args.gear, gears)
        if other in taken:
            raise UsageError(f"--other {text}: two cars on one space ({taken[other]} is on "
                             f"{other})")
        taken[other] = f"an earlier --other {text}"
        others.append((other, gear))
    debris = frozenset(_space(board, text, "--debris") for text in args.debris or [])
    wear = _wear(args.wear or [], Wear.of(rules.starting_wear(laps)))
    box = _box(track, board, args.box, space)
    car = CarState(index=0, space=space, gear=args.gear, wear=wear, lap=args.lap, box=box,
                   corner=corner, stops=args.stops if corner else 0, started=True)
    cars = [car] + [
        CarState(index=n, space=s, gear=g, wear=Wear.of(rules.starting_wear(laps)),
                 lap=args.lap, corner=board.corner_of.get(s), started=True)
        for n, (s, g) in enumerate(others, start=1)
    ]
    state = RaceState(board=board, rules=rules, laps=laps, cars=tuple(cars), debris=debris,
                      turn=1)
    return Position(state, _roll(rules, args.roll), _notes(state, args.roll))


def _roll(rules: Ruleset, roll: int | None) -> int | None:
    """The roll, refused only when nothing in the game moves a car that far in one go."""
    if roll is None:
        return None
    furthest = max(max(faces) for faces in rules.dice.gears)
    if not 1 <= roll <= furthest:
        raise UsageError(f"--roll {roll}: a roll is 1 to {furthest} (the most a die of "
                         f"{rules.name} shows)")
    return roll


def _notes(state: RaceState, roll: int | None) -> list[str]:
    """What the player should know about the position before reading the moves."""
    notes = []
    car, board, rules = state.cars[0], state.board, state.rules
    if roll is not None and roll not in rules.faces(car.gear):
        # Not an error: a quick pit stop's exit and a super start move a car a number of
        # spaces its gear's die cannot show, and the engine's answer for them is this one.
        shows = die_words(_results(rules, car.gear))
        notes.append(f"the {ordinal(car.gear)}-gear die shows {shows}, not {roll}: listed as a "
                     f"move of {roll} spaces (as after a quick pit stop or a super start, "
                     "which move a car without its gear's die)")
    if board.pit_entry and not board.in_pit(car.space):
        if car.box is None:
            notes.append("pit moves need --box (the car's box or garage): without it the car "
                         "cannot turn into the pit lane")
        elif not may_enter_pit(state, car):
            notes.append(f"no pit moves: the pit window is not open on lap {car.lap} of a "
                         f"{state.laps}-lap race under {rules.name}")
    if state.debris and rules.debris is None:
        notes.append(f"{rules.name} plays no debris: the markers cost nothing")
    return notes


# -- what the engine answers --------------------------------------------------------------------


def _cost(wear: Wear) -> dict[str, int]:
    return {name: getattr(wear, name) for name in WEAR_CATEGORIES}


def _with_slipstream(state: RaceState, move: Move) -> dict[str, Any]:
    """A move as JSON, with the slipstream moves it offers (each may offer more: a chain)."""
    return {
        "route": list(move.route), "destination": move.destination, "spaces": move.distance,
        "brakes": move.brakes, "tyres": move.tyres, "blocked": move.blocked,
        "pit_stop": move.box, "spin": move.spin,
        "eliminated": move.eliminated.value if move.eliminated is not None else None,
        "overshoots": [{"corner": o.corner, "spaces": o.spaces, "missing": o.missing}
                       for o in move.overshoots],
        "debris": list(move.debris),
        "slipstream_extras": move.slipstream,
        "slipstream": [_with_slipstream(state, m) for m in slipstream_moves(state, 0, move)],
    }


def moves_document(position: Position, source: str) -> dict[str, Any]:
    """The ``--json`` document: the position, the notes, and the moves or the gears."""
    state = position.state
    car = state.cars[0]
    document: dict[str, Any] = {
        "file": source,
        "track": state.board.graphs.track.metadata.name,
        "position": {
            "car": car.space, "gear": car.gear, "roll": position.roll, "lap": car.lap,
            "laps": state.laps, "box": car.box, "corner": car.corner, "stops": car.stops,
            "wear": _cost(car.wear), "ruleset": state.rules.name,
            "others": [{"space": c.space, "gear": c.gear} for c in state.cars[1:]],
            "debris": sorted(state.debris),
        },
        "notes": position.notes,
    }
    if position.roll is None:
        document["gears"] = [_gear_json(state.rules, o) for o in gear_options(state, 0)]
    else:
        document["moves"] = [_with_slipstream(state, m)
                             for m in legal_moves(state, 0, position.roll)]
    return document


def _gear_json(rules: Ruleset, option: GearOption) -> dict[str, Any]:
    return {"gear": option.gear, "cost": _cost(option.cost), "eliminates": option.eliminates,
            "die": _results(rules, option.gear)}


# -- the command --------------------------------------------------------------------------------


def cmd_moves(args: argparse.Namespace) -> int:
    source = str(Path(args.track))
    track = read_track(args.track)
    if track is None:
        return EXIT_UNUSABLE
    rules = read_ruleset(args.ruleset)
    if rules is None:
        return EXIT_UNUSABLE
    board = Board.of(track)
    if board.laneless:
        error(f"{source}: cannot referee: track spaces {', '.join(board.laneless[:5])} are in "
              "no lane, and the engine reads lane changes, slipstreams and contacts by lane "
              "(see REF003)")
        return EXIT_UNUSABLE
    document = moves_document(build_position(track, board, rules, args), source)
    if args.json:
        emit(dumps_document(document).rstrip("\n"))
    else:
        emit(moves_text(document, {c.id: c.name or c.id for c in track.corners}))
    return EXIT_OK


def register(command: Callable[[str, str], argparse.ArgumentParser]) -> None:
    """Add the ``moves`` command (the referee) to the command line's parser."""
    moves = command("moves", "list the legal moves of a position, or the gears a car may "
                             "choose, as the engine plays them")
    moves.epilog = EXIT_CODES_HELP
    moves.add_argument("track", metavar="TRACK", help="track file")
    moves.add_argument("--car", required=True, metavar="SPACE",
                       help="the space of the car asked about")
    moves.add_argument("--gear", required=True, type=int, metavar="G",
                       help="the car's gear (1 to 6)")
    moves.add_argument("--roll", type=int, metavar="N",
                       help="the spaces rolled: list every legal move for it (a roll the "
                            "gear's die cannot show gets a note); without it, list the gears "
                            "the car may choose next and what each costs")
    moves.add_argument("--lap", type=int, default=1, metavar="L",
                       help="the lap the car is on (default 1; it opens the pit window)")
    moves.add_argument("--laps", type=int, metavar="N",
                       help="laps of the race (default: the track's); sets the starting wear "
                            "and the pit windows")
    moves.add_argument("--box", metavar="ID",
                       help="the car's box or garage (default none: no pit moves)")
    moves.add_argument("--wear", action="append", metavar="CAT=N,...",
                       help="wear points left, changing the race's starting ones: tyres, "
                            "brakes, gearbox, body, engine, suspension (e.g. tyres=2,brakes=1)")
    moves.add_argument("--stops", type=int, default=0, metavar="N",
                       help="stops already made in the corner the car stands in (default 0)")
    moves.add_argument("--other", action="append", metavar="SPACE[:G]",
                       help="another car, once per car: on SPACE, in the car's gear unless "
                            ":G gives its own (e.g. --other 1-157 --other 2-155:4)")
    moves.add_argument("--debris", action="append", metavar="SPACE",
                       help="a debris marker, once per marker")
    moves.add_argument("--ruleset", default=DEFAULT_PRESET, metavar="NAME|PATH",
                       help=f"preset name or ruleset file (default {DEFAULT_PRESET})")
    moves.add_argument("--json", action="store_true",
                       help='print one JSON document: {"moves": [...]} or {"gears": [...]}')
    moves.set_defaults(run=cmd_moves)
