"""Reading a JSON report the user named: a test-drive report for ``testdrive compare``, or a
heatmap for ``render --heatmap``.

Both are files a user may have edited, cut short, or never written with trackformat at all, so
reading one may not hang, exhaust memory or crash: only a regular file is read (a named pipe
would wait for a writer forever, a device never ends), never more than a limit, and JSON that
Python's parser cannot hold (nested 100,000 deep, whole numbers of thousands of digits) is
refused with a reason. What the document holds is checked by the caller, which knows the places
that matter; :func:`shown` lets it quote a hostile value in one short line.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from trackformat.io.files import FileRefused, read_limited

MAX_REPORT_BYTES = 64 * 1024 * 1024
"""Largest report read. A test-drive report takes about 100 bytes per space: some 4 MB for the
largest track allowed (38,000 spaces)."""

MAX_DIGITS = 4300
"""Longest whole number read, in digits: Python's own default limit on turning text into an
int, made independent of the interpreter's settings (``PYTHONINTMAXSTRDIGITS=0`` lifts that
limit, and turning a million digits into an int takes quadratic time). Any count of a report
has fewer than 20 digits: a longer number under this limit is refused by the check of the figure
where it stands, which can name the place."""

LONGEST_SHOWN = 40
"""Characters of a string or a name quoted in a message: a message stays on one line."""


class ReportFileError(ValueError):
    """A report file that cannot be used at all; ``reason`` completes a sentence that begins
    with the file's name ("before.json: is a pipe, not a file: ..."), for the caller to put
    into its own message."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class _TooLong(ValueError):
    """Raised through the JSON parser by :func:`_whole_number`: a number of ``digits`` digits."""

    def __init__(self, digits: int) -> None:
        super().__init__(f"a whole number of {digits:,} digits")
        self.digits = digits


def _whole_number(text: str) -> int:
    """``int(text)`` for the JSON parser, refusing numbers too long to be anything but hostile
    (see :data:`MAX_DIGITS`). The parser does not say where the number was, so neither can the
    message."""
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise _TooLong(digits)
    return int(text)


def read_json_report(path: Path, what: str, hint: str = "",
                     limit: int = MAX_REPORT_BYTES) -> Any:
    """The JSON document in the regular file ``path``, of at most ``limit`` bytes;
    :class:`ReportFileError` saying what is wrong otherwise.

    ``what`` names the kind of file in messages ("test-drive report"); ``hint``, appended to
    the reasons that the file is not JSON at all, tells the user what file was expected (it
    starts with its own punctuation: ``"; a test-drive report is written by ..."``).

    NaN and Infinity are JSON to Python's parser and are returned as they are: the caller
    refuses them where they stand, which it can name.
    """
    try:
        data = read_limited(path, limit, what)
    except FileRefused as err:
        raise ReportFileError(err.reason) from None
    except FileNotFoundError:
        raise ReportFileError("cannot be read: no such file") from None
    except IsADirectoryError:
        raise ReportFileError(f"is a folder, not a {what}") from None
    except OSError as err:  # no permission, a name too long, an I/O error
        raise ReportFileError(f"cannot be read: {err.strerror or err}") from None
    try:
        text = data.decode("utf-8-sig")  # a byte order mark, as some editors write, is fine
    except UnicodeDecodeError as err:
        raise ReportFileError(f"byte {err.start + 1:,} is not UTF-8 text{hint}") from None
    if not text.strip():
        raise ReportFileError(f"the file is empty{hint}")
    try:
        return json.loads(text, parse_int=_whole_number)
    except json.JSONDecodeError as err:
        raise ReportFileError(f"line {err.lineno} column {err.colno}: not JSON ({err.msg})"
                              f"{hint}") from None
    except _TooLong as err:
        raise ReportFileError(f"holds a whole number of {err.digits:,} digits, more than any "
                              f"{what} has") from None
    except RecursionError:
        raise ReportFileError(f"JSON nested too deeply: a {what} is a few levels deep"
                              ) from None
    except ValueError as err:  # the interpreter's own limit on digits, if set lower
        raise ReportFileError(f"not JSON that can be read ({err}){hint}") from None


def shown(value: Any) -> str:
    """``value`` for a one-line message, as the user wrote it in JSON where that is short: a
    whole number of 400 digits is told by its length (Python will not even print one of over
    4,300), NaN and Infinity by their JSON names, a long string cut short, a list or an object
    by its kind."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return f"a whole number of {digits(value):,} digits" if value.bit_length() > 64 \
            else str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
        return repr(value)
    if isinstance(value, str):
        return name(value)
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def digits(value: int) -> int:
    """How many digits ``value`` has, without writing it out: Python refuses to write a whole
    number of more than 4,300 digits (and takes quadratic time to)."""
    size = abs(value)
    if size == 0:
        return 1
    count = int(math.log10(size)) + 1  # a float logarithm: may be one off near a power of 10
    if 10 ** (count - 1) > size:
        count -= 1
    elif 10**count <= size:
        count += 1
    return count


def name(text: str) -> str:
    """A name from a file (a corner's, a bot's, a space id) for a one-line message: quoted,
    with control characters escaped, and cut short after :data:`LONGEST_SHOWN` characters."""
    if len(text) <= LONGEST_SHOWN:
        return repr(text)
    return repr(text[:LONGEST_SHOWN]) + f"... ({len(text):,} characters)"
