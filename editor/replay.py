"""One race recorded turn by turn, for the replay on the board. No Qt.

A batch keeps counts, not races; to watch one, its seed is raced again (races are deterministic:
the same seed, track, rules and bots give the same race) and the cars' places are kept after
every turn.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from editor.replay_log import describe
from trackformat.rules import Ruleset, WearPoints
from trackformat.sim import Board
from trackformat.sim.batch.testdrive import driver_factories, race_seed
from trackformat.sim.core.events import Event
from trackformat.sim.core.state import RaceState
from trackformat.sim.race.runner import Race


@dataclass(frozen=True)
class CarFrame:
    """A car after a turn."""

    car: int
    space: str
    gear: int
    lap: int
    status: str
    bot: str


@dataclass(frozen=True)
class Frame:
    """The race after one turn (turn 0: on the grid), and what happened in that turn."""

    turn: int
    cars: tuple[CarFrame, ...]
    events: tuple[str, ...]


@dataclass(frozen=True)
class Replay:
    seed: int
    frames: tuple[Frame, ...]
    finish_order: tuple[int, ...]


def _cars(state: RaceState, bots: tuple[str, ...]) -> tuple[CarFrame, ...]:
    return tuple(
        CarFrame(c.index, c.space, c.gear, c.lap, c.status.value, bots[c.index]) for c in state.cars
    )


def record(
    board: Board,
    rules: Ruleset,
    bots: tuple[str, ...],
    seed: int,
    index: int,
    laps: int,
    max_turns: int | None = None,
    corner_names: Mapping[str, str] | None = None,
    builds: Sequence[WearPoints | None] = (),
) -> Replay:
    """Race number ``index`` of a batch with ``seed`` again, keeping a frame per turn and what
    happened in it in the game's words (corners by ``corner_names``, their names by id); each
    car starts with its build if ``builds`` gives one, as in the batch."""
    race_seed_value = race_seed(seed, index)
    factories = driver_factories()
    drivers = [factories[name](race_seed_value) for name in bots]
    race = Race(board, rules, drivers, race_seed_value, laps, builds=builds)
    def words(events: Sequence[Event]) -> tuple[str, ...]:
        return tuple(describe(e, corner_names) for e in events)

    frames = [Frame(0, _cars(race.state, bots), words(race.events))]
    limit = max_turns if max_turns is not None else 4 * board.lap_length * (laps + 1) + 100
    seen = len(race.events)
    while not race.state.over and race.state.turn < limit:
        race.play_turn()
        fresh = race.events[seen:]
        seen = len(race.events)
        frames.append(Frame(race.state.turn, _cars(race.state, bots), words(fresh)))
    return Replay(race_seed_value, tuple(frames), race.state.finish_order)
