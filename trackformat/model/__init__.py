"""The track file's data model: pydantic models, frozen, strict about shape, silent on meaning."""

from trackformat.model.base import MAX_COORDINATE, ElementId, Point
from trackformat.model.track import (
    CURRENT_FORMAT_VERSION,
    FORMAT_NAME,
    Board,
    Corner,
    FinishLine,
    GPOnline,
    Ignore,
    Lane,
    Link,
    Metadata,
    PitLane,
    Placement,
    Space,
    SpaceKind,
    Track,
)

__all__ = [
    "CURRENT_FORMAT_VERSION",
    "FORMAT_NAME",
    "MAX_COORDINATE",
    "Board",
    "Corner",
    "ElementId",
    "FinishLine",
    "GPOnline",
    "Ignore",
    "Lane",
    "Link",
    "Metadata",
    "PitLane",
    "Placement",
    "Point",
    "Space",
    "SpaceKind",
    "Track",
]
