"""The strong driver in the kernel over whole races: full grids, two laps, so that every phase
of its outlook is read and the pit window opens (the drivers weigh the moves into their boxes);
alone and among random drivers, under either ruleset, event for event as the readable engine.

Short races of every kernel driver on every track are compared in
:mod:`tests.sim.test_kernel_drivers`, which races the strong driver too."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.reference_races import ReferenceRaces
from tests.sim.test_kernel_moves import PRESETS, board
from trackformat.rules import load_ruleset


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("lineup", ["strong", "strong and random"])
def test_strong_drivers_race_two_laps_of_monaco_as_the_readable_engine(
        preset: str, lineup: str, reference_races: ReferenceRaces) -> None:
    bots = ("strong",) * 10 if lineup == "strong" else ("strong", "random") * 5
    races = [(seed, bots, tuple(seed * 10 + car for car in range(len(bots))))
             for seed in range(2)]
    reference_races.assert_kernel_races_as_readable(
        board("monaco-snapshot"), load_ruleset(preset), 2, races, label=(preset, lineup))


def test_the_strong_tables_kept_on_disk_are_the_ones_built(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from trackformat.sim.kernel import strong_tables as kstrong
    from trackformat.sim.kernel.moves import board_arrays

    monkeypatch.setattr(kstrong, "CACHE", tmp_path)
    the_board = board("ring")
    rules = load_ruleset("formula-d")
    built = kstrong.tables(the_board, board_arrays(the_board), rules, 2)
    assert len(list(tmp_path.rglob("*.npz"))) == 1
    loaded = kstrong.tables(the_board, board_arrays(the_board), rules, 2)
    for mine, theirs in zip(built, loaded, strict=True):
        assert mine.dtype == theirs.dtype and mine.flags.c_contiguous == theirs.flags.c_contiguous
        assert np.array_equal(mine, theirs)
    other = kstrong.tables(the_board, board_arrays(the_board), rules, 3)
    assert len(list(tmp_path.rglob("*.npz"))) == 2, "another race length: other tables"
    assert not np.array_equal(other[2], built[2]) or other[1].tolist() != built[1].tolist()


@pytest.mark.parametrize("damage", ["truncated", "emptied"])
def test_strong_tables_damaged_on_disk_are_built_again(damage: str, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from trackformat.sim.kernel import strong_tables as kstrong
    from trackformat.sim.kernel.moves import board_arrays

    monkeypatch.setattr(kstrong, "CACHE", tmp_path)
    the_board, rules = board("ring"), load_ruleset("formula-d")
    built = kstrong.tables(the_board, board_arrays(the_board), rules, 2)
    [kept] = tmp_path.rglob("*.npz")
    whole = kept.read_bytes()
    kept.write_bytes(whole[:len(whole) // 2] if damage == "truncated" else b"")
    again = kstrong.tables(the_board, board_arrays(the_board), rules, 2)
    for mine, theirs in zip(built, again, strict=True):
        assert np.array_equal(mine, theirs)
    assert kept.read_bytes() == whole, "written over with the tables built again"


def test_the_strong_tables_on_disk_are_bounded_the_least_recently_used_dropped(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    from trackformat.sim.kernel import strong_tables as kstrong
    from trackformat.sim.kernel.moves import board_arrays

    monkeypatch.setattr(kstrong, "CACHE", tmp_path)
    monkeypatch.setattr(kstrong, "KEPT_TABLES", 2)
    the_board, rules = board("ring"), load_ruleset("formula-d")
    arrays = board_arrays(the_board)
    folder = tmp_path / "strong-tables"
    files = []
    for laps in (1, 2):
        kstrong.tables(the_board, arrays, rules, laps)
        files.append(max(folder.glob("*.npz"), key=lambda path: path.stat().st_mtime_ns))
        os.utime(files[-1], (1_000_000 * laps, 1_000_000 * laps))  # one after the other
    kstrong.tables(the_board, arrays, rules, 1)  # read again: now the most recent
    kstrong.tables(the_board, arrays, rules, 3)  # a third: one must go
    kept = set(folder.glob("*.npz"))
    assert len(kept) == 2
    assert files[0] in kept and files[1] not in kept, "the least recently used goes"
