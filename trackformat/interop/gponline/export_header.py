"""The header line of an exported ``.dat``: the board picture's name, info-box corner, weather.

GP Online reads the header by cutting it at its first ``.``: the picture's name runs to the
first space after that dot, then come the info-box corner (0 to 3: NE, SE, SW, NW) and,
optionally, the weather as two whole numbers (rain probability, shortest period). What a track
holds beyond that is changed with a warning (a corner of 4, a rain probability with a fraction)
or refused (a name the header cannot hold).
"""

from __future__ import annotations

import math
import os
from pathlib import Path, PurePosixPath

from trackformat.interop.gponline.gameload import INFO_CORNERS
from trackformat.model import GPOnline, Track


class HeaderError(ValueError):
    """A board picture name that no GP Online header can hold."""


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be the picture's name in a GP Online header, or None."""
    bad = next((c for c in name if ord(c) < 32 or ord(c) == 127), None)
    if bad is not None:
        return (f"it holds a control character ({'NUL' if bad == chr(0) else repr(bad)}) at "
                f"position {name.index(bad) + 1}")
    if "." not in name:
        return "it has no extension (GP Online finds the name's end after its first '.')"
    if name != name.lstrip() or any(c.isspace() for c in name[name.index("."):]):
        return ("it has a space after its first '.' or before its start (GP Online ends the "
                "name at the first space after its first '.')")
    return None


def picture_name(picture: Path, dat: Path) -> str:
    """The name of the board picture ``picture`` as a header of a ``.dat`` written to ``dat``
    holds it: relative to the ``.dat``'s folder, with forward slashes."""
    try:
        where, folder = picture.resolve(), dat.resolve().parent
    except (OSError, ValueError):  # a name the file system refuses (a NUL): as written
        where, folder = Path(os.path.abspath(picture)), Path(os.path.abspath(dat)).parent
    return Path(os.path.relpath(where, folder)).as_posix()


def header_image(track: Track, image: str | None, warnings: list[str]) -> str:
    """The picture's name for the header: ``image`` (which a caller that knows where the
    ``.dat`` goes makes relative to it, see :func:`picture_name`), else the track's picture's
    file name (the picture beside the ``.dat``), else ``board.png``. A relative path the header
    cannot hold falls back to the bare file name, with a warning; a bare name it cannot hold is
    a :class:`HeaderError`."""
    if image is None and track.board.image:
        image = PurePosixPath(track.board.image).name
    name = image
    if not name:
        warnings.append("the track has no board picture; the header names board.png")
        return "board.png"
    problem = name_problem(name)
    bare = PurePosixPath(name).name
    if problem is not None and bare != name and name_problem(bare) is None:
        warnings.append(
            f"the board picture's path {name!r} cannot be written in a GP Online header "
            f"({problem}); the header names {bare}: put the picture beside the .dat"
        )
        return bare
    if problem is not None:
        raise HeaderError(
            f"the board picture's name {name[:80]!r} cannot be written in a GP Online header: "
            f"{problem}; name another picture (--image)"
        )
    return name


def header_settings(settings: GPOnline, info_corner: int | None,
                    warnings: list[str]) -> tuple[int, float | None, int | None]:
    """The info-box corner and weather the header holds."""
    corner = settings.info_corner if info_corner is None else info_corner
    if not 0 <= corner < INFO_CORNERS:
        warnings.append(
            f"GP Online has info-box corners 0 to {INFO_CORNERS - 1} (NE, SE, SW, NW); corner "
            f"{corner} is written as 0"
        )
        corner = 0
    rain, period = settings.rain_probability, settings.min_weather_period
    if rain is not None and period is not None and rain != math.floor(rain):
        whole = float(round(rain))
        warnings.append(
            f"GP Online holds the rain probability as a whole percent; {rain:g} is written as "
            f"{whole:g}"
        )
        rain = whole
    return corner, rain, period
