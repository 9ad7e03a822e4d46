"""Compiling the kernel before the first race, and saying so when it takes a while.

numba compiles a function the first time it runs; from then on its machine code comes from the
cache folder (:data:`~trackformat.sim.kernel.jit.CACHE`). The first run after an install
(or after the kernel's code changed) therefore spends a minute or so compiling: rather than let
a test drive seem to hang, the first race of a process (:func:`announced`) says on stderr that
it is compiling, and how long it took; :func:`is_cached` tells a caller that wants to compile
ahead (the editor, in a process of its own) whether it needs to.
"""

from __future__ import annotations

import shutil
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TextIO, TypeVar

from trackformat.sim.kernel.jit import CACHE

ENTRY = "race._run-"
"""How the cache index of the kernel's entry point, the race loop, starts (numba names it
module.function-line): it is written once the whole kernel is compiled."""

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
        drop_old_kernels(where)
        print(f"trackformat: compiling the race kernel, once (kept in {where})...",
              file=stream, flush=True)
    started = time.perf_counter()
    result = run()
    seconds = time.perf_counter() - started
    if cold:
        print(f"trackformat: race kernel compiled in {seconds:.1f} s", file=stream, flush=True)
    return result, seconds


KEPT_VERSIONS = 2
"""Compiled versions of the kernel kept besides the current one (a few MB each, and the strong
driver's tables): another install of the project may still use them."""


def drop_old_kernels(folder: Path, kept: int = KEPT_VERSIONS) -> None:
    """Remove the compiled kernels of other versions beside ``folder`` (the current version's
    cache folder), all but the ``kept`` most recently changed: each upgrade compiles the kernel
    into a folder of its own, and nothing else would ever remove the old ones."""
    others = []
    for path in folder.parent.glob("kernel-*"):
        if path.name == folder.name or not path.is_dir():
            continue
        try:
            others.append((path.stat().st_mtime, path))
        except OSError:
            continue  # removed meanwhile
    for _, path in sorted(others, reverse=True)[kept:]:
        shutil.rmtree(path, ignore_errors=True)
