"""Finding and reading rulesets: shipped presets by name, user files by path, located errors."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from trackformat.io import (
    FileRefused,
    Problem,
    TrackFileError,
    json_pointer,
    parse_json,
    read_limited,
)
from trackformat.rules.model import Ruleset

DEFAULT_PRESET = "formula-d"
"""The preset used when none is named: the Formula D advanced rules."""

MAX_RULESET_BYTES = 1024 * 1024
"""A ruleset is a few kilobytes; anything past a megabyte is not one."""


@dataclass
class RulesetError(Exception):
    """A ruleset that cannot be used: unknown preset, unreadable file, bad JSON or bad values.

    Lists every problem with where it is (``file: /json/pointer: message``), as track files do.
    """

    source: str
    problems: list[Problem] = field(default_factory=list)

    def __post_init__(self) -> None:
        super().__init__(self.render())

    def render(self) -> str:
        """One line per problem: ``source: where: message``."""
        lines = []
        for problem in self.problems:
            where = problem.where()
            lines.append(f"{self.source}: {where}: {problem.message}" if where
                         else f"{self.source}: {problem.message}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.render()


def preset_names() -> list[str]:
    """Names of the shipped presets, sorted."""
    folder = resources.files("trackformat.rules").joinpath("presets")
    return sorted(
        entry.name[: -len(".json")] for entry in folder.iterdir() if entry.name.endswith(".json")
    )


def _message(error: Any) -> str:
    kind = error.get("type", "")
    if kind == "missing":
        return "required field is missing"
    if kind == "extra_forbidden":
        return "unknown field (not part of a ruleset)"
    message = str(error["msg"]).removeprefix("Value error, ")  # a check of the rules' own
    value = error.get("input")
    if not isinstance(value, (dict, list)):
        shown = repr(value)
        message += f" (found {shown[:57] + '...' if len(shown) > 60 else shown})"
    return message


def _pointer(document: Any, loc: tuple[Any, ...]) -> str:
    """Pointer made of the parts of a pydantic location that the user can find in the file."""
    parts: list[str | int] = []
    node = document
    for part in loc:
        in_list = isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node)
        if (isinstance(node, dict) and part in node) or in_list:
            node = node[part]
            parts.append(part)
        elif isinstance(node, dict) and isinstance(part, str) and part.isidentifier():
            parts.append(part)
            break
    return json_pointer(parts)


def ruleset_from_document(document: Any, source: str) -> Ruleset:
    """Validate a parsed JSON document as a :class:`Ruleset`."""
    if not isinstance(document, dict):
        raise RulesetError(source, [Problem("expected a JSON object", "")])
    try:
        return Ruleset.model_validate(document)
    except ValidationError as err:
        problems = [
            Problem(_message(e), _pointer(document, tuple(e["loc"]))) for e in err.errors()
        ]
        raise RulesetError(source, problems) from None


def loads_ruleset(text: str, source: str = "<string>") -> Ruleset:
    """Read a ruleset from JSON text; ``source`` names it in error messages."""
    try:
        document = parse_json(text, source)
    except TrackFileError as err:
        raise RulesetError(source, err.problems) from None
    return ruleset_from_document(document, source)


def _read(path: Path) -> str:
    source = str(path)
    try:
        # Read with a limit: a device such as /dev/zero says it is empty and never ends.
        return read_limited(path, MAX_RULESET_BYTES, "ruleset file").decode("utf-8-sig")
    except FileRefused as err:
        raise RulesetError(source, [Problem(err.reason)]) from None
    except IsADirectoryError:
        raise RulesetError(source, [Problem("is a folder, not a ruleset file")]) from None
    except FileNotFoundError:
        raise RulesetError(source, [Problem("no such file")]) from None
    except UnicodeDecodeError as err:
        raise RulesetError(source, [Problem(f"not UTF-8 text ({err.reason})")]) from None
    except OSError as err:
        raise RulesetError(source, [Problem(f"cannot be read: {err.strerror}")]) from None


def load_ruleset(name_or_path: str | os.PathLike[str] = DEFAULT_PRESET) -> Ruleset:
    """A shipped preset by name (``"formula-d"``), or a ruleset file by path.

    A string that names a preset is the preset; any other string or path is read as a file.
    Raises :class:`RulesetError` saying what is wrong and where.
    """
    if isinstance(name_or_path, str) and name_or_path in preset_names():
        entry = resources.files("trackformat.rules").joinpath("presets", f"{name_or_path}.json")
        return loads_ruleset(entry.read_text(encoding="utf-8"), f"preset {name_or_path}")
    path = Path(name_or_path)
    if isinstance(name_or_path, str) and path.suffix != ".json" and not path.exists():
        known = ", ".join(preset_names())
        raise RulesetError(
            name_or_path, [Problem(f"no preset of that name and no such file (presets: {known})")]
        )
    return loads_ruleset(_read(path), str(path))
