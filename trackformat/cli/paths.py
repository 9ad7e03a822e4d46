"""Refusing an output that is one of the command's own inputs.

``import gponline B.dat -o B.dat`` or ``render monaco.json -o monaco.png`` (the track's own board
scan) would replace the file the user gave to read with the command's result: the one mistake a
command line can make that loses work the user cannot redo. So before anything is written, every
output is compared with every input, and with the board picture a track names, as files rather
than as names: ``./T.json``, ``sub/../T.json``, a symbolic link to it and a hard link to it are
all the same file. The comparison asks the file system (``os.path.samefile``), so an output that
does not exist yet can clash with nothing.

A command declares which of its arguments are files it reads and which it writes with
:class:`FileRoles` in its parser's defaults; :func:`check_declared` runs before the command. A
command that learns of another input only once it has read the first (the board picture named
inside a track) calls :func:`refuse_output_onto_picture` itself.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from trackformat.model.track import Track


class OutputRefused(Exception):
    """An output that would overwrite one of the command's inputs; the command exits 2."""


@dataclass(frozen=True)
class FileRoles:
    """The names of a command's arguments that hold files it reads and files it writes
    (an argument may hold one name, a list of names, or None when it was not given)."""

    inputs: tuple[str, ...]
    outputs: tuple[str, ...]


def same_file(first: str | Path, second: str | Path) -> bool:
    """Whether two names reach the same existing file, however each is spelled. A name that
    does not exist, cannot be a file name (a NUL, a name too long) or cannot be looked up is
    the same as nothing."""
    try:
        return os.path.samefile(first, second)
    except (OSError, ValueError):
        return False


def _names(args: argparse.Namespace, attributes: tuple[str, ...]) -> Iterator[str]:
    for attribute in attributes:
        value = getattr(args, attribute, None)
        if isinstance(value, str):
            yield value
        elif isinstance(value, list):
            yield from (item for item in value if isinstance(item, str))


def check_declared(args: argparse.Namespace) -> None:
    """Raise :class:`OutputRefused` if an output argument of the parsed command names the same
    file as one of its input arguments."""
    roles = getattr(args, "file_roles", None)
    if not isinstance(roles, FileRoles):
        return
    inputs = list(_names(args, roles.inputs))
    for output in _names(args, roles.outputs):
        for source in inputs:
            if same_file(output, source):
                same = "" if Path(output) == Path(source) else f" ({source})"
                raise OutputRefused(
                    f"{output}: is the input file{same} of this command; writing there would "
                    "destroy it, so nothing was written: choose another output name"
                )


def board_picture(track: Track, track_path: str | Path) -> Path | None:
    """The board picture a track names, as a path from the track file's folder (None when it
    names none)."""
    if not track.board.image:
        return None
    return Path(track_path).parent / track.board.image


def refuse_output_onto_picture(output: str | Path | None, track: Track,
                               track_path: str | Path) -> None:
    """Raise :class:`OutputRefused` if ``output`` is the board picture of the track read from
    ``track_path``: a board scan is the one file of a track that cannot be made again."""
    picture = board_picture(track, track_path)
    if output is None or picture is None or not same_file(output, picture):
        return
    raise OutputRefused(
        f"{output}: is the board picture of {track_path}; writing there would replace it, so "
        "nothing was written: choose another output name"
    )
