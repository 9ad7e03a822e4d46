"""The strong driver in compiled code (not written yet: the kernel does not race it, see
:data:`~trackformat.sim.kernel.race.KERNEL_DRIVERS`)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from trackformat.rules import Ruleset
from trackformat.sim.core.board import Board
from trackformat.sim.kernel.arrays import BoardArrays
from trackformat.sim.kernel.jit import compiled

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]
Tables = tuple[Floats, Ints]


def tables(board: Board, arrays: BoardArrays, rules: Ruleset, laps: int,
           wanted: bool) -> Tables:
    """What the driver reads, built once per batch (placeholders when no car needs them)."""
    return np.zeros(1, np.float64), np.zeros((1, 1), np.int64)


@compiled
def gear(tables: Tables, options: Ints, cars: Ints, index: int, debris: Ints,
         board: tuple[Ints, ...], rules: tuple[Ints, ...]) -> int:
    """The gear option row the driver takes."""
    return 0


@compiled
def move(tables: Tables, moves: Ints, roll: int, cars: Ints, index: int, debris: Ints,
         board: tuple[Ints, ...], rules: tuple[Ints, ...]) -> int:
    """The move row the driver plays."""
    return 0


@compiled
def slipstream(tables: Tables, move: Ints, extras: Ints, cars: Ints, index: int,
               debris: Ints, board: tuple[Ints, ...], rules: tuple[Ints, ...]) -> int:
    """The slipstream row the driver takes (-1: declines)."""
    return -1
