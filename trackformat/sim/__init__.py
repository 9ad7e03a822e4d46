"""The race engine: race state, legal moves, events, a race runner, drivers and test drives.

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

The engine itself lives in rooms, each a sub-package that imports only the rooms before it in
this list (its docstring says which; ``tests/sim/test_layout.py`` checks it):

- ``core``: the board's lookups, the race state, the events, the dice generator;
- ``move``: the rules of a move: gears and dice, legal moves, route walks, slipstream, playing a
  move and what it sets off;
- ``race``: the grid, the order of play, whole races;
- ``drivers``: the random, cautious and strong drivers;
- ``batch``: test drives, their counts, race logs, batches on a cluster;
- ``kernel``: the compiled kernel (in progress), the only room that imports compiled code.

Inside the engine, modules import each other by their room's module (never through this
package's names), so that importing one room never needs the rooms built on it.
"""

from trackformat.sim.core import events
from trackformat.sim.core.board import Board
from trackformat.sim.core.state import NO_COST, CarState, CarStatus, Cause, RaceState, Wear
from trackformat.sim.drivers.bots import DRIVERS, CautiousDriver, RandomDriver
from trackformat.sim.move.gears import GearOption, face_distribution, faces, gear_options, shift
from trackformat.sim.move.legal import (
    CornerExit,
    Move,
    legal_moves,
    legal_moves_by_roll,
    may_enter_pit,
    super_start_moves,
)
from trackformat.sim.move.resolve import pay_shift, play_move
from trackformat.sim.move.slipstream import slipstream_leader, slipstream_moves
from trackformat.sim.race.grid import RaceSetupError, draw_grid, new_race, turn_order
from trackformat.sim.race.runner import CarResult, Driver, DriverError, Race, RaceResult, run_race

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
