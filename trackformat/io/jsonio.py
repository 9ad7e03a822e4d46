"""Reading and writing track files as JSON.

Reading is strict about the file (size, encoding, syntax, duplicate keys, version, shape) and says
where each problem is; it never judges meaning, which is the validator's job. Writing is stable:
the same track always gives the same bytes, laid out one element per line so that a diff of two
versions of a track shows the spaces and links that changed.
"""

from __future__ import annotations

import functools
import json
import math
import os
import secrets
import stat
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from trackformat.io.errors import Problem, TrackFileError, json_pointer
from trackformat.io.files import FileRefused, read_limited
from trackformat.io.migrations import MigrationError, upgrade
from trackformat.model.track import FORMAT_NAME, Track

MAX_FILE_BYTES = 4 * 1024 * 1024
"""Largest track file read. A printed board has 200 to 600 spaces (Monaco: 240 KB) and a
5,000-space track takes about 2 MB; far larger is not a track. The limit also bounds the work of
validating a hostile file: the largest file allowed validates in seconds (docs/bad-input.md)."""

LINE_WIDTH = 100
"""Arrays and objects that fit on a line of this width are written on one line."""


_TOO_DEEP = "JSON nested too deeply: a track file is a few levels deep"


class _Duplicates(dict[str, Any]):
    """A JSON object that remembers the keys it saw twice, so the error can say where."""

    duplicates: list[str]


def _object_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = _Duplicates()
    seen: set[str] = set()
    dups: list[str] = []
    for key, value in pairs:
        if key in seen:
            dups.append(key)
        seen.add(key)
        obj[key] = value
    obj.duplicates = dups
    return obj


def _find_duplicates(node: Any, path: list[str | int], found: list[Problem]) -> None:
    if isinstance(node, _Duplicates):
        for key in node.duplicates:
            found.append(
                Problem(f"key {key!r} appears more than once", json_pointer([*path, key]))
            )
        for key, value in node.items():
            _find_duplicates(value, [*path, key], found)
    elif isinstance(node, list):
        for index, value in enumerate(node):
            _find_duplicates(value, [*path, index], found)


def parse_json(text: str, source: str) -> Any:
    """Parse JSON text, refusing duplicate keys and non-finite numbers, with located errors."""
    if not text.strip():
        raise TrackFileError(source, [Problem("the file is empty")])

    try:
        # NaN and Infinity parse here and are refused by the models, which know where they are.
        document = json.loads(text, object_pairs_hook=_object_pairs)
    except json.JSONDecodeError as err:
        raise TrackFileError(
            source, [Problem(f"not valid JSON: {err.msg}", line=err.lineno, column=err.colno)]
        ) from None
    except ValueError as err:
        raise TrackFileError(source, [Problem(f"not valid JSON: {err}")]) from None
    except RecursionError:
        raise TrackFileError(
            source, [Problem(_TOO_DEEP)]
        ) from None
    try:
        duplicates: list[Problem] = []
        _find_duplicates(document, [], duplicates)
        if duplicates:
            raise TrackFileError(source, duplicates)
        return document
    except RecursionError:
        raise TrackFileError(
            source, [Problem(_TOO_DEEP)]
        ) from None


_PYDANTIC_TAGS = ("function-", "list[", "str", "int", "float", "tuple", "literal[", "bool")


def _located(document: Any, loc: tuple[str | int, ...]) -> list[str | int]:
    """Keep the parts of a pydantic error location that are real keys of the document.

    Pydantic adds the names of union members and validators to locations; a pointer must only
    name what the user can find in the file.
    """
    path: list[str | int] = []
    node = document
    for part in loc:
        in_dict = isinstance(node, dict) and isinstance(part, str) and part in node
        in_list = isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node)
        if in_dict or in_list:
            node = node[part]
            path.append(part)
        elif (
            isinstance(node, dict)
            and isinstance(part, str)
            and not part.startswith(_PYDANTIC_TAGS)
        ):
            # A missing key: name it as where the problem is, and stop there.
            path.append(part)
            break
    return path


def _describe(error: Any) -> str:
    message = str(error["msg"])
    kind = error.get("type", "")
    if kind == "missing":
        return "required field is missing"
    if kind == "extra_forbidden":
        return "unknown field (not part of the track format)"
    value = error.get("input")
    if not isinstance(value, (dict, list)):
        try:
            shown = json.dumps(value, ensure_ascii=False)  # as the user wrote it: true, "600"
        except ValueError:
            shown = repr(value)  # NaN and infinity
        if len(shown) > 60:
            shown = shown[:57] + "..."
        message += f" (found {shown})"
    return message


def _json_type(value: Any) -> str:
    """The JSON name of a parsed value's type, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return "an array" if isinstance(value, list) else "an object"


def track_from_document(document: Any, source: str) -> Track:
    """Build a :class:`Track` from a parsed JSON document, upgrading older versions first."""
    if not isinstance(document, dict):
        raise TrackFileError(
            source, [Problem(f"expected a JSON object, found {_json_type(document)}", "")]
        )
    if document.get("format", FORMAT_NAME) != FORMAT_NAME:
        raise TrackFileError(
            source,
            [Problem(f"not a track file: format is {document['format']!r}", "/format")],
        )
    try:
        upgraded = upgrade(document)
    except MigrationError as err:
        raise TrackFileError(source, [Problem(str(err), "/format_version")]) from None
    except RecursionError:  # copying an old file's document before upgrading it
        raise TrackFileError(source, [Problem(_TOO_DEEP)]) from None
    try:
        return Track.model_validate(upgraded)
    except ValidationError as err:
        problems = [
            Problem(_describe(e), json_pointer(_located(upgraded, tuple(e["loc"]))))
            for e in err.errors()
        ]
        raise TrackFileError(source, problems) from None
    except RecursionError:
        raise TrackFileError(source, [Problem(_TOO_DEEP)]) from None


def loads_track(text: str, source: str = "<string>") -> Track:
    """Read a track from JSON text; ``source`` names it in error messages."""
    return track_from_document(parse_json(text, source), source)


def read_text(path: Path) -> str:
    """Read a track file's text, refusing devices, pipes, huge, binary and non-UTF-8 files with
    a clear reason."""
    source = str(path)
    try:
        data = read_limited(path, MAX_FILE_BYTES, "track file")
    except FileRefused as err:
        raise TrackFileError(source, [Problem(err.reason)]) from None
    except IsADirectoryError:
        raise TrackFileError(source, [Problem("is a folder, not a track file")]) from None
    except FileNotFoundError:
        raise TrackFileError(source, [Problem("no such file")]) from None
    except OSError as err:
        raise TrackFileError(source, [Problem(f"cannot be read: {err.strerror}")]) from None
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        raise TrackFileError(source, [Problem("UTF-16 text: save the file as UTF-8")])
    if b"\x00" in data[:8192]:
        raise TrackFileError(source, [Problem("binary data, not a JSON track file")])
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        raise TrackFileError(
            source,
            [Problem(f"not UTF-8 text (byte {err.start} is {data[err.start]:#04x})", line=line)],
        ) from None


def load_track(path: str | os.PathLike[str]) -> Track:
    """Read a track file. Raises :class:`TrackFileError` saying what is wrong and where."""
    path = Path(path)
    return loads_track(read_text(path), str(path))


def track_to_document(track: Track) -> dict[str, Any]:
    """The JSON document of a track, every field written (defaults included) for clarity."""
    document: dict[str, Any] = track.model_dump(mode="json", by_alias=True)
    return document


def _format_number(value: float) -> str:
    if value == int(value) and abs(value) < 1e15:
        return f"{int(value)}.0"
    return repr(value)


def _compact(node: Any) -> str:
    if isinstance(node, dict):
        inner = ", ".join(
            f"{json.dumps(k, ensure_ascii=False)}: {_compact(v)}" for k, v in node.items()
        )
        return "{" + inner + "}"
    if isinstance(node, list):
        return "[" + ", ".join(_compact(v) for v in node) + "]"
    if isinstance(node, float):
        if not math.isfinite(node):
            raise ValueError("a track file cannot hold NaN or infinity")
        return _format_number(node)
    return json.dumps(node, ensure_ascii=False)


@functools.lru_cache(maxsize=1024)
def _key_text(key: str) -> str:
    """A key as JSON text (a track's few dozen keys come back thousands of times)."""
    return json.dumps(key, ensure_ascii=False)


def _compact_within(node: Any, budget: int) -> str | None:
    """:func:`_compact` of ``node`` if it is at most ``budget`` characters long, else None.

    A long list or object gives up as soon as its text passes the budget: the pretty printer
    asks this of every list and object it opens, and writing each one out whole only to find it
    too long made a large track's text cost its size times its depth (Monaco: 125 ms, most of
    an autosave on the editor's UI thread)."""
    if isinstance(node, dict):
        parts: list[str] = []
        used = 0  # the text's length so far: the braces stand for the first item's separator
        for key, value in node.items():
            name = _key_text(key)
            inner = _compact_within(value, budget - used - len(name) - 4)
            if inner is None:
                return None
            parts.append(f"{name}: {inner}")
            used += len(name) + 2 + len(inner) + 2
            if used > budget:
                return None
        text = "{" + ", ".join(parts) + "}"
        return text if len(text) <= budget else None
    if isinstance(node, list):
        items: list[str] = []
        used = 0
        for value in node:
            inner = _compact_within(value, budget - used - 2)
            if inner is None:
                return None
            items.append(inner)
            used += len(inner) + 2
            if used > budget:
                return None
        text = "[" + ", ".join(items) + "]"
        return text if len(text) <= budget else None
    text = _compact(node)
    return text if len(text) <= budget else None


def _pretty(node: Any, indent: int, out: list[str], prefix: str) -> None:
    pad = "  " * indent
    if not isinstance(node, (dict, list)):
        out.append(pad + prefix + _compact(node))
        return
    # On one line if it fits, one character kept for the comma that may follow.
    compact = _compact_within(node, LINE_WIDTH - 1 - len(pad) - len(prefix))
    if compact is not None:
        out.append(pad + prefix + compact)
        return
    if isinstance(node, dict):
        out.append(pad + prefix + "{")
        items = list(node.items())
        for position, (key, value) in enumerate(items):
            _pretty(value, indent + 1, out, json.dumps(key, ensure_ascii=False) + ": ")
            if position < len(items) - 1:
                out[-1] += ","
        out.append(pad + "}")
    else:
        out.append(pad + prefix + "[")
        for position, value in enumerate(node):
            _pretty(value, indent + 1, out, "")
            if position < len(node) - 1:
                out[-1] += ","
        out.append(pad + "]")


def dumps_document(document: Any) -> str:
    """Stable, diff-friendly JSON text: short elements on one line, long ones opened up."""
    lines: list[str] = []
    _pretty(document, 0, lines, "")
    return "\n".join(lines) + "\n"


def dumps_track(track: Track) -> str:
    """The text of a track file; loading it back and dumping again gives the same bytes."""
    return dumps_document(track_to_document(track))


def save_track(track: Track, path: str | os.PathLike[str]) -> None:
    """Write a track file atomically: a crash mid-write leaves the old file intact."""
    write_text_atomically(Path(path), dumps_track(track))


def write_text_atomically(path: Path, text: str) -> None:
    """Write ``text`` as UTF-8 with :func:`write_atomically`."""
    write_atomically(path, text.encode("utf-8"))


def write_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` to a temporary file beside ``path``, then rename it over ``path``, so
    that a full disk or a file-size limit leaves the old file whole, never a fragment.

    The file keeps the permissions of the file it replaces (a shared 0644 track stays 0644),
    and a new file gets the user's usual ones (0666 less the umask), as any other program's
    would: the temporary file is made with those, not with a temporary file's private 0600.
    A symbolic link is followed (the file it names is replaced, the link stays), and a device
    or pipe is written into.
    """
    if path.is_symlink():
        path = path.resolve()  # the link stays, and the file it points at is replaced
    try:
        mode: int | None = os.stat(path).st_mode
    except OSError:
        mode = None  # a new file
    if mode is not None and not stat.S_ISREG(mode):
        # A device or a pipe (`-o /dev/stdout`): written into, never renamed over, which
        # would put a regular file where the device was.
        with open(path, "wb") as stream:
            stream.write(data)
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    keep = stat.S_IMODE(mode) if mode is not None else None
    handle, temporary = _create_beside(path)
    try:
        if keep is not None and hasattr(os, "fchmod"):
            os.fchmod(handle, keep)
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _create_beside(path: Path) -> tuple[int, str]:
    """A new, empty, hidden file in ``path``'s folder, opened for writing, created with mode
    0666 so that the umask decides its permissions; its descriptor and name."""
    for _ in range(100):
        temporary = str(path.parent / f".{path.name}.{secrets.token_hex(4)}.tmp")
        try:
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
            return os.open(temporary, flags, 0o666), temporary
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name beside {path}")
