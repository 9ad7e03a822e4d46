"""The strong driver in compiled code: :class:`~trackformat.sim.drivers.strong.StrongDriver`'s
three choices, answer for answer.

The readable driver values every move in turns still needed to take the flag, read from the
board's :class:`~trackformat.sim.drivers.outlook.Outlook`. Its tables are flattened here once per
batch (:func:`tables`), from the very Outlook object the readable driver builds and keeps on the
board, together with every number the driver works out of the rules (the chances of each face,
the engine-risk factor of each gear, the odds of losing a body or suspension WP), worked out in
Python by the same operations, so that the compiled choices add and compare the same floats in
the same order and give bit-identical values:

- :func:`gear`: ``choose_gear``: the gears the outlook rates within the margin of its best (at
  most ``looks`` of them) weighed first, highest first, each over every face of its die, the
  lower gear on a tie; the other gears too when the best falls short of what the outlook
  expected. The moves of the faces come from one
  :func:`~trackformat.sim.kernel.ask.moves_for` call per gear whose shift spends brakes or
  tyres WP, and one for all the other gears of a batch (a car's moves depend on no other
  wear, nor on its gear, and a roll's moves are the same whatever larger rolls are asked with
  it: the readable engine's moves by roll rest on that too); each gear is valued with the car
  shifted in place, then put back;
- :func:`move`: ``choose_move``, the first of the best moves;
- :func:`slipstream`: ``choose_slipstream``, the first of the best extras when it is worth more
  than the move without them.

The readable driver also remembers, from its gear choice, the best move of each face
(``_planned``) and plays it when the runner offers that very list of moves. The kernel looks
afresh instead: the plan was made on the same car (shifted as the shift was then paid), the
same other cars and the same moves, so the values are the same, and the plan's best (the first
strictly above ``-2 * dnf``, else the first move) is the first of the best, as the fresh
look's ``max``, whenever some move of the face is worth more than ``-2 * dnf``. An elimination
is worth ``-dnf - 1`` and the outlook never counts more than ``dnf`` turns (a spin adds 1.5),
so only the contact and debris risks could take every move of a face below: it would take
some five debris markers on every way of playing the face with the last suspension WP (a
marker is then worth a fifth of ``dnf`` under the Formula Dé rules), where the plan would play
the face's first move and the kernel its best.
"""

from __future__ import annotations

import hashlib
import os
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from trackformat.rules import Ruleset
from trackformat.sim.core.board import Board
from trackformat.sim.core.dice import Dice
from trackformat.sim.drivers import outlook as ol
from trackformat.sim.drivers import strong as reference
from trackformat.sim.kernel import ask
from trackformat.sim.kernel import cars as kc
from trackformat.sim.kernel import price as kp
from trackformat.sim.kernel.arrays import BoardArrays
from trackformat.sim.kernel.game import CONTACTS, CORNER, CROSSING, IN_PIT, LANE, LANE_INDEX
from trackformat.sim.kernel.jit import CACHE, compiled, inlined
from trackformat.sim.move.gears import face_distribution
from trackformat.sim.race.grid import new_race

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
 I_GEAR_STRIDE, I_BRAKES_STRIDE, I_LOOKS, I_RESTART_GEAR, I_NEW_TYRES, I_PIT_GEAR,
 I_COUNTS_AFTER_OVERSHOOT, I_EXIT_LANE, I_EXIT_POSITION, I_EXIT_CROSSES) = range(17)
INT_COLUMNS = 17
"""The driver's ints: the race's laps, the outlook's phases, top stops, brakes and tyres and
its strides, gears weighed at most, the gear a spun car restarts in, new tyres, the gear of a
quick stop, whether a stop after an overshoot counts, the pit exit's lane and position (-1:
none on a lane) and whether leaving the pit lane crosses the line."""

CHANCE = 63
"""In a row of the faces: the number of distinct faces; of the chances: the gear's engine-risk
factor (the odds of a top result times those of losing an engine WP on its roll)."""


def tables(board: Board, arrays: BoardArrays, rules: Ruleset, laps: int,
           wanted: bool) -> Tables:
    """What the driver reads, built once per batch (placeholders of the same types when no
    car needs them); kept on disk beside the compiled kernel, since building the outlook takes
    a second, which every new process (a worker, the editor's live test drive) would pay."""
    if not wanted:
        return _tables(board, arrays, rules, laps, wanted)
    key = _key(board, arrays, rules, laps)
    path = CACHE / "strong-tables" / f"{key}.npz"
    try:
        with np.load(path) as stored:
            return tuple(stored[f"t{n}"] for n in range(6))
    except (OSError, ValueError, KeyError):
        pass  # not kept yet, or unreadable: built again
    built = _tables(board, arrays, rules, laps, wanted)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f".{key}.{os.getpid()}.npz")
        named: dict[str, Any] = {f"t{n}": table for n, table in enumerate(built)}
        np.savez(temporary, **named)
        os.replace(temporary, path)
    except OSError:
        pass  # a read-only cache folder only costs the next process the second
    return built


def _key(board: Board, arrays: BoardArrays, rules: Ruleset, laps: int) -> str:
    """What the tables depend on: the lanes and their corners, the pit exit, the rules, the
    race's length, and the source of the readable driver and of its outlook."""
    digest = hashlib.blake2b(digest_size=16)
    for table in (arrays.lane, arrays.lane_index, arrays.lane_length, arrays.corner,
                  arrays.corner_stops):
        digest.update(np.ascontiguousarray(table).tobytes())
    exit_space = board.pit_exit_target
    exit_at = (board.lane.get(exit_space), board.lane_index.get(exit_space)) if exit_space else ()
    digest.update(repr((exit_at, board.pit_exit_crosses, laps)).encode())
    digest.update(rules.model_dump_json().encode())
    for module in (reference, ol):
        digest.update(Path(str(module.__file__)).read_bytes())
    return digest.hexdigest()


def _tables(board: Board, arrays: BoardArrays, rules: Ruleset, laps: int,
            wanted: bool) -> Tables:
    """:func:`tables`, built."""
    numbers = np.zeros(FLOAT_COLUMNS, np.float64)
    ints = np.zeros(INT_COLUMNS, np.int64)
    faces = np.full((max(len(rules.dice.gears), 1), CHANCE + 1), -1, np.int64)
    chances = np.zeros((max(len(rules.dice.gears), 1), CHANCE + 1), np.float64)
    if not wanted:
        return (numbers, ints, np.zeros(1, np.float64), np.zeros((1, 1), np.int64), faces,
                chances)
    # The outlook as the readable driver builds and keeps it (default arguments: its dnf is
    # worked out from the board and the race's length), for a state of this race.
    driver = reference.StrongDriver()
    outlook = driver.outlook(new_race(board, rules, 1, laps, Dice(0), []))
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
    ints[I_NEW_TYRES] = rules.starting_wear(laps).tyres
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


@compiled
def gear(tables: Tables, options: Ints, cars: Ints, index: int, debris: Ints,
         board: tuple[Ints, ...], rules: tuple[Ints, ...]) -> int:
    """The gear option row the driver takes (``StrongDriver.choose_gear``)."""
    count = len(options)
    if count == 1:
        return 0
    numbers = tables[0]
    dnf, margin = numbers[S_DNF], numbers[S_MARGIN]
    looked = np.zeros(count, np.int64)
    expected = _worth_a_look(tables, options, cars[index], board, looked)
    car = cars[index]
    kept = car[kc.C_GEAR:kc.C_WEAR + 6].copy()
    best, best_value = -1, 0.0
    for batch in (1, 0):
        shared = _shared_moves(tables, options, looked, batch, cars, index, debris, board,
                               rules)
        # Highest gear first (the options come lowest first, one per gear).
        for k in range(count - 1, -1, -1):
            if looked[k] != batch:
                continue
            option = options[k]
            if option[kc.O_ELIMINATES]:
                value = -dnf
            else:
                # The shifted car (StrongDriver: state.with_car(shift(current, option))).
                car[kc.C_GEAR] = option[kc.O_GEAR]
                for w in range(6):
                    car[kc.C_WEAR + w] -= option[kc.O_COST + w]
                if _same_moves(option):
                    value = _gear_value(tables, option, shared, cars, index, board)
                else:
                    row = tables[4][option[kc.O_GEAR] - 1]
                    moves = ask.moves_for(cars, index, debris, row[:row[CHANCE]].copy(), board,
                                         rules)
                    value = _gear_value(tables, option, moves, cars, index, board)
                car[kc.C_GEAR:kc.C_WEAR + 6] = kept
            if best < 0 or value > best_value or (
                    value == best_value and option[kc.O_GEAR] < options[best, kc.O_GEAR]):
                best, best_value = k, value
        if best_value >= -expected - margin:
            break
    return best


@compiled
def move(tables: Tables, moves: Ints, roll: int, cars: Ints, index: int, debris: Ints,
         board: tuple[Ints, ...], rules: tuple[Ints, ...]) -> int:
    """The move row the driver plays: the first of the best (``StrongDriver.choose_move``)."""
    values = _values(tables, moves, 0, len(moves), cars[index, kc.C_GEAR], cars, index, board)
    best = 0
    for k in range(1, len(moves)):
        if values[k] > values[best]:
            best = k
    return best


@compiled
def slipstream(tables: Tables, move: Ints, extras: Ints, cars: Ints, index: int,
               debris: Ints, board: tuple[Ints, ...], rules: tuple[Ints, ...]) -> int:
    """The slipstream row the driver takes, -1 when it declines: the first of the best extras
    if it is worth more than ``move`` (``StrongDriver.choose_slipstream``)."""
    gear_now = cars[index, kc.C_GEAR]
    values = _values(tables, extras, 0, len(extras), gear_now, cars, index, board)
    best = 0
    for k in range(1, len(extras)):
        if values[k] > values[best]:
            best = k
    alone = np.empty((1, len(move)), np.int64)
    alone[0] = move
    worth = _values(tables, alone, 0, 1, gear_now, cars, index, board)[0]
    return best if values[best] > worth else -1


@inlined
def _worth_a_look(tables: Tables, options: Ints, car: Ints, board: tuple[Ints, ...],
                  looked: Ints) -> float:
    """``StrongDriver._worth_a_look``: the turns the outlook expects for a car alone; the
    gears worth weighing first flagged in ``looked`` (every gear off the lanes)."""
    numbers, ints, turns, starts, _, _ = tables
    space = car[kc.C_SPACE]
    lane = board[LANE][space]
    count = len(options)
    if lane < 0:
        looked[:] = 1
        return numbers[S_DNF]  # type: ignore[no-any-return]
    phases = ints[I_PHASES]
    # Outlook.gear_turns: the table of the phase, the base of the car's position and wear.
    phase = max(0, min(ints[I_LAPS] - car[kc.C_LAP], phases - 1))
    first = starts[lane, phases + phase]
    stops = car[kc.C_STOPS] if car[kc.C_CORNER] >= 0 else 0
    engine = (numbers[S_DNF] if car[kc.C_ENGINE] <= 1 else numbers[S_ENGINE_TURNS])
    rated = np.empty(count, np.float64)
    for k in range(count):
        option = options[k]
        brakes = car[kc.C_BRAKES] - option[kc.O_COST + kc.C_BRAKES - kc.C_WEAR]
        base = (board[LANE_INDEX][space] * ints[I_POSITION_STRIDE]
                + min(stops, ints[I_TOP_STOPS]) * ints[I_STOPS_STRIDE]
                + max(0, min(brakes, ints[I_MAX_BRAKES])) * ints[I_BRAKES_STRIDE]
                + max(0, min(car[kc.C_TYRES], ints[I_MAX_TYRES])))
        by_gear = turns[first + base + (option[kc.O_GEAR] - 1) * ints[I_GEAR_STRIDE]]
        rated[k] = (by_gear
                    + option[kc.O_COST + kc.C_GEARBOX - kc.C_WEAR] * numbers[S_GEARBOX_TURNS]
                    + option[kc.O_COST + kc.C_ENGINE - kc.C_WEAR] * engine)
    # Sorted by (turns, gear): the best first; at most `looks` of them, within the margin.
    taken = np.zeros(count, np.int64)
    best = 0.0
    for n in range(min(ints[I_LOOKS], count)):
        pick = -1
        for k in range(count):
            if not taken[k] and (pick < 0 or rated[k] < rated[pick] or (
                    rated[k] == rated[pick] and options[k, kc.O_GEAR] < options[pick,
                                                                                kc.O_GEAR])):
                pick = k
        taken[pick] = 1
        if n == 0:
            best = rated[pick]
        if rated[pick] <= best + numbers[S_MARGIN]:
            looked[pick] = 1
    return best


@inlined
def _same_moves(option: Ints) -> bool:
    """Whether the car shifted into ``option`` has the moves of the car as it stands: the
    shift spends no brakes or tyres WP (the only wear its moves depend on) and does not put it
    out."""
    return (option[kc.O_COST + kc.C_BRAKES - kc.C_WEAR] == 0
            and option[kc.O_COST + kc.C_TYRES - kc.C_WEAR] == 0 and not option[kc.O_ELIMINATES])


@inlined
def _shared_moves(tables: Tables, options: Ints, looked: Ints, batch: int, cars: Ints,
                  index: int, debris: Ints, board: tuple[Ints, ...],
                  rules: tuple[Ints, ...]) -> Ints:
    """The moves of every face of the gears of a batch (``looked`` equal to ``batch``) whose
    shift leaves the car's moves as they are (:func:`_same_moves`), from one walk: the moves do
    not depend on the gear either, and each roll's moves are those of that roll alone."""
    faces = tables[4]
    wanted = np.zeros(CHANCE + 1, np.bool_)
    for k in range(len(options)):
        if looked[k] == batch and _same_moves(options[k]):
            row = faces[options[k, kc.O_GEAR] - 1]
            for f in range(row[CHANCE]):
                wanted[row[f]] = True
    if not wanted.any():
        return np.empty((0, kp.MOVE_COLUMNS), np.int64)
    return ask.moves_for(cars, index, debris, np.flatnonzero(wanted).astype(np.int64), board,
                         rules)


@compiled
def _gear_value(tables: Tables, option: Ints, moves: Ints, cars: Ints, index: int,
                board: tuple[Ints, ...]) -> float:
    """``StrongDriver._gear_value`` of the car shifted into ``option``, from ``moves`` (the
    moves of every face of its die, roll by roll, and maybe of other rolls): over the faces,
    the chance of each times the value of its best move, less the shift's price and the engine
    rolls a top result risks."""
    numbers, _, _, _, faces, chances = tables
    gear_taken = option[kc.O_GEAR]
    row = faces[gear_taken - 1]
    distinct = row[CHANCE]
    first = 0
    while first < len(moves) and moves[first, kp.M_ROLL] < row[0]:
        first += 1
    last = first
    while last < len(moves) and moves[last, kp.M_ROLL] <= row[distinct - 1]:
        last += 1
    values = _values(tables, moves, first, last, gear_taken, cars, index, board)
    at = first
    total = 0.0
    for f in range(distinct):
        best_value = -numbers[S_DNF] * 2
        while at < last and moves[at, kp.M_ROLL] < row[f]:
            at += 1
        while at < last and moves[at, kp.M_ROLL] == row[f]:
            if values[at - first] > best_value:
                best_value = values[at - first]
            at += 1
        total += chances[gear_taken - 1, f] * best_value
    engine = cars[index, kc.C_ENGINE]
    worth = numbers[S_DNF] if engine <= 1 else numbers[S_ENGINE_TURNS]
    total -= (option[kc.O_COST + kc.C_GEARBOX - kc.C_WEAR] * numbers[S_GEARBOX_TURNS]
              + option[kc.O_COST + kc.C_ENGINE - kc.C_WEAR] * worth)
    total -= chances[gear_taken - 1, CHANCE] * worth
    return total  # type: ignore[no-any-return]


@compiled
def _values(tables: Tables, moves: Ints, first: int, last: int, gear: int, cars: Ints,
            index: int, board: tuple[Ints, ...]) -> Floats:
    """Minus the turns still needed after each of ``moves[first:last]`` played in ``gear``,
    risks included (``_Look.values``, and ``_Look._in_pit`` for the moves into the pit
    lane)."""
    numbers, ints, turns, starts, _, _ = tables
    in_pit, corner, crossing, contacts = board[IN_PIT], board[CORNER], board[CROSSING], board[
        CONTACTS]
    lane_of, position_of = board[LANE], board[LANE_INDEX]
    dnf = numbers[S_DNF]
    car = cars[index]
    start, brakes0, tyres0 = car[kc.C_SPACE], car[kc.C_BRAKES], car[kc.C_TYRES]
    laps_left = ints[I_LAPS] - car[kc.C_LAP]
    phases = ints[I_PHASES]
    exit_crosses = ints[I_EXIT_CROSSES] == 1
    counts = ints[I_COUNTS_AFTER_OVERSHOOT] == 1
    top_stops, top_brakes, top_tyres = ints[I_TOP_STOPS], ints[I_MAX_BRAKES], ints[I_MAX_TYRES]
    position_stride, stops_stride = ints[I_POSITION_STRIDE], ints[I_STOPS_STRIDE]
    gear_stride, brakes_stride = ints[I_GEAR_STRIDE], ints[I_BRAKES_STRIDE]
    # What does not depend on the move (_Look.__init__): the risks, the other cars' spaces.
    body = dnf if car[kc.C_BODY] <= 1 else numbers[S_BODY_TURNS]
    contact_risk = numbers[S_CONTACT] * body
    suspension = dnf if car[kc.C_SUSPENSION] <= 1 else numbers[S_SUSPENSION_TURNS]
    debris_risk = numbers[S_DEBRIS] * suspension
    taken = np.zeros(len(in_pit), np.bool_)
    for other in range(len(cars)):
        if other != index and cars[other, kc.C_STATUS] <= kc.SPUN:
            taken[cars[other, kc.C_SPACE]] = True
    found = np.empty(last - first, np.float64)
    for k in range(last - first):
        move = moves[first + k]
        if move[kp.M_ELIMINATED] != kp.NOT_ELIMINATED:
            found[k] = -dnf - 1.0  # a sure elimination later still leaves a chance
            continue
        brakes = brakes0 - move[kp.M_BRAKES]
        tyres = tyres0 - move[kp.M_TYRES]
        destination = move[kp.M_DEST]
        distance = move[kp.M_DISTANCE]
        # Board.crossings: the links across the line, and leaving a pit lane that bypasses it.
        crossings = 0
        previous = start
        for i in range(distance):
            space = move[kp.M_ROUTE + i]
            if exit_crosses and in_pit[previous] == 1 and in_pit[space] == 0:
                crossings += 1
            else:
                for j in range(crossing.shape[1]):
                    if crossing[previous, j] == space:
                        crossings += 1
                        break
                    if crossing[previous, j] < 0:
                        break
            previous = space
        phase = laps_left - crossings
        if phase < 0:
            found[k] = 0.0  # the flag: nothing after it matters
            continue
        if in_pit[destination]:
            # _Look._in_pit: the turns from the pit exit, plus the time a stop costs.
            lane = ints[I_EXIT_LANE]
            if lane < 0:
                found[k] = -dnf
                continue
            if move[kp.M_BOX]:
                tyres = max(tyres, ints[I_NEW_TYRES])
            if exit_crosses:
                phase -= 1
            turn = 0.0
            if phase >= 0:
                turn = _read(turns, starts, lane, min(phase, phases - 1),
                             ints[I_EXIT_POSITION] * position_stride
                             + (min(gear, ints[I_PIT_GEAR]) - 1) * gear_stride
                             + max(0, min(brakes, top_brakes)) * brakes_stride
                             + max(0, min(tyres, top_tyres)))
            found[k] = -(turn + numbers[S_PIT_TURNS])
            continue
        here = corner[destination]
        # The stops made in the corner the move ends in (a stop ends a move in it).
        stops = 0
        if here >= 0:
            stayed = car[kc.C_CORNER] == here
            for i in range(distance):
                if corner[move[kp.M_ROUTE + i]] != here:
                    stayed = False
                    break
            if stayed:
                stops = car[kc.C_STOPS] + 1
            elif move[kp.M_NEXITS] > 0 and not counts:
                stops = 0
            else:
                stops = 1
        spin = move[kp.M_SPIN] == 1
        turn = _read(turns, starts, lane_of[destination], min(phase, phases - 1),
                     position_of[destination] * position_stride
                     + min(stops, top_stops) * stops_stride
                     + ((ints[I_RESTART_GEAR] if spin else gear) - 1) * gear_stride
                     + max(0, min(brakes, top_brakes)) * brakes_stride
                     + (0 if spin or tyres < 0 else min(tyres, top_tyres)))
        if spin:
            turn = turn + numbers[S_SPIN_TURNS]
        neighbours = 0
        for j in range(contacts.shape[1]):
            s = contacts[destination, j]
            if s < 0:
                break
            if taken[s]:
                neighbours += 1
        found[k] = -(turn + contact_risk * neighbours + move[kp.M_DEBRIS] * debris_risk)
    return found


@inlined
def _read(turns: Floats, starts: Ints, lane: int, phase: int, at: int) -> float:
    """The outlook's table of ``lane`` and ``phase`` at ``at``, read as the readable driver
    reads it: a negative place counts from the table's end (a car in no gear yet, at a super
    start, reads there)."""
    if at < 0:
        at += starts[lane, starts.shape[1] - 1]
    return turns[starts[lane, phase] + at]  # type: ignore[no-any-return]
