"""Where the compiled kernel is kept: the user's cache folder, else a folder of the user's own in
the temporary folder, else nowhere, and a test drive that still races when nothing can keep it,
or when a file of the cache is damaged."""

from __future__ import annotations

import io
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.factories import ring
from trackformat.io import save_track
from trackformat.sim.kernel.cache import place_for, private_temporary
from trackformat.sim.kernel.warm import read_again

ROOT = Path(__file__).resolve().parents[2]
OWN = f"formula-d-trackkit-{os.getuid()}" if hasattr(os, "getuid") else "formula-d-trackkit"


def _blocked(tmp_path: Path) -> Path:
    """A cache folder that cannot be made, whoever runs the tests (root included): its parent
    is a file."""
    (tmp_path / "a-file").write_text("not a folder", encoding="utf-8")
    return tmp_path / "a-file" / "cache"


def test_the_users_cache_folder_keeps_the_kernel_when_it_can(tmp_path: Path) -> None:
    place = place_for(tmp_path / "cache", "v1", temporary=tmp_path / "tmp")
    assert place == (tmp_path / "cache" / "kernel-v1", True, None)
    assert place.folder.is_dir()
    assert not (tmp_path / "tmp").exists(), "the temporary folder is left alone"


def test_an_unwritable_cache_folder_falls_back_to_the_users_own_temporary_folder(
    tmp_path: Path
) -> None:
    (tmp_path / "tmp").mkdir()
    blocked = _blocked(tmp_path)
    place = place_for(blocked, "v1", temporary=tmp_path / "tmp")
    spare = tmp_path / "tmp" / OWN / "numba"
    assert place.folder == spare / "kernel-v1" and place.kept
    assert place.folder.is_dir()
    assert place.note == (f"{blocked} cannot be written (Not a directory), so the compiled "
                          f"kernel is kept in {spare}")
    if hasattr(os, "getuid"):
        assert (tmp_path / "tmp" / OWN).stat().st_mode & 0o777 == 0o700


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="folders have no owner's mode here")
def test_a_temporary_folder_others_can_write_to_is_not_used(tmp_path: Path) -> None:
    # numba runs the code it finds in its cache: a folder someone else could write to would
    # let them run code as this user.
    (tmp_path / "tmp" / OWN).mkdir(parents=True)
    (tmp_path / "tmp" / OWN).chmod(0o777)
    assert private_temporary(tmp_path / "tmp") is None
    (tmp_path / "tmp" / OWN).rmdir()
    (tmp_path / "elsewhere").mkdir(mode=0o700)
    (tmp_path / "tmp" / OWN).symlink_to(tmp_path / "elsewhere")
    assert private_temporary(tmp_path / "tmp") is None, "a link in its place is not followed"
    blocked = _blocked(tmp_path)
    place = place_for(blocked, "v1", temporary=tmp_path / "tmp")
    assert place == (blocked / "kernel-v1", False, (
        f"no folder can keep the compiled kernel: {blocked} cannot be written (Not a "
        "directory), nor a folder of this user's own in the temporary folder; set "
        "NUMBA_CACHE_DIR to a folder you can write to"))


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="folders have no owner's mode here")
def test_a_test_drive_with_nowhere_to_keep_the_kernel_races_on_the_reference_engine(
    tmp_path: Path
) -> None:
    """A read-only home and no private temporary folder: numba used to refuse to define the
    kernel's functions, and the test drive stopped with an internal error."""
    track = tmp_path / "ring.json"
    save_track(ring(), track)
    shared = tmp_path / "shared-tmp"
    (shared / OWN).mkdir(parents=True)
    (shared / OWN).chmod(0o777)  # someone else's to write to as well: not used
    env = dict(os.environ, NUMBA_CACHE_DIR=str(_blocked(tmp_path)), TMPDIR=str(shared),
               PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, "-m", "trackformat", "testdrive", str(track), "--races", "3",
         "--cars", "3"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr
    assert done.stderr.splitlines() == [
        f"trackformat: no folder can keep the compiled kernel: {tmp_path / 'a-file' / 'cache'} "
        "cannot be written (Not a directory), nor a folder of this user's own in the "
        "temporary folder; set NUMBA_CACHE_DIR to a folder you can write to; the reference "
        "engine races instead (the same races, slower)"]
    assert done.stdout.startswith(f"Test ring ({track}): 3 races of 3 cars")
    assert done.stdout.strip().splitlines()[-1].endswith("1 worker, reference engine)"), (
        done.stdout)
    assert not any((shared / OWN).iterdir()), "nothing written where others can write"


def _drive(track: Path, cache: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(_drive_command(track), cwd=ROOT, env=_env(cache), capture_output=True,
                          text=True, timeout=600)


def _drive_command(track: Path) -> list[str]:
    return [sys.executable, "-m", "trackformat", "testdrive", str(track), "--races", "2",
            "--cars", "3"]


def _env(cache: Path) -> dict[str, str]:
    return dict(os.environ, NUMBA_CACHE_DIR=str(cache), PYTHONPATH=str(ROOT))


def _users_cache(tmp_path: Path) -> tuple[Path, Path]:
    """A test track, and a copy of the compiled kernel's cache as a user's (the counting a test
    drive does compiled in it too): the folder to name as ``NUMBA_CACHE_DIR``, and the
    version's folder in it."""
    from trackformat.rules import load_ruleset
    from trackformat.sim import Board
    from trackformat.sim.kernel.cache import CACHE
    from trackformat.sim.kernel.race import KernelRacer

    track = tmp_path / "ring.json"
    save_track(ring(), track)
    racer = KernelRacer(Board.of(ring()), load_ruleset("formula-d"), ["strong"] * 3, 2)
    racer.count(0, *racer.count_tables())
    cache = tmp_path / "cache"
    # Not numba's files being written by another process (``pytest -n``), which it renames
    # into place when done, or removes.
    shutil.copytree(CACHE, cache / CACHE.name, ignore=shutil.ignore_patterns("*.tmp.*"))
    return track, cache


def test_a_damaged_file_of_the_compiled_kernel_is_compiled_again(
    compiled_kernel: None, tmp_path: Path
) -> None:
    """numba fails to read a damaged file of its cache in every process from then on: every
    test drive used to stop with an internal error until the user found the folder."""
    from trackformat.sim.kernel.cache import CACHE

    track, cache = _users_cache(tmp_path)
    [index] = (cache / CACHE.name).glob("*/counts.count_log-*.nbi")
    index.write_bytes(b"\x80\x05damaged on disk")
    first = _drive(track, cache)
    assert first.returncode == 0, first.stderr
    assert "Traceback" not in first.stderr and "internal error" not in first.stderr
    [line] = first.stderr.splitlines()
    assert line.startswith(f"trackformat: the compiled kernel in {index.parent} could not be "
                           f"read ({index.name}: UnpicklingError: "), line
    assert line.endswith("the files of 1 of its functions are removed, and compiled again")
    assert first.stdout.strip().splitlines()[-1].endswith("1 worker, kernel engine)")
    again = _drive(track, cache)
    assert again.returncode == 0 and again.stderr == "", again.stderr
    report = [line for line in first.stdout.splitlines() if " races in " not in line]
    assert [line for line in again.stdout.splitlines() if " races in " not in line] == report


def test_an_error_that_is_not_the_caches_is_raised_as_it_is(tmp_path: Path) -> None:
    calls = []

    def race() -> None:
        calls.append(1)
        raise ValueError("a bug of the kernel")

    with pytest.raises(ValueError, match="a bug of the kernel"):
        read_again(race, err=io.StringIO())
    assert calls == [1], "not raced again"


@pytest.mark.skipif(os.name != "posix", reason="Ctrl-C is sent as a signal to a process group")
def test_ctrl_c_on_a_first_test_drive_leaves_its_compile_to_finish(
    compiled_kernel: None, tmp_path: Path
) -> None:
    """A user who stops a first test drive with Ctrl-C stopped its compile too, and the compile's
    mark made every test drive of the next ten minutes race on the reference engine, "being
    compiled by another process"."""
    from trackformat.sim.kernel.cache import CACHE

    track, cache = _users_cache(tmp_path)
    for ready in (cache / CACHE.name).glob("ready-*"):
        ready.unlink()  # the kernel not marked compiled: a test drive compiles it alongside
    first = subprocess.Popen(
        [*_drive_command(track)[:-4], "--races", "2000"], cwd=ROOT, env=_env(cache),
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert first.stderr is not None
    assert first.stderr.readline().startswith(
        "trackformat: compiling the race kernel in a process of its own")
    os.killpg(first.pid, signal.SIGINT)  # what the terminal does on Ctrl-C
    assert first.wait(timeout=120) != 0, "the test drive stopped"
    deadline = time.monotonic() + 300
    while not (cache / CACHE.name / "ready-strong").exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert (cache / CACHE.name / "ready-strong").exists(), "the compile finished all the same"
    again = _drive(track, cache)
    assert again.returncode == 0 and again.stderr == "", again.stderr
    assert again.stdout.strip().splitlines()[-1].endswith("1 worker, kernel engine)")


@pytest.mark.skipif(os.name != "posix", reason="the cache is locked with fcntl")
def test_the_kernels_cache_is_read_only_once_another_process_is_done_writing_it(
    tmp_path: Path
) -> None:
    """numba adds a compiled version of a function to its cache in two files, one after the
    other: two processes compiling two versions of the race loop at once (``pytest -n``, or a
    test drive beside the editor's live drive) could leave the index of one with the machine
    code of the other. A process writing holds the cache's lock; the others read after it."""
    from trackformat.sim.kernel.cache import CACHE
    from trackformat.sim.kernel.turns import play_turns

    done = tmp_path / "written"
    with subprocess.Popen(
        [sys.executable, "-c",
         "import fcntl, pathlib, sys, time\n"
         "with open(sys.argv[1], 'a') as lock:\n"
         "    fcntl.flock(lock, fcntl.LOCK_EX)\n"
         "    print('writing', flush=True)\n"
         "    time.sleep(0.5)\n"
         "    pathlib.Path(sys.argv[2]).touch()\n",
         str(CACHE / "saving.lock"), str(done)],
        stdout=subprocess.PIPE, text=True) as writer:
        assert writer.stdout is not None
        assert writer.stdout.readline() == "writing\n"
        dispatcher: Any = play_turns
        assert dispatcher._cache._cache_file.load(("no such version",)) is None
        assert done.exists(), "read while the other process was still writing"
        assert writer.wait(timeout=60) == 0


def test_another_numba_keeps_its_compiled_kernel_in_a_folder_of_its_own(
    monkeypatch: pytest.MonkeyPatch
) -> None:
    """After an upgrade of numba, the folder of the kernel said it was compiled while numba found
    none of its machine code there: the first test drive compiled it, unannounced, before its
    first race."""
    from trackformat.sim.kernel import cache

    here = cache.source_fingerprint()
    assert cache.source_fingerprint() == here, "the same install, the same folder"
    assert cache.CACHE.name == f"kernel-{here}"
    monkeypatch.setattr(cache, "compiler_version", lambda: "0.1.0")
    assert cache.source_fingerprint() != here
