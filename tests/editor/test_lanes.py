"""The lane tool's edit: a stretch of lanes added to a track, joined to the lanes before it."""

from __future__ import annotations

import math

import pytest
from shapely.geometry import Polygon

from editor import lanes
from editor.edits import EditError
from tests.corpus import ROOT
from trackformat.graph import build_graphs
from trackformat.io import load_track
from trackformat.lint import validate
from trackformat.model import Board, Metadata, SpaceKind, Track

EMPTY = Track(
    metadata=Metadata(name="new"), board=Board(width=2000, height=1500), lanes=[], spaces=[]
)
LINE = [(100.0, 300.0), (500.0, 300.0), (900.0, 340.0)]


def test_a_first_stretch_creates_its_lanes_and_links() -> None:
    track = lanes.add_stretch(
        EMPTY, LINE, lanes.LaneSettings(lanes=3, spacing=40, spaces=(16, 16, 16))
    )
    assert [lane.id for lane in track.lanes] == ["1", "2", "3"]
    graphs = build_graphs(track)
    assert [len(graphs.lanes[lane]) for lane in "123"] == [16, 16, 16]
    assert graphs.lanes["1"][:2] == ["1-000", "1-001"]
    # Staggered as printed boards are by default: lane 2 half a space ahead of lanes 1 and 3.
    assert graphs.circuit.has_edge("1-000", "1-001") and graphs.circuit.has_edge("1-000", "2-000")
    assert graphs.circuit.has_edge("2-000", "1-001") and graphs.circuit.has_edge("2-000", "3-001")
    report = validate(track, codes=["GEOM001", "GEOM002", "GEOM003", "LAP001", "LAP002"])
    assert report.errors == 0 and report.warnings == 0, report.to_text()


def test_the_default_stagger_is_the_printed_boards_and_a_first_straight_passes_lap006() -> None:
    """The default is what the traced Monaco board has: the middle lane half a space ahead of
    the outer two, which are level; laid with the defaults, a straight gets no LAP006."""
    monaco = load_track(ROOT / "tracks" / "monaco.json")
    centres = {s.id: s.centre for s in monaco.spaces}
    heading = math.radians(next(s.heading for s in monaco.spaces if s.id == "1-000"))
    step = math.dist(centres["1-000"], centres["1-001"])

    def ahead(space: str) -> float:
        dx, dy = (centres[space][i] - centres["1-000"][i] for i in (0, 1))
        return (dx * math.cos(heading) + dy * math.sin(heading)) / step

    assert ahead("2-000") == pytest.approx(0.5, abs=0.05)
    assert ahead("3-000") == pytest.approx(0.0, abs=0.05)
    assert lanes.LaneSettings().per_lane_stagger() == [0.0, 0.5, 0.0]
    for count in (2, 3, 4):
        settings = lanes.LaneSettings(lanes=count)
        track = lanes.add_stretch(EMPTY, [(100.0, 300.0), (900.0, 300.0)], settings)
        report = validate(track, codes=["LAP006", "GEOM001", "GEOM002", "GEOM003"])
        assert report.errors == 0 and report.warnings == 0, report.to_text()
    # With no stagger the same straight is warned about: the check does bite.
    level = lanes.add_stretch(EMPTY, [(100.0, 300.0), (900.0, 300.0)],
                              lanes.LaneSettings(stagger=()))
    assert validate(level, codes=["LAP006"]).warnings > 0


def test_the_next_stretch_continues_the_numbers_and_joins_the_lane_ends() -> None:
    settings = lanes.LaneSettings(lanes=2, spacing=40, spaces=(10,), stagger=())
    track = lanes.add_stretch(EMPTY, LINE[:2], settings)
    track = lanes.add_stretch(track, [(500.0, 300.0), (900.0, 300.0)], settings)
    graphs = build_graphs(track)
    assert graphs.circuit.has_edge("1-009", "1-010")
    assert graphs.circuit.has_edge("1-009", "2-010") and graphs.circuit.has_edge("2-009", "1-010")
    assert len(graphs.lanes["1"]) == 20


def test_spaces_per_lane_can_differ_and_are_checked() -> None:
    assert lanes.parse_counts("14, 13,12") == (14, 13, 12)
    with pytest.raises(EditError, match="whole numbers"):
        lanes.parse_counts("ten")
    with pytest.raises(EditError, match="one for each of the 3 lanes"):
        lanes.LaneSettings(lanes=3, spaces=(10, 12)).per_lane()
    with pytest.raises(EditError, match="at least two points"):
        lanes.add_stretch(EMPTY, [(1.0, 1.0)], lanes.LaneSettings())


def test_a_space_length_gives_each_lane_the_spaces_that_fit_its_own_line() -> None:
    # A straight of 800 px, then a half turn to the right: the right-hand lane is the inside.
    line = [(100.0, 300.0), (500.0, 300.0), (900.0, 300.0), (1050.0, 450.0), (900.0, 600.0)]
    settings = lanes.LaneSettings(lanes=3, spacing=40, space_length=80.0, stagger=())
    stretch = lanes.preview(EMPTY, line, settings)
    assert stretch.counts[0] > stretch.counts[1] > stretch.counts[2]
    assert stretch.counts[1] == pytest.approx((800 + math.pi * 150) / 80, abs=1)
    assert all(abs(length - 80.0) <= 40.0 / min(stretch.counts) for length in
               stretch.space_lengths)
    track = lanes.add_stretch(EMPTY, line, settings)
    per_lane = [sum(1 for s in track.spaces if s.lane == lane) for lane in "123"]
    assert per_lane == stretch.counts
    # On the straight, a space is 80 px long.
    centres = {s.id: s.centre for s in track.spaces}
    assert math.dist(centres["2-001"], centres["2-002"]) == pytest.approx(80.0, abs=2.0)


def test_a_stagger_lays_every_other_lane_half_a_space_ahead() -> None:
    settings = lanes.LaneSettings(lanes=3, spacing=40, space_length=80.0, stagger=(0.5,))
    assert settings.per_lane_stagger() == [0.0, 0.5, 0.0]
    track = lanes.add_stretch(EMPTY, [(100.0, 300.0), (900.0, 300.0)], settings)
    centres = {s.id: s.centre for s in track.spaces}
    assert centres["2-000"][0] - centres["1-000"][0] == pytest.approx(40.0, abs=0.5)
    assert centres["3-000"][0] == pytest.approx(centres["1-000"][0], abs=0.5)
    # A lane change lands half a space ahead, and a change and back one space ahead: the
    # validator finds the lanes staggered.
    moves = {(link.from_, link.to) for link in track.links}
    assert ("1-003", "2-003") in moves and ("2-003", "1-004") in moves
    assert ("1-003", "2-004") not in moves
    report = validate(track, codes=["LAP006", "GEOM001", "GEOM002", "GEOM003"])
    assert report.errors == 0 and report.warnings == 0, report.to_text()


@pytest.mark.parametrize("space_length", [60.0, 80.0])
def test_a_staggered_stretch_round_a_bend_stays_staggered(space_length: float) -> None:
    # A long curve to the right, turning gently enough that the validator judges the stagger.
    line = [(100.0, 300.0), (400.0, 320.0), (700.0, 420.0), (900.0, 600.0)]
    settings = lanes.LaneSettings(lanes=3, spacing=40, space_length=space_length,
                                  stagger=(0.5,))
    stretch = lanes.preview(EMPTY, line, settings)
    assert len(set(stretch.counts)) == 1, stretch.counts
    track = lanes.add_stretch(EMPTY, line, settings)
    report = validate(track, codes=["LAP006", "GEOM001", "GEOM002", "GEOM003"])
    assert report.errors == 0 and report.warnings == 0, report.to_text()
    # Every diagonal lands on the next lane's space half a space ahead: from the unstaggered
    # lanes onto the same number, from the staggered lane onto the next number.
    moves = {(link.from_, link.to) for link in track.links}
    count = stretch.counts[0]
    for n in range(1, count - 1):
        assert (f"1-{n:03d}", f"2-{n:03d}") in moves and (f"3-{n:03d}", f"2-{n:03d}") in moves
        assert (f"2-{n:03d}", f"1-{n + 1:03d}") in moves
        assert (f"2-{n:03d}", f"3-{n + 1:03d}") in moves
        assert (f"1-{n:03d}", f"2-{n + 1:03d}") not in moves


def test_staggers_are_shares_of_a_space_lane_by_lane() -> None:
    assert lanes.parse_stagger("0, 0.5,0") == (0.0, 0.5, 0.0)
    assert lanes.parse_stagger("") == ()
    with pytest.raises(EditError, match="share of a space"):
        lanes.parse_stagger("half")
    with pytest.raises(EditError, match="from 0 to under 1"):
        lanes.parse_stagger("1.5")
    with pytest.raises(EditError, match="one for each of the 3 lanes"):
        lanes.LaneSettings(lanes=3, stagger=(0.5, 0.0)).per_lane_stagger()


def _overlap(track: Track) -> float:
    """Area (px²) where two spaces of the track lie over each other."""
    outlines = [Polygon(s.polygon) for s in track.spaces]
    return sum(a.intersection(b).area for i, a in enumerate(outlines) for b in outlines[i + 1:])


@pytest.mark.parametrize("stagger", [(), (0.5,)])
def test_a_stretch_joined_at_a_bend_meets_the_last_one_edge_to_edge(
    stagger: tuple[float, ...]
) -> None:
    settings = lanes.LaneSettings(lanes=3, spacing=40, spaces=(8,), stagger=stagger)
    first = lanes.add_stretch(EMPTY, [(100.0, 300.0), (300.0, 300.0), (500.0, 300.0)], settings)
    # The next stretch starts a few pixels off the end and turns right at once.
    track = lanes.add_stretch(first, [(505.0, 302.0), (650.0, 350.0), (760.0, 460.0)], settings)
    assert all(Polygon(s.polygon).is_valid for s in track.spaces)
    assert _overlap(track) < 1.0
    spaces = {s.id: s for s in track.spaces}
    for lane in "123":
        old, new = Polygon(spaces[f"{lane}-007"].polygon), Polygon(spaces[f"{lane}-008"].polygon)
        # They share their whole cut: a lane width of common edge, no gap.
        assert old.intersection(new).length == pytest.approx(40.0, abs=0.1)
        assert (f"{lane}-007", f"{lane}-008") in {(k.from_, k.to) for k in track.links}
    assert not lanes.open_ends(first).keys() & lanes.open_ends(track).keys()


def test_a_pit_lane_stretch_gets_pit_spaces_with_ids_of_their_own() -> None:
    track = lanes.add_stretch(EMPTY, [(100.0, 300.0), (900.0, 300.0)], lanes.LaneSettings())
    pit = lanes.LaneSettings(spaces=(6,), pit=True)
    track = lanes.add_stretch(track, [(300.0, 400.0), (700.0, 400.0)], pit)
    added = [s for s in track.spaces if s.kind == SpaceKind.PIT]
    assert [s.id for s in added] == [f"pit-{n:03d}" for n in range(6)]
    assert all(s.lane is None for s in added)
    assert track.pit_lane is not None and track.pit_lane.spaces == [s.id for s in added]
    assert [lane.id for lane in track.lanes] == ["1", "2", "3"], "no lane for the pit lane"
    # The next stretch of the pit lane, from its end, carries on its numbers and its chain.
    track = lanes.add_stretch(track, [(700.0, 400.0), (900.0, 420.0)], pit)
    assert track.pit_lane is not None and track.pit_lane.spaces[5:7] == ["pit-005", "pit-006"]
    moves = {(k.from_, k.to) for k in track.links}
    assert ("pit-005", "pit-006") in moves
    report = validate(track, codes=["REF001", "REF003", "PIT004", "GEOM001"])
    assert report.errors == 0 and report.warnings == 0, report.to_text()
    # A pit lane is one chain: a stretch elsewhere is refused, saying where to start.
    with pytest.raises(EditError, match="start its next stretch at its end, pit-011"):
        lanes.add_stretch(track, [(100.0, 600.0), (500.0, 600.0)], pit)


HAIRPIN = [(100.0, 300.0), (500.0, 300.0), (540.0, 340.0), (500.0, 380.0), (100.0, 380.0)]
"""A hairpin turning on a radius of 40 px: room for one lane, not for three."""


def test_a_bend_too_tight_for_the_lanes_is_refused_saying_what_to_do() -> None:
    laying = lanes.lay(EMPTY, HAIRPIN, lanes.LaneSettings())
    assert laying.folds, "the preview shows the spaces that fold"
    message = lanes.fold_message(laying.folds)
    assert message.startswith("lane 3 folds over itself on this bend (3-")
    assert message.endswith("click a wider bend, or lay fewer lanes")
    with pytest.raises(EditError, match="lane 3 folds over itself"):
        lanes.add_stretch(EMPTY, HAIRPIN, lanes.LaneSettings())
    # One lane follows the same clicks without folding.
    track = lanes.add_stretch(EMPTY, HAIRPIN, lanes.LaneSettings(lanes=1))
    assert _overlap(track) < 1.0
    # A corner clicked a few pixels wide folds whatever the lanes.
    sharp = [(100.0, 300.0), (500.0, 300.0), (505.0, 305.0), (505.0, 700.0)]
    assert lanes.lay(EMPTY, sharp, lanes.LaneSettings()).folds


def test_a_loop_of_two_stretches_closes_on_its_start() -> None:
    settings = lanes.LaneSettings(lanes=2, spaces=(12,))
    track = lanes.add_stretch(EMPTY, [(400.0, 300.0), (1200.0, 300.0)], settings)
    back = [(1200.0, 300.0), (1500.0, 500.0), (1200.0, 750.0), (500.0, 750.0), (200.0, 500.0),
            (401.0, 301.0)]
    laying = lanes.lay(track, back, settings)
    assert {k: s.id for k, s in laying.closed.items()} == {0: "1-000", 1: "2-000"}
    assert laying.closing().startswith("the stretch ends on the start of lanes 1, 2 (1-000 and")
    track = lanes.add_stretch(track, back, settings)
    assert not lanes.open_ends(track) and not lanes.open_starts(track)
    assert _overlap(track) < 1.0
    report = validate(track, codes=["REACH004", "LAP006", "GEOM001", "GEOM002", "GEOM003"])
    assert report.errors == 0 and report.warnings == 0, report.to_text()
