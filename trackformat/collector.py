"""Python's cycle collector paused for a batch of short-lived work, in one place.

Validating a track and racing on it both make a great many short-lived lists, tuples and dicts
and hardly any reference cycles, while the process keeps many long-lived objects (a track's
thousands of models, the walks a board keeps). Every so many new objects the collector runs,
and its full passes walk the long-lived ones too, for next to nothing freed: a third of a
validation on a 5,000-space track and a fifth of a race, measured with
``benchmarks/validate_speed.py`` and ``benchmarks/race_speed.py``.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collection_deferred() -> Iterator[None]:
    """The collector paused for the ``with`` block and started again after it, unless it was
    paused already (by an enclosing block, or by the program itself). Nothing is lost: cycles
    left behind are collected by the first pass after the block.

    The collector is one switch for the whole process: another thread's work goes uncollected
    for the length of the block too, which for these blocks (a validation, a race, a chunk of
    races) is a fraction of a second to a few seconds."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


_one_job = False
"""Whether this process does one job and ends (see :func:`pause_until_settled`)."""


def pause_until_settled() -> None:
    """Pause the collector until the first :func:`settle`, in a process that does one job and
    ends (see :func:`trackformat.process.one_job_process`, which calls this first thing).

    Such a process keeps nearly everything its start builds (modules, the board, the kernel's
    tables) until it ends, yet every full pass of the collector walks all of it again, and so
    does the pass at exit; :func:`settle` sets what was built aside for good. Measured with
    ``benchmarks/kernel_speed.py``, a test drive of one race on the command line (Monaco, warm
    cache), from the interpreter's start to its exit, in turns with the version before: 1.7 to
    2.0 s of CPU against 2.3 to 2.7 s."""
    global _one_job
    _one_job = True
    gc.disable()


def settle() -> None:
    """In a process that does one job (:func:`~trackformat.process.one_job_process`), set
    everything it holds now aside from the collector for good (:func:`gc.freeze`) and let the
    collector run again, on what is made from here on; elsewhere (the editor, a test run)
    nothing.

    Called where a process's long-lived part is built: after its imports, once the board and
    the kernel are ready. Only a process that ends after its job may do this: a set-aside
    object that later becomes garbage in a cycle is never collected."""
    if _one_job:
        gc.freeze()
        gc.enable()


def set_aside_survivors() -> None:
    """In a process that does one job (:func:`~trackformat.process.one_job_process`) and keeps
    building a long-lived heap until it ends, also set aside whatever survives each full pass
    of the collector, so that the next one walks only what was made since; elsewhere nothing.

    For the kernel's compile process: numba keeps every function it compiled (its types, its
    code, its machine code) until the process ends, and each full pass walked all of it again.
    Measured on Monaco's compile (10 strong cars), the collector's own time: 7.8 s in a plain
    process, 6.3 to 6.7 s with its start set aside (:func:`settle`), 1.8 to 1.9 s with this
    too; the process's peak memory 446 MB against 592 MB (what a pass found alive and was set
    aside stays, even once it is garbage in a cycle)."""
    if _one_job:
        gc.callbacks.append(_after_pass)


def _after_pass(phase: str, info: dict[str, int]) -> None:
    if phase == "stop" and info["generation"] == 2:
        gc.freeze()
