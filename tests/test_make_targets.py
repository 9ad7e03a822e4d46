"""What `make run` and `make test` do on a machine where nothing is installed yet (read from
make's dry run, `make -n`, with the environment in a folder that does not exist): `make run`
says what it sets up, shows pip's progress and installs only what the editor needs; the test
tools come with `make test`."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


def _dry_run(target: str, tmp_path: Path) -> list[str]:
    venv = tmp_path / "fresh-venv"
    # Not as a sub-make of `make test`, which would print its folder and pass its flags on.
    alone = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    done = subprocess.run(["make", "--no-print-directory", "-n", target, f"VENV={venv}"],
                          cwd=ROOT, text=True, capture_output=True, check=True, env=alone)
    return done.stdout.splitlines()


def _installs(lines: list[str]) -> list[str]:
    return [line for line in lines if " -m pip install" in line and " -e " in line]


def test_make_run_installs_the_editor_only_and_shows_progress(tmp_path: Path) -> None:
    lines = _dry_run("run", tmp_path)
    assert any(line.startswith("echo") and "Setting up" in line for line in lines)
    [install] = _installs(lines)
    assert '".[gui,trace]"' in install  # no test tools (dev) for the editor
    assert "--quiet" not in install  # pip's own progress shows
    assert lines[-1].endswith("-m editor tracks/monaco.json")


def test_make_test_adds_the_test_tools(tmp_path: Path) -> None:
    [install] = _installs(_dry_run("test", tmp_path))
    assert '".[gui,trace,dev]"' in install and "--quiet" not in install
