"""Reading and writing track files: stable bytes, located errors, versions, atomic saves."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from tests.factories import ring, ring_document
from trackformat.io import (
    MIGRATIONS,
    TrackFileError,
    dumps_document,
    dumps_track,
    load_track,
    loads_track,
    save_track,
    upgrade,
)
from trackformat.lint import validate
from trackformat.model import CURRENT_FORMAT_VERSION, FORMAT_NAME, Placement

DRAFT = Path(__file__).parent / "data" / "v0" / "hexagon_draft.json"


# -- stable text ---------------------------------------------------------------------------------


def test_ring_round_trips_byte_for_byte() -> None:
    text = dumps_track(ring())
    assert dumps_track(loads_track(text)) == text


def test_saved_file_round_trips_byte_for_byte(tmp_path: Path) -> None:
    path = tmp_path / "ring.json"
    save_track(ring(lanes=4, per_lane=44), path)
    text = path.read_text(encoding="utf-8")
    again = tmp_path / "again.json"
    save_track(load_track(path), again)
    assert again.read_bytes() == path.read_bytes()
    assert text.endswith("}\n") and "\r" not in text


def test_written_text_is_diff_friendly() -> None:
    track = ring()
    lines = dumps_track(track).splitlines()
    # one link per line and each space in its own block: a change shows as a few changed lines
    assert '    {"from": "1-0", "to": "1-1"},' in lines
    assert sum(1 for line in lines if line.startswith('      "kind": ')) == len(track.spaces)
    assert sum(1 for line in lines if line.startswith('    {"from": ')) == len(track.links)


def test_loaded_track_equals_the_document_it_came_from() -> None:
    document = ring_document()
    track = loads_track(json.dumps(document))
    assert track.model_dump(mode="json", by_alias=True) == document


# -- located errors ------------------------------------------------------------------------------


def test_duplicate_key_is_refused_with_a_pointer() -> None:
    text = dumps_track(ring()).replace('"id": "2-5",', '"id": "2-5",\n      "id": "2-55",', 1)
    with pytest.raises(TrackFileError) as caught:
        loads_track(text, "dup.json")
    (problem,) = caught.value.problems
    assert problem.pointer == "/spaces/45/id"
    assert "more than once" in problem.message
    assert caught.value.render().startswith("dup.json: /spaces/45/id: ")


def test_duplicate_top_level_key() -> None:
    with pytest.raises(TrackFileError) as caught:
        loads_track('{"format_version": 1, "format_version": 1}', "dup.json")
    assert caught.value.problems[0].pointer == "/format_version"


def test_syntax_error_gives_line_and_column() -> None:
    with pytest.raises(TrackFileError) as caught:
        loads_track('{\n  "format_version": 1,\n}', "bad.json")
    assert "line 3, column 1" in caught.value.render()


def test_every_shape_problem_is_reported_at_once() -> None:
    document = ring_document()
    document["spaces"][0]["heading"] = "north"
    document["spaces"][7]["polygon"] = [[0, 0]]
    document["metadata"]["laps"] = 0
    with pytest.raises(TrackFileError) as caught:
        loads_track(json.dumps(document))
    pointers = {p.pointer for p in caught.value.problems}
    assert pointers == {"/spaces/0/heading", "/spaces/7/polygon", "/metadata/laps"}


def test_non_finite_numbers_are_refused_where_they_are() -> None:
    text = dumps_track(ring()).replace('"heading": 94.5', '"heading": NaN', 1)
    with pytest.raises(TrackFileError) as caught:
        loads_track(text)
    assert caught.value.problems[0].pointer == "/spaces/0/heading"


# -- versions ------------------------------------------------------------------------------------


def _draft() -> dict[str, Any]:
    document: dict[str, Any] = json.loads(DRAFT.read_text(encoding="utf-8"))
    return document


def test_draft_file_upgrades_to_the_current_version() -> None:
    draft = _draft()
    track = load_track(DRAFT)
    assert track.format == FORMAT_NAME
    assert track.format_version == CURRENT_FORMAT_VERSION
    assert track.metadata.name == "Hexagon (draft)"
    assert track.metadata.designer == "A. Draftsman"
    assert track.metadata.laps == 3
    assert track.board.image == "hexagon.png"
    assert [(s.id, s.centre) for s in track.spaces] == [
        (s["id"], (s["x"], s["y"])) for s in draft["spaces"]
    ]
    assert [(link.from_, link.to) for link in track.links] == [tuple(p) for p in draft["links"]]
    assert track.grid == draft["start_grid"]
    assert track.finish_line is not None and track.finish_line.spaces == ["a0", "b0"]
    assert [c.id for c in track.corners] == ["bottom"]


def test_upgraded_draft_passes_the_validator() -> None:
    report = validate(load_track(DRAFT), source=str(DRAFT))
    assert report.ok, report.to_text()
    assert report.facts.get("shortest_lap") == 6


def test_upgraded_draft_saves_as_current_version(tmp_path: Path) -> None:
    out = tmp_path / "hexagon.json"
    save_track(load_track(DRAFT), out)
    document = json.loads(out.read_text(encoding="utf-8"))
    assert document["format"] == FORMAT_NAME
    assert document["format_version"] == CURRENT_FORMAT_VERSION
    assert "start_grid" not in document and "designer" not in document
    assert "x" not in document["spaces"][0]
    assert load_track(out) == load_track(DRAFT)


def test_upgrade_leaves_the_input_document_alone() -> None:
    draft = _draft()
    before = json.dumps(draft, sort_keys=True)
    upgrade(draft)
    assert json.dumps(draft, sort_keys=True) == before


def test_migrations_cover_every_older_version() -> None:
    assert set(MIGRATIONS) == set(range(CURRENT_FORMAT_VERSION))


def test_future_version_is_refused_with_a_clear_message() -> None:
    document = ring_document()
    document["format_version"] = CURRENT_FORMAT_VERSION + 1
    with pytest.raises(TrackFileError) as caught:
        loads_track(json.dumps(document), "future.json")
    text = caught.value.render()
    assert "future.json: /format_version:" in text
    assert "newer" in text and "update trackformat" in text


@pytest.mark.parametrize("version", ["1", 1.0, True, None])
def test_version_must_be_an_integer(version: object) -> None:
    document = ring_document()
    document["format_version"] = version
    with pytest.raises(TrackFileError) as caught:
        loads_track(json.dumps(document))
    assert caught.value.problems[0].pointer == "/format_version"


def test_other_format_is_refused() -> None:
    document = ring_document() | {"format": "some-other-game"}
    with pytest.raises(TrackFileError) as caught:
        loads_track(json.dumps(document))
    assert "not a track file" in caught.value.render()


# -- atomic save ---------------------------------------------------------------------------------


def test_save_leaves_no_temporary_files(tmp_path: Path) -> None:
    path = tmp_path / "ring.json"
    save_track(ring(), path)
    save_track(ring(lanes=2, per_lane=30), path)  # over an existing file
    assert [p.name for p in tmp_path.iterdir()] == ["ring.json"]
    assert load_track(path) == ring(lanes=2, per_lane=30)


def test_failed_save_keeps_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "ring.json"
    save_track(ring(), path)
    before = path.read_bytes()

    def broken_replace(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError):
        save_track(ring(lanes=2, per_lane=30), path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["ring.json"]


def test_document_text_refuses_non_finite_numbers() -> None:
    with pytest.raises(ValueError):
        dumps_document({"x": float("inf")})


def test_a_version_1_file_reads_with_its_picture_pixel_for_pixel() -> None:
    document = ring_document() | {"format_version": 1}
    document["board"] = {"image": "board.png", "width": 1200, "height": 1200}
    track = loads_track(json.dumps(document), "old.json")
    assert track.format_version == CURRENT_FORMAT_VERSION == 3
    assert track.board.image == "board.png" and track.board.placement is None


def test_a_version_2_file_reads_with_no_garages_and_saves_as_version_3(tmp_path: Path) -> None:
    document = ring_document() | {"format_version": 2}
    del document["pit_lane"]["garages"]
    track = loads_track(json.dumps(document), "old.json")
    assert track.pit_lane is not None and track.pit_lane.garages == []
    saved = tmp_path / "saved.json"
    save_track(track, saved)
    assert json.loads(saved.read_text(encoding="utf-8"))["format_version"] == 3


def test_garages_are_saved_and_read_back(tmp_path: Path) -> None:
    document = ring_document()
    in_line = document["pit_lane"]["spaces"][2:4]
    document["pit_lane"]["garages"] = in_line
    saved = tmp_path / "garages.json"
    save_track(loads_track(json.dumps(document), "new.json"), saved)
    assert json.loads(saved.read_text(encoding="utf-8"))["pit_lane"]["garages"] == in_line
    assert load_track(saved).pit_lane.garages == in_line  # type: ignore[union-attr]


def test_half_a_weather_is_refused_where_it_is() -> None:
    document = ring_document() | {"gponline": {"info_corner": 1, "rain_probability": 30}}
    with pytest.raises(TrackFileError) as caught:
        loads_track(json.dumps(document), "half.json")
    [problem] = caught.value.problems
    assert problem.pointer == "/gponline"
    assert "rain_probability and min_weather_period go together" in caught.value.render()


def test_a_placement_is_saved_and_read_back(tmp_path: Path) -> None:
    matrix = ((1.5, -0.02, 12.25), (0.02, 1.5, -3.5))
    track = ring()
    placed = track.model_copy(
        update={"board": track.board.model_copy(update={"placement": Placement(matrix=matrix)})}
    )
    path = tmp_path / "placed.json"
    save_track(placed, path)
    document = json.loads(path.read_text(encoding="utf-8"))
    assert document["board"]["placement"] == {"matrix": [list(row) for row in matrix]}
    loaded = load_track(path)
    assert loaded == placed
    assert loaded.board.placement is not None
    assert loaded.board.placement.apply(100, 200) == pytest.approx((158.25, 298.5))
    assert loaded.board.placement.inverse(158.25, 298.5) == pytest.approx((100, 200))


@pytest.mark.parametrize(
    ("matrix", "pointer", "words"),
    [
        ([[1, 2, 0], [2, 4, 0]], "/board/placement", "squashes the picture onto a line"),
        ([[1, 0, 0], [0, 1]], "/board/placement/matrix/1", "required"),
        ([[1, 0, "3"], [0, 1, 0]], "/board/placement/matrix/0/2", "number"),
    ],
)
def test_a_broken_placement_is_located(matrix: object, pointer: str, words: str) -> None:
    document = ring_document()
    document["board"]["placement"] = {"matrix": matrix}
    with pytest.raises(TrackFileError) as caught:
        loads_track(json.dumps(document), "placed.json")
    problem = caught.value.problems[0]
    assert problem.pointer.startswith(pointer), problem
    assert words in caught.value.render()
