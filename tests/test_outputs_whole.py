"""An output the command line cannot finish writing (a full disk, a file-size limit) leaves the
file it was to replace whole: every output is written beside its target and renamed over it.

The limit is the operating system's own (``RLIMIT_FSIZE``), set in a child process, so each
command fails as it would on a full disk: mid-write, with exit code 2."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.factories import ring
from trackformat.io import save_track

resource = pytest.importorskip("resource")  # POSIX only

LIMIT = 2_000
"""Bytes a file may grow to: less than any picture or race log of the ring."""
OLD = b"the user's own file, which must survive\n"


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_FSIZE, (LIMIT, LIMIT))


def _run_limited(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "trackformat", *argv], capture_output=True, text=True,
        preexec_fn=_limited, env={**os.environ, "QT_QPA_PLATFORM": "offscreen"}, check=False,
    )


@pytest.fixture
def ring_file(tmp_path: Path) -> Path:
    path = tmp_path / "ring.json"
    save_track(ring(), path)
    return path


@pytest.mark.parametrize("suffix", ["png", "svg"])
def test_a_render_that_cannot_be_written_leaves_the_old_picture_whole(
        ring_file: Path, tmp_path: Path, suffix: str) -> None:
    target = tmp_path / f"picture.{suffix}"
    target.write_bytes(OLD)
    done = _run_limited("render", str(ring_file), "-o", str(target))
    assert done.returncode == 2, done.stderr
    assert target.read_bytes() == OLD
    assert sorted(p.name for p in tmp_path.iterdir()) == ["picture." + suffix, "ring.json"]


def test_a_race_log_that_cannot_be_written_leaves_the_old_log_whole(
        ring_file: Path, tmp_path: Path) -> None:
    target = tmp_path / "race.jsonl"
    target.write_bytes(OLD)
    done = _run_limited("race", str(ring_file), "--log", str(target))
    assert done.returncode == 2, done.stderr
    assert target.read_bytes() == OLD
    assert sorted(p.name for p in tmp_path.iterdir()) == ["race.jsonl", "ring.json"]
