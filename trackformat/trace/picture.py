"""Reading the board picture: a regular file, a real picture, of a size the tracer can handle.

The tracer works on the picture's own pixels, so the draft's coordinates are the picture's; a
picture is refused before decoding when its file is too large, and after decoding when it has
too many pixels (a 20,000 px square photo would take minutes and gigabytes) or too few to hold
a board.
"""

from __future__ import annotations

import io
import warnings
from pathlib import Path

import cv2
import numpy as np
import PIL.Image
from numpy.typing import NDArray

from trackformat.io.files import FileRefused, read_limited
from trackformat.trace.errors import TraceError

MAX_PICTURE_BYTES = 200 * 1024 * 1024
"""Largest picture file read: a 2500 px scan is a few MB, a 10,000 px PNG under 200 MB."""
MAX_PIXELS = 60_000_000
"""Most pixels of a picture traced (about 9,500 px square): beyond, the tracer's masks take
gigabytes; a board is traced well at 2,000 to 5,000 px across."""
MIN_SIDE = 64
"""Fewest pixels on a side: a smaller picture cannot show the spaces of a board."""

Image = NDArray[np.uint8]
"""A picture as OpenCV holds it: rows, columns and the blue, green and red channels."""


def decode_picture(data: bytes, source: str) -> Image:
    """The pixels of the picture file ``data`` (BGR, 8 bits a channel).

    Parameters
    ----------
    data : bytes
        The whole file: PNG, JPEG, BMP, TIFF, WebP, anything OpenCV decodes.
    source : str
        The picture's name, for messages only.

    Raises :class:`TraceError` when the data is not a picture or its size is out of bounds.
    """
    if not data:
        raise TraceError(f"{source}: is empty, not a picture")
    header = _size_from_header(data, source)
    if header is not None and header[0] * header[1] > MAX_PIXELS:
        raise TraceError(_too_many(source, *header))
    raw = np.frombuffer(data, dtype=np.uint8)
    try:
        image = cv2.imdecode(raw, cv2.IMREAD_COLOR)
    except cv2.error:
        image = None
    if image is None and header is not None:
        image = _decode_with_pillow(data)
    if image is None:
        raise TraceError(f"{source}: is not a picture the tracer can read (PNG, JPEG, GIF, "
                         "BMP, TIFF and WebP are)")
    height, width = image.shape[:2]
    if height * width > MAX_PIXELS:
        raise TraceError(_too_many(source, width, height))
    if min(height, width) < MIN_SIDE:
        raise TraceError(f"{source}: is {width} x {height} px; a board picture needs at least "
                         f"{MIN_SIDE} px a side")
    return np.ascontiguousarray(image)


def read_picture(path: Path) -> Image:
    """The pixels of the picture file at ``path``; :class:`TraceError` if it cannot be traced."""
    source = str(path)
    try:
        data = read_limited(path, MAX_PICTURE_BYTES, "board picture")
    except FileRefused as err:
        raise TraceError(f"{source}: {err.reason}") from None
    except IsADirectoryError:
        raise TraceError(f"{source}: is a folder, not a picture") from None
    except FileNotFoundError:
        raise TraceError(f"{source}: no such file") from None
    except OSError as err:
        raise TraceError(f"{source}: cannot be read: {err.strerror or err}") from None
    return decode_picture(data, source)


def _too_many(source: str, width: int, height: int) -> str:
    return (f"{source}: is {width} x {height} px, more than the {MAX_PIXELS:,} pixels the tracer "
            f"works on; scale it down (a board traces well at 2,000 to 5,000 px across)")


def _size_from_header(data: bytes, source: str) -> tuple[int, int] | None:
    """Width and height the file's header declares (None when Pillow does not know the
    format), read before decoding so that a small file declaring a huge picture (a
    decompression bomb) is refused without allocating it."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", PIL.Image.DecompressionBombWarning)
            with PIL.Image.open(io.BytesIO(data)) as picture:
                width, height = picture.size
    except PIL.Image.DecompressionBombError:
        raise TraceError(f"{source}: declares a picture of more than {MAX_PIXELS:,} pixels, "
                         "more than the tracer works on") from None
    except (PIL.UnidentifiedImageError, OSError, ValueError, SyntaxError):
        return None
    return int(width), int(height)


def _decode_with_pillow(data: bytes) -> Image | None:
    """The picture decoded by Pillow, for the formats OpenCV lacks (GIF, some TIFFs)."""
    try:
        with PIL.Image.open(io.BytesIO(data)) as picture:
            rgb = np.asarray(picture.convert("RGB"), dtype=np.uint8)
    except (PIL.UnidentifiedImageError, PIL.Image.DecompressionBombError, OSError, ValueError,
            SyntaxError):
        return None
    return np.ascontiguousarray(rgb[:, :, ::-1])


__all__ = ["MAX_PICTURE_BYTES", "MAX_PIXELS", "MIN_SIDE", "Image", "decode_picture",
           "read_picture"]
