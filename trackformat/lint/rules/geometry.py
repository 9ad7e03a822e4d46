"""Rules: geometry. The outlines drawn over the board are sound shapes, lie on the board, do not
cover one another, and agree with the links and headings.

Every check works on whole arrays of polygons at once (shapely's vectorised functions and the
spatial index of :class:`~trackformat.geometry.SpaceShapes`), never on every pair of spaces in
Python, so that a 5,000-space track is checked in a fraction of a second.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.validation import explain_validity

from trackformat.analysis import link_angles
from trackformat.geometry import SpaceShapes, space_polygon
from trackformat.graph import LinkKind, TrackGraphs
from trackformat.lint.diagnostic import Severity
from trackformat.lint.registry import Finding, rule
from trackformat.lint.rules.overlaps import Cluster, find_overlaps, point_in, shrunk
from trackformat.lint.rules.references import link_pointers
from trackformat.model.track import SpaceKind, Track

OVERLAP_SHARE = 0.02
"""Two spaces overlap when they share more than this share of the smaller one's area."""
OVERLAP_DEPTH = 0.01
"""Overlaps shallower than this share of the typical space size are not looked at: outlines
drawn by hand meet only roughly, and for spaces of ordinary shape such a sliver stays under
``OVERLAP_SHARE``."""
LINK_GAP = 0.15
"""A link joins spaces at most this share of the typical space size apart."""
BOARD_MARGIN = 0.02
"""How far (share of the typical space size, at least one pixel) an outline may stray off the
board picture, for rounding."""
MIN_AREA = 1.0
"""Outlines enclosing less than this many square pixels are treated as having no area."""

_WHERE = re.compile(r"\[\s*(-?[\d.eE+-]+)\s+(-?[\d.eE+-]+)\s*\]")


@dataclass
class _AllShapes:
    """Polygons of every space (track spaces from ``graphs.shapes``, then pit and box spaces),
    with both spatial indexes; index ``i`` of the track shapes is ``i`` here, index ``j`` of the
    others is ``len(track) + j``."""

    ids: list[str]
    polygons: np.ndarray
    position: dict[str, int]
    track: SpaceShapes
    others: SpaceShapes

    @classmethod
    def of(cls, graphs: TrackGraphs) -> _AllShapes:
        """Built once per validation, shared by the geometry rules."""
        return graphs.remember("all_shapes", lambda: cls._build(graphs))

    @classmethod
    def _build(cls, graphs: TrackGraphs) -> _AllShapes:
        others = SpaceShapes.of([s for s in graphs.spaces.values() if s.kind != SpaceKind.TRACK])
        ids = graphs.shapes.ids + others.ids
        polygons = np.concatenate([graphs.shapes.polygons, others.polygons])
        return cls(ids, polygons, {i: n for n, i in enumerate(ids)}, graphs.shapes, others)

    def query(self, geometries: np.ndarray, predicate: str | None
              ) -> tuple[np.ndarray, np.ndarray]:
        """Index pairs (geometry, space) of ``geometries`` against every space (by bounding box
        alone when ``predicate`` is None)."""
        offset = len(self.track.ids)
        left_a, right_a = self.track.tree.query(geometries, predicate=predicate)
        left_b, right_b = self.others.tree.query(geometries, predicate=predicate)
        return np.concatenate([left_a, left_b]), np.concatenate([right_a, right_b + offset])


@rule(
    "GEOM001",
    "invalid-polygon",
    "geometry",
    Severity.ERROR,
    example="A space whose outline points are listed out of order, so that it crosses itself.",
)
def invalid_polygon(track: Track, graphs: TrackGraphs) -> Iterator[Finding]:
    """A space's outline is a simple shape that encloses some area.

    The outline's points go round the printed space in order. Points taken out of order make the
    outline cross itself (a bow tie), and points on one line enclose nothing; either way the
    validator cannot tell which spaces touch or overlap. The message gives the reason and the
    board point where the outline goes wrong: reorder or redraw the points there.
    """
    shapes = _AllShapes.of(graphs)
    if not shapes.ids:
        return
    # The shapes were checked when they were built, and only invalid outlines were repaired, so
    # a valid one's area is its own; the rare broken outline is rebuilt as drawn to explain it.
    valid = np.concatenate([shapes.track.valid, shapes.others.valid])
    areas = shapely.area(shapes.polygons)
    for n in np.flatnonzero(~valid | (areas < MIN_AREA)).tolist():
        space_id = shapes.ids[n]
        pointer = f"{graphs.space_pointer(space_id)}/polygon"
        drawn = space_polygon(graphs.spaces[space_id])
        # A bow tie's two halves cancel in the signed area; only the repaired shape tells a
        # crossed outline from one that encloses nothing.
        enclosed = float(shapely.area(shapely.make_valid(drawn)))
        if enclosed < MIN_AREA:
            yield Finding(
                f"space {space_id}'s outline encloses {enclosed:.2g} square pixels: its points "
                "lie on a line or on top of one another; redraw the outline round the space",
                elements=(space_id,),
                pointer=pointer,
                point=graphs.centre(space_id),
                group="spaces whose outline encloses nothing",
            )
            continue
        reason = explain_validity(drawn)
        where = _WHERE.search(reason)
        point = (
            (round(float(where.group(1)), 3), round(float(where.group(2)), 3))
            if where else graphs.centre(space_id)
        )
        why = _WHERE.sub("", reason).strip().lower()
        at = f" at ({point[0]:g}, {point[1]:g})" if where and point else ""
        yield Finding(
            f"space {space_id}'s outline is not a simple shape ({why}{at}): list its points "
            "in order round the space, without crossing",
            elements=(space_id,),
            pointer=pointer,
            point=point,
            group="spaces whose outline is not a simple shape",
        )


@rule(
    "GEOM002",
    "spaces-overlap",
    "geometry",
    Severity.ERROR,
    example="Two spaces drawn over the same printed space, or an outline pushed into the next.",
)
def spaces_overlap(track: Track, graphs: TrackGraphs) -> Iterator[Finding]:
    """Two spaces do not cover one another.

    Each printed space is drawn once, and neighbouring outlines meet along their edges without
    covering each other (any kind of space: track, pit lane or box). An overlap of more than 2%
    of the smaller space usually means a space was drawn twice, or an outline was dragged over
    its neighbour; slivers from outlines that meet only roughly are let through. Each pair is
    reported once; spaces piled on one another (a space pasted many times) are reported once
    for the whole pile, with how many spaces it holds. After 50 reports the rest are counted,
    and a file with so many overlaps that checking every pair would take minutes is checked in
    part, and says so.
    """
    shapes = _AllShapes.of(graphs)
    if not shapes.ids:
        return
    # Both outlines drawn half the depth inwards: neighbours that only meet along an edge then
    # no longer touch, and each pair needs one exact test.
    inner = shrunk(shapes.polygons, OVERLAP_DEPTH * graphs.shapes.scale / 2)
    search = find_overlaps(shapes.polygons, inner, MIN_AREA, OVERLAP_SHARE)
    order = graphs.space_position
    named: list[tuple[list[str], Cluster]] = []
    for cluster in search.clusters:
        ids = sorted((shapes.ids[n] for n in cluster.members), key=lambda i: order.get(i, 0))
        named.append((ids, cluster))
    named.sort(key=lambda item: order.get(item[0][0], 0))
    for ids, cluster in named[:MAX_OVERLAP_REPORTS]:
        yield _overlap_finding(graphs, ids, cluster, search.complete)
    if len(named) > MAX_OVERLAP_REPORTS:
        rest = named[MAX_OVERLAP_REPORTS:]
        spaces = sum(len(ids) for ids, _ in rest)
        yield Finding(
            f"... and {len(rest)} more groups of overlapping spaces ({spaces} spaces) not "
            f"listed: fix the {MAX_OVERLAP_REPORTS} above, then validate again",
            pointer="/spaces",
        )
    if not search.complete:
        yield Finding(
            f"the overlap check stopped after {search.candidates:,} pairs of neighbouring "
            "outlines: so many spaces lie on top of one another that checking every pair would "
            "take too long; the overlaps listed are the first found: fix them (most often a "
            "space pasted many times), then validate again",
            pointer="/spaces",
        )


MAX_OVERLAP_REPORTS = 50
"""Overlaps (pairs or piles) reported one by one; the rest are counted in one more line."""


def _overlap_finding(graphs: TrackGraphs, ids: list[str], cluster: Cluster,
                     complete: bool) -> Finding:
    """One report for two spaces covering each other, or for a pile of them."""
    largest = cluster.largest
    if len(ids) == 2:
        return Finding(
            f"spaces {ids[0]} and {ids[1]} overlap by {largest.shared:.0f} square pixels "
            f"({largest.share:.0f}% of the smaller): each printed space is drawn once and "
            "neighbours only meet at their edges; move or redraw one of the outlines",
            elements=(ids[0], ids[1]),
            pointer=graphs.space_pointer(ids[1]),
            point=largest.point,
        )
    shown = ", ".join(ids[:5]) + (f" and {len(ids) - 5} more" if len(ids) > 5 else "")
    counted = f"{'' if complete else 'at least '}{cluster.pairs:,}"
    return Finding(
        f"{len(ids)} spaces overlap one another ({shown}): {counted} overlapping pairs, the "
        f"largest {largest.shared:.0f} square pixels ({largest.share:.0f}% of the smaller); "
        "each printed space is drawn once: delete the copies, or move or redraw the outlines",
        elements=tuple(ids),
        pointer=graphs.space_pointer(ids[1]),
        point=largest.point,
    )


@rule(
    "GEOM003",
    "linked-apart",
    "geometry",
    Severity.WARNING,
    example="A link from 1-5 to 1-9: the two spaces are three spaces apart on the board.",
)
def linked_apart(track: Track, graphs: TrackGraphs) -> Iterator[Finding]:
    """A link joins spaces that touch on the board.

    A link is a move of one space, so its two spaces meet on the board, along an edge or at a
    corner. A gap between them larger than a small share of a space's size usually means the
    link names the wrong space (a typo in an id), or that an outline was drawn in the wrong
    place. The message says how far apart the two spaces are.

    A link across a whole lane joins spaces with a lane between them, which cannot touch: that
    is one mistake, reported once, by lane-jump (LAP002), and not here as well. (GP Online
    files hold a few such moves, which the importer keeps as the game plays them and names in
    the track's ignore list for LAP002.)
    """
    shapes = _AllShapes.of(graphs)
    position = shapes.position
    links = [(pair, pointer) for pair, pointer in link_pointers(graphs).items()
             if pair[0] != pair[1] and pair[0] in position and pair[1] in position
             and not _across_a_lane(graphs, *pair)]
    if not links:
        return
    pairs = [(position[u], position[v]) for (u, v), _ in links]
    index = np.array(pairs)
    a, b = shapes.polygons[index[:, 0]], shapes.polygons[index[:, 1]]
    limit = LINK_GAP * graphs.shapes.scale
    # "Within the limit?" can stop at the first near points; only the links that fail it need
    # the exact gap for their message.
    apart = np.flatnonzero(~shapely.dwithin(a, b, limit))
    gaps = np.zeros(len(index))
    gaps[apart] = shapely.distance(a[apart], b[apart])
    for k in apart.tolist():
        source_id, target_id = shapes.ids[index[k, 0]], shapes.ids[index[k, 1]]
        bridge = shapely.shortest_line(a[k], b[k])
        halfway = shapely.line_interpolate_point(bridge, 0.5, normalized=True)
        middle = shapely.get_coordinates(halfway)[0]
        # Whole pixels, unless the gap would then read as the limit itself ("5 px apart (more
        # than 5 px)": a traced draft's 4.93 px against a limit of 4.89).
        digits = next(d for d in (0, 1, 2, 3) if d == 3 or f"{gaps[k]:.{d}f}" != f"{limit:.{d}f}")
        yield Finding(
            f"the link from {source_id} to {target_id} joins spaces {gaps[k]:.{digits}f} px "
            f"apart (more than {limit:.{digits}f} px): a link is a move of one space, between "
            "spaces that "
            "touch; check the link's ids, or the two outlines",
            elements=(source_id, target_id),
            pointer=links[k][1],
            point=(round(float(middle[0]), 3), round(float(middle[1]), 3)),
            group="links joining spaces far apart",
        )


def _across_a_lane(graphs: TrackGraphs, u: str, v: str) -> bool:
    """Whether a link joins track spaces two or more lanes apart (lane-jump's to report)."""
    a = graphs.lane_number(graphs.lane_of(u))
    b = graphs.lane_number(graphs.lane_of(v))
    return a is not None and b is not None and abs(a - b) > 1


@rule(
    "GEOM004",
    "off-board",
    "geometry",
    Severity.ERROR,
    example="A space with a point at x = 1250 on a board 1200 pixels wide.",
)
def off_board(track: Track, graphs: TrackGraphs) -> Iterator[Finding]:
    """Every space lies on the board picture.

    Coordinates are pixels of the board picture, from (0, 0) at its top left to its width and
    height. An outline reaching beyond them was drawn against a different picture (a scan at
    another resolution) or the board's width and height are wrong: correct the board size, or
    scale the track to the picture.
    """
    shapes = _AllShapes.of(graphs)
    if not shapes.ids:
        return
    width, height = track.board.width, track.board.height
    margin = max(1.0, BOARD_MARGIN * graphs.shapes.scale)
    bounds = shapely.bounds(shapes.polygons)
    beyond = np.column_stack([
        -bounds[:, 0], bounds[:, 2] - width, -bounds[:, 1], bounds[:, 3] - height,
    ])
    sides = ("left", "right", "top", "bottom")
    for n in np.flatnonzero((beyond > margin).any(axis=1)).tolist():
        space_id = shapes.ids[n]
        edges = [sides[k] for k in range(4) if beyond[n, k] > margin]
        yield Finding(
            f"space {space_id} reaches {beyond[n].max():.0f} px beyond the board's "
            f"{' and '.join(edges)} edge{'s' if len(edges) > 1 else ''} (the board is "
            f"{width} × {height} px): move the space onto the board, or correct the board size",
            elements=(space_id,),
            pointer=f"{graphs.space_pointer(space_id)}/polygon",
            point=graphs.centre(space_id),
            group="spaces beyond the board's edges",
        )


@rule(
    "GEOM005",
    "heading-link",
    "geometry",
    Severity.WARNING,
    example="A space heading 90° (down the board) whose only link leads up the board.",
)
def heading_link(track: Track, graphs: TrackGraphs) -> Iterator[Finding]:
    """A space's heading points the way its links lead.

    The heading is the driving direction on the space: the simulator draws cars along it and
    the editor draws its arrow. The spaces a car moves on to should lie ahead, within 90° of the
    heading. A link that leads backwards means the heading is turned round, or the link was
    drawn the wrong way (from and to swapped). Boxes and the pit entry are left out: a car may
    stand in its box at any angle to the way it leaves, pull into it sideways from the pit space
    beside it, and turn sideways into the pit lane from the track beside its first space.
    """
    angles = link_angles(graphs)
    for space_id, ahead in graphs.successors("moves").items():
        space = graphs.spaces[space_id]
        if space.kind == SpaceKind.BOX:
            continue
        behind = [(s, angles[(space_id, s)]) for s in ahead
                  if angles[(space_id, s)] > 90.0 and graphs.spaces[s].kind != SpaceKind.BOX
                  and graphs.link_kinds.get((space_id, s)) != LinkKind.PIT_ENTRY]
        if not behind:
            continue
        listed = ", ".join(f"{s} ({a:.0f}° off)" for s, a in behind)
        yield Finding(
            f"space {space_id} heads {space.heading:g}° but its links lead back to {listed}: "
            "turn the heading to the driving direction, or swap the link's from and to",
            elements=(space_id, *(s for s, _ in behind)),
            pointer=f"{graphs.space_pointer(space_id)}/heading",
            point=graphs.centre(space_id),
            group="spaces heading against their links",
        )


@rule(
    "GEOM006",
    "centre-outside",
    "geometry",
    Severity.WARNING,
    example="A space whose centre was left at (0, 0).",
)
def centre_outside(track: Track, graphs: TrackGraphs) -> Iterator[Finding]:
    """A space's centre lies inside its outline.

    The centre is where a car standing on the space is drawn, and where the editor puts the
    space's label. A centre outside the outline draws the car off its space, and usually means
    the centre was not updated after the outline was moved. The message suggests a point inside
    the outline.
    """
    shapes = _AllShapes.of(graphs)
    if not shapes.ids:
        return
    centres = np.array([graphs.spaces[i].centre for i in shapes.ids], dtype=float)
    inside = shapely.intersects_xy(shapes.polygons, centres[:, 0], centres[:, 1])
    for n in np.flatnonzero(~inside).tolist():
        space_id = shapes.ids[n]
        polygon = shapes.polygons[n]
        middle = point_in(polygon)
        if middle is None or shapely.area(polygon) < MIN_AREA:
            continue  # an outline with no area at all: invalid-polygon reports it
        gap = shapely.distance(polygon, shapely.points(centres[n]))
        yield Finding(
            f"space {space_id}'s centre ({centres[n, 0]:g}, {centres[n, 1]:g}) lies {gap:.0f} px "
            f"outside its outline: move it inside, for example to ({middle[0]:g}, {middle[1]:g})",
            elements=(space_id,),
            pointer=f"{graphs.space_pointer(space_id)}/centre",
            point=graphs.centre(space_id),
            group="spaces whose centre is outside their outline",
        )
