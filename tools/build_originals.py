"""Build the project's two original tracks with the track builder, and their pictures.

    python tools/build_originals.py            write tracks/harbour-sprint.json, col-du-vent.json
    python tools/build_originals.py --check    exit 1 if a shipped file is not what this builds

Both circuits are our own designs, drawn here as a "turtle" path of straights and arcs:

- Harbour Sprint: a short two-lane circuit (about 120 spaces), three corners.
- Col du Vent: a three-lane circuit of about 400 spaces with a three-stop hairpin and a chicane.

The designer gives each corner as a stretch of the path, its stops and its printed longest and
shortest paths (checked against the built links); lane counts come from the length of each lane
(inside lanes of a bend get fewer spaces), and on every straight the lanes are staggered half a
space against the middle lane (the first lane on a two-lane road), as printed boards are.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from trackformat.analysis import measure_corner
from trackformat.builder import (
    BuildError,
    CornerPlan,
    LanePlan,
    PitPlan,
    Stagger,
    TrackPlan,
    build_track,
    lane_offsets,
    make_road,
)
from trackformat.graph import build_graphs
from trackformat.io import dumps_track
from trackformat.model import Track

ROOT = Path(__file__).resolve().parent.parent
TRACKS = ROOT / "tracks"
STEP = 40.0
"""Distance between the points of a designed centre line, in pixels."""
STAGGER = -0.5
"""Where the other lanes lie on the straights against the reference lane, in spaces: half a
space behind, so that a lane change lands half a space ahead, as on a printed board."""


@dataclass(frozen=True)
class Straight:
    length: float


@dataclass(frozen=True)
class Arc:
    radius: float
    degrees: float
    """Positive turns right (clockwise on the board), negative turns left."""


@dataclass(frozen=True)
class Bend:
    """A corner of the design: path pieces ``first``..``last`` (inclusive), its stops, and the
    longest and shortest paths through it printed on its plaque."""

    id: str
    name: str
    stops: int
    first: int
    last: int
    long: int
    short: int
    """Printed as we design them, and checked against the paths the built links give: a change
    of the design or the builder that changes a path has to change these on purpose."""


@dataclass(frozen=True)
class Design:
    slug: str
    name: str
    board: tuple[int, int]
    start: tuple[float, float]
    heading: float
    """Driving direction at the start of the path, in degrees (0 along +x, 90 down)."""
    path: tuple[Straight | Arc, ...]
    bends: tuple[Bend, ...]
    lanes: int
    lane_spacing: float
    space_length: float
    finish: float
    """Distance into the first piece (a straight) where the finish line is, in pixels."""
    pit: bool


def trace(design: Design) -> tuple[list[tuple[float, float]], list[float]]:
    """Points every :data:`STEP` px along the path, and the station where each piece starts."""
    x, y = design.start
    heading = math.radians(design.heading)
    points: list[tuple[float, float]] = []
    starts: list[float] = []
    for piece in design.path:
        starts.append(float(len(points)))
        if isinstance(piece, Straight):
            count = max(1, round(piece.length / STEP))
            for k in range(count):
                t = piece.length * k / count
                points.append((x + t * math.cos(heading), y + t * math.sin(heading)))
            x += piece.length * math.cos(heading)
            y += piece.length * math.sin(heading)
        else:
            side = 1.0 if piece.degrees > 0 else -1.0
            cx = x - side * piece.radius * math.sin(heading)
            cy = y + side * piece.radius * math.cos(heading)
            turn = math.radians(piece.degrees)
            count = max(2, round(abs(turn) * piece.radius / STEP))
            start_angle = math.atan2(y - cy, x - cx)
            for k in range(count):
                angle = start_angle + turn * k / count
                points.append((cx + piece.radius * math.cos(angle),
                               cy + piece.radius * math.sin(angle)))
            angle = start_angle + turn
            x, y = cx + piece.radius * math.cos(angle), cy + piece.radius * math.sin(angle)
            heading += turn
    gap = math.dist((x, y), design.start)
    if gap > 1.0:
        raise BuildError(f"{design.name}: the path ends {gap:.1f} px from where it starts")
    starts.append(float(len(points)))
    return points, starts


def plan_of(design: Design) -> TrackPlan:
    """The builder's plan of a design, with printed paths still unset."""
    points, starts = trace(design)
    first_piece = design.path[0]
    assert isinstance(first_piece, Straight)
    finish = design.finish / first_piece.length * (starts[1] - starts[0])
    width, height = design.board
    stub = TrackPlan(name=design.name, board_width=width, board_height=height,
                     centre_line=points, lane_spacing=design.lane_spacing,
                     lanes=[LanePlan(str(k + 1), 2, {0: finish}) for k in range(design.lanes)])
    road, station = make_road(stub)
    # Straights inside a corner (between the two arcs of a double bend) get limits of their
    # own, so that their lanes can be staggered like any straight's.
    inner_straights = [p for b in design.bends for p in range(b.first, b.last + 1)
                       if isinstance(design.path[p], Straight)]
    limits = sorted({finish, *(starts[b.first] for b in design.bends),
                     *(starts[b.last + 1] for b in design.bends),
                     *(starts[p] for p in inner_straights),
                     *(starts[p + 1] for p in inner_straights)})
    if limits[0] != finish:
        raise BuildError(f"{design.name}: the finish line must come before every corner")
    in_bend = [any(starts[b.first] <= a < starts[b.last + 1] for b in design.bends)
               for a in limits]
    on_straight = [not bend or any(starts[p] <= a < starts[p + 1] for p in inner_straights)
                   for a, bend in zip(limits, in_bend, strict=True)]
    offsets = lane_offsets(design.lanes, design.lane_spacing)
    reference = (design.lanes - 1) // 2

    def position(value: float) -> float:
        """Road position of a station, a lap further for stations past the last point."""
        return station(value) + road.length * math.floor(value / len(points))

    counts: list[list[int]] = []
    for offset in offsets:
        row = []
        for k, a in enumerate(limits):
            b = limits[k + 1] if k + 1 < len(limits) else limits[0] + len(points)
            length = (road.lane_distance(offset, position(b))
                      - road.lane_distance(offset, position(a)))
            row.append(max(1, round(length / design.space_length)))
        counts.append(row)
    for row in counts:  # lanes run in step on the straights
        for k, straight in enumerate(on_straight):
            if straight:
                row[k] = counts[reference][k]
    boundaries = [[sum(row[:k]) for k in range(len(row) + 1)] for row in counts]
    ids = [str(k + 1) for k in range(design.lanes)]
    lanes = []
    for k, lane in enumerate(ids):
        total = boundaries[k][-1]
        if k == reference:
            anchors = {boundaries[k][i]: s for i, s in enumerate(limits)}
            lanes.append(LanePlan(lane, total, anchors=anchors))
        else:
            beside = {boundaries[k][i]: boundaries[reference][i] for i in range(1, len(limits))}
            # Half a space behind the reference lane on every straight, as printed boards
            # stagger their lanes (the finish line too), and through the bends where the lanes
            # have as many spaces (esses); elsewhere the corners' spaces spread between.
            stagger = [Stagger(boundaries[k][i], boundaries[k][i + 1], boundaries[reference][i],
                               STAGGER)
                       for i, straight in enumerate(on_straight)
                       if straight or counts[k][i] == counts[reference][i]]
            lanes.append(LanePlan(lane, total, follow=ids[reference], beside=beside,
                                  stagger=stagger))
    corners = []
    for bend in design.bends:
        i, j = limits.index(starts[bend.first]), limits.index(starts[bend.last + 1])
        ranges = {lane: (boundaries[k][i], boundaries[k][j] - 1) for k, lane in enumerate(ids)}
        corners.append(CornerPlan(bend.id, bend.name, bend.stops, ranges, bend.long,
                                  bend.short))
    totals = [row[-1] for row in boundaries]
    last = ids[-1]
    grid = [(ids[0], totals[0] - 1 - 3 * (n // 2)) if n % 2 == 0
            else (last, totals[-1] - 2 - 3 * (n // 2)) for n in range(10)]
    pit = None
    if design.pit:
        n = totals[-1]
        pit = PitPlan(spaces=12, beside=last, start=n - 8, end=4, entry=((last, n - 9),
                      (last, n - 8)), exit=((last, 3), (last, 4)),
                      boxes=((2, 3), (4, 5), (6, 7), (8, 9)))
    return dataclasses.replace(
        stub, lanes=lanes, corners=corners, grid=grid, pit=pit,
        designer="formula-d-trackkit (original design)",
        notes=f"An original circuit of the formula-d-trackkit project, built by "
              f"tools/build_originals.py from a path of straights and arcs. {design.slug}",
    )


def build_design(design: Design) -> Track:
    """The finished track, its corners' printed paths checked against the built links."""
    track = build_track(dataclasses.replace(plan_of(design), board_image=f"{design.slug}.png"))
    graphs = build_graphs(track)
    for corner in track.corners:
        measured = measure_corner(graphs, corner)
        if (measured.long, measured.short) != (corner.printed_long, corner.printed_short):
            raise BuildError(
                f"{design.name}: corner {corner.id} measures {measured.long} / {measured.short} "
                f"(long / short) but is printed {corner.printed_long} / {corner.printed_short}; "
                "change the design's printed numbers if the new paths are meant")
    return track


def harbour_sprint() -> Design:
    """Two lanes, about 120 spaces: a long straight, a loop, a pair of esses and a wide return."""
    esses_run = 2 * 200 * math.sin(math.radians(60))
    x_after_loop = 550 + 1400  # the loop turns on the spot: it ends above where it starts
    back_straight = (x_after_loop - 500 - esses_run) - 550
    return Design(
        slug="harbour-sprint",
        name="Harbour Sprint",
        board=(2500, 1350),
        start=(550.0, 1100.0),
        heading=0.0,
        path=(
            Straight(1400), Arc(300, -180), Straight(500), Arc(200, 60), Arc(200, -60),
            Straight(back_straight), Arc(400, -180),
        ),
        bends=(
            Bend("boucle", "La Boucle", 2, 1, 1, long=14, short=12),
            Bend("esses", "Les Esses", 1, 3, 4, long=9, short=6),
            Bend("retour", "Le Retour", 1, 6, 6, long=17, short=16),
        ),
        lanes=2,
        lane_spacing=40.0,
        space_length=76.0,
        finish=1150.0,
        pit=False,
    )


def col_du_vent() -> Design:
    """Three lanes, about 400 spaces, with a three-stop hairpin and a chicane.

    The straights that close the loop are worked out from the arcs before them.
    """
    chicane_shift = 2 * 110 * (1 - math.cos(math.radians(60)))
    chicane_run = 2 * 110 * math.sin(math.radians(60))
    # After the chicane the road runs west at y = 1450 + shift, from x = 2230 - run, to the
    # right-hander that turns north at x = 1400 and leaves 300 px higher, heading for y = 600.
    west = (2230 - chicane_run) - 1400
    north = (1450 + chicane_shift - 300) - 600
    return Design(
        slug="col-du-vent",
        name="Col du Vent",
        board=(4000, 2600),
        start=(600.0, 2300.0),
        heading=0.0,
        path=(
            Straight(2400), Arc(350, -90), Straight(1000), Straight(250), Arc(120, -180),
            Straight(250), Straight(250), Arc(250, 90), Straight(480), Straight(150),
            Arc(110, -60), Arc(110, 60), Straight(150), Straight(west - 150), Arc(300, 90),
            Straight(north), Arc(250, -90), Straight(250), Arc(250, -90), Straight(1450),
            Arc(250, -90),
        ),
        bends=(
            Bend("virage-du-port", "Virage du Port", 1, 1, 1, long=8, short=6),
            Bend("epingle", "Épingle du Col", 3, 3, 5, long=17, short=9),
            Bend("crete", "La Crête", 1, 7, 7, long=7, short=4),
            Bend("moulin", "Chicane du Moulin", 1, 9, 12, long=12, short=7),
            Bend("source", "La Source", 1, 14, 14, long=7, short=5),
            Bend("belvedere", "Belvédère", 2, 16, 18, long=18, short=11),
            Bend("descente", "La Descente", 1, 20, 20, long=7, short=4),
        ),
        lanes=3,
        lane_spacing=40.0,
        space_length=76.0,
        finish=1200.0,
        pit=True,
    )


DESIGNS: Sequence[Design] = (harbour_sprint(), col_du_vent())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--check", action="store_true",
                        help="exit 1 if a shipped track differs from a fresh build")
    parser.add_argument("--no-picture", action="store_true", help="do not render the pictures")
    parser.add_argument("--output", type=Path, default=TRACKS, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    stale = []
    for design in DESIGNS:
        try:
            track = build_design(design)
        except BuildError as err:
            print(f"build_originals: {err}", file=sys.stderr)
            return 2
        path = args.output / f"{design.slug}.json"
        text = dumps_track(track)
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(path)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8", newline="\n")
        print(f"wrote {path}")
        if not args.no_picture:
            from trackformat.interop.render import render_to_file

            picture = path.with_suffix(".png")
            render_to_file(track, picture, track_path=path)
            print(f"wrote {picture}")
    for path in stale:
        print(f"{path} is not what tools/build_originals.py builds; run it to regenerate",
              file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
