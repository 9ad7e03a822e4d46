"""Small helpers of the board's drawing: label texts, heat colours, the size of a space."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from PySide6.QtGui import QColor
from shapely.geometry import Polygon

from trackformat.model import Track


def printed_and_computed(printed: int | None, computed: int | None) -> str:
    """A printed number, with the computed one beside it in brackets when they differ."""
    shown = "-" if printed is None else str(printed)
    if computed != printed:
        shown += f" ({'-' if computed is None else computed})"
    return shown


def heat_colour(share: float) -> QColor:
    """Pale yellow for a little, deep red for the most (``share`` of the largest value)."""
    share = max(0.0, min(1.0, share))
    return QColor(255, int(230 * (1 - share)), int(80 * (1 - share)), int(90 + 130 * share))


def typical_size(track: Track) -> float:
    """The usual size of a space in pixels (for arrow heads and tiles)."""
    sizes = sorted(abs(Polygon(s.polygon).area) ** 0.5 for s in track.spaces[:200])
    return sizes[len(sizes) // 2] if sizes else 20.0


def spaces_by_lane(track: Track, spaces: Iterable[str]) -> str:
    """How many of ``spaces`` each lane has, in lane order: "lane 1: 4, lane 2: 4, lane 3: 3"
    (a corner's stretches, which the designer checks against the printed board)."""
    lane_of = {s.id: s.lane for s in track.spaces}
    counts = Counter(lane_of.get(s) for s in spaces)
    parts = [f"lane {lane.id}: {counts[lane.id]}" for lane in track.lanes if counts[lane.id]]
    if counts[None]:
        parts.append(f"{counts[None]} in no lane")
    return ", ".join(parts)
