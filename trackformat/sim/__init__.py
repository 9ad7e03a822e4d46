"""The race engine: race state, legal moves, events, a race runner and simple bots.

The public API, in the order a race uses it:

- :class:`Board` (``Board.of(track)``): the track's lookups, built once per track.
- :class:`RaceState`, :class:`CarState`, :class:`Wear`: the race as a value.
- :func:`gear_options`, :func:`face_distribution`: a car's gears and each die's exact outcomes.
- :func:`legal_moves` (:class:`Move`), :func:`legal_moves_by_roll` (every face of a die at
  once), :func:`slipstream_moves`, :func:`super_start_moves`: what a roll allows.
- :func:`pay_shift`, :func:`play_move`: shift gear, play a move; get the new state and the
  :mod:`events` it caused.
- :func:`run_race` / :class:`Race`: a whole race driven by :class:`Driver` objects,
  e.g. :class:`RandomDriver`, :class:`CautiousDriver`.
"""

from trackformat.sim import events
from trackformat.sim.board import Board
from trackformat.sim.bots import DRIVERS, CautiousDriver, RandomDriver
from trackformat.sim.gears import GearOption, face_distribution, faces, gear_options, shift
from trackformat.sim.grid import RaceSetupError, draw_grid, new_race, turn_order
from trackformat.sim.moves import (
    CornerExit,
    Move,
    legal_moves,
    legal_moves_by_roll,
    may_enter_pit,
    super_start_moves,
)
from trackformat.sim.race import CarResult, Driver, DriverError, Race, RaceResult, run_race
from trackformat.sim.resolve import pay_shift, play_move
from trackformat.sim.slipstream import slipstream_leader, slipstream_moves
from trackformat.sim.state import NO_COST, CarState, CarStatus, Cause, RaceState, Wear

__all__ = [
    "DRIVERS",
    "NO_COST",
    "Board",
    "CarResult",
    "CarState",
    "CarStatus",
    "Cause",
    "CautiousDriver",
    "CornerExit",
    "Driver",
    "DriverError",
    "GearOption",
    "Move",
    "Race",
    "RaceResult",
    "RaceSetupError",
    "RaceState",
    "RandomDriver",
    "Wear",
    "draw_grid",
    "events",
    "face_distribution",
    "faces",
    "gear_options",
    "legal_moves",
    "legal_moves_by_roll",
    "may_enter_pit",
    "new_race",
    "pay_shift",
    "play_move",
    "run_race",
    "shift",
    "slipstream_leader",
    "slipstream_moves",
    "super_start_moves",
    "turn_order",
]
