"""The editor's edits, as pure functions on tracks (no Qt)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from editor import edits
from tests.factories import ring
from trackformat.graph import build_graphs
from trackformat.lint import validate
from trackformat.model import GPOnline


def test_move_shares_every_untouched_space() -> None:
    track = ring()
    moved = edits.move_spaces(track, {"1-3"}, 5, -2)
    before = {s.id: s for s in track.spaces}
    after = {s.id: s for s in moved.spaces}
    expected = (before["1-3"].centre[0] + 5, before["1-3"].centre[1] - 2)
    assert after["1-3"].centre == pytest.approx(expected, abs=0.01)
    assert all(after[i] is before[i] for i in before if i != "1-3")
    assert moved.links is track.links


def test_delete_removes_every_reference_to_a_space() -> None:
    track = edits.delete_elements(ring(), {"1-9", "1-0", "pit-2", "box-1", "3-39"})
    ids = {s.id for s in track.spaces}
    assert not {"1-9", "1-0", "pit-2"} & ids
    assert all(k.from_ in ids and k.to in ids for k in track.links)
    assert "1-9" not in track.corners[0].spaces
    assert track.finish_line is not None and "1-0" not in track.finish_line.spaces
    assert "3-39" not in track.grid
    assert track.pit_lane is not None and "pit-2" not in track.pit_lane.spaces
    assert track.pit_lane.boxes == ["box-2"]


def test_deleting_a_corner_keeps_its_spaces() -> None:
    track = edits.delete_elements(ring(), {"north"})
    assert [c.id for c in track.corners] == ["south"]
    assert len(track.spaces) == len(ring().spaces)


def test_toggle_link_adds_then_removes() -> None:
    track = ring()
    added = edits.toggle_link(track, "1-7", "2-8")
    assert edits.has_link(added, "1-7", "2-8")
    assert not edits.has_link(edits.toggle_link(added, "1-7", "2-8"), "1-7", "2-8")
    with pytest.raises(edits.EditError):
        edits.toggle_link(track, "1-7", "nowhere")


def test_update_spaces_validates_values() -> None:
    track = edits.update_spaces(ring(), {"1-1", "1-2"}, heading=45.0)
    assert {s.heading for s in track.spaces if s.id in {"1-1", "1-2"}} == {45.0}
    with pytest.raises(ValidationError):
        edits.update_spaces(ring(), {"1-1"}, heading=1000.0)


def test_update_corners_validates_values() -> None:
    track = edits.update_corners(ring(), {"north", "south"}, stops=3)
    assert [c.stops for c in track.corners] == [3, 3]
    with pytest.raises(ValidationError):
        edits.update_corners(ring(), {"north"}, stops="many")


def test_removing_a_space_from_a_lane_keeps_the_lane_connected() -> None:
    track = edits.remove_from_lane(ring(), "2-20")
    graphs = build_graphs(track)
    assert graphs.circuit.has_edge("2-19", "2-21")
    assert len(graphs.lanes["2"]) == 39
    assert not [d for d in validate(track).diagnostics if d.code.startswith(("REACH", "LAP"))]


def test_splitting_a_space_inserts_one_in_its_lane() -> None:
    track, new_id = edits.split_space(ring(), "2-20")
    graphs = build_graphs(track)
    assert graphs.lanes["2"][20:23] == ["2-20", new_id, "2-21"]
    old = graphs.spaces["2-20"]
    new = graphs.spaces[new_id]
    assert new.centre != old.centre
    assert not graphs.circuit.has_edge("2-20", "2-21")
    report = validate(track, codes=["GEOM002", "REACH001", "REACH002", "LAP001"])
    assert report.errors == 0, report.to_text()


def test_fresh_ids_do_not_clash() -> None:
    assert edits.fresh_id({"x-1", "x-2"}, "x") == "x-3"


def test_the_editor_says_when_there_is_no_display(monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    from editor import app

    for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(app.sys, "platform", "linux")
    assert app.main([]) == 2
    assert "no display" in capsys.readouterr().err


def test_deleting_a_garage_takes_it_off_the_pit_lane() -> None:
    track = ring()
    assert track.pit_lane is not None
    track = track.model_copy(update={"pit_lane": track.pit_lane.model_copy(
        update={"garages": ["pit-2", "pit-3"]})})
    after = edits.delete_elements(track, {"pit-2"})
    assert after.pit_lane is not None and after.pit_lane.garages == ["pit-3"]


def test_deleting_forgets_gp_online_numbers_of_what_went() -> None:
    track = ring().model_copy(update={"gponline": GPOnline(
        curve_positions={"north": {"1-8": 0.0, "1-9": 0.5}, "south": {"1-22": 0.0}},
        grid_headings={"1-39": 180.0, "2-39": 180.0})})
    after = edits.delete_elements(track, {"1-9", "south", "2-39"})
    assert after.gponline is not None
    assert after.gponline.curve_positions == {"north": {"1-8": 0.0}}
    assert after.gponline.grid_headings == {"1-39": 180.0}
