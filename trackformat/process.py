"""What a process that does one job and ends sets up first: the command line, a test drive's
worker, the kernel's compile process (not the editor, nor a test run, which go on)."""

from __future__ import annotations

import os

from trackformat.collector import pause_until_settled


def one_job_process() -> None:
    """Set this process up for one job, first thing in its entry point.

    - numpy's OpenBLAS starts helper threads (one per core beyond the first) that spin for
      about a tenth of a second of CPU waiting for work; the project does no linear algebra big
      enough to share out, so it asks for one thread (unless the user set
      ``OPENBLAS_NUM_THREADS``). OpenBLAS reads that when numpy is first imported: it holds for
      the command line and for every process started from it (its workers and its compile
      process, whose own call comes after their imports). Measured on the command line's test
      drive of one race (Monaco, warm cache), in turns: 1.4 to 1.7 s of CPU against 1.7 to
      1.9 s.
    - The cycle collector rests while the process starts (see
      :func:`~trackformat.collector.pause_until_settled` and
      :func:`~trackformat.collector.settle`)."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    pause_until_settled()
