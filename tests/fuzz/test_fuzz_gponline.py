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

from tests.fuzz.contract import check_export, check_import
from tests.fuzz.dat_strategies import PICTURES, generated_dat, mutated_dat
from tests.fuzz.strategies import misdrawn_ring, mutated_ring

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
