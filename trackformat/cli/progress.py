"""The test drive's progress on stderr: a bar redrawn in place on a terminal, and the lines the
engines have to say (the kernel compiling) written between its redraws."""

from __future__ import annotations

from typing import TextIO


class ProgressBar:
    """A one-line bar on a terminal, redrawn in place; nothing at all on a pipe or a file."""

    WIDTH = 30

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.shown = stream.isatty()

    def __call__(self, done: int, total: int) -> None:
        if not self.shown:
            return
        filled = self.WIDTH * done // max(total, 1)
        bar = "#" * filled + "-" * (self.WIDTH - filled)
        self.stream.write(f"\rtest drive [{bar}] {done}/{total} races")
        self.stream.flush()

    def say(self, line: str) -> None:
        """A line of its own on the stream, the bar cleared first (it is drawn again at the next
        progress)."""
        self.clear()
        self.stream.write(line + "\n")
        self.stream.flush()

    def clear(self) -> None:
        if self.shown:
            self.stream.write("\r" + " " * (self.WIDTH + 40) + "\r")
            self.stream.flush()
