"""Snapping: a click near a corner of a space or the end of a lane lands exactly on it.

Spaces drawn by hand then share their corners with their neighbours (no sliver of gap or
overlap), a stretch of lanes starts exactly at the end of the road already laid, and the Align
tool's track points are the printed corners themselves. The point snapped to is marked on the
board while the pointer is near it, and the status bar says what it is; snapping is turned off
in the View menu.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from PySide6.QtCore import QObject, QPointF, QRectF, Signal
from PySide6.QtGui import QColor, QPainterPath
from PySide6.QtWidgets import QGraphicsItem, QGraphicsPathItem, QGraphicsScene

from editor.edits import EditError
from editor.lanes import front_cut
from editor.scene import style
from trackformat.model import Space, SpaceKind, Track

SNAP_PIXELS = 10.0
"""How close (in screen pixels) the pointer must come to a point to snap to it."""
MARK_PIXELS = 7.0
"""Half the size of the mark on the point snapped to, in screen pixels."""
MARK_COLOUR = QColor(230, 0, 200)

Point = tuple[float, float]


@dataclass(frozen=True)
class Target:
    """A point one can snap to, what it is (for the status bar) and the spaces it belongs to."""

    point: Point
    what: str
    owners: frozenset[str]


def _cuts(track: Track) -> list[tuple[str, str, Point, Point]]:
    """(lane, space id, left, right) of the open ends of the lanes: the cut ahead of a lane's
    last space, and the cut behind its first (where nothing in its lane leads in)."""
    lane_of = {s.id: s.lane for s in track.spaces}
    leaves, enters = set(), set()
    for link in track.links:
        if lane_of.get(link.from_) is not None and lane_of.get(link.from_) == lane_of.get(link.to):
            leaves.add(link.from_)
            enters.add(link.to)
    cuts = []
    for space in track.spaces:
        if space.kind != SpaceKind.TRACK or space.lane is None:
            continue
        ends: list[Space] = []
        if space.id not in leaves:
            ends.append(space)
        if space.id not in enters:
            ends.append(space.model_copy(update={"heading": space.heading + 180.0}))
        for end in ends:
            try:
                left, right = front_cut(end)
            except EditError:
                continue
            cuts.append((space.lane, space.id, left, right))
    return cuts


def _road_ends(cuts: list[tuple[str, str, Point, Point]]) -> list[Target]:
    """The middle of the road where lanes end side by side (their cuts touching end to end)."""
    groups: list[list[int]] = []
    for index, (_, _, left, right) in enumerate(cuts):
        width = math.dist(left, right)
        touching = [
            g for g in groups
            if any(
                min(math.dist(a, b) for a in (left, right) for b in cuts[k][2:])
                <= 0.2 * min(width, math.dist(*cuts[k][2:]))
                for k in g
            )
        ]
        merged = [index] + [k for g in touching for k in g]
        groups = [g for g in groups if g not in touching] + [merged]
    targets = []
    for group in groups:
        if len(group) < 2:
            continue
        points = [p for k in group for p in cuts[k][2:]]
        a, b = max(
            ((p, q) for p in points for q in points), key=lambda pair: math.dist(*pair)
        )
        lanes = sorted({cuts[k][0] for k in group})
        targets.append(Target(
            ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2),
            f"middle of the road at the end of lanes {', '.join(lanes)}",
            frozenset(cuts[k][1] for k in group),
        ))
    return targets


def snap_targets(track: Track) -> list[Target]:
    """Every corner of every space, the end of every lane and the middle of the road there."""
    corners: dict[Point, set[str]] = {}
    for space in track.spaces:
        for x, y in space.polygon:
            corners.setdefault((round(x, 2), round(y, 2)), set()).add(space.id)
    targets = [
        Target(point, f"corner of {', '.join(sorted(owners)[:3])}", frozenset(owners))
        for point, owners in corners.items()
    ]
    cuts = _cuts(track)
    # The middle of the road first: where it is also a lane's end, the road is meant.
    targets = _road_ends(cuts) + targets + [
        Target(((left[0] + right[0]) / 2, (left[1] + right[1]) / 2),
               f"end of lane {lane} at {space_id}", frozenset({space_id}))
        for lane, space_id, left, right in cuts
    ]
    return targets


class Snapper(QObject):
    """Snaps board points for the tools and marks the point snapped to (see the module)."""

    changed = Signal(str)
    """What the pointer is snapped to now ("" when it is not)."""

    def __init__(self, scene: QGraphicsScene) -> None:
        super().__init__(scene)
        self.scene = scene
        self.enabled = True
        self._key: tuple[object, object] | None = None
        self._targets: list[Target] = []
        self._mark: QGraphicsPathItem | None = None
        self.note = ""

    def set_enabled(self, on: bool) -> None:
        self.enabled = on
        if not on:
            self.hide()

    def targets(self) -> list[Target]:
        track = getattr(self.scene, "track", None)
        if track is None:
            return []
        key = (track.spaces, track.links)
        if self._key is None or self._key[0] is not key[0] or self._key[1] is not key[1]:
            self._key, self._targets = key, snap_targets(track)
        return self._targets

    def _reach(self) -> float:
        views = self.scene.views()
        scale = float(views[0].transform().m11()) if views else 1.0
        return SNAP_PIXELS / max(scale, 1e-6)

    def snap(self, pos: QPointF, exclude: str | None = None) -> QPointF:
        """The target nearest ``pos`` within reach (not one of space ``exclude``'s own), marked
        on the board; ``pos`` itself when there is none or snapping is off."""
        if not self.enabled:
            return pos
        here = (pos.x(), pos.y())
        best: tuple[float, Target] | None = None
        reach = self._reach()
        for target in self.targets():
            distance = math.dist(target.point, here)
            if distance <= reach and (best is None or distance < best[0]):
                if exclude is not None and target.owners == {exclude}:
                    continue
                best = (distance, target)
        if best is None:
            self.hide()
            return pos
        target = best[1]
        self._show(target)
        return QPointF(*target.point)

    def _show(self, target: Target) -> None:
        if self._mark is None:
            path = QPainterPath()
            size = MARK_PIXELS
            path.addRect(QRectF(-size, -size, 2 * size, 2 * size))
            path.moveTo(-size * 1.6, 0)
            path.lineTo(size * 1.6, 0)
            path.moveTo(0, -size * 1.6)
            path.lineTo(0, size * 1.6)
            self._mark = QGraphicsPathItem(path)
            self._mark.setPen(style.cosmetic_pen(MARK_COLOUR, 2.0))
            self._mark.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
            self._mark.setZValue(2000.0)
            self.scene.addItem(self._mark)
        self._mark.setPos(QPointF(*target.point))
        self._mark.setVisible(True)
        if self.note != target.what:
            self.note = target.what
            self.changed.emit(target.what)

    def hide(self) -> None:
        if self._mark is not None:
            self._mark.setVisible(False)
        if self.note:
            self.note = ""
            self.changed.emit("")

    def forget(self) -> None:
        """The scene was cleared (its items deleted): start afresh."""
        self._mark, self._key, self._targets = None, None, []
        self.hide()

    @property
    def shown_at(self) -> QPointF | None:
        """Where the mark is, if it is shown."""
        if self._mark is None or not self._mark.isVisible():
            return None
        return self._mark.pos()
