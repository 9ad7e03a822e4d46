"""Rules: the board picture's name. The track names its picture by a path, and a path that no
common file system can hold means the picture can never be found.

Such a name reaches a track from a GP Online ``.dat`` (whose picture name is kept as it was) or
from a hand-edited file. Programs that look the picture up get an error from the operating
system rather than "not found" (a NUL byte or a name longer than the file system allows), so
the rule says what is wrong with the name before any of them tries. :func:`why_not_a_file_name`
is also what the editor asks before it looks for the picture.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

from trackformat.graph import TrackGraphs
from trackformat.lint.diagnostic import Severity
from trackformat.lint.registry import Finding, rule
from trackformat.model.track import Track

TOPIC = "references"

MAX_PART_BYTES = 255
"""Longest name of one file or folder: 255 bytes on Linux and macOS file systems (ext4, APFS),
255 UTF-16 units on Windows (NTFS); counting UTF-8 bytes holds for all of them."""

SEPARATORS = re.compile(r"[/\\]")
"""Both separators split a name into parts: a name written on Windows uses backslashes, and
measuring the shorter parts never flags a name that one of the systems could hold."""

CONTROL = re.compile(r"[\x00-\x1f\x7f]")
"""Control characters: NUL ends a name for every operating system, and Windows refuses the
others in file names (elsewhere they are allowed, but in a picture's name they mean damage)."""


def why_not_a_file_name(name: str) -> str | None:
    """Why ``name`` cannot be the path of a file on the common file systems, or None when it can.

    Only what fails everywhere, or on Windows and means damage elsewhere, is said: a NUL or
    another control character, or one part of the path longer than :data:`MAX_PART_BYTES`. An
    absolute path is a file name like any other (an unsaved track names its picture so), and
    characters only Windows forbids, such as ``:``, are left alone because ``C:/boards/x.png``
    is a good name there.
    """
    control = CONTROL.search(name)
    if control is not None:
        code = ord(control.group())
        what = "a NUL character (U+0000)" if code == 0 else f"the control character U+{code:04X}"
        return f"it holds {what}, which a file name cannot hold"
    parts = SEPARATORS.split(name)
    for part in parts:
        size = len(part.encode("utf-8"))
        if size > MAX_PART_BYTES and len(parts) == 1:
            return f"it is {size:,} bytes long, and a file name may have at most {MAX_PART_BYTES}"
        if size > MAX_PART_BYTES:
            return (f"its part {shown_name(part)} is {size:,} bytes long, and a file or folder "
                    f"name may have at most {MAX_PART_BYTES}")
    return None


def shown_name(name: str) -> str:
    """``name`` quoted for a message: control characters written as escapes, and a long name
    cut in the middle so that its start and its extension both show."""
    short = name if len(name) <= 60 else f"{name[:40]}...{name[-12:]}"
    return json.dumps(short, ensure_ascii=False)


@rule(
    "REF006",
    "board-picture-name",
    TOPIC,
    Severity.WARNING,
    example='"board": {"image": "board\\u0000.png", ...}, or a picture name of 300 characters.',
)
def board_picture_name(track: Track, graphs: TrackGraphs) -> Iterator[Finding]:
    """The board picture's name cannot be a file name: it holds a NUL or another control
    character, or a part of it is longer than 255 bytes.

    No picture can have such a name, so the editor and ``render`` leave the picture out, and
    other programs may fail when they try to open it. An import from GP Online keeps the
    ``.dat``'s picture name as it was, so a damaged or overlong name there arrives here. The
    track itself is sound, hence a warning. Rename the picture file if needed and point the
    track at it (in the editor: File > Relink board picture). An absolute path is allowed.
    """
    name = track.board.image
    if not name:
        return
    reason = why_not_a_file_name(name)
    if reason is not None:
        yield Finding(
            f"the board picture's name {shown_name(name)} cannot be a file name: {reason}; "
            "rename the picture and point the track at it (File > Relink board picture in the "
            "editor)",
            pointer="/board/image",
        )
