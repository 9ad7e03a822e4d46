"""Fuzz targets: load, validate and info on hostile track files, and the version-0 migration.

Each target feeds many generated inputs through the command line (see :mod:`tests.fuzz.contract`
for what every input must keep to), and the round trip of the writer: a track that loads is
written and read back unchanged.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.fuzz.contract import check_file
from tests.fuzz.strategies import (
    JSON_VALUES,
    RING,
    damaged_bytes,
    draft_document,
    misdrawn_ring,
    mutated_ring,
)
from trackformat.io import TrackFileError, dumps_track, loads_track, track_from_document
from trackformat.lint import validate

FUZZ = settings.get_profile("fuzz")
RING_TEXT = json.dumps(RING, indent=1)


def _as_file(document: Any) -> bytes:
    return json.dumps(document).encode("utf-8")


@FUZZ
@given(mutated_ring())
def test_a_mutated_track(document: dict[str, Any]) -> None:
    check_file(_as_file(document))


@FUZZ
@given(misdrawn_ring())
def test_a_misdrawn_track(document: dict[str, Any]) -> None:
    check_file(_as_file(document))


@FUZZ
@given(draft_document())
def test_a_draft_track_of_any_shape(document: dict[str, Any]) -> None:
    check_file(_as_file(document))


@FUZZ
@given(damaged_bytes(RING_TEXT))
def test_a_damaged_file(data: bytes) -> None:
    check_file(data)


@FUZZ
@given(JSON_VALUES | st.fixed_dictionaries({"format_version": JSON_VALUES}, optional={
    "format": JSON_VALUES, "metadata": JSON_VALUES, "spaces": JSON_VALUES}))
def test_any_json_document(document: Any) -> None:
    check_file(_as_file(document))


@FUZZ
@given(misdrawn_ring() | mutated_ring() | draft_document())
def test_a_track_that_loads_is_written_back_unchanged(document: dict[str, Any]) -> None:
    try:
        track = track_from_document(document, "fuzz")
    except TrackFileError:
        return
    text = dumps_track(track)
    again = loads_track(text, "written")
    assert again == track
    assert dumps_track(again) == text
    assert "INTERNAL" not in validate(track).codes()
