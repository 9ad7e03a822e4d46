"""Reading a file the user named, with a limit on its size whatever the file system says.

``stat`` cannot be trusted to bound a read: a device (``/dev/zero``, ``/dev/urandom``) or a pipe
reports a size of 0 and never ends, and files under ``/proc`` report 0 and hold more. So only
regular files are read, and never more than the limit plus one byte, which is how a file that is
too large is told apart from one that is just large enough.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path


class FileRefused(Exception):
    """A file that is not read at all: not a regular file, or larger than the limit.

    ``reason`` completes a sentence that begins with the file's name ("/dev/zero: is a
    device, not a file"), for the caller to put into its own error type.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _kind(mode: int) -> str | None:
    """What a file that is not a regular file is, in words (None for a regular file)."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISFIFO(mode):
        return "a pipe"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def megabytes(size: int) -> str:
    """A size for messages: ``20 MB`` for a whole number of mebibytes, else one decimal."""
    mb = size / (1024 * 1024)
    return f"{mb:.0f} MB" if mb.is_integer() else f"{mb:.1f} MB"


def require_regular_file(path: Path, what: str = "file") -> None:
    """Raise :class:`FileRefused` unless ``path`` is a regular file (a folder raises
    :class:`IsADirectoryError`, a missing file :class:`FileNotFoundError`), without opening it:
    opening a named pipe waits for a writer that may never come."""
    kind = _kind(os.stat(path).st_mode)
    if kind == "a folder":
        raise IsADirectoryError(21, "Is a directory", str(path))
    if kind is not None:
        raise FileRefused(f"is {kind}, not a file: a {what} is read from a regular file")


def read_limited(path: Path, limit: int, what: str = "file") -> bytes:
    """The bytes of the regular file ``path``, refusing anything else and anything over
    ``limit`` bytes with :class:`FileRefused`.

    ``what`` names the kind of file expected in messages ("track file"). Errors of the file
    system itself (no such file, no permission) are raised as the usual :class:`OSError`.
    """
    require_regular_file(path, what)
    with open(path, "rb") as stream:
        # Checked again on the open file: the name may have been swapped for a device since.
        opened = _kind(os.fstat(stream.fileno()).st_mode)
        if opened is not None:
            raise FileRefused(f"is {opened}, not a file: a {what} is read from a regular file")
        size = os.fstat(stream.fileno()).st_size
        if size > limit:
            shown, most = megabytes(size), megabytes(limit)
            if float(shown.split()[0]) <= limit / (1024 * 1024):  # "4.0 MB, more than 4 MB"
                shown, most = f"{size:,} bytes", f"{most} ({limit:,} bytes)"
            raise FileRefused(f"the file is {shown}, more than the {most} a {what} may be")
        data = stream.read(limit + 1)
    if len(data) > limit:
        raise FileRefused(f"the file holds more than the {megabytes(limit)} a {what} may be")
    return data


def check_writable(path: Path) -> None:
    """Raise :class:`OSError` now if ``path`` could not be written later, so that a command
    finds out before an hour of work rather than after it.

    Makes the missing folders (as the writer would), then creates and removes an empty file
    beside ``path``: the atomic writer needs exactly that, and the check creates nothing that
    stays.
    """
    if path.is_dir():
        raise IsADirectoryError(21, "Is a directory", str(path))
    path.parent.mkdir(parents=True, exist_ok=True)
    probe = path.parent / f".{path.name}.{os.getpid()}.probe"
    descriptor = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    os.close(descriptor)
    probe.unlink()
