"""What the command line prints, and what happens when nobody reads it any more.

``trackformat validate bad.json | head -1`` closes the pipe after one line. The command must
still finish its work and exit with the code its result deserves (1 for an invalid track): a
closed pipe is the reader's choice to stop reading, not a reason to report success, nor a
traceback. :class:`ClosedPipeGuard` stands in for ``sys.stdout`` while a command runs and
quietly drops what it prints once the reader has gone.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from typing import Any, TextIO


class ClosedPipeGuard:
    """A stream that writes through to ``stream`` until a write or flush finds the pipe closed,
    then drops everything; ``closed_pipe`` says whether that happened."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self.closed_pipe = False

    def _closed(self) -> None:
        """The reader is gone: point the file descriptor at the null device, so that neither
        later writes nor the interpreter's last flush at exit fail again."""
        self.closed_pipe = True
        try:
            descriptor = self._stream.fileno()
        except (AttributeError, OSError, ValueError):
            return  # an in-memory stream (tests): dropping the output is enough
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(null, descriptor)
        finally:
            os.close(null)

    def write(self, text: str) -> int:
        if not self.closed_pipe:
            try:
                return self._stream.write(text)
            except BrokenPipeError:
                self._closed()
        return len(text)

    def flush(self) -> None:
        if not self.closed_pipe:
            try:
                self._stream.flush()
            except BrokenPipeError:
                self._closed()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


@contextlib.contextmanager
def guarded_output() -> Iterator[tuple[ClosedPipeGuard, ClosedPipeGuard]]:
    """``sys.stdout`` and ``sys.stderr`` guarded against a closed pipe while a command runs;
    what is left in their buffers is flushed before the real streams are put back."""
    real = sys.stdout, sys.stderr
    guards = ClosedPipeGuard(real[0]), ClosedPipeGuard(real[1])
    sys.stdout, sys.stderr = guards
    try:
        yield guards
    finally:
        for guard in guards:
            guard.flush()
        sys.stdout, sys.stderr = real


def emit(text: str, stream: TextIO | None = None) -> None:
    """Print ``text``, escaping what the terminal's encoding cannot show instead of crashing."""
    out = stream if stream is not None else sys.stdout
    try:
        print(text, file=out)
    except UnicodeEncodeError:
        print(text.encode("ascii", "backslashreplace").decode("ascii"), file=out)


def error(text: str) -> None:
    """Print ``text`` on stderr (see :func:`emit`)."""
    emit(text, sys.stderr)
