"""The bots' choices in compiled code: which gear, which move, which slipstream extra.

Each car has a kind of driver (:data:`RANDOM`, :data:`CAUTIOUS`, :data:`STRONG`, :data:`PAR`,
the bots of :data:`~trackformat.sim.drivers.bots.DRIVERS` by name) and the kernel asks it the
readable runner's three questions, with the same options in the same order, so that it answers
as the readable bot does. The random driver draws from its own generator, seeded as
:class:`~trackformat.sim.drivers.bots.RandomDriver` seeds it; the cautious and strong drivers
have no randomness, and read tables built once per batch (:mod:`~trackformat.sim.kernel.cautious`,
:mod:`~trackformat.sim.kernel.strong`); so has the par driver (:mod:`~trackformat.sim.kernel.par`),
which reads par's values and falls back on the strong driver, whose tables a line-up with par
drivers has too.

The drivers tuple holds the kind of each car and each car's generator state. The cautious, the
strong and the par driver's tables come beside it, as arguments of their own of the race loop
(:func:`~trackformat.sim.kernel.turns.play_turns`), handed down unchanged: a line-up without
cautious (or strong, or par) drivers passes None for their tables, and numba, which drops a branch
that tests whether an argument of the function it compiles is None, compiles the race loop of
that line-up without a line of their code. numba sees the test only while it can follow the
value back to the argument: the tables go down as they are, never packed in a tuple or
borrowed on the way (each driver's call borrows them). The cautious driver is a fifth of the
whole kernel's first compile, which a line-up of strong drivers (the test drives' default) does
not wait for. Each mix of drivers compiles its own race loop once (the walk and the drivers' own
functions are shared, compiled once); the cache keeps them all.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from trackformat.sim.kernel import cautious as kcautious
from trackformat.sim.kernel import par as kpar
from trackformat.sim.kernel import strong as kstrong
from trackformat.sim.kernel.ask import Found, found_moves
from trackformat.sim.kernel.dice import randrange
from trackformat.sim.kernel.jit import borrow, inlined
from trackformat.sim.kernel.workspace import Workspace

Ints = npt.NDArray[np.int64]

RANDOM, CAUTIOUS, STRONG, PAR = 0, 1, 2, 3
KINDS = {"random": RANDOM, "cautious": CAUTIOUS, "strong": STRONG, "par": PAR}
"""The kernel's drivers by their names in :data:`~trackformat.sim.drivers.bots.DRIVERS`."""

KIND, SEEDS = range(2)


@inlined
def choose_gear(drivers: tuple, cautious: Any, strong: Any, par: Any, options: Ints,  # type: ignore[type-arg]
                cars: Ints, race: Ints, index: int, debris: Ints, board: tuple[Ints, ...],
                rules: tuple[Ints, ...], workspace: Workspace, nothing: Found
                ) -> tuple[int, Found]:
    """The row of ``options`` (gear option rows, lowest gear first) the car's driver takes, and
    what it found on the way of the moves of that gear as the car has them once its shift is
    paid (:data:`~trackformat.sim.kernel.ask.Found`; ``nothing`` is the race's empty find): the
    race reads its roll's moves there rather than walk them again. ``cautious``, ``strong`` and
    ``par``: the drivers' tables, or None, the race loop's own arguments (see above; ``par``
    comes with ``strong``, the driver it falls back on)."""
    kind = drivers[KIND][index]
    if par is not None and kind == PAR:
        chosen, moves = kpar.gear(borrow(par), borrow(strong), options, cars, race, index,
                                  debris, board, rules, workspace)
        return chosen, found_moves(moves, nothing)
    if cautious is not None and kind == CAUTIOUS:
        return kcautious.gear(borrow(cautious), options, cars, index, debris, board, rules,
                              workspace, nothing)
    if strong is not None and kind == STRONG:
        chosen, moves = kstrong.gear(borrow(strong), options, cars, index, debris, board, rules,
                                     workspace)
        return chosen, found_moves(moves, nothing)
    return randrange(drivers[SEEDS][index], len(options)), nothing


@inlined
def choose_move(drivers: tuple, cautious: Any, strong: Any, par: Any, moves: Ints,  # type: ignore[type-arg]
                roll: int, cars: Ints, race: Ints, index: int, debris: Ints,
                board: tuple[Ints, ...], rules: tuple[Ints, ...]) -> int:
    """The row of ``moves`` (never empty) the car's driver plays for ``roll``."""
    kind = drivers[KIND][index]
    if par is not None and kind == PAR:
        return kpar.move(borrow(par), borrow(strong), moves, roll, cars, race, index, debris,
                         board, rules)
    if cautious is not None and kind == CAUTIOUS:
        return kcautious.move(borrow(cautious), moves, roll, cars, index, debris, board, rules)
    if strong is not None and kind == STRONG:
        return kstrong.move(borrow(strong), moves, roll, cars, index, debris, board, rules)
    return randrange(drivers[SEEDS][index], len(moves))


@inlined
def choose_slipstream(drivers: tuple, cautious: Any, strong: Any, par: Any,  # type: ignore[type-arg]
                      move: Ints, extras: Ints, cars: Ints, race: Ints, index: int,
                      debris: Ints, board: tuple[Ints, ...], rules: tuple[Ints, ...]) -> int:
    """The row of ``extras`` the car's driver takes after ``move``; -1 to decline."""
    kind = drivers[KIND][index]
    if par is not None and kind == PAR:
        return kpar.slipstream(borrow(par), borrow(strong), move, extras, cars, race, index,
                               debris, board, rules)
    if cautious is not None and kind == CAUTIOUS:
        return kcautious.slipstream(borrow(cautious), move, extras, cars, index, debris, board,
                                    rules)
    if strong is not None and kind == STRONG:
        return kstrong.slipstream(borrow(strong), move, extras, cars, index, debris, board,
                                  rules)
    # The random driver may decline.
    return randrange(drivers[SEEDS][index], len(extras) + 1) - 1
