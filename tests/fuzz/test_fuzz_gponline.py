"""Fuzz targets: `import gponline` on hostile `.dat` files, `export gponline` on hostile tracks.

The contract of :mod:`tests.fuzz.contract` (exit 0, 1 or 2, never 3; no traceback; at most 10 s
and 1 GB), and one more: every file an export writes imports again.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.fuzz.contract import check_export, check_import
from tests.fuzz.dat_strategies import PICTURES, generated_dat, mutated_dat
from tests.fuzz.strategies import RING, misdrawn_ring, mutated_ring

FUZZ = settings.get_profile("fuzz")


@FUZZ
@given(mutated_dat(), PICTURES)
def test_import_a_mutated_real_layout_file(text: str, picture: str) -> None:
    check_import(text, picture)


@FUZZ
@given(generated_dat(), PICTURES)
def test_import_a_generated_board(text: str, picture: str) -> None:
    check_import(text, picture)


@FUZZ
@given(misdrawn_ring() | mutated_ring())
def test_export_a_hostile_track(document: dict[str, Any]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        track = Path(folder) / "track.json"
        track.write_text(json.dumps(document))
        check_export(track)


SPELLINGS = st.sampled_from(["0{}", "00{}", "{}", "21474836{}", "99999999{}", "0"])
"""How a space's number may be spelled: plainly, with leading zeros (so "01" stands beside
"1"), too large for the game, or as "0" (which may stand twice)."""


@st.composite
def numbered_ring(draw: st.DrawFn) -> dict[str, Any]:
    """A hostile ring whose space ids are all numbers, some of them not in the plain form GP
    Online writes ("01" beside "1") or too large for it: the ids an export cannot keep."""
    document = draw(misdrawn_ring()) if draw(st.booleans()) else RING
    text = json.dumps(document)
    for k, space in enumerate(document["spaces"]):
        new = (draw(SPELLINGS) if draw(st.integers(0, 9)) == 0 else "{}").format(k + 1)
        text = text.replace(json.dumps(space["id"]), json.dumps(new))
    result: dict[str, Any] = json.loads(text)
    return result


@FUZZ
@given(numbered_ring())
def test_export_a_track_with_number_ids(document: dict[str, Any]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        track = Path(folder) / "track.json"
        track.write_text(json.dumps(document))
        check_export(track)
