"""The board of an imported GP Online track: its picture's name and size.

The ``.dat`` names a picture that usually lies beside it; its size, read from the picture's
header, is the board's. A picture that is missing, unreadable or hostile (a small file claiming
30,000 x 30,000 px) is not used: the board is then sized from the nodes, with a warning.
"""

from __future__ import annotations

import warnings as warnings_module
from pathlib import Path

from trackformat.interop.gponline.dat import DatFile

MARGIN = 60
"""Pixels added around the nodes when the board picture's size is unknown."""
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


def board_size(dat: DatFile, board_dir: Path | None, warnings: list[str]) -> tuple[int, int]:
    """The board picture's size when it lies beside the file and can be used, else the nodes'
    extent plus a margin."""
    missing = ""
    if board_dir is not None:
        picture = board_dir / dat.image
        try:
            found = picture.is_file()
        except OSError:  # a name too long for the file system, for one
            found = False
        size = _picture_size(picture, warnings) if found else None
        if size is not None:
            return size
        if not found:
            shown = dat.image if len(dat.image) <= 60 else dat.image[:57] + "..."
            missing = f"board picture {shown} not found beside the file; "
    width = max((n.x for n in dat.nodes), default=0) + MARGIN
    height = max((n.y for n in dat.nodes), default=0) + MARGIN
    warnings.append(f"{missing}board size set to {width} x {height} from the nodes")
    return width, height
