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
from shapely.geometry import Polygon

from editor.edits import EditError
from editor.lanes import back_cut, front_cut
from editor.scene import style
from trackformat.model import Link, Space, SpaceKind, Track

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


@dataclass(frozen=True)
class _Cut:
    """An open end of a lane: the cut ahead of its last space (or behind its first)."""

    lane: str
    space: Space
    ahead: bool
    left: Point
    right: Point

    @property
    def middle(self) -> Point:
        return ((self.left[0] + self.right[0]) / 2, (self.left[1] + self.right[1]) / 2)


def _cuts(track: Track) -> list[_Cut]:
    """The open ends of the lanes: the cut ahead of a lane's last space, and the cut behind its
    first (where nothing in its lane leads in)."""
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
        for ahead in (True, False):
            if space.id in (leaves if ahead else enters):
                continue
            turned = space if ahead else space.model_copy(update={"heading": space.heading + 180})
            try:
                left, right = front_cut(turned)
            except EditError:
                continue
            cuts.append(_Cut(space.lane, space, ahead, left, right))
    return cuts


def _road_end(group: list[_Cut]) -> Point:
    """Where the middle of the road meets the line of the lanes' ends that lie furthest back
    (staggered lanes end half a space apart): the point the Lanes tool starts a joined stretch
    from."""
    rx = sum(c.right[0] - c.left[0] for c in group)
    ry = sum(c.right[1] - c.left[1] for c in group)
    norm = math.hypot(rx, ry) or 1.0
    across = (rx / norm, ry / norm)
    forward = (across[1], -across[0])
    sides = [p[0] * across[0] + p[1] * across[1] for c in group for p in (c.left, c.right)]
    side = (min(sides) + max(sides)) / 2
    along = [c.middle[0] * forward[0] + c.middle[1] * forward[1] for c in group]
    # Ahead: the rearmost end; behind the first spaces (the cut faces backwards): the same line.
    base = min(along) if group[0].ahead else max(along)
    return (side * across[0] + base * forward[0], side * across[1] + base * forward[1])


def _road_ends(cuts: list[_Cut]) -> list[Target]:
    """The middle of the road where lanes end side by side (their end spaces touching)."""
    shapes = [Polygon(c.space.polygon).buffer(0) for c in cuts]
    groups: list[list[int]] = []
    for index, cut in enumerate(cuts):
        width = math.dist(cut.left, cut.right)
        touching = [
            g for g in groups
            if any(
                cuts[k].ahead == cut.ahead and cuts[k].lane != cut.lane
                and shapes[k].distance(shapes[index]) <= 0.1 * width
                for k in g
            )
        ]
        merged = [index] + [k for g in touching for k in g]
        groups = [g for g in groups if g not in touching] + [merged]
    targets = []
    for group in groups:
        if len(group) < 2:
            continue
        members = [cuts[k] for k in group]
        lanes = sorted({c.lane for c in members})
        targets.append(Target(
            _road_end(members),
            f"middle of the road at the {'end' if members[0].ahead else 'start'} of lanes "
            + ", ".join(lanes),
            frozenset(c.space.id for c in members),
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
        Target(c.middle, f"{'end' if c.ahead else 'start'} of lane {c.lane} at {c.space.id}",
               frozenset({c.space.id}))
        for c in cuts
    ]
    return targets


def beside_targets(track: Track, offset: float) -> list[Target]:
    """Points ``offset`` px outside the road's outer edges, level with every cut of its outer
    lanes (the first lane's left edge, the last lane's right edge): where the middle of a lane
    ``2 * offset`` wide laid alongside the road runs when it touches the road, edge to edge. The
    Lanes tool snaps to them while it lays the pit lane: two clicks beside a straight lay a pit
    lane that touches it all along, neither overlapping the track nor leaving a gap that keeps
    its entry and exit from touching the track."""
    if not track.lanes:
        return []
    outer: dict[str, tuple[str, ...]] = {track.lanes[0].id: ("left",)}
    last = track.lanes[-1].id
    outer[last] = (*outer.get(last, ()), "right")  # a single lane has both
    found: dict[Point, Target] = {}
    for space in track.spaces:
        if space.kind != SpaceKind.TRACK or space.lane not in outer:
            continue
        for cut in (front_cut, back_cut):
            try:
                left, right = cut(space)
            except EditError:
                continue
            width = math.dist(left, right)
            if width == 0:
                continue
            for side in outer[space.lane]:
                edge, inner = (left, right) if side == "left" else (right, left)
                point = (round(edge[0] + (edge[0] - inner[0]) / width * offset, 2),
                         round(edge[1] + (edge[1] - inner[1]) / width * offset, 2))
                found.setdefault(point, Target(
                    point, f"beside lane {space.lane} at {space.id}, on its {side}",
                    frozenset({space.id})))
    return list(found.values())


class Snapper(QObject):
    """Snaps board points for the tools and marks the point snapped to (see the module)."""

    changed = Signal(str)
    """What the pointer is snapped to now ("" when it is not)."""

    def __init__(self, scene: QGraphicsScene) -> None:
        super().__init__(scene)
        self.scene = scene
        self.enabled = True
        self._key: tuple[list[Space], list[Link]] | None = None
        self._targets: list[Target] = []
        self._beside: tuple[list[Space], float, list[Target]] | None = None
        """The targets beside the road last built: for which spaces, at which offset."""
        self._mark: QGraphicsPathItem | None = None
        self.note = ""

    def set_enabled(self, on: bool) -> None:
        self.enabled = on
        if not on:
            self.hide()

    def targets(self, exclude: str | None = None) -> list[Target]:
        """The snap targets of the scene's track, built again only when it changed.

        While space ``exclude``'s corner is dragged, each mouse step changes that one space and
        nothing else; its own targets are skipped by :meth:`snap` anyway, and every other
        target (a neighbour's corner, even one the dragged corner shared) is where it was. So
        the targets built when the drag began serve the whole drag, instead of being built
        again at every step (about 25 ms each on Monaco).
        """
        track = getattr(self.scene, "track", None)
        if track is None:
            return []
        if not self._current(track, exclude):
            self._key, self._targets = (track.spaces, track.links), snap_targets(track)
        return self._targets

    def _current(self, track: Track, exclude: str | None) -> bool:
        """Whether the targets built last still hold for ``track``: the same spaces and links,
        or, with ``exclude``, the same but for that space's outline."""
        if self._key is None:
            return False
        spaces, links = self._key
        if links is not track.links:
            return False
        if spaces is track.spaces:
            return True
        if exclude is None or len(spaces) != len(track.spaces):
            return False
        return all(
            old is new or (old.id == new.id == exclude)
            for old, new in zip(spaces, track.spaces, strict=True)
        )

    def _reach(self) -> float:
        views = self.scene.views()
        scale = float(views[0].transform().m11()) if views else 1.0
        return SNAP_PIXELS / max(scale, 1e-6)

    def beside(self, offset: float) -> list[Target]:
        """The points ``offset`` outside the road (see :func:`beside_targets`), built again only
        when the spaces or the offset changed."""
        track = getattr(self.scene, "track", None)
        if track is None:
            return []
        if self._beside is None or self._beside[0] is not track.spaces or (
                self._beside[1] != offset):
            self._beside = (track.spaces, offset, beside_targets(track, offset))
        return self._beside[2]

    def snap(
        self, pos: QPointF, exclude: str | None = None, away_from: Point | None = None,
        beside: float | None = None,
    ) -> QPointF:
        """The target nearest ``pos`` within reach, marked on the board; ``pos`` itself when
        there is none or snapping is off. Not one of space ``exclude``'s own corners, nor the
        point ``away_from`` (where a dragged corner started: it can then be moved a little).
        With ``beside``, also the points that far outside the road's edges (the middle of a
        pit lane alongside it, see :func:`beside_targets`)."""
        if not self.enabled:
            return pos
        here = (pos.x(), pos.y())
        best: tuple[float, Target] | None = None
        reach = self._reach()
        targets = self.targets(exclude)
        if beside is not None:
            targets = [*targets, *self.beside(beside)]
        for target in targets:
            distance = math.dist(target.point, here)
            if distance <= reach and (best is None or distance < best[0]):
                if exclude is not None and target.owners == {exclude}:
                    continue
                if away_from is not None and math.dist(target.point, away_from) < 1e-6:
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
        self._mark, self._key, self._targets, self._beside = None, None, [], None
        self.hide()

    @property
    def shown_at(self) -> QPointF | None:
        """Where the mark is, if it is shown."""
        if self._mark is None or not self._mark.isVisible():
            return None
        return self._mark.pos()
