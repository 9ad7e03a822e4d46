"""The one error type that reading a track file raises, with where the problem is."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field


def json_pointer(parts: Iterable[str | int]) -> str:
    """RFC 6901 pointer for a path of keys and indices (``""`` is the whole document)."""
    out = []
    for part in parts:
        text = str(part).replace("~", "~0").replace("/", "~1")
        out.append("/" + text)
    return "".join(out)


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a file: a JSON pointer (or a line and column) and what is wrong."""

    message: str
    pointer: str | None = None
    line: int | None = None
    column: int | None = None

    def where(self) -> str:
        """Human-readable location inside the file, empty when the whole file is at fault."""
        if self.line is not None:
            return f"line {self.line}, column {self.column or 1}"
        if self.pointer is not None:
            return self.pointer or "/"
        return ""


@dataclass
class TrackFileError(Exception):
    """A file that cannot be read as a track: unreadable, not JSON, or not shaped like a track.

    Carries every problem found (pydantic reports all shape errors at once), so that a designer
    fixing a file by hand sees the whole list, not one error per attempt.
    """

    path: str
    problems: list[Problem] = field(default_factory=list)

    def __post_init__(self) -> None:
        super().__init__(self.render())

    def render(self, limit: int = 20) -> str:
        """One line per problem, ``file: where: message``, cut after ``limit`` problems."""
        lines = []
        for problem in self.problems[:limit]:
            where = problem.where()
            prefix = f"{self.path}: {where}: " if where else f"{self.path}: "
            lines.append(prefix + problem.message)
        if len(self.problems) > limit:
            lines.append(f"{self.path}: ... and {len(self.problems) - limit} more problems")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.render()
