"""Compiling the kernel before the first race, and saying so when it takes a while.

numba compiles a function the first time it runs; from then on its machine code comes from the
cache folder (:data:`~trackformat.sim.kernel.cache.CACHE`). The first run after an install
(or after the kernel's code changed) therefore spends a minute or so compiling: rather than let
a test drive seem to hang, the first race of a process (:func:`announced`) says on stderr that
it is compiling, and how long it took; :func:`is_cached` tells a caller that wants to compile
ahead (the editor, in a process of its own) whether it needs to. A line-up compiles the race
loop of its mix of drivers (:func:`variant_of`) once; each such loop is marked in the cache
folder once compiled.
"""

from __future__ import annotations

import contextlib
import functools
import pickle
import shutil
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import ParamSpec, TextIO, TypeVar

from trackformat.sim.kernel.cache import CACHE, KEPT, NOTE

OWN_CODE = ("cautious", "strong", "par")
"""The drivers whose code the race loop holds only for a line-up that has them (see
:mod:`~trackformat.sim.kernel.drivers`); the random driver's is always there. The par driver
falls back on the strong driver: a line-up with par drivers has the strong driver's code too."""

T = TypeVar("T")
P = ParamSpec("P")


def variant_of(bots: Sequence[str]) -> str:
    """The name of the compiled race loop a line-up races on: the drivers with code of their
    own it has (``cautious+strong``, ``strong``, ...), or ``random``."""
    has = set(bots) | ({"strong"} if "par" in bots else set())
    return "+".join(name for name in OWN_CODE if name in has) or "random"


def _ready(variant: str, folder: Path | None) -> Path:
    """The file that says the race loop ``variant`` is compiled in the cache folder."""
    return (folder if folder is not None else CACHE) / f"ready-{variant}"


def is_cached(variant: str, folder: Path | None = None) -> bool:
    """Whether the race loop ``variant`` (see :func:`variant_of`) is compiled in the cache
    folder already."""
    return _ready(variant, folder).exists()


def announced(run: Callable[[], T], variant: str, err: TextIO | None = None,
              folder: Path | None = None) -> tuple[T, float]:
    """``run()`` (a race on the race loop ``variant``) and the seconds it took; when that loop
    is not in the cache yet (so ``run`` will compile it), say so on ``err`` (stderr by
    default) before and after, and mark it compiled once it is."""
    stream = err if err is not None else sys.stderr
    cold = not is_cached(variant, folder)
    where = folder if folder is not None else CACHE
    if cold:
        drop_old_kernels(where)
        if folder is None and NOTE is not None:  # not in the user's cache folder: say why
            once = "once" if KEPT else "for this process only"
            print(f"trackformat: compiling the race kernel, {once} ({NOTE})...", file=stream,
                  flush=True)
        else:
            print(f"trackformat: compiling the race kernel, once (kept in {where})...",
                  file=stream, flush=True)
    started = time.perf_counter()
    result = run()
    seconds = time.perf_counter() - started
    if cold:
        print(f"trackformat: race kernel compiled in {seconds:.1f} s", file=stream, flush=True)
        try:
            where.mkdir(parents=True, exist_ok=True)
            _ready(variant, where).touch()
        except OSError:
            pass  # a cache numba could not write either: the next process compiles again
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


def read_again(call: Callable[[], T], err: TextIO | None = None) -> T:
    """``call()`` (a race on the kernel). Should numba fail to read a compiled function from
    its cache (a file damaged on disk, which every process would fail to read from then on),
    that function's files, and those of every other function of the folder that do not read
    either, are removed, the user told, and ``call()`` run again, which compiles them anew.
    Any other error is the caller's."""
    removed: set[Path] = set()
    while True:
        try:
            return call()
        except Exception as error:
            damaged = damaged_cache_file(error)
            if damaged is None or damaged in removed:
                raise
            found = {damaged, *unreadable(damaged.parent)}
            print(f"trackformat: the compiled kernel in {damaged.parent} could not be read "
                  f"({damaged.name}: {type(error).__name__}: {error}); the files of "
                  f"{len(found)} of its functions are removed, and compiled again",
                  file=err if err is not None else sys.stderr, flush=True)
        removed |= found
        for index in found:
            for path in (index, *index.parent.glob(f"{index.stem}.*.nbc")):
                with contextlib.suppress(OSError):  # then read again, and fail alike: raised
                    path.unlink(missing_ok=True)


def unreadable(folder: Path) -> set[Path]:
    """The index files of the functions in numba's cache ``folder`` whose index or machine
    code cannot be unpickled, as numba reads them."""
    found = set()
    for index in folder.glob("*.nbi"):
        try:
            with index.open("rb") as stream:
                pickle.load(stream)  # numba's version
                pickle.loads(stream.read())
            for data in index.parent.glob(f"{index.stem}.*.nbc"):
                pickle.loads(data.read_bytes())
        except Exception:  # whatever a damaged pickle raises
            found.add(index)
    return found


def reading_again(method: Callable[P, T]) -> Callable[P, T]:
    """Decorate a racer's method that races on the kernel to run under :func:`read_again`."""
    @functools.wraps(method)
    def reading(*args: P.args, **kwargs: P.kwargs) -> T:
        return read_again(lambda: method(*args, **kwargs))

    return reading


def damaged_cache_file(error: BaseException) -> Path | None:
    """The index file of the compiled function numba was loading from its cache when it raised
    ``error``; None when ``error`` was not raised loading from the cache. (numba raises
    whatever reading the file raised: an unpickling error, an end of file, a broken object.)"""
    loading, index = False, None
    trace = error.__traceback__
    while trace is not None:
        code = trace.tb_frame.f_code
        if Path(code.co_filename).parts[-3:] == ("numba", "core", "caching.py"):
            loading = loading or code.co_name == "load_overload"
            owner = trace.tb_frame.f_locals.get("self")
            owner = getattr(owner, "_cache_file", owner)  # numba's cache, or its files
            index = getattr(owner, "_index_path", index)
        trace = trace.tb_next
    return Path(index) if loading and index is not None else None
