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
