"""Whole races in compiled code, so far for random drivers: the first races the kernel
reproduces race for race, under either ruleset.

The grid is drawn by the readable engine (:func:`~trackformat.sim.race.grid.new_race`, once per
race, with the race's generator); from the first game turn on, everything runs in compiled
code, as :class:`~trackformat.sim.race.runner.Race` plays it: the order of play at the start of
each game turn, the start roll (stall, super start), the gear chosen, its die, the move chosen,
the slipstream extras taken or declined, the quick stop's exit, and the turn limit. Each random
driver draws from its own generator, seeded as :class:`~trackformat.sim.drivers.bots.RandomDriver`
seeds it. Events are not written yet: a race is compared by its outcome (every car's final row,
the debris, the game turns).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from trackformat.rules import Ruleset
from trackformat.sim.core.board import Board
from trackformat.sim.core.dice import Dice, seed_state
from trackformat.sim.kernel import cars as kc
from trackformat.sim.kernel import price as kp
from trackformat.sim.kernel import resolve as kr
from trackformat.sim.kernel import walk as kw
from trackformat.sim.kernel.dice import State, randrange
from trackformat.sim.kernel.jit import compiled
from trackformat.sim.kernel.moves import blocking_table, board_arrays
from trackformat.sim.kernel.warm import announced
from trackformat.sim.move.slipstream import _patterns
from trackformat.sim.race.grid import new_race

Ints = npt.NDArray[np.int64]

(G_MAX_CHANGES, G_BRAKES_PER_SPACE, G_TYRES_PER_SPACE, G_ELIMINATED_MISSING, G_RESPIN_MAX,
 G_BLOCK_FROM, G_HAS_PIT_ENTRY, G_MAX_STOPS, G_SUPER_SPACES, G_LIMIT, G_PIT_ENTRY_RANK,
 G_TIE_INSIDE, G_SLIPSTREAM, G_SLIP_MIN_GEAR, G_SLIP_AT_LEAST, G_SLIP_EXTRA, G_SLIP_BRAKES,
 G_SLIP_TYRES) = range(18)
GAME_COLUMNS = 18
"""The numbers of a race the loop needs besides the resolution's (``P_*``)."""

(F_BLOCK_BRAKES, F_BLOCK_TYRES, F_WINDOW, F_STALL, F_SUPER) = range(5)
"""Rows of the race's flag tables: blocking costs by spaces left over, the pit window by laps
done, and the start's black-die results."""


_FIRST = True
"""No race has run in this process yet: the first one says on stderr if it compiles."""


@dataclass(frozen=True)
class KernelRace:
    """How a race ended in the kernel."""

    cars: Ints
    """Every car's final row (:mod:`trackformat.sim.kernel.cars`)."""
    debris: frozenset[str]
    turns: int
    completed: bool


def kernel_random_race(board: Board, rules: Ruleset, cars: int, seed: int,
                       laps: int | None = None,
                       driver_seed: int | Sequence[int] = 0) -> KernelRace:
    """Race ``cars`` random drivers in the kernel: car ``n`` driven as by
    ``RandomDriver(driver_seed)``, or ``RandomDriver(driver_seed[n])`` given one seed a car."""
    race_laps = laps if laps is not None else board.graphs.track.metadata.laps
    dice = Dice(seed)
    state = new_race(board, rules, cars, race_laps, dice, [])
    arrays = board_arrays(board)
    table = kc.car_rows(state, arrays)
    race = np.array([state.sequence, 0], np.int64)
    debris = np.zeros(len(arrays.names), np.int64)
    numbers, tables, triggers = kr.rule_tables(rules, race_laps, arrays.pit_exit_crosses)
    shifting, shift_costs = kc.shifting(rules)
    game = np.zeros(GAME_COLUMNS, np.int64)
    game[G_MAX_CHANGES] = rules.movement.max_lane_changes_on_straight
    game[G_BRAKES_PER_SPACE] = rules.movement.brakes_per_space
    game[G_TYRES_PER_SPACE] = rules.corners.tyres_per_space
    game[G_ELIMINATED_MISSING] = rules.corners.eliminated_missing
    game[G_RESPIN_MAX] = rules.spin_out.respin_max_spaces
    block_brakes, block_tyres, block_from = blocking_table(rules)
    game[G_BLOCK_FROM] = block_from
    game[G_HAS_PIT_ENTRY] = bool(board.pit_entry)
    window = rules.pits.window(race_laps)
    game[G_MAX_STOPS] = window.max_stops if window is not None else -1
    game[G_SUPER_SPACES] = rules.start.super_start_spaces
    game[G_LIMIT] = 4 * board.lap_length * (race_laps + 1) + 100
    game[G_PIT_ENTRY_RANK] = arrays.pit_entry_rank
    game[G_TIE_INSIDE] = rules.tie_break.value == "inside"
    slip = rules.slipstream
    shapes = np.zeros((1, 1), np.int64)
    if slip is not None:
        game[G_SLIPSTREAM] = 1
        game[G_SLIP_MIN_GEAR] = slip.min_gear
        game[G_SLIP_AT_LEAST] = slip.follower_at_least_leader
        game[G_SLIP_EXTRA] = slip.extra_spaces
        game[G_SLIP_BRAKES] = slip.corner_entry_cost.brakes
        game[G_SLIP_TYRES] = slip.corner_entry_cost.tyres
        shapes = np.array(_patterns(slip.extra_spaces), np.int64)
    flags = np.zeros((5, 64), np.int64)
    flags[F_BLOCK_BRAKES, : len(block_brakes)] = block_brakes
    flags[F_BLOCK_TYRES, : len(block_tyres)] = block_tyres
    for done in window.after_laps if window is not None else ():
        flags[F_WINDOW, done] = 1
    for face in rules.start.stall:
        flags[F_STALL, face] = 1
    for face in rules.start.super_start:
        flags[F_SUPER, face] = 1
    gears = np.zeros((len(rules.dice.gears), 64), np.int64)
    for n, faces in enumerate(rules.dice.gears):
        gears[n, : len(faces)] = faces
        gears[n, 63] = len(faces)
    seeds = [driver_seed] * cars if isinstance(driver_seed, int) else list(driver_seed)
    drivers = np.array([[seed_state(f"random-driver:{seeds[car]}:{seed}:{car}")]
                        for car in range(cars)], np.uint64)
    board_tables = (arrays.track_next, arrays.pit_next, arrays.pit_entry, arrays.lane,
                    arrays.lane_index, arrays.lane_length, arrays.corner, arrays.corner_stops,
                    arrays.in_pit, arrays.is_box, arrays.ahead, arrays.crossing,
                    arrays.contacts, arrays.progress, arrays.inside, arrays.pit_half)
    state_dice = np.array([dice.state], np.uint64)

    def run() -> tuple[int, bool]:
        result: tuple[int, bool] = _run(table, race, debris, state_dice, drivers, board_tables,
                                        numbers, tables, triggers, shifting, shift_costs, game,
                                        flags, gears, shapes)
        return result

    global _FIRST
    if _FIRST:
        (turns, completed), _ = announced(run, "race._run-")
        _FIRST = False
    else:
        turns, completed = run()
    return KernelRace(table, frozenset(arrays.names[s] for s in np.flatnonzero(debris)),
                      int(turns), bool(completed))


@compiled
def _run(cars: Ints, race: Ints, debris: Ints, dice: State, drivers: State,
         board: tuple[Ints, ...], numbers: Ints, tables: Ints, triggers: Ints, shifting: Ints,
         shift_costs: Ints, game: Ints, flags: Ints, gears: Ints,
         shapes: Ints) -> tuple[int, bool]:
    """Play game turns until every car is out or home, or the turn limit."""
    in_pit, progress, inside, pit_half = board[8], board[13], board[14], board[15]
    turn = 0
    while True:
        over = True
        for index in range(len(cars)):
            if cars[index, kc.C_STATUS] <= kc.SPUN:
                over = False
        if over or turn >= game[G_LIMIT]:
            break
        turn += 1
        order = kc.turn_order(cars, in_pit, progress, inside, pit_half, game[G_PIT_ENTRY_RANK],
                              game[G_TIE_INSIDE] == 1)
        for index in order:
            if cars[index, kc.C_STATUS] <= kc.SPUN:
                _play_car(cars, race, debris, dice, drivers[index], index, board, numbers,
                          tables, triggers, shifting, shift_costs, game, flags, gears, shapes)
    if not over:
        for index in range(len(cars)):
            if cars[index, kc.C_STATUS] <= kc.SPUN:
                kr._eliminate(cars, index, 9, debris, in_pit, numbers)
    return turn, over


@compiled
def _play_car(cars: Ints, race: Ints, debris: Ints, dice: State, driver: State, index: int,
              board: tuple[Ints, ...], numbers: Ints, tables: Ints, triggers: Ints,
              shifting: Ints, shift_costs: Ints, game: Ints, flags: Ints, gears: Ints,
              shapes: Ints) -> None:
    """One car's turn, as :meth:`~trackformat.sim.race.runner.Race._play_car` plays it."""
    in_pit = board[8]
    car = cars[index]
    if not car[kc.C_STARTED]:
        roll = kr._black(dice, tables)
        car[kc.C_STARTED] = 1
        if flags[F_STALL, roll]:
            return
        if flags[F_SUPER, roll]:
            spaces = game[G_SUPER_SPACES]
            every = _moves(cars, index, debris, spaces, board, numbers, game, flags, NO_MOVE,
                           shapes)
            moves = _super_start(every, cars, index, spaces, board[10])
            _play(cars, race, debris, dice, index, moves[randrange(driver, len(moves))], -1,
                  board, numbers, tables, triggers)
            if car[kc.C_STATUS] <= kc.SPUN:
                car[kc.C_GEAR] = 1
            return
    options = kc.gear_option_rows(car, in_pit[car[kc.C_SPACE]] == 1, shifting, shift_costs)
    option = options[randrange(driver, len(options))]
    car[kc.C_GEAR] = option[kc.O_GEAR]
    for k in range(6):
        car[kc.C_WEAR + k] -= option[kc.O_COST + k]
    if (option[kc.O_COST + kc.C_ENGINE - kc.C_WEAR] > 0 and numbers[kr.P_HAS_DEBRIS]
            and numbers[kr.P_DEBRIS_ENGINE]):
        kr._drop_debris(debris, car[kc.C_SPACE], in_pit)
    if option[kc.O_ELIMINATES]:
        kr._eliminate(cars, index, 8, debris, in_pit, numbers)
    if car[kc.C_STATUS] > kc.SPUN:
        return
    faces = gears[option[kc.O_GEAR] - 1]
    roll = faces[randrange(dice, faces[63])]
    moves = _moves(cars, index, debris, roll, board, numbers, game, flags, NO_MOVE, shapes)
    move = moves[randrange(driver, len(moves))]
    while game[G_SLIPSTREAM] and _has_leader(cars, index, move, board[8], board[10], game):
        extras = _moves(cars, index, debris, 0, board, numbers, game, flags, move, shapes)
        if len(extras) == 0:
            break
        choice = randrange(driver, len(extras) + 1)  # the random driver may decline
        if choice == 0:
            break
        move = extras[choice - 1]
    _play(cars, race, debris, dice, index, move, roll, board, numbers, tables, triggers)
    spaces = car[kc.C_PIT_EXIT]
    if spaces and car[kc.C_STATUS] <= kc.SPUN:
        moves = _moves(cars, index, debris, spaces, board, numbers, game, flags, NO_MOVE, shapes)
        _play(cars, race, debris, dice, index, moves[randrange(driver, len(moves))], -1,
              board, numbers, tables, triggers)


@compiled
def _play(cars: Ints, race: Ints, debris: Ints, dice: State, index: int, move: Ints,
          gear_roll: int, board: tuple[Ints, ...], numbers: Ints, tables: Ints,
          triggers: Ints) -> None:
    kr.play_move(cars, race, debris, index, move, gear_roll, dice, board[6], board[8],
                 board[10], board[11], board[12], numbers, tables, triggers)


@compiled
def _super_start(moves: Ints, cars: Ints, index: int, spaces: int, ahead: Ints) -> Ints:
    """The moves of a super start (see :func:`~trackformat.sim.move.legal.super_start_moves`)."""
    space = cars[index, kc.C_SPACE]
    clear = True
    for _ in range(spaces):
        nxt = ahead[space]
        if nxt < 0 or kr._car_on(cars, nxt, index) >= 0:
            clear = False
            break
        space = nxt
    if clear:
        for i in range(len(moves)):
            if moves[i, kp.M_DEST] == space and moves[i, kp.M_DISTANCE] == spaces:
                return moves[i:i + 1]
    full = np.zeros(len(moves), np.bool_)
    blocked = np.zeros(len(moves), np.bool_)
    for i in range(len(moves)):
        full[i] = (moves[i, kp.M_DISTANCE] == spaces and moves[i, kp.M_BLOCKED] == 0
                   and moves[i, kp.M_BRAKES] == 0)
        blocked[i] = moves[i, kp.M_BLOCKED] > 0
    if full.any():
        return moves[full]
    if blocked.any():
        return moves[blocked]
    return moves


@compiled
def _moves(cars: Ints, index: int, debris: Ints, roll: int, board: tuple[Ints, ...],
           numbers: Ints, game: Ints, flags: Ints, after: Ints, shapes: Ints) -> Ints:
    """The legal moves of car ``index`` for ``roll``, in the engine's order; or, given a move
    ``after``, the slipstream extras that may follow it."""
    (track_next, pit_next, pit_entry, lane, lane_index, lane_length, corner, corner_stops,
     in_pit, is_box) = board[:10]
    car = cars[index]
    occupied = np.zeros(len(lane), np.int64)
    spots = np.zeros(len(lane_length), np.int64)
    width = len(cars) + int(debris.sum()) + 1
    passable = np.full((len(lane_length), width), -1, np.int64)
    for other in range(len(cars)):
        if other != index and cars[other, kc.C_STATUS] <= kc.SPUN:
            s = cars[other, kc.C_SPACE]
            occupied[s] = 1
            if lane[s] >= 0:
                passable[lane[s], spots[lane[s]]] = lane_index[s]
                spots[lane[s]] += 1
    for s in np.flatnonzero(debris):
        if lane[s] >= 0:
            passable[lane[s], spots[lane[s]]] = lane_index[s]
            spots[lane[s]] += 1
    start = car[kc.C_SPACE]
    origin = np.zeros(kw.ROUTE_COLUMNS, np.int64)
    origin[kw.R_PATH:] = -1
    origin[kw.R_END] = start
    origin[kw.R_LOCK] = -1
    here = corner[start]
    origin[kw.R_CORNER] = here
    origin[kw.R_STOPS] = car[kc.C_STOPS] if here >= 0 and car[kc.C_CORNER] == here else 0
    origin[kw.R_IN_PIT] = in_pit[start]
    origin[kw.R_ANCHOR] = -1 if in_pit[start] or here >= 0 else start
    may_pit = False
    if (car[kc.C_BOX] >= 0 and game[G_HAS_PIT_ENTRY] and not in_pit[start]
            and game[G_MAX_STOPS] >= 0 and car[kc.C_PIT_STOPS] < game[G_MAX_STOPS]):
        done = car[kc.C_LAP] if numbers[kr.P_PIT_EXIT_CROSSES] else car[kc.C_LAP] - 1
        may_pit = 0 <= done < 64 and flags[F_WINDOW, done] == 1
    if len(after):
        extras: Ints = kp.slipstream_rows(
            track_next, pit_next, pit_entry, lane, lane_index, lane_length, corner,
            corner_stops, in_pit, is_box, origin, occupied, debris, passable, spots, after,
            game[G_SLIP_EXTRA], shapes, game[G_SLIP_BRAKES], game[G_SLIP_TYRES], may_pit,
            car[kc.C_BOX], game[G_MAX_CHANGES], car[kc.C_BRAKES], car[kc.C_TYRES],
            car[kc.C_STATUS] == kc.SPUN, game[G_BRAKES_PER_SPACE], game[G_TYRES_PER_SPACE],
            game[G_ELIMINATED_MISSING], game[G_RESPIN_MAX], game[G_BLOCK_FROM],
            flags[F_BLOCK_BRAKES], flags[F_BLOCK_TYRES])
        return extras
    rolls = np.array([roll], np.int64)
    rows: Ints = kp.legal_move_rows(
        track_next, pit_next, pit_entry, lane, lane_index, lane_length, corner, corner_stops,
        in_pit, is_box, origin, occupied, debris, passable, spots, rolls, may_pit,
        car[kc.C_BOX], game[G_MAX_CHANGES], car[kc.C_BRAKES], car[kc.C_TYRES],
        car[kc.C_STATUS] == kc.SPUN, game[G_BRAKES_PER_SPACE], game[G_TYRES_PER_SPACE],
        game[G_ELIMINATED_MISSING], game[G_RESPIN_MAX], game[G_BLOCK_FROM],
        flags[F_BLOCK_BRAKES], flags[F_BLOCK_TYRES])
    return rows


NO_MOVE = np.empty(0, np.int64)
"""No move to follow: :func:`_moves` gives the moves of a roll."""


@compiled
def _has_leader(cars: Ints, index: int, move: Ints, in_pit: Ints, ahead: Ints,
                game: Ints) -> bool:
    """Whether ``move`` ends in a slipstream (see
    :func:`~trackformat.sim.move.slipstream.slipstream_leader`)."""
    if (move[kp.M_ELIMINATED] != kp.NOT_ELIMINATED or move[kp.M_BOX] or move[kp.M_SPIN]
            or move[kp.M_BLOCKED] or move[kp.M_DISTANCE] != move[kp.M_ROLL]
            or in_pit[move[kp.M_DEST]]):
        return False
    front = ahead[move[kp.M_DEST]]
    leader = kr._car_on(cars, front, index) if front >= 0 else -1
    if leader < 0 or cars[leader, kc.C_STATUS] != kc.RACING:
        return False
    gear, lead = cars[index, kc.C_GEAR], cars[leader, kc.C_GEAR]
    if min(gear, lead) < game[G_SLIP_MIN_GEAR]:
        return False
    return not (game[G_SLIP_AT_LEAST] and gear < lead)
