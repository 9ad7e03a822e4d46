"""The cycle collector in a process that does one job (the command line, a test drive's worker,
the kernel's compile process): its start set aside, what comes after still collected."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from trackformat.collector import settle

ROOT = Path(__file__).parent.parent


DROPPED_CYCLE = ("class Node: pass\n"
                 "a, b = Node(), Node()\n"
                 "a.other, b.other = b, a\n"
                 "gone = weakref.ref(a)\n"
                 "del a, b\n")
"""Two objects that refer to each other, dropped: garbage only a pass of the collector finds
(``gone()`` is None once it has)."""


def _child(code: str, env: dict[str, str] | None = None) -> list[str]:
    """What ``code`` prints in a new Python process, split into words."""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, timeout=120, check=True, env=env)
    return done.stdout.split()


def test_a_one_job_process_sets_its_start_aside_and_still_collects_what_follows() -> None:
    out = _child(
        "import gc, weakref\n"
        "from trackformat.collector import settle\n"
        "from trackformat.process import one_job_process\n"
        "one_job_process()\n"
        "paused = not gc.isenabled()\n"
        "import trackformat.cli\n"
        "settle()\n"
        + DROPPED_CYCLE +
        "gc.collect()\n"
        "print(paused, gc.isenabled(), gc.get_freeze_count(), gone() is None)\n")
    paused, enabled, frozen, collected = out
    assert paused == "True"  # the start's imports made with the collector paused
    assert enabled == "True"
    assert int(frozen) > 10_000  # the command line's modules, set aside
    assert collected == "True"  # a cycle made after the start is still collected


def test_settle_leaves_other_processes_alone() -> None:
    """The editor and a test run keep their collector as it is: a set-aside cycle would never be
    collected in a process that goes on for hours."""
    frozen, enabled = gc.get_freeze_count(), gc.isenabled()
    settle()
    assert (gc.get_freeze_count(), gc.isenabled()) == (frozen, enabled)


def test_the_installed_trackformat_script_runs_the_command_line() -> None:
    (script,) = [e for e in entry_points(group="console_scripts") if e.name == "trackformat"]
    module, _, function = script.value.partition(":")
    out = subprocess.run(
        [sys.executable, "-c", f"import sys; from {module} import {function} as run; "
                               "sys.argv = ['trackformat', '--version']; sys.exit(run())"],
        capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("trackformat ")


def test_the_compile_process_sets_aside_what_survives_a_full_pass() -> None:
    out = _child(
        "import gc, weakref\n"
        "from trackformat.collector import set_aside_survivors, settle\n"
        "from trackformat.process import one_job_process\n"
        "one_job_process()\n"
        "set_aside_survivors()\n"
        "settle()\n"
        "before = gc.get_freeze_count()\n"
        "kept = [[n] for n in range(5000)]\n"
        + DROPPED_CYCLE +
        "gc.collect()\n"
        "print(gc.get_freeze_count() - before, gone() is None)\n")
    set_aside, collected = out
    assert int(set_aside) >= 5000  # the survivors of the pass, set aside
    assert collected == "True"  # garbage is still collected by the pass itself


def _count_threads_or_skip() -> None:
    """Skip a test that counts a process's threads where the system cannot count them."""
    if not Path("/proc/self/task").is_dir():
        pytest.skip("counting a process's threads needs Linux's /proc")


def test_a_one_job_process_starts_numpy_without_helper_threads() -> None:
    """OpenBLAS's helper threads spin for a tenth of a second of CPU in every process that
    imports numpy; the project's processes need none (the user's own setting stays)."""
    _count_threads_or_skip()
    code = ("import os\n"
            "from trackformat.process import one_job_process\n"
            "one_job_process()\n"
            "import numpy\n"
            "print(len(os.listdir('/proc/self/task')), os.environ['OPENBLAS_NUM_THREADS'])\n")
    assert _child(code) == ["1", "1"]
    assert _child(code, {**os.environ, "OPENBLAS_NUM_THREADS": "2"})[1] == "2"


def test_the_editor_and_the_processes_it_starts_get_one_openblas_thread() -> None:
    """The editor starts processes that race (its live test drive, its workers, the kernel's
    compile): they, and the editor itself, start numpy with one OpenBLAS thread. (On a machine
    of one core OpenBLAS starts no helper thread anyway.)"""
    _count_threads_or_skip()
    code = ("import os, subprocess, sys\n"
            "for name in ('DISPLAY', 'WAYLAND_DISPLAY', 'QT_QPA_PLATFORM',\n"
            "             'OPENBLAS_NUM_THREADS'):\n"
            "    os.environ.pop(name, None)\n"
            "from editor.app import main\n"
            "assert main([]) == 2\n"  # no display: the editor stops after its set-up
            "import numpy\n"
            "child = 'import os, numpy; print(len(os.listdir(\"/proc/self/task\")))'\n"
            "started = subprocess.run([sys.executable, '-c', child], capture_output=True,\n"
            "                         text=True, check=True).stdout.strip()\n"
            "print(len(os.listdir('/proc/self/task')), started)\n")
    assert _child(code) == ["1", "1"]
