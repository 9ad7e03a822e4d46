"""The strong driver's tables, built once per batch and kept on disk: what the compiled driver
(:mod:`~trackformat.sim.kernel.strong`) reads of the readable driver.

The readable driver values every move in turns still needed to take the flag, read from the
board's :class:`~trackformat.sim.drivers.outlook.Outlook`. Its tables are flattened here
(:func:`tables`), from the very Outlook object the readable driver builds and keeps on the
board, together with every number the driver works out of the rules (the chances of each face,
the engine-risk factor of each gear, the odds of losing a body or suspension WP), worked out in
Python by the same operations, so that the compiled choices add and compare the same floats in
the same order and give bit-identical values. Building the outlook takes a second, which every
new process would pay: the tables are kept beside the compiled kernel, keyed by all they
depend on.
"""

from __future__ import annotations

import hashlib
import os
import zipfile
import zlib
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from trackformat.rules import Ruleset
from trackformat.sim.core.board import Board
from trackformat.sim.core.state import RaceState
from trackformat.sim.drivers import outlook as ol
from trackformat.sim.drivers import strong as reference
from trackformat.sim.kernel.arrays import BoardArrays
from trackformat.sim.kernel.cache import CACHE
from trackformat.sim.move.gears import face_distribution

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]
Tables = tuple[Floats, Ints, Floats, Ints, Ints, Floats]
"""(numbers ``S_*``, numbers ``I_*``, the outlook's turns, where each of its tables starts,
the faces of each gear's die, their chances)."""

(S_DNF, S_MARGIN, S_CONTACT, S_DEBRIS, S_PIT_TURNS, S_SPIN_TURNS, S_GEARBOX_TURNS,
 S_ENGINE_TURNS, S_BODY_TURNS, S_SUSPENSION_TURNS) = range(10)
FLOAT_COLUMNS = 10
"""The driver's floats: what an elimination costs, the margin of the gears worth a look, the
odds of losing a WP to a contact or a debris roll, and the turns the driver prices a pit stop,
a spin and each kind of WP at."""

(I_LAPS, I_PHASES, I_TOP_STOPS, I_MAX_BRAKES, I_MAX_TYRES, I_POSITION_STRIDE, I_STOPS_STRIDE,
 I_GEAR_STRIDE, I_BRAKES_STRIDE, I_LOOKS, I_RESTART_GEAR, I_PIT_GEAR,
 I_COUNTS_AFTER_OVERSHOOT, I_EXIT_LANE, I_EXIT_POSITION, I_EXIT_CROSSES) = range(16)
INT_COLUMNS = 16
"""The driver's ints: the race's laps, the outlook's phases, top stops, brakes and tyres and
its strides, gears weighed at most, the gear a spun car restarts in, the gear of a quick stop,
whether a stop after an overshoot counts, the pit exit's lane and position (-1: none on a lane)
and whether leaving the pit lane crosses the line. (A car's new tyres at a stop are its own
starting tyres, in its row.) The outlook's top brakes and tyres are the ruleset's starting WP:
a built car with more reads there as having that many (the readable driver clamps alike), so
no read goes past a table."""

CHANCE = 63
"""In a row of the faces: the number of distinct faces; of the chances: the gear's engine-risk
factor (the odds of a top result times those of losing an engine WP on its roll)."""


def tables(board: Board, arrays: BoardArrays, rules: Ruleset, laps: int) -> Tables:
    """What the driver reads, built once per batch (for a line-up with strong drivers); kept on
    disk beside the compiled kernel, since building the outlook takes a second, which every
    new process (a worker, the editor's live test drive) would pay."""
    key = _key(board, arrays, rules, laps)
    folder = CACHE / "strong-tables"
    path = folder / f"{key}.npz"
    try:
        with np.load(path) as stored:
            loaded = tuple(stored[f"t{n}"] for n in range(6))
        os.utime(path)  # used now: the last to be dropped (see _keep_newest)
        return loaded
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile, zlib.error):
        pass  # not kept yet, or damaged on disk: built again (and written over)
    built = _tables(board, arrays, rules, laps)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f".{key}.{os.getpid()}.npz")
        named: dict[str, Any] = {f"t{n}": table for n, table in enumerate(built)}
        np.savez_compressed(temporary, **named)
        os.replace(temporary, path)
        _keep_newest(folder, KEPT_TABLES)
    except OSError:
        pass  # a read-only cache folder only costs the next process the second
    return built


KEPT_TABLES = 32
"""Tables kept on disk at most, the most recently used. Every edit of a track's lanes, corners
or stops makes new tables (a few MB each, compressed: Monaco's outlook is 24 MB of floats, 5.5
MB on disk; a GP Online board's 0.2 to 4 MB); the editor's live test drive races after every
edit, and the folder would grow by that much each time. Enough for a league's dozen boards
under two rulesets: with 16, test drives going from board to board built their tables again
and again (the test suite, which asks for 28, built most of them on every run)."""


def _keep_newest(folder: Path, kept: int) -> None:
    """Remove all but the ``kept`` most recently used tables in ``folder``."""
    found = []
    for path in folder.glob("*.npz"):
        if path.name.startswith("."):
            continue  # another process's, being written
        try:
            found.append((path.stat().st_mtime, path))
        except OSError:
            continue  # removed meanwhile by another process
    for _, path in sorted(found, reverse=True)[kept:]:
        path.unlink(missing_ok=True)


def _key(board: Board, arrays: BoardArrays, rules: Ruleset, laps: int) -> str:
    """What the tables depend on: the lanes and their corners, the pit exit, the rules, the
    race's length, and the source of the readable driver, of its outlook and of these tables."""
    digest = hashlib.blake2b(digest_size=16)
    for table in (arrays.lane, arrays.lane_index, arrays.lane_length, arrays.corner,
                  arrays.corner_stops):
        digest.update(np.ascontiguousarray(table).tobytes())
    exit_space = board.pit_exit_target
    exit_at = (board.lane.get(exit_space), board.lane_index.get(exit_space)) if exit_space else ()
    digest.update(repr((exit_at, board.pit_exit_crosses, laps)).encode())
    digest.update(rules.model_dump_json().encode())
    for source in (reference.__file__, ol.__file__, __file__):  # and this module's layout
        digest.update(Path(str(source)).read_bytes())
    return digest.hexdigest()


def _tables(board: Board, arrays: BoardArrays, rules: Ruleset, laps: int) -> Tables:
    """:func:`tables`, built."""
    numbers = np.zeros(FLOAT_COLUMNS, np.float64)
    ints = np.zeros(INT_COLUMNS, np.int64)
    faces = np.full((max(len(rules.dice.gears), 1), CHANCE + 1), -1, np.int64)
    chances = np.zeros((max(len(rules.dice.gears), 1), CHANCE + 1), np.float64)
    # The outlook as the readable driver builds and keeps it (default arguments: its dnf is
    # worked out from the board and the race's length), for a race of these rules and laps (no
    # car needed: the outlook is a car's alone, whatever its build).
    driver = reference.StrongDriver()
    outlook = driver.outlook(RaceState(board=board, rules=rules, laps=laps, cars=()))
    numbers[S_DNF] = driver.dnf
    numbers[S_MARGIN] = driver.margin
    black = len(rules.dice.black)
    numbers[S_CONTACT] = len(rules.collision.losing) / black
    if rules.debris is not None:
        numbers[S_DEBRIS] = len(rules.debris.losing) / black
    numbers[S_PIT_TURNS] = reference.PIT_TURNS
    numbers[S_SPIN_TURNS] = ol.SPIN_TURNS
    numbers[S_GEARBOX_TURNS] = ol.GEARBOX_TURNS
    numbers[S_ENGINE_TURNS] = reference.ENGINE_TURNS
    numbers[S_BODY_TURNS] = reference.BODY_TURNS
    numbers[S_SUSPENSION_TURNS] = reference.SUSPENSION_TURNS
    ints[I_LAPS] = laps
    ints[I_PHASES] = len(outlook.flat[0]) if outlook.flat else 1
    ints[I_TOP_STOPS] = outlook.stop_states - 1
    ints[I_MAX_BRAKES] = outlook.max_brakes
    ints[I_MAX_TYRES] = outlook.max_tyres
    (ints[I_POSITION_STRIDE], ints[I_STOPS_STRIDE], ints[I_GEAR_STRIDE],
     ints[I_BRAKES_STRIDE]) = outlook.strides
    ints[I_LOOKS] = driver.looks
    ints[I_RESTART_GEAR] = rules.spin_out.restart_gear
    ints[I_PIT_GEAR] = rules.pits.quick_gear
    ints[I_COUNTS_AFTER_OVERSHOOT] = rules.corners.stop_after_overshoot_counts
    exit_space = board.pit_exit_target
    if exit_space is not None and exit_space in board.lane:
        ints[I_EXIT_LANE] = board.lane[exit_space]
        ints[I_EXIT_POSITION] = board.lane_index[exit_space]
    else:
        ints[I_EXIT_LANE] = -1
    ints[I_EXIT_CROSSES] = board.pit_exit_crosses
    # Every table of the outlook end to end: a lane's tables by phase (the turns by the gear
    # the car is in), then by phase again (by the gear taken); the last column, their length.
    phases = int(ints[I_PHASES])
    lanes = max(len(outlook.flat), 1)
    starts = np.zeros((lanes, 2 * phases + 1), np.int64)
    parts = []
    at = 0
    for lane, (by_phase, by_gear) in enumerate(zip(outlook.flat, outlook.flat_gears,
                                                   strict=True)):
        for column, table in enumerate((*by_phase, *by_gear)):
            starts[lane, column] = at
            parts.append(np.frombuffer(table, np.float64))
            at += len(table)
        starts[lane, 2 * phases] = len(by_phase[0])
    turns = np.ascontiguousarray(np.concatenate(parts) if parts else np.zeros(1, np.float64))
    damage = rules.engine_damage
    for gear in range(1, len(rules.dice.gears) + 1):
        distribution = face_distribution(rules, gear)
        for k, (face, chance) in enumerate(distribution):
            faces[gear - 1, k] = face
            chances[gear - 1, k] = float(chance)
        faces[gear - 1, CHANCE] = len(distribution)
        # StrongDriver._engine_risk, but for the WP's worth (the car's engine WP at the time).
        if damage is not None:
            die = rules.faces(gear)
            top = sum(1 for f in die if any(t.gear == gear and t.face == f
                                            for t in damage.triggers))
            if top:
                lose = Fraction(len(damage.losing), black)
                chances[gear - 1, CHANCE] = float(Fraction(top, len(die)) * lose)
    return numbers, ints, turns, starts, faces, chances
