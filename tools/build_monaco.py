"""Build tracks/monaco.json (and its picture) from the facts in tools/monaco_facts.py.

    python tools/build_monaco.py            write tracks/monaco.json and tracks/monaco.png
    python tools/build_monaco.py --check    exit 1 if tracks/monaco.json is not what this builds
    python tools/build_monaco.py --no-picture   write the track file only

The build is deterministic: the same facts always give the same bytes, so ``--check`` (run by the
tests) catches a hand edit of the shipped file or a change of the builder that moves a space.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import monaco_facts as facts

from trackformat.builder import CornerPlan, LanePlan, PitPlan, TrackPlan, build_track
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
    "The Formula D Monaco board (Asmodee, 2008), rebuilt from facts measured on public "
    "digitisations of the board that agree with each other and with its printed numbers: lane "
    "counts, corner limits, stops, printed long and short paths, single arrows, grid and pit "
    "lane. Spaces are laid along the measured centre line of lane 2, so the track lines up with "
    "a scan of the board scaled to this board's size. Built by tools/build_monaco.py."
)

SQUEEZE = 2.0
"""Spaces on the inside of Monaco's bends are pinched harder than their lane's length alone
would make them (see trackformat.builder.lanes.even_cuts). With 2, seven of the ten corners give
their printed longest and shortest paths from the straight rule alone (with 1, six do), and the
other three need only the five arrows below."""

LinkRef = tuple[tuple[str, int], tuple[str, int]]

ARROWS_REMOVED: tuple[LinkRef, ...] = (
    # Loews: no lane change into or out of the inside lane round the hairpin's apex. Without
    # these three the corner measures 19 / 6 against the printed 18 / 8.
    (("1", 59), ("2", 61)),
    (("1", 60), ("2", 62)),
    (("2", 61), ("1", 61)),
    # La Rascasse: no move from the middle lane to the outside at the apex (12 / 6 without it,
    # printed 11 / 6).
    (("2", 134), ("1", 135)),
)
"""Moves of the straight rule the board's arrows do not allow, so that every corner's longest
and shortest paths are the printed ones (the tests pin them)."""

ARROWS_ADDED: tuple[LinkRef, ...] = (
    # Nouvelle Chicane: a lane change from the middle lane to the outside at the second kink,
    # which the straight rule leaves out because the lanes are out of step there (8 / 5
    # without it, printed 9 / 5).
    (("2", 100), ("1", 102)),
)
"""Arrows printed inside corners that the straight rule does not give."""


def lane2_station(boundary: float) -> float:
    """Station (centre-line point units) of the cut behind lane-2 space ``boundary``."""
    return (boundary - 0.5) / facts.CENTRE_LINE_STEP


def lane_plans() -> list[LanePlan]:
    """Lane 2 pinned to the measured centre line; lanes 1 and 3 cut beside it.

    Each corner limit of lanes 1 and 3 lies beside the same limit of lane 2; between limits
    with equal counts the lanes run in step with lane 2, elsewhere their limits are fitted.
    """
    lanes: list[LanePlan] = []
    for lane, count in facts.LANE_SPACES.items():
        if lane == "2":
            anchors = {b: lane2_station(b) for b in range(count)}
            lanes.append(LanePlan(lane, count, anchors=anchors))
            continue
        beside: dict[int, int] = {}
        for corner in facts.CORNERS:
            first, last = corner.lanes[lane]
            first2, last2 = corner.lanes["2"]
            beside[first] = first2
            beside[last + 1] = last2 + 1
        lanes.append(LanePlan(lane, count, follow="2", beside=beside))
    return lanes


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
        centre_line=[(x * width, y * height) for x, y in facts.CENTRE_LINE],
        lane_spacing=facts.LANE_SPACING * width,
        squeeze=SQUEEZE,
        lanes=lane_plans(),
        corners=[
            CornerPlan(c.id, c.name, c.stops, c.lanes, c.long, c.short) for c in facts.CORNERS
        ],
        single_arrow=[ref for c in facts.CORNERS for ref in c.single_arrows],
        links_added=ARROWS_ADDED,
        links_removed=ARROWS_REMOVED,
        grid=facts.GRID,
        pit=PitPlan(
            spaces=facts.PIT_SPACES,
            beside="3",
            start=facts.PIT_ENTRY[-1][1],
            end=facts.PIT_EXIT[0][1] + 1,
            entry=facts.PIT_ENTRY,
            exit=facts.PIT_EXIT,
            boxes=facts.PIT_BOXES,
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
