"""make run's check of the system libraries Qt's X11 plugin needs (tools/gui_libs.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import gui_libs  # noqa: E402

LDD_OUTPUT = """\
\tlinux-vdso.so.1 (0x00007ffc5a1f2000)
\tlibQt6XcbQpa.so.6 => /venv/PySide6/Qt/lib/libQt6XcbQpa.so.6 (0x00007f0e4a600000)
\tlibxcb-icccm.so.4 => not found
\tlibxcb-keysyms.so.1 => not found
\tlibxkbcommon-x11.so.0 => not found
\tlibxcb-icccm.so.4 => not found
\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f0e4a000000)
"""


def test_every_library_the_linker_misses_is_found_once() -> None:
    assert gui_libs.not_found(LDD_OUTPUT) == [
        "libxcb-icccm.so.4", "libxcb-keysyms.so.1", "libxkbcommon-x11.so.0"]


@pytest.mark.parametrize(("soname", "package"), [
    ("libxcb-icccm.so.4", "libxcb-icccm4"),
    ("libxcb-render-util.so.0", "libxcb-render-util0"),
    ("libxkbcommon-x11.so.0", "libxkbcommon-x11-0"),
    ("libX11-xcb.so.1", "libx11-xcb1"),
    ("libEGL.so.1", "libegl1"),
    ("libfontconfig.so.1", "libfontconfig1"),
    ("libxcb-cursor.so.0", "libxcb-cursor0"),
    ("libglib-2.0.so.0", "libglib2.0-0"),
])
def test_each_library_is_named_with_its_debian_package(soname: str, package: str) -> None:
    assert gui_libs.debian_package(soname) == package


def _check_with(
    tmp_path: Path, ldd_says: str, ldconfig_says: str
) -> subprocess.CompletedProcess[str]:
    """Run ``gui_libs.py --check`` with stand-ins for ``ldd`` and ``ldconfig`` that say what a
    machine with some libraries missing would say."""
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "ldd").write_text(f"#!/bin/sh\ncat <<'END'\n{ldd_says}END\n", encoding="utf-8")
    (fake / "ldconfig").write_text(f"#!/bin/sh\necho '{ldconfig_says}'\n", encoding="utf-8")
    for tool in fake.iterdir():
        tool.chmod(0o755)
    env = {**os.environ, "PATH": f"{fake}{os.pathsep}{os.environ['PATH']}"}
    return subprocess.run([sys.executable, str(ROOT / "tools" / "gui_libs.py"), "--check"],
                          capture_output=True, text=True, env=env, check=False)


NEEDS_PYSIDE = pytest.mark.skipif(gui_libs.xcb_plugin() is None, reason="no PySide6 here")


@NEEDS_PYSIDE
def test_check_names_every_missing_library_and_the_exact_command(tmp_path: Path) -> None:
    """With several libraries missing, all are named, not only the first, with one command."""
    done = _check_with(tmp_path, LDD_OUTPUT, "libxcb-cursor.so.0 (libc6,x86-64) => x")
    assert done.returncode == 1
    assert "3 missing system libraries: libxcb-icccm.so.4, libxcb-keysyms.so.1, " \
        "libxkbcommon-x11.so.0" in done.stdout
    assert "apt-get install -y libxcb-icccm4 libxcb-keysyms1 libxkbcommon-x11-0" in done.stdout


@NEEDS_PYSIDE
def test_a_library_qt_opens_at_run_time_is_checked_too(tmp_path: Path) -> None:
    done = _check_with(tmp_path, "\tlibc.so.6 => /lib/libc.so.6 (0x1)\n", "libfoo.so.1 => x")
    assert done.returncode == 1
    assert "libxcb-cursor.so.0" in done.stdout and "libxcb-cursor0" in done.stdout


@NEEDS_PYSIDE
def test_nothing_is_said_when_nothing_is_missing(tmp_path: Path) -> None:
    done = _check_with(tmp_path, "\tlibc.so.6 => /lib/libc.so.6 (0x1)\n",
                       "libxcb-cursor.so.0 (libc6) => x")
    assert (done.returncode, done.stdout) == (0, "")
