"""The project's own drawing of a track, as a list of simple shapes in board pixels.

Both picture formats (PNG and SVG) draw the same scene, so what a track looks like is decided in
one place: spaces outlined on the road, red-and-white corner limits, the stops in a yellow box
with the printed long and short paths beside it, arrows in and before corners, the chequered
finish line, grid numbers, the pit lane and its boxes. Sizes follow the size of a space, so a
picture is legible at the board's own size whatever its resolution.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise

import shapely
from shapely.geometry import LineString, Polygon

from trackformat.graph import TrackGraphs, build_graphs
from trackformat.model.track import SpaceKind, Track

RGB = tuple[int, int, int]
XY = tuple[float, float]

GRASS: RGB = (78, 128, 70)
ASPHALT: RGB = (104, 106, 112)
ASPHALT_PIT: RGB = (132, 134, 140)
SPACE_LINE: RGB = (236, 236, 236)
KERB_RED: RGB = (212, 30, 38)
WHITE: RGB = (255, 255, 255)
BLACK: RGB = (20, 20, 20)
STOP_YELLOW: RGB = (252, 212, 32)
ARROW: RGB = (255, 255, 255)
BOX_COLOURS: tuple[RGB, ...] = (
    (200, 40, 40), (40, 90, 200), (240, 160, 20), (30, 150, 70), (150, 60, 170),
    (20, 170, 190), (230, 110, 170), (120, 120, 120),
)


@dataclass(frozen=True)
class Fill:
    """A filled polygon, outlined when ``outline`` is set."""

    points: tuple[XY, ...]
    colour: RGB
    outline: RGB | None = None
    width: float = 0.0


@dataclass(frozen=True)
class Stroke:
    """A polyline."""

    points: tuple[XY, ...]
    colour: RGB
    width: float


@dataclass(frozen=True)
class Label:
    """Text centred on ``at``, on a box when ``box`` is set."""

    text: str
    at: XY
    size: float
    colour: RGB
    box: RGB | None = None
    box_outline: RGB | None = None
    bold: bool = False


Item = Fill | Stroke | Label


@dataclass(frozen=True)
class Scene:
    """What to draw, in drawing order, on a board of ``width`` x ``height`` pixels."""

    width: int
    height: int
    background: RGB
    items: tuple[Item, ...]
    unit: float = 40.0
    """The size of a space in board pixels (the square root of the median space's area): what
    a print scales to a printed space's size."""


def heat_colour(share: float) -> RGB:
    """Colour of a heatmap value scaled to 0..1: dark blue, through teal and yellow, to red."""
    stops: tuple[tuple[float, RGB], ...] = (
        (0.0, (40, 40, 140)), (0.35, (30, 150, 160)), (0.65, (240, 220, 60)), (1.0, (210, 30, 30)),
    )
    share = min(max(share, 0.0), 1.0)
    for (a, ca), (b, cb) in pairwise(stops):
        if share <= b:
            t = (share - a) / (b - a)
            return (
                round(ca[0] + t * (cb[0] - ca[0])),
                round(ca[1] + t * (cb[1] - ca[1])),
                round(ca[2] + t * (cb[2] - ca[2])),
            )
    return stops[-1][1]


def build_scene(track: Track, heatmap: Mapping[str, float] | None = None) -> Scene:
    """The drawing of ``track``; ``heatmap`` (space id -> value) paints spaces on a colour ramp."""
    graphs = build_graphs(track)
    unit = graphs.shapes.scale if graphs.shapes.ids else 40.0
    items: list[Item] = []
    items += _spaces(track, unit, heatmap)
    items += _finish(graphs, unit)
    items += _grid(track, graphs, unit)
    items += _arrows(graphs, unit)
    items += _corner_limits(graphs, unit)
    items += _corner_labels(graphs, unit)
    return Scene(track.board.width, track.board.height, GRASS, tuple(items), unit)


def _spaces(track: Track, unit: float, heatmap: Mapping[str, float] | None) -> list[Item]:
    values = [v for v in (heatmap or {}).values() if math.isfinite(v)]
    # Counts start at nothing: the ramp runs from 0 (or the lowest value, if below) to the top.
    low, high = (min(0.0, *values), max(values)) if values else (0.0, 1.0)
    spread = (high - low) or 1.0
    # A team's place to stop, a box beside the pit lane or a garage in it, in its team's
    # colour and numbered: boxes first, then garages.
    stands = [*track.pit_lane.boxes, *track.pit_lane.garages] if track.pit_lane else []
    number = {stand: n for n, stand in reversed(list(enumerate(stands)))}  # first mention
    line = max(unit * 0.045, 1.0)
    items: list[Item] = []
    for space in track.spaces:
        if space.kind == SpaceKind.BOX or space.id in number:
            colour = BOX_COLOURS[number.get(space.id, len(stands)) % len(BOX_COLOURS)]
        elif space.kind == SpaceKind.PIT:
            colour = ASPHALT_PIT
        else:
            colour = ASPHALT
        value = heatmap.get(space.id) if heatmap is not None else None
        if value is not None and math.isfinite(value):
            colour = heat_colour((value - low) / spread)
        items.append(Fill(tuple(space.polygon), colour, SPACE_LINE, line))
    centres = {s.id: s.centre for s in track.spaces}
    for n, stand in enumerate(stands, start=1):
        if stand in centres:
            items.append(Label(str(n), centres[stand], unit * 0.55, WHITE))
    return items


def _shared_edge(graphs: TrackGraphs, a: str, b: str) -> tuple[XY, XY] | None:
    """The ends of the boundary two touching spaces share (None when they do not touch)."""
    pa, pb = Polygon(graphs.spaces[a].polygon), Polygon(graphs.spaces[b].polygon)
    if not (pa.is_valid and pb.is_valid):
        return None
    tolerance = 0.02 * graphs.shapes.scale
    shared = pa.boundary.intersection(pb.buffer(tolerance))
    if shared.is_empty or shared.length < 0.1 * graphs.shapes.scale:
        return None
    pieces = list(getattr(shared, "geoms", [shared]))
    coords = [c for piece in pieces if isinstance(piece, LineString) for c in piece.coords]
    if len(coords) < 2:
        return None
    # The two coordinates farthest apart are the ends of the shared edge.
    best = max(
        ((p, q) for i, p in enumerate(coords) for q in coords[i + 1:]),
        key=lambda pq: math.dist(pq[0], pq[1]),
    )
    return (best[0][0], best[0][1]), (best[1][0], best[1][1])


def _dashes(start: XY, end: XY, width: float, pieces: int) -> list[Item]:
    """A red-and-white kerb line from ``start`` to ``end``."""
    items: list[Item] = [Stroke((start, end), WHITE, width)]
    for k in range(0, pieces, 2):
        a, b = k / pieces, (k + 1) / pieces
        items.append(Stroke((_along(start, end, a), _along(start, end, b)), KERB_RED, width))
    return items


def _along(a: XY, b: XY, t: float) -> XY:
    return (a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]))


def _in_lane_neighbour(graphs: TrackGraphs, space_id: str, ahead: bool) -> str | None:
    lane = graphs.lanes.get(graphs.lane_of(space_id) or "", [])
    index = graphs.lane_index.get(space_id)
    if index is None or not lane:
        return None
    other = lane[(index + (1 if ahead else -1)) % len(lane)]
    return other if other != space_id else None


def _corner_limits(graphs: TrackGraphs, unit: float) -> list[Item]:
    """Red-and-white lines where each lane enters and leaves each corner."""
    items: list[Item] = []
    width = unit * 0.16
    for corner in graphs.track.corners:
        inside = set(corner.spaces)
        for space_id in corner.spaces:
            if space_id not in graphs.circuit:
                continue
            for ahead in (False, True):
                other = _in_lane_neighbour(graphs, space_id, ahead)
                if other is None or other in inside:
                    continue
                edge = _shared_edge(graphs, space_id, other)
                if edge is not None:
                    items += _dashes(edge[0], edge[1], width, 4)
    return items


def _corner_labels(graphs: TrackGraphs, unit: float) -> list[Item]:
    """For each corner: stops in a yellow box, the printed long/short and the name below it."""
    items: list[Item] = []
    polygons = [Polygon(s.polygon) for s in graphs.track.spaces if len(s.polygon) >= 3]
    valid = [p for p in polygons if p.is_valid]
    tree = shapely.STRtree(valid) if valid else None
    taken: list[Polygon] = []
    stop_size, small = unit * 1.05, unit * 0.6
    for corner in graphs.track.corners:
        centres = [graphs.spaces[s].centre for s in corner.spaces if s in graphs.spaces]
        if not centres:
            continue
        printed = " / ".join(
            str(v) for v in (corner.printed_long, corner.printed_short) if v is not None
        )
        # The block: the yellow box on top, the printed numbers, then the name.
        height = stop_size * 1.6 + (unit if printed else 0) + (unit * 0.8 if corner.name else 0)
        width = max(stop_size * 1.6, len(corner.name) * unit * 0.34 + unit * 0.3)
        spot = _label_spot(graphs, centres, tree, valid, taken, unit, (width, height))
        top = spot[1] - stop_size * 0.8
        taken.append(_block(spot, top, width, height))
        items.append(Label(str(corner.stops), spot, stop_size, BLACK, STOP_YELLOW, BLACK, True))
        below = top + stop_size * 1.6 + unit * 0.45
        if printed:
            items.append(Label(printed, (spot[0], below), small, BLACK, WHITE, BLACK))
            below += unit * 0.95
        if corner.name:
            items.append(Label(corner.name, (spot[0], below), unit * 0.55, WHITE))
    return items


def _block(spot: XY, top: float, width: float, height: float) -> Polygon:
    return shapely.box(spot[0] - width / 2, top, spot[0] + width / 2, top + height)


def _label_spot(
    graphs: TrackGraphs,
    centres: Sequence[XY],
    tree: shapely.STRtree | None,
    polygons: Sequence[Polygon],
    taken: Sequence[Polygon],
    unit: float,
    size: tuple[float, float],
) -> XY:
    """Where a corner's label block goes: the nearest place to the corner that is clear of the
    road and of other labels; failing that, the clearest place near it."""
    cx = sum(c[0] for c in centres) / len(centres)
    cy = sum(c[1] for c in centres) / len(centres)
    width, height = size
    board_w, board_h = graphs.track.board.width, graphs.track.board.height
    gap = unit * 0.35
    fallback: tuple[float, XY] | None = None
    for step in range(2, 24):
        reach = step * unit * 0.5
        for k in range(24):
            angle = k * math.pi / 12
            spot = (cx + reach * math.cos(angle), cy + reach * math.sin(angle))
            block = _block(spot, spot[1] - unit * 0.85, width, height)
            left, top, right, bottom = block.bounds
            if left < 0 or top < 0 or right > board_w or bottom > board_h:
                continue
            clear = _clearance(block, tree, polygons, unit)
            if any(block.distance(other) < gap for other in taken):
                clear = -1.0
            if clear >= gap:
                return spot
            if fallback is None or clear > fallback[0]:
                fallback = (clear, spot)
    return fallback[1] if fallback else (cx, cy)


def _clearance(shape: Polygon, tree: shapely.STRtree | None, polygons: Sequence[Polygon],
               unit: float) -> float:
    """Distance from ``shape`` to the nearest space (far, when there is none)."""
    if tree is None:
        return 10 * unit
    index = tree.nearest(shape)
    if index is None:
        return 10 * unit
    return float(polygons[int(index)].distance(shape))


def _arrows(graphs: TrackGraphs, unit: float) -> list[Item]:
    """Arrows for the moves in and into corners, and single straight arrows before them.

    On straights every move is allowed and arrows would only clutter the board; in corners the
    arrows are the rules of the road, as printed boards show them.
    """
    near: set[str] = set()
    for corner in graphs.track.corners:
        for space_id in corner.spaces:
            if space_id in graphs.circuit:
                near.add(space_id)
                near.update(graphs.circuit.predecessors(space_id))
    items: list[Item] = []
    width = max(unit * 0.07, 1.0)
    lanes = len(graphs.lane_order)
    for source in sorted(near):
        targets = list(graphs.circuit.successors(source))
        lane = graphs.lane_of(source)
        changes = [t for t in targets if graphs.lane_of(t) != lane]
        single = lanes > 1 and not changes and len(targets) == 1
        for target in targets:
            if graphs.lane_of(target) == lane and not single:
                continue
            a, b = graphs.spaces[source].centre, graphs.spaces[target].centre
            items += _arrow(_along(a, b, 0.28), _along(a, b, 0.72), width, ARROW)
    return items


def _arrow(start: XY, end: XY, width: float, colour: RGB) -> list[Item]:
    dx, dy = end[0] - start[0], end[1] - start[1]
    length = math.hypot(dx, dy)
    if length == 0:
        return []
    ux, uy = dx / length, dy / length
    head = min(width * 4.0, length * 0.5)
    base = (end[0] - ux * head, end[1] - uy * head)
    left = (base[0] - uy * head * 0.55, base[1] + ux * head * 0.55)
    right = (base[0] + uy * head * 0.55, base[1] - ux * head * 0.55)
    return [Stroke((start, base), colour, width), Fill((end, left, right), colour)]


def _finish(graphs: TrackGraphs, unit: float) -> list[Item]:
    """A chequered band on the finish line, two rows of squares across each lane."""
    items: list[Item] = []
    for space_id in graphs.finish:
        behind = _in_lane_neighbour(graphs, space_id, ahead=False)
        if behind is None:
            continue
        edge = _shared_edge(graphs, behind, space_id)
        if edge is None:
            continue
        p, q = edge
        ahead = graphs.spaces[space_id].centre
        length = math.dist(p, q)
        count = max(2, round(length / (unit * 0.2)))
        step = length / count
        nx_, ny_ = -(q[1] - p[1]) / length, (q[0] - p[0]) / length
        mid = _along(p, q, 0.5)
        if (ahead[0] - mid[0]) * nx_ + (ahead[1] - mid[1]) * ny_ < 0:
            nx_, ny_ = -nx_, -ny_
        for row in (-1, 0):
            for k in range(count):
                a, b = _along(p, q, k / count), _along(p, q, (k + 1) / count)
                o0, o1 = row * step, (row + 1) * step
                quad = (
                    (a[0] + nx_ * o0, a[1] + ny_ * o0), (b[0] + nx_ * o0, b[1] + ny_ * o0),
                    (b[0] + nx_ * o1, b[1] + ny_ * o1), (a[0] + nx_ * o1, a[1] + ny_ * o1),
                )
                items.append(Fill(quad, BLACK if (k + row) % 2 else WHITE))
    return items


def _grid(track: Track, graphs: TrackGraphs, unit: float) -> list[Item]:
    """Each grid slot's number on its space, with a white bar at its front edge."""
    items: list[Item] = []
    for n, slot in enumerate(track.grid, start=1):
        space = graphs.spaces.get(slot)
        if space is None:
            continue
        ahead = _in_lane_neighbour(graphs, slot, ahead=True)
        edge = _shared_edge(graphs, slot, ahead) if ahead else None
        if edge is not None:
            c = space.centre
            p, q = (_along(e, c, 0.12) for e in edge)
            items.append(Stroke((_along(p, q, 0.1), _along(p, q, 0.9)), WHITE, unit * 0.09))
        items.append(Label(str(n), space.centre, unit * 0.5, WHITE))
    return items
