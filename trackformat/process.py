"""What a process sets up first: one that does one job and ends (the command line, a test
drive's worker, the kernel's compile process), and the editor, which goes on and starts such
processes of its own (a test run sets up nothing)."""

from __future__ import annotations

import os

from trackformat.collector import pause_until_settled


def one_blas_thread() -> None:
    """Ask numpy's OpenBLAS for one thread, in this process (if numpy is not imported yet) and
    in every process it starts, unless the user set ``OPENBLAS_NUM_THREADS``.

    OpenBLAS starts helper threads (one per core beyond the first) that spin for about a tenth
    of a second of CPU waiting for work; the project does no linear algebra big enough to share
    out. OpenBLAS reads the setting when numpy is first imported, and a started process inherits
    it: the editor sets it before its imports, so its live test drive, its workers and its
    compile process start with one thread too."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def one_job_process() -> None:
    """Set this process up for one job, first thing in its entry point.

    - One OpenBLAS thread (:func:`one_blas_thread`): it holds for the command line and for
      every process started from it (its workers and its compile process, whose own call comes
      after their imports). Measured on the command line's test drive of one race (Monaco,
      warm cache), in turns: 1.4 to 1.7 s of CPU against 1.7 to 1.9 s.
    - The cycle collector rests while the process starts (see
      :func:`~trackformat.collector.pause_until_settled` and
      :func:`~trackformat.collector.settle`)."""
    one_blas_thread()
    pause_until_settled()
