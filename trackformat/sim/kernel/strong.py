"""The strong driver in compiled code: :class:`~trackformat.sim.drivers.strong.StrongDriver`'s
three choices, answer for answer.

The readable driver values every move in turns still needed to take the flag, read from the
board's :class:`~trackformat.sim.drivers.outlook.Outlook`; the compiled choices read the same
values from its tables, flattened once per batch (:mod:`~trackformat.sim.kernel.strong_tables`),
and add and compare the same floats in the same order:

- :func:`gear`: ``choose_gear``: the gears the outlook rates within the margin of its best (at
  most ``looks`` of them) weighed first, highest first, each over every face of its die, the
  lower gear on a tie; the other gears too when the best falls short of what the outlook
  expected. The moves of the faces come from one
  :func:`~trackformat.sim.kernel.ask.moves_for` call per gear whose shift spends brakes or
  tyres WP, and one for all the other gears of a batch (a car's moves depend on no other
  wear, nor on its gear, and a roll's moves are the same whatever larger rolls are asked with
  it: the readable engine's moves by roll rest on that too); each gear is valued with the car
  shifted in place, then put back, and the moves of the gear taken go back to the race, which
  reads its roll's moves there rather than walk them again;
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

import numpy as np
import numpy.typing as npt

from trackformat.sim.kernel import ask
from trackformat.sim.kernel import cars as kc
from trackformat.sim.kernel import price as kp
from trackformat.sim.kernel.game import CONTACTS, CORNER, CROSSING, IN_PIT, LANE, LANE_INDEX
from trackformat.sim.kernel.jit import compiled, copy_into, inlined
from trackformat.sim.kernel.strong_tables import (
    CHANCE,
    I_BRAKES_STRIDE,
    I_COUNTS_AFTER_OVERSHOOT,
    I_EXIT_CROSSES,
    I_EXIT_LANE,
    I_EXIT_POSITION,
    I_GEAR_STRIDE,
    I_LAPS,
    I_LOOKS,
    I_MAX_BRAKES,
    I_MAX_TYRES,
    I_PHASES,
    I_PIT_GEAR,
    I_POSITION_STRIDE,
    I_RESTART_GEAR,
    I_STOPS_STRIDE,
    I_TOP_STOPS,
    S_BODY_TURNS,
    S_CONTACT,
    S_DEBRIS,
    S_DNF,
    S_ENGINE_TURNS,
    S_GEARBOX_TURNS,
    S_MARGIN,
    S_PIT_TURNS,
    S_SPIN_TURNS,
    S_SUSPENSION_TURNS,
    Tables,
    tables,
)
from trackformat.sim.kernel.workspace import Workspace

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]

__all__ = ["gear", "move", "slipstream", "tables"]


@compiled
def gear(tables: Tables, options: Ints, cars: Ints, index: int, debris: Ints,
         board: tuple[Ints, ...], rules: tuple[Ints, ...],
         workspace: Workspace) -> tuple[int, Ints]:
    """The gear option row the driver takes (``StrongDriver.choose_gear``), and the moves of
    every face of its gear as the car has them once the shift is paid (no rows when the driver
    did not look at them), for the race to read its roll's moves from."""
    count = len(options)
    none = np.empty((0, kp.MOVE_COLUMNS), np.int64)
    if count == 1:
        return 0, none
    numbers = tables[0]
    dnf, margin = numbers[S_DNF], numbers[S_MARGIN]
    looked = np.zeros(count, np.int64)
    expected = _worth_a_look(tables, options, cars[index], board, looked)
    car = cars[index]
    kept = car[kc.C_GEAR:kc.C_WEAR + 6].copy()
    best, best_value, best_moves = -1, 0.0, none
    for batch in (1, 0):
        shared = _shared_moves(tables, options, looked, batch, cars, index, debris, board,
                               rules, workspace)
        # Highest gear first (the options come lowest first, one per gear).
        for k in range(count - 1, -1, -1):
            if looked[k] != batch:
                continue
            option = options[k]
            moves = none
            if option[kc.O_ELIMINATES]:
                value = -dnf
            else:
                # The shifted car (StrongDriver: state.with_car(shift(current, option))).
                car[kc.C_GEAR] = option[kc.O_GEAR]
                for w in range(6):
                    car[kc.C_WEAR + w] -= option[kc.O_COST + w]
                if _same_moves(option):
                    moves = shared
                    value = _gear_value(tables, option, shared, cars, index, board)
                else:
                    row = tables[4][option[kc.O_GEAR] - 1]
                    moves = ask.moves_for(cars, index, debris, row[:row[CHANCE]].copy(), board,
                                          rules, workspace)
                    value = _gear_value(tables, option, moves, cars, index, board)
                copy_into(car[kc.C_GEAR:kc.C_WEAR + 6], kept)
            if best < 0 or value > best_value or (
                    value == best_value and option[kc.O_GEAR] < options[best, kc.O_GEAR]):
                best, best_value, best_moves = k, value, moves
        if best_value >= -expected - margin:
            break
    return best, best_moves


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
    copy_into(alone[0], move)
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
                  rules: tuple[Ints, ...], workspace: Workspace) -> Ints:
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
                         rules, workspace)


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
    starts = ask.roll_starts(moves)
    first, last = starts[row[0]], starts[row[distinct - 1] + 1]
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
    sizes = starts.shape[1] - 1  # the column where each lane gives its table's length
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
        m = first + k
        if moves[m, kp.M_ELIMINATED] != kp.NOT_ELIMINATED:
            found[k] = -dnf - 1.0  # a sure elimination later still leaves a chance
            continue
        brakes = brakes0 - moves[m, kp.M_BRAKES]
        tyres = tyres0 - moves[m, kp.M_TYRES]
        destination = moves[m, kp.M_DEST]
        distance = moves[m, kp.M_DISTANCE]
        # Board.crossings: the links across the line, and leaving a pit lane that bypasses it.
        crossings = 0
        previous = start
        for i in range(distance):
            space = moves[m, kp.M_ROUTE + i]
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
            if moves[m, kp.M_BOX]:
                tyres = max(tyres, car[kc.C_START_TYRES])  # its own new tyres
            if exit_crosses:
                phase -= 1
            turn = 0.0
            if phase >= 0:
                turn = turns[_place(starts[lane, min(phase, phases - 1)], starts[lane, sizes],
                                    ints[I_EXIT_POSITION] * position_stride
                                    + (min(gear, ints[I_PIT_GEAR]) - 1) * gear_stride
                                    + max(0, min(brakes, top_brakes)) * brakes_stride
                                    + max(0, min(tyres, top_tyres)))]
            found[k] = -(turn + numbers[S_PIT_TURNS])
            continue
        here = corner[destination]
        # The stops made in the corner the move ends in (a stop ends a move in it).
        stops = 0
        if here >= 0:
            stayed = car[kc.C_CORNER] == here
            for i in range(distance):
                if corner[moves[m, kp.M_ROUTE + i]] != here:
                    stayed = False
                    break
            if stayed:
                stops = car[kc.C_STOPS] + 1
            elif moves[m, kp.M_NEXITS] > 0 and not counts:
                stops = 0
            else:
                stops = 1
        spin = moves[m, kp.M_SPIN] == 1
        lane = lane_of[destination]
        turn = turns[_place(starts[lane, min(phase, phases - 1)], starts[lane, sizes],
                            position_of[destination] * position_stride
                            + min(stops, top_stops) * stops_stride
                            + ((ints[I_RESTART_GEAR] if spin else gear) - 1) * gear_stride
                            + max(0, min(brakes, top_brakes)) * brakes_stride
                            + (0 if spin or tyres < 0 else min(tyres, top_tyres)))]
        if spin:
            turn = turn + numbers[S_SPIN_TURNS]
        neighbours = 0
        for j in range(contacts.shape[1]):
            s = contacts[destination, j]
            if s < 0:
                break
            if taken[s]:
                neighbours += 1
        found[k] = -(turn + contact_risk * neighbours + moves[m, kp.M_DEBRIS] * debris_risk)
    return found


@inlined
def _place(table: int, length: int, at: int) -> int:
    """Where place ``at`` of an outlook table (starting at ``table`` in the tables, ``length``
    long) is, read as the readable driver reads it: a negative place counts from the table's
    end (a car in no gear yet, at a super start, reads there).

    Numbers only: each array handed to a function numba writes into a loop is reference-counted
    (an atomic add and subtract) on every pass."""
    return table + (at + length if at < 0 else at)
