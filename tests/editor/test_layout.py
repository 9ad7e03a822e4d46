"""Laying out corners, finish line, grid and pit lane (the logic behind the tools, no Qt)."""

from __future__ import annotations

import pytest

from editor import layout
from editor.edits import EditError, delete_elements
from tests.factories import ring
from trackformat.analysis import measure_corner
from trackformat.graph import build_graphs
from trackformat.lint import validate
from trackformat.model import SpaceKind


def test_lane_range_follows_the_lane_and_wraps_round_the_line() -> None:
    track = ring()
    assert layout.lane_range(track, "2-5", "2-8") == ["2-5", "2-6", "2-7", "2-8"]
    assert layout.lane_range(track, "2-38", "2-1") == ["2-38", "2-39", "2-0", "2-1"]
    with pytest.raises(EditError, match="same lane"):
        layout.lane_range(track, "1-5", "2-8")


def test_a_corner_made_from_picked_spaces_is_measured() -> None:
    track = delete_elements(ring(), {"north"})
    spaces = [s for lane in "123" for s in layout.lane_range(track, f"{lane}-8", f"{lane}-11")]
    track, corner_id = layout.make_corner(track, spaces, stops=2)
    corner = next(c for c in track.corners if c.id == corner_id)
    assert corner.stops == 2 and len(corner.spaces) == 12
    assert measure_corner(build_graphs(track), corner).long == 4


def test_spaces_move_from_their_old_corner_to_the_new_one() -> None:
    track, _ = layout.make_corner(ring(), ["1-8", "1-9"])
    north = next(c for c in track.corners if c.id == "north")
    assert "1-8" not in north.spaces
    with pytest.raises(EditError, match="only track spaces"):
        layout.make_corner(ring(), ["pit-1"])


def test_finish_line_goes_across_every_lane() -> None:
    track = layout.finish_line_through(ring(), "2-10")
    assert track.finish_line is not None
    assert track.finish_line.spaces == ["1-10", "2-10", "3-10"]
    track = layout.set_finish_space(track, "3-11")
    assert track.finish_line is not None and track.finish_line.spaces == ["1-10", "2-10", "3-11"]


def test_grid_slots_are_clicked_in_order_and_toggled() -> None:
    track = ring().model_copy(update={"grid": []})
    for slot in ("1-39", "3-38", "1-37"):
        track = layout.toggle_grid_slot(track, slot)
    assert track.grid == ["1-39", "3-38", "1-37"]
    assert layout.toggle_grid_slot(track, "3-38").grid == ["1-39", "1-37"]
    with pytest.raises(EditError):
        layout.toggle_grid_slot(track, "pit-0")


def test_pit_lane_laid_click_by_click_validates() -> None:
    sound = ring()
    assert sound.pit_lane is not None
    bare = sound.model_copy(
        update={
            "pit_lane": None,
            "links": [
                k
                for k in sound.links
                if not (k.from_.startswith(("pit", "box")) or k.to.startswith(("pit", "box")))
            ],
        }
    )
    track = bare
    for pit_space in sound.pit_lane.spaces:
        track = layout.append_pit_space(track, pit_space)
    track = layout.toggle_pit_entry(track, "3-35")
    track = layout.toggle_pit_exit(track, "3-3")
    track = layout.toggle_box(track, "box-1", beside=["pit-2"])
    track = layout.toggle_box(track, "box-2", beside=["pit-4"])
    assert track.pit_lane is not None
    assert track.pit_lane.spaces == sound.pit_lane.spaces
    assert [(k.from_, k.to) for k in track.pit_lane.entry] == [("3-35", "pit-0")]
    assert [(k.from_, k.to) for k in track.pit_lane.exit] == [("pit-6", "3-3")]
    assert {(k.from_, k.to) for k in track.links} == {(k.from_, k.to) for k in sound.links}
    report = validate(track)
    assert report.errors == 0 and report.warnings == 0, report.to_text()
    # A box clicked again stops being one.
    undone = layout.toggle_box(track, "box-1")
    assert undone.pit_lane is not None and undone.pit_lane.boxes == ["box-2"]
    assert not any("box-1" in (k.from_, k.to) for k in undone.links)


def test_pit_lane_spaces_become_pit_kind() -> None:
    track = layout.append_pit_space(ring().model_copy(update={"pit_lane": None}), "3-20")
    assert next(s for s in track.spaces if s.id == "3-20").kind == SpaceKind.PIT


def test_a_pit_lane_space_toggles_as_a_garage_in_driving_order() -> None:
    track = layout.toggle_garage(layout.toggle_garage(ring(), "pit-5"), "pit-1")
    assert track.pit_lane is not None and track.pit_lane.garages == ["pit-1", "pit-5"]
    assert validate(track).errors == 0
    again = layout.toggle_garage(track, "pit-5")
    assert again.pit_lane is not None and again.pit_lane.garages == ["pit-1"]
    with pytest.raises(EditError, match="not in the pit lane"):
        layout.toggle_garage(track, "box-1")


def test_finish_line_on_a_staggered_start_takes_the_first_space_past_it_in_each_lane() -> None:
    from editor.lanes import LaneSettings, add_stretch

    blank = ring().model_copy(update={"spaces": [], "links": [], "corners": [], "lanes": [],
                                      "finish_line": None, "grid": [], "pit_lane": None})
    # Three lanes as printed boards stagger them: the middle lane half a space ahead.
    straight = add_stretch(blank, [(100, 600), (1100, 600)], LaneSettings(lanes=3))
    line = layout.finish_line_through(straight, "1-000").finish_line
    assert line is not None and line.spaces == ["1-000", "2-000", "3-000"]
    line = layout.finish_line_through(straight, "3-000").finish_line
    assert line is not None and line.spaces == ["1-000", "2-000", "3-000"]
