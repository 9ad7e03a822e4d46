"""Which engine races a batch's chunks: the compiled kernel, and the reference engine while the
kernel compiles.

The kernel is compiled once per version of its source, by the first race that needs it: about
a minute of CPU, during which a test drive used to show nothing. The two engines race alike,
race for race (the kernel's identity tests hold it to that), so a batch need not wait: asked to
(``cold="race"``), it races its first chunks on the reference engine while a process of its own
compiles the kernel, and the chunks after that on the kernel. The report is the one the kernel
alone would have given; the first races come within seconds instead of after the compile.

A compile left unfinished when the batch ends goes on in its process to the end, so that the
next batch finds the kernel in the cache.
"""

from __future__ import annotations

import atexit
import dataclasses
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Protocol

from trackformat.collector import settle
from trackformat.io import write_text_atomically
from trackformat.rules import Ruleset
from trackformat.sim.core.board import Board
from trackformat.sim.race.runner import RaceResult

if TYPE_CHECKING:
    from trackformat.sim.batch.testdrive import DriveSpec

COLD_WAYS = ("compile", "race", "follow")
"""What a batch does when the kernel is not compiled yet: ``compile`` it here first (the
announced minute), ``race`` on the reference engine while a process of its own compiles it, or
``follow`` another process's compile (a worker of a batch that races meanwhile): race on the
reference engine until the compiled kernel is in the cache."""


class Racer(Protocol):
    """What races a batch's races by seed: the kernel's
    :class:`~trackformat.sim.kernel.race.KernelRacer`."""

    def race(self, seed: int) -> RaceResult:
        """The race of ``seed``, its bots made as the batch makes them."""
        ...

    def count_tables(self) -> tuple[Any, Any]:
        """Empty tables of corner and space counts."""
        ...

    def count(self, seed: int, corners: Any, spaces: Any) -> Any:
        """How the race of ``seed`` ended, its counts added to the tables."""
        ...

    def read_counts(self, corners: Any, spaces: Any) -> tuple[dict[tuple[str, str], int],
                                                              dict[tuple[str, str], int]]:
        """The tables as :class:`~trackformat.sim.batch.stats.DriveStats` keys its corner and
        space counts."""
        ...


class KernelUnavailable(ValueError):
    """The spec's bots are not all raced by the kernel."""


def check_kernel_drivers(spec: DriveSpec) -> None:
    """Raises :class:`KernelUnavailable` when the kernel does not race every bot of ``spec``.
    numba is imported here, by the batches that race on the kernel."""
    from trackformat.sim.kernel.race import KERNEL_DRIVERS

    missing = sorted(set(spec.bots) - KERNEL_DRIVERS)
    if missing:
        raise KernelUnavailable(f"the compiled engine cannot race {', '.join(missing)} "
                                "drivers; race them on the reference engine")


def kernel_limit_of(board: Board, rules: Ruleset) -> str | None:
    """Why the kernel cannot race on ``board`` under ``rules`` (see
    :mod:`~trackformat.sim.kernel.limits`), or None when it can."""
    from trackformat.sim.kernel.limits import kernel_limit
    from trackformat.sim.kernel.moves import board_arrays

    return kernel_limit(board_arrays(board), rules)


def kernel_racer(board: Board, rules: Ruleset, spec: DriveSpec) -> Racer:
    """The kernel's racer for the batch, compiled (or loaded from the cache) here, both the race
    and the counting a batch does, before any worker needs them."""
    from trackformat.sim.kernel.race import KernelRacer

    check_kernel_drivers(spec)
    racer = KernelRacer(board, rules, spec.bots, spec.laps, spec.max_turns,
                        spec.build_points(rules))
    settle()  # the kernel's modules, the board and its tables: before a compile's passes
    racer.count(0, *racer.count_tables())
    return racer


def kernel_kept() -> tuple[bool, str | None]:
    """Whether a folder can keep the compiled kernel between processes, and, when it is not
    the user's cache folder, why (see :mod:`~trackformat.sim.kernel.cache`)."""
    from trackformat.sim.kernel.cache import KEPT, NOTE

    return KEPT, NOTE


def kernel_variant(spec: DriveSpec) -> str:
    """The compiled race loop the batch's line-up races on (its mix of drivers: see
    :func:`~trackformat.sim.kernel.warm.variant_of`)."""
    from trackformat.sim.kernel.warm import variant_of

    return variant_of(spec.bots)


def kernel_is_cached(spec: DriveSpec) -> bool:
    """Whether the kernel the batch races on is compiled in the cache folder (numba is
    imported to know where)."""
    from trackformat.sim.kernel.warm import is_cached

    return is_cached(kernel_variant(spec))


def cores() -> int:
    """The cores this process may run on."""
    affinity = getattr(os, "sched_getaffinity", None)
    return len(affinity(0)) if affinity is not None else (os.cpu_count() or 1)


class BackgroundCompile:
    """The kernel compiled by a process of its own (``python -m trackformat.sim.batch.testdrive``
    with the spec on stdin), its stderr kept to say why, should it fail."""

    def __init__(self, spec: DriveSpec) -> None:
        self.started = time.perf_counter()
        # Open as long as the compile runs: read should it fail.
        self._errors: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115
        # In a session of its own, out of reach of the terminal's Ctrl-C: a user who stops a
        # first test drive would otherwise stop its compile too, and every test drive after it
        # would start a compile of its own again.
        self.process = subprocess.Popen(
            compile_command(), stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
            stderr=self._errors, start_new_session=True,
            creationflags=getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0))
        _mark_compiling(spec, self.process.pid)
        assert self.process.stdin is not None
        # A board's spec is more than a pipe holds, and the process reads it only once it has
        # imported the project, a second later: a thread hands it over while the batch races.
        # A process that ends sooner waits for the hand-over, though not for ever should the
        # compile process never read.
        writer = threading.Thread(
            target=_hand_over, name="kernel compile spec", daemon=True,
            args=(self.process.stdin, json.dumps(dataclasses.asdict(spec)).encode()))
        writer.start()
        atexit.register(writer.join, HAND_OVER_SECONDS)

    def done(self) -> bool:
        return self.process.poll() is not None

    @property
    def failed(self) -> bool:
        return self.done() and self.process.returncode != 0

    def why(self) -> str:
        """The last line the process wrote on stderr (its error), or its exit code."""
        self._errors.seek(0)
        lines = self._errors.read().decode(errors="replace").strip().splitlines()
        return lines[-1] if lines else f"exit code {self.process.returncode}"


HAND_OVER_SECONDS = 60.0
"""How long a process that is done waits, at exit, for its compile process to read its spec."""


def _hand_over(stream: IO[bytes], spec: bytes) -> None:
    """Write a compile process's spec on its stdin, and close it."""
    try:
        stream.write(spec)
        stream.close()
    except OSError:
        pass  # the process ended before reading its spec: its exit code and stderr say why


def compile_command() -> list[str]:
    """The command of a process that compiles the kernel for a spec read on its stdin."""
    return [sys.executable, "-m", "trackformat.sim.batch.testdrive"]


_compiling: dict[str, BackgroundCompile] = {}
"""This process's background compiles, by mix of drivers, shared by its batches (one compile
of each per process)."""

MARK_SECONDS = 600.0
"""How long the mark of a background compile holds off other processes' compiles: longer than
a compile takes, short enough that a compile that died unseen is tried again soon."""


def _mark(spec: DriveSpec) -> Path:
    """The file that says a process is compiling this version of the kernel for the batch's mix
    of drivers (beside its cache folder): the editor's live drive starts a new process for each
    newer edit, and each would otherwise start a compile of its own."""
    from trackformat.sim.kernel.cache import CACHE

    return CACHE.with_name(f"{CACHE.name}.{kernel_variant(spec)}.compiling")


def _mark_compiling(spec: DriveSpec, pid: int) -> None:
    mark = _mark(spec)
    try:
        mark.parent.mkdir(parents=True, exist_ok=True)
        write_text_atomically(mark, str(pid))
    except OSError:
        pass  # a read-only cache folder: other processes may compile too, nothing worse


def compiling_elsewhere(spec: DriveSpec) -> bool:
    """Whether another process started compiling this version of the kernel, for the batch's
    mix of drivers, lately, and is still at it (a compile stopped or crashed leaves its
    mark)."""
    mark = _mark(spec)
    try:
        if time.time() - mark.stat().st_mtime >= MARK_SECONDS:
            return False
        pid = int(mark.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return _running(pid)


def _running(pid: int) -> bool:
    """Whether process ``pid`` is running; assumed so where a process cannot be asked without
    being stopped (Windows)."""
    if os.name != "posix":
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's
    return True


class KernelSupply:
    """The kernel's racer of one prepared batch, as soon as it can race.

    With a warm cache, or ``cold="compile"``, the racer is there from the start (compiled here
    if need be). Otherwise :meth:`racer` is None until the compile is done, and the batch races
    on the reference engine meanwhile; ``say`` tells the user so, and when the kernel takes
    over (a line on stderr by default)."""

    def __init__(self, board: Board, rules: Ruleset, spec: DriveSpec, cold: str = "compile",
                 say: Callable[[str], None] | None = None) -> None:
        if cold not in COLD_WAYS:
            raise ValueError(f"unknown way {cold!r} for a cold kernel: choose one of "
                             f"{', '.join(COLD_WAYS)}")
        check_kernel_drivers(spec)
        self.board, self.rules, self.spec = board, rules, spec
        self.say = say if say is not None else _to_stderr
        self.races_meanwhile = 0
        """Races raced on the reference engine while the kernel compiled."""
        self._racer: Racer | None = None
        self._compile: BackgroundCompile | None = None
        self._given_up = False
        beyond = kernel_limit_of(board, rules)
        if beyond is not None:
            self._given_up = True
            self.say(f"trackformat: {beyond}: the reference engine races instead (the same "
                     "races, slower)")
            return
        kept, why = kernel_kept()
        if not kept and cold != "compile":
            # A compile in a process of its own would be lost with it, and one here would hold
            # up the batch for as long in every new process: the batch was not asked to wait.
            self._given_up = True
            self.say(f"trackformat: {why}; the reference engine races instead (the same races, "
                     "slower)")
            return
        if cold == "race" and cores() < 2:
            cold = "compile"  # on one core, racing alongside would only slow the compile down
        if cold == "compile" or kernel_is_cached(spec):
            self._racer = kernel_racer(board, rules, spec)
        elif cold == "race":
            self._compile = _background(spec)
            if self._compile is None:
                self.say("trackformat: the race kernel is being compiled by another process; "
                         "the reference engine races meanwhile (the same races)")
            else:
                self.say("trackformat: compiling the race kernel in a process of its own, once;"
                         " the reference engine races meanwhile (the same races)"
                         + (f"; {why}" if why else ""))

    @property
    def given_up(self) -> bool:
        """Whether the kernel will not race this batch at all: beyond its limits, or its
        compile failed (the reference engine races every race)."""
        return self._given_up

    @property
    def compiling(self) -> bool:
        """Whether the kernel is still being compiled for this batch (in another process)."""
        return self._racer is None and self._compile is not None and not self._compile.done()

    def racer(self) -> Racer | None:
        """The kernel's racer, or None while it compiles (race on the reference engine)."""
        if self._racer is not None or self._given_up:
            return self._racer
        if self._compile is not None:
            if not self._compile.done():
                return None
            if self._compile.failed:
                self._given_up = True
                _mark(self.spec).unlink(missing_ok=True)  # others may try: it may have been killed
                self.say(f"trackformat: the race kernel did not compile ({self._compile.why()});"
                          " the reference engine races on")
                return None
            seconds = time.perf_counter() - self._compile.started
            self._racer = kernel_racer(self.board, self.rules, self.spec)
            self.say(f"trackformat: race kernel compiled in {seconds:.1f} s; it races on "
                      f"after {self.races_meanwhile} races on the reference engine")
            return self._racer
        if kernel_is_cached(self.spec):  # following another process's compile
            self._racer = kernel_racer(self.board, self.rules, self.spec)
        return self._racer


def _to_stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _background(spec: DriveSpec) -> BackgroundCompile | None:
    """This process's background compile of the batch's kernel, started unless one runs
    already (or ran and failed: a second try would fail alike); None when another process is
    compiling it (the batch then follows it through the cache)."""
    variant = kernel_variant(spec)
    running = _compiling.get(variant)
    if running is not None and not (running.done() and not running.failed):
        return running
    if compiling_elsewhere(spec):
        return None
    _compiling[variant] = BackgroundCompile(spec)
    return _compiling[variant]
