"""Shared building blocks of the track models: strict config, ids and board coordinates."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, Strict, StringConstraints

#: Largest absolute board coordinate accepted, in pixels. Real scans are under 10,000 px a side;
#: anything far beyond is a broken file, and refusing it keeps geometry code away from overflow.
MAX_COORDINATE = 1_000_000.0


class TrackModel(BaseModel):
    """Base of every model in a track file.

    Frozen so that a loaded track is a value that can be shared between the validator, the
    simulator and the editor without defensive copies; ``extra="forbid"`` so that a misspelt key
    is reported instead of silently dropped; NaN and infinity are refused everywhere; strict, so
    that ``"stops": true`` or ``"width": "600"`` is an error rather than a silent conversion
    (points and enums opt back in to reading JSON arrays and strings).
    """

    model_config = ConfigDict(
        strict=True,
        frozen=True,
        extra="forbid",
        allow_inf_nan=False,
        populate_by_name=True,
        use_attribute_docstrings=True,
    )


ElementId = Annotated[
    str,
    StringConstraints(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.:\-]+$"),
]
"""Identifier of a space, lane, corner or other element, stable across edits: letters, digits and
``_ . : -``, at most 64 characters. (No description here: it would hide each field's own.)"""

Coordinate = Annotated[
    float,
    Field(
        ge=-MAX_COORDINATE,
        le=MAX_COORDINATE,
        description="Board pixel coordinate (x to the right, y downwards).",
    ),
]

Point = Annotated[tuple[Annotated[Coordinate, Strict()], Annotated[Coordinate, Strict()]],
                  Strict(False)]
"""A point on the board in scan pixels: (x, y), y pointing down as in image files."""
