"""What the toolkit writes, GP Online can load: exports read by a copy of the game's reading
loop (the game's builder is checked in test_gponline_builder_rules.py and
test_gponline_export.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.interop.gponline_game import game_reads
from trackformat.interop.gponline import export_track, format_dat, import_file, parse_dat
from trackformat.interop.gponline.exporter import export_records
from trackformat.io import load_track

ROOT = Path(__file__).resolve().parent.parent.parent
DATA = ROOT / "tests" / "data" / "gponline"


def test_the_game_reads_an_exported_monaco() -> None:
    track = load_track(ROOT / "tracks" / "monaco.json")
    exported = export_track(track, image="monaco.jpg")
    read = game_reads(format_dat(exported.dat))
    assert read.header == ["monaco.jpg", "0"]
    assert track.pit_lane is not None  # its five boxes are garages in the pit lane
    assert len(read.nodes) == len(track.spaces) - len(track.pit_lane.boxes)
    assert read.edges == exported.dat.edges
    assert sum(finish for *_, finish in read.nodes.values()) == 3
    assert read.grid == exported.dat.grid and len(read.grid) == len(track.grid)
    assert read.attributes == exported.dat.attributes


def test_the_game_cannot_read_the_older_layout() -> None:
    # An empty line after the header ends the game's node section before it starts.
    old = (DATA / "small-oval-old-layout.dat").read_text()
    with pytest.raises(ValueError):
        game_reads(old)


@pytest.mark.parametrize("sample", ["four-lanes.dat", "two-lanes.dat", "small-oval.dat"])
def test_the_game_reads_an_exported_import(sample: str) -> None:
    # The samples test the format, not races (too few grid slots): their records are read.
    text = format_dat(export_records(import_file(DATA / sample).track).dat)
    read = game_reads(text)
    dat = parse_dat(text, sample)
    assert read.nodes == {n.id: (n.x, n.y, int(n.type), n.finish) for n in dat.nodes}
    assert read.edges == dat.edges
    assert read.attributes == dat.attributes
    assert read.grid == dat.grid
