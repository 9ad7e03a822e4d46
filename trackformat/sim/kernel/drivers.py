"""The bots' choices in compiled code: which gear, which move, which slipstream extra.

Each car has a kind of driver (:data:`RANDOM`, :data:`CAUTIOUS`, :data:`STRONG`, the bots of
:data:`~trackformat.sim.drivers.bots.DRIVERS` by name) and the kernel asks it the readable
runner's three questions, with the same options in the same order, so that it answers as the
readable bot does. The random driver draws from its own generator, seeded as
:class:`~trackformat.sim.drivers.bots.RandomDriver` seeds it; the cautious and strong drivers
have no randomness, and read tables built once per batch (:mod:`~trackformat.sim.kernel.cautious`,
:mod:`~trackformat.sim.kernel.strong`).

The drivers tuple: the kind of each car, each car's generator state, the cautious driver's
tables, the strong driver's tables. A line-up without cautious (or strong) drivers passes None
for their tables, and the race loop compiled for it holds no code of theirs: the cautious
driver is a fifth of the whole kernel's first compile, which a line-up of strong drivers (the
test drives' default) no longer waits for. Each mix of drivers compiles its own race loop once
(the walk and the drivers' own functions are shared, compiled once); the cache keeps them all.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from trackformat.sim.kernel import cautious as kcautious
from trackformat.sim.kernel import strong as kstrong
from trackformat.sim.kernel.ask import Found, found_moves
from trackformat.sim.kernel.dice import randrange
from trackformat.sim.kernel.jit import by_types, is_none
from trackformat.sim.kernel.workspace import Workspace

Ints = npt.NDArray[np.int64]

RANDOM, CAUTIOUS, STRONG = 0, 1, 2
KINDS = {"random": RANDOM, "cautious": CAUTIOUS, "strong": STRONG}
"""The kernel's drivers by their names in :data:`~trackformat.sim.drivers.bots.DRIVERS`."""

KIND, SEEDS, CAUTIOUS_TABLES, STRONG_TABLES = range(4)


def _present(drivers: Any) -> tuple[bool, bool]:
    """Whether the drivers tuple (its numba type) holds the cautious and the strong driver's
    tables, rather than None."""
    members = drivers.types
    return not is_none(members[CAUTIOUS_TABLES]), not is_none(members[STRONG_TABLES])


def choose_gear(drivers: tuple, options: Ints, cars: Ints, index: int, debris: Ints,  # type: ignore[type-arg]
                board: tuple[Ints, ...], rules: tuple[Ints, ...], workspace: Workspace,
                nothing: Found) -> tuple[int, Found]:
    """The row of ``options`` (gear option rows, lowest gear first) the car's driver takes, and
    what it found on the way of the moves of that gear as the car has them once its shift is
    paid (:data:`~trackformat.sim.kernel.ask.Found`; ``nothing`` is the race's empty find): the
    race reads its roll's moves there rather than walk them again. Compiled code only (see
    :func:`_choose_gear`)."""
    raise NotImplementedError("compiled code only")


@by_types(choose_gear)
def _choose_gear(drivers: Any, options: Any, cars: Any, index: Any, debris: Any, board: Any,
                 rules: Any, workspace: Any, nothing: Any) -> Any:
    cautious, strong = _present(drivers)

    def choose(drivers: Any, options: Any, cars: Any, index: Any, debris: Any, board: Any,
               rules: Any, workspace: Any, nothing: Any) -> tuple[int, Found]:
        kind = drivers[KIND][index]
        if cautious and kind == CAUTIOUS:
            return kcautious.gear(drivers[CAUTIOUS_TABLES], options, cars, index, debris, board,
                                  rules, workspace, nothing)
        if strong and kind == STRONG:
            chosen, moves = kstrong.gear(drivers[STRONG_TABLES], options, cars, index, debris,
                                         board, rules, workspace)
            return chosen, found_moves(moves, nothing)
        return randrange(drivers[SEEDS][index], len(options)), nothing

    return choose


def choose_move(drivers: tuple, moves: Ints, roll: int, cars: Ints, index: int,  # type: ignore[type-arg]
                debris: Ints, board: tuple[Ints, ...], rules: tuple[Ints, ...]) -> int:
    """The row of ``moves`` (never empty) the car's driver plays for ``roll``. Compiled code
    only."""
    raise NotImplementedError("compiled code only")


@by_types(choose_move)
def _choose_move(drivers: Any, moves: Any, roll: Any, cars: Any, index: Any, debris: Any,
                 board: Any, rules: Any) -> Any:
    cautious, strong = _present(drivers)

    def choose(drivers: Any, moves: Any, roll: Any, cars: Any, index: Any, debris: Any,
               board: Any, rules: Any) -> int:
        kind = drivers[KIND][index]
        if cautious and kind == CAUTIOUS:
            return kcautious.move(drivers[CAUTIOUS_TABLES], moves, roll, cars, index, debris,
                                  board, rules)
        if strong and kind == STRONG:
            return kstrong.move(drivers[STRONG_TABLES], moves, roll, cars, index, debris,
                                board, rules)
        return randrange(drivers[SEEDS][index], len(moves))

    return choose


def choose_slipstream(drivers: tuple, move: Ints, extras: Ints, cars: Ints, index: int,  # type: ignore[type-arg]
                      debris: Ints, board: tuple[Ints, ...], rules: tuple[Ints, ...]) -> int:
    """The row of ``extras`` the car's driver takes after ``move``; -1 to decline. Compiled
    code only."""
    raise NotImplementedError("compiled code only")


@by_types(choose_slipstream)
def _choose_slipstream(drivers: Any, move: Any, extras: Any, cars: Any, index: Any,
                       debris: Any, board: Any, rules: Any) -> Any:
    cautious, strong = _present(drivers)

    def choose(drivers: Any, move: Any, extras: Any, cars: Any, index: Any, debris: Any,
               board: Any, rules: Any) -> int:
        kind = drivers[KIND][index]
        if cautious and kind == CAUTIOUS:
            return kcautious.slipstream(drivers[CAUTIOUS_TABLES], move, extras, cars, index,
                                        debris, board, rules)
        if strong and kind == STRONG:
            return kstrong.slipstream(drivers[STRONG_TABLES], move, extras, cars, index, debris,
                                      board, rules)
        # The random driver may decline.
        return randrange(drivers[SEEDS][index], len(extras) + 1) - 1

    return choose
