"""The board of an imported GP Online track: its picture's name and size.

The ``.dat`` names a picture that usually lies beside it; its size, read from the picture's
header, is the board's. A picture that is missing, unreadable or hostile (a small file claiming
30,000 x 30,000 px) is not used: the board is then sized to hold the spaces, with a warning.
"""

from __future__ import annotations

import math
import warnings as warnings_module
from pathlib import Path

from trackformat.interop.gponline.dat import DatFile
from trackformat.model import Space

MARGIN = 60
"""Pixels the board reaches beyond the nodes when the board picture's size is unknown."""
MAX_IMAGE_NAME = 1000
"""Longest board picture name a track holds (its ``board.image``)."""
LARGEST_BOARD = 100_000
"""Widest and tallest board a track may have, in pixels."""


def _picture_size(picture: Path, warnings: list[str]) -> tuple[int, int] | None:
    """The board picture's size from its header (no pixel is decoded), or None with a warning
    when it cannot be used: unreadable, or claiming more pixels than a board can have (a small
    file may claim 30,000 x 30,000 px to exhaust the memory of whoever decodes it)."""
    from PIL import Image

    try:
        with warnings_module.catch_warnings():
            warnings_module.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(picture) as image:
                width, height = image.size
    except Image.DecompressionBombError:
        warnings.append(
            f"board picture {picture.name} claims far more pixels than a board picture has; "
            "its size is not used"
        )
        return None
    except (OSError, ValueError) as err:
        warnings.append(f"board picture {picture.name} cannot be read ({err}); size guessed")
        return None
    if not (0 < width <= LARGEST_BOARD and 0 < height <= LARGEST_BOARD):
        warnings.append(
            f"board picture {picture.name} is {width} x {height} px, larger than a board may be "
            f"({LARGEST_BOARD:,} px); its size is not used"
        )
        return None
    return width, height


def picture_size(
    dat: DatFile, board_dir: Path | None, warnings: list[str]
) -> tuple[tuple[int, int] | None, str]:
    """The board picture's size when it lies beside the file and can be used; else None, and
    what to say about the missing picture when the board is then sized from the spaces."""
    if board_dir is None:
        return None, ""
    picture = board_dir / dat.image
    try:
        found = picture.is_file()
    except OSError:  # a name too long for the file system, for one
        found = False
    if found:
        return _picture_size(picture, warnings), ""
    shown = dat.image if len(dat.image) <= 60 else dat.image[:57] + "..."
    return None, f"board picture {shown} not found beside the file; "


def size_holding(spaces: list[Space], missing: str, warnings: list[str]) -> tuple[int, int]:
    """With no picture to read it from, the board's size: the spaces' extent, outlines and
    all, plus a margin beyond the nodes, so that everything the import drew lies on the board
    (sized from the nodes alone, the outlines of the spaces at the edge reached past it)."""
    right = max((x for s in spaces for x, _ in s.polygon), default=0.0)
    bottom = max((y for s in spaces for _, y in s.polygon), default=0.0)
    right = max(right, max((s.centre[0] for s in spaces), default=0.0) + MARGIN)
    bottom = max(bottom, max((s.centre[1] for s in spaces), default=0.0) + MARGIN)
    width = min(max(1, math.ceil(right)), LARGEST_BOARD)
    height = min(max(1, math.ceil(bottom)), LARGEST_BOARD)
    warnings.append(f"{missing}board size set to {width} x {height} to hold the spaces")
    return width, height
