"""Compiling the kernel before the first race, and saying so when it takes a while.

numba compiles a function the first time it runs; from then on its machine code comes from the
cache folder (:data:`~trackformat.sim.kernel.jit.CACHE`). The first run after an install
(or after the kernel's code changed) therefore spends some seconds compiling: rather than let a
test drive seem to hang, :func:`ensure_compiled` says on stderr that it is compiling, and how
long it took.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TextIO, TypeVar

import numpy as np

from trackformat.sim.kernel import price as kp
from trackformat.sim.kernel import walk as kw
from trackformat.sim.kernel.dice import draws, new_state
from trackformat.sim.kernel.jit import CACHE

ENTRY = "price.legal_move_rows-"
"""How the cache index of the kernel's entry point starts (numba names it module.function-line)."""

T = TypeVar("T")


def is_cached(folder: Path | None = None, entry: str = ENTRY) -> bool:
    """Whether the compiled code of ``entry`` is in the cache folder already."""
    root = folder if folder is not None else CACHE
    return root.is_dir() and any(root.rglob(f"{entry}*.nbi"))


def announced(run: Callable[[], T], entry: str = ENTRY, err: TextIO | None = None,
              folder: Path | None = None) -> tuple[T, float]:
    """``run()`` and the seconds it took; when the compiled code of ``entry`` is not in the
    cache yet (so ``run`` will compile it), say so on ``err`` (stderr by default) before and
    after."""
    stream = err if err is not None else sys.stderr
    cold = not is_cached(folder, entry)
    if cold:
        where = folder if folder is not None else CACHE
        print(f"trackformat: compiling the race kernel, once (kept in {where})...",
              file=stream, flush=True)
    started = time.perf_counter()
    result = run()
    seconds = time.perf_counter() - started
    if cold:
        print(f"trackformat: race kernel compiled in {seconds:.1f} s", file=stream, flush=True)
    return result, seconds


def ensure_compiled(err: TextIO | None = None, folder: Path | None = None) -> float:
    """Run the move walk and the dice once on a tiny board, so that they are compiled (or
    loaded from the cache) now; the seconds it took, said on stderr when the cache is cold.
    (Whole races are announced the same way on the first race of a process.)"""

    def run() -> None:
        _tiny_walk()
        draws(new_state(0), np.array([20], np.int64))

    return announced(run, ENTRY, err, folder)[1]


def _tiny_walk() -> None:
    """The legal moves of a car on a straight of two spaces, with the argument types of a real
    board (so the compiled code is the one races use)."""
    ints = np.int64
    track_next = np.array([[1], [-1]], ints)
    none = np.full((2, 1), -1, ints)
    zeros = np.zeros(2, ints)
    origin = np.zeros(kw.ROUTE_COLUMNS, ints)
    origin[kw.R_PATH:] = -1
    origin[kw.R_LOCK] = -1
    origin[kw.R_CORNER] = -1
    kp.legal_move_rows(
        track_next, none, none, zeros, np.array([0, 1], ints), np.array([2], ints),
        np.full(2, -1, ints), np.zeros(1, ints), zeros, zeros, origin, zeros, zeros,
        np.full((1, 1), -1, ints), np.zeros(1, ints), np.array([1], ints), False, -1, 2, 3, 6,
        False, 1, 1, 2, 1, 7, np.zeros(7, ints), np.zeros(7, ints))
