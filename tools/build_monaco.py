"""Build tracks/monaco.json (and its picture) from the facts in tools/monaco_facts.py.

    python tools/build_monaco.py            write tracks/monaco.json and tracks/monaco.png
    python tools/build_monaco.py --check    exit 1 if tracks/monaco.json is not what this builds
    python tools/build_monaco.py --no-picture   write the track file only

The build is deterministic: the same facts always give the same bytes, so ``--check`` (run by the
tests) catches a hand edit of the shipped file or a change of the builder that moves a space.
"""

from __future__ import annotations

import argparse
import itertools
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import monaco_facts as facts

from trackformat.builder import (
    CornerPlan,
    LaneChanges,
    LanePlan,
    PitPlan,
    RoadShift,
    Stagger,
    TrackPlan,
    build_track,
)
from trackformat.builder.errors import BuildError
from trackformat.io import dumps_track
from trackformat.model import Track

ROOT = Path(__file__).resolve().parent.parent
TRACK_FILE = ROOT / "tracks" / "monaco.json"
PICTURE_NAME = "monaco.png"

BOARD_WIDTH = 3750
"""Exactly 1.5 times the reference scan (2500 x 1658), so the aspect is kept to the pixel."""
BOARD_HEIGHT = BOARD_WIDTH * facts.BOARD_ASPECT[1] // facts.BOARD_ASPECT[0]

NOTES = (
    "The Formula D Monaco board (Asmodee, 2008), rebuilt from its facts: lane counts, corner "
    "limits, stops and printed long and short paths, corner names as the plaques print them, "
    "single arrows, grid and pit lane, the stagger of the lanes stretch by stretch and every lane "
    "change its arrows allow, space by space. Lane 2 is laid along its measured centre line and "
    "lanes 1 and 3 staggered beside it as printed, so the track lines up with a scan of the "
    "board scaled to this board's size and allows exactly the board's moves. Built by "
    "tools/build_monaco.py."
)

SQUEEZE = 1.0
"""Spaces between the held boundaries are spread evenly along their lane (see
trackformat.builder.lanes.even_cuts): the stagger facts hold most boundaries, so no extra pinch
of the inside of bends is needed."""

MIN_RADIUS = 56.0
"""Tightest bend (px) allowed in lane 2's centre line. The Loews hairpin turns lane 2 on a radius
a little under the road's half width (57 px); the builder's default would round the apex off by
a third of a space."""


def centre_line() -> list[tuple[int, tuple[float, float]]]:
    """The measured points of lane 2's centre line, as (lane-2 index, point), in lap order."""
    points = {k * facts.CENTRE_LINE_STEP: p for k, p in enumerate(facts.CENTRE_LINE)}
    points.update(facts.CENTRE_LINE_EXTRA)
    return sorted(points.items())


def lane2_station(boundary: float) -> float:
    """Station (centre-line point units) of the cut behind lane-2 space ``boundary``.

    The cut lies halfway between the centres of spaces ``boundary - 1`` and ``boundary``,
    placed between the two measured points around it in proportion to their indices.
    """
    indices = [index for index, _ in centre_line()]
    lap = facts.LANE_SPACES["2"]
    where = (boundary - 0.5) % lap
    closing = [*indices, indices[0] + lap]
    for station, (a, b) in enumerate(itertools.pairwise(closing)):
        if a <= where < b or (station == 0 and where < a):
            if where < a:
                where += lap
            return station + (where - a) / (b - a)
    return len(indices) - 1 + (where - indices[-1]) / (closing[-1] - indices[-1])


def lane_plans() -> list[LanePlan]:
    """Lane 2 pinned to the measured centre line; lanes 1 and 3 staggered beside it.

    The outer lanes' boundaries are held where the board has them along lane 2 (the stagger
    per stretch); the spaces between those stretches, in corners, are spread evenly.
    """
    lanes: list[LanePlan] = []
    for lane, count in facts.LANE_SPACES.items():
        if lane == "2":
            anchors = {b: lane2_station(b) for b in range(count)}
            lanes.append(LanePlan(lane, count, anchors=anchors))
            continue
        stagger = [Stagger(first, last, beside, offset)
                   for first, last, beside, offset in facts.STAGGER[lane]]
        lanes.append(LanePlan(lane, count, follow="2", stagger=stagger))
    return lanes


def lane_changes() -> list[LaneChanges]:
    """The board's lane changes, run by run."""
    return [LaneChanges(lane, into, first, last, offset)
            for (lane, into), runs in facts.LANE_CHANGES.items()
            for first, last, offset in runs]


def monaco_plan() -> TrackPlan:
    """The plan of the Monaco track, from the facts."""
    width, height = BOARD_WIDTH, BOARD_HEIGHT
    return TrackPlan(
        name=facts.NAME,
        laps=facts.LAPS,
        designer="Formula D (Asmodee, 2008); digitised for formula-d-trackkit",
        notes=NOTES,
        board_width=width,
        board_height=height,
        board_image=PICTURE_NAME,
        centre_line=[(x * width, y * height) for _, (x, y) in centre_line()],
        lane_spacing=facts.LANE_SPACING * width,
        min_radius=MIN_RADIUS,
        squeeze=SQUEEZE,
        shifts=[RoadShift(lane2_station(start), lane2_station(end), distance)
                for start, end, distance in facts.ROAD_SHIFTS],
        lanes=lane_plans(),
        corners=[
            CornerPlan(c.id, c.name, c.stops, c.lanes, c.long, c.short) for c in facts.CORNERS
        ],
        single_arrow=[ref for c in facts.CORNERS for ref in c.single_arrows],
        lane_changes=lane_changes(),
        grid=facts.GRID,
        pit=PitPlan(
            spaces=facts.PIT_SPACES,
            beside="3",
            start=facts.PIT_START,
            end=facts.PIT_END,
            entry=facts.PIT_ENTRY,
            exit=facts.PIT_EXIT,
            boxes=facts.PIT_BOXES,
            box_side="inside",
            box_width=facts.BOX_WIDTH,
            profile=facts.PIT_PROFILE,
            boundaries=facts.PIT_BOUNDARIES,
            enter_boxes_alongside=True,
        ),
    )


def build_monaco() -> Track:
    """The Monaco track, built from the facts."""
    return build_track(monaco_plan())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--check", action="store_true",
                        help="exit 1 if tracks/monaco.json differs from a fresh build")
    parser.add_argument("--no-picture", action="store_true", help="do not render monaco.png")
    parser.add_argument("--output", type=Path, default=TRACK_FILE, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    try:
        track = build_monaco()
    except BuildError as err:
        print(f"build_monaco: {err}", file=sys.stderr)
        return 2
    text = dumps_track(track)
    if args.check:
        current = args.output.read_text(encoding="utf-8") if args.output.exists() else None
        if current != text:
            print(f"{args.output} is not what tools/build_monaco.py builds; run it to regenerate",
                  file=sys.stderr)
            return 1
        print(f"{args.output} is up to date")
        return 0
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(text, encoding="utf-8", newline="\n")
    print(f"wrote {args.output}")
    if not args.no_picture:
        from trackformat.interop.render import render_to_file

        picture = args.output.parent / PICTURE_NAME
        render_to_file(track, picture, track_path=args.output)
        print(f"wrote {picture}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
