"""The compiled kernel's races checked against the readable engine's, with the readable engine's
results remembered between runs; and the values of the other slow references (par's brute force,
the races of par's policy) remembered the same way.

The identity tests race hundreds of seeds in both engines, and nine tenths of their time is the
readable engine's. Its results depend on nothing but its inputs: the source of ``trackformat``
(every file of the package, the kernel's included, since the par driver reads par's values, which
the kernel solves), the versions of Python and of the libraries it uses, the track, the ruleset,
the laps, the cars' builds and the seed and line-up of each race. So each test keeps, in
pytest's cache folder (``.pytest_cache``), a digest of each readable race under a key that hashes
all of those. The kernel always races; while the key is the same, its race is compared with the
digest, and otherwise (a first run, any change to ``trackformat``, ``pytest --cache-clear``) the
readable engine races again.

A digest that does not match is never taken as a failure on its own: the readable engine then
races that seed, and the test compares the two races in full, as if nothing were remembered (so
the message names the first difference, and a stale or damaged record costs time, never a wrong
verdict). Only a digest written from a readable race that compared equal is kept.

:class:`ReferenceValues` keeps a reference's value (a number, a list) under the same kind of
key, to which the test adds what else the value depends on (the reference's own source, when
it lives in the tests). A test whose result differs from the remembered value computes it
afresh before it fails.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import sys
from collections.abc import Callable, Sequence
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import TypeVar

import trackformat
from trackformat.rules import Ruleset, WearPoints
from trackformat.sim import DRIVERS, Board, run_race
from trackformat.sim.kernel.race import KernelRacer
from trackformat.sim.race.runner import RaceResult

LIBRARIES = ("networkx", "numba", "numpy", "pydantic", "pydantic-core", "shapely")
"""The libraries whose versions are part of the key (the readable engine's and the kernel's)."""

T = TypeVar("T")

Race = tuple[int, tuple[str, ...]] | tuple[int, tuple[str, ...], tuple[int, ...]]
"""A race to compare: its seed, its line-up of bots, and (if given) each car's driver's own
seed (by default the race's, as test drives make them)."""


@cache
def source_fingerprint() -> str:
    """A hash of every file of the ``trackformat`` package, of Python's version and of the
    libraries' versions: what the readable engine's races may depend on besides their inputs."""
    digest = hashlib.sha256(sys.version.encode())
    for name in LIBRARIES:
        try:
            digest.update(f"{name}={metadata.version(name)}".encode())
        except metadata.PackageNotFoundError:
            digest.update(f"{name}=absent".encode())
    package = Path(trackformat.__file__).resolve().parent
    for path in sorted(package.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(path.relative_to(package).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def race_digest(result: RaceResult) -> str:
    """A hash of all that the identity tests compare: the events, the final state, each car's
    outcome, the turns, whether the race completed and the finishing order.

    Made of their ``repr`` (the dataclasses' own, which shows every field the comparison
    reads), the debris sorted: a set's order may differ from one process to the next. Only the
    kernel's races are hashed, and a hash is kept only for a race that compared equal to the
    readable engine's, so a hash that shows more than ``==`` compares costs a race, never a
    wrong verdict."""
    final = result.final
    state = [(f.name, getattr(final, f.name)) for f in dataclasses.fields(final)
             if f.compare and f.name != "debris"]
    text = repr((result.events, state, sorted(final.debris), result.cars, result.turns,
                 result.completed, result.finish_order))
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def assert_same_race(got: RaceResult, expected: RaceResult, label: tuple[object, ...]) -> None:
    """The kernel's race ``got`` is the readable engine's ``expected``, part by part."""
    assert got.events == expected.events, label
    assert got.final == expected.final, label
    assert got.cars == expected.cars, label
    assert (got.turns, got.completed, got.finish_order) == (
        expected.turns, expected.completed, expected.finish_order), label


class ReferenceRaces:
    """The readable engine's races, remembered as digests in ``folder`` (None: nothing is
    remembered, every race is raced in both engines)."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder

    def assert_kernel_races_as_readable(
            self, the_board: Board, rules: Ruleset, laps: int | None, races: Sequence[Race],
            builds: tuple[WearPoints | None, ...] = (),
            label: tuple[object, ...] = ()) -> list[KernelRacer]:
        """Each of ``races`` in the kernel is the readable engine's race, event for event and
        to the final state, over ``laps`` laps (None: the track's). Returns the kernel's
        racers (one per line-up), for the tests that read what their drivers counted."""
        racers: dict[tuple[str, ...], KernelRacer] = {}
        path = self._path(the_board, rules, laps, races, builds)
        known = self._read(path)
        digests: list[str] = []
        for number, race in enumerate(races):
            seed, bots = race[0], race[1]
            drivers = race[2] if len(race) > 2 else None
            racer = racers.get(bots) or racers.setdefault(
                bots, KernelRacer(the_board, rules, list(bots), laps, builds=builds))
            got = racer.race(seed, drivers)
            digest = race_digest(got)
            if number >= len(known) or known[number] != digest:
                seeds = drivers if drivers is not None else (seed,) * len(bots)
                expected = run_race(the_board, rules,
                                    [DRIVERS[bot](s) for bot, s in zip(bots, seeds, strict=True)],
                                    seed, laps=laps, builds=builds)
                assert_same_race(got, expected, (*label, bots, seed))
            digests.append(digest)
        if digests != known:
            _write(path, digests)
        return list(racers.values())

    def _path(self, the_board: Board, rules: Ruleset, laps: int | None, races: Sequence[Race],
              builds: tuple[WearPoints | None, ...]) -> Path | None:
        return _path(self.folder, [the_board.graphs.track.model_dump_json(),
                                   rules.model_dump_json(), laps, list(races),
                                   [b.model_dump_json() if b is not None else None
                                    for b in builds]])

    @staticmethod
    def _read(path: Path | None) -> list[str]:
        known = _read(path)
        if not isinstance(known, list) or not all(isinstance(d, str) for d in known):
            return []  # none yet, or damaged: raced again
        return known


class ReferenceValues:
    """The results of a slow reference computation (a brute force over the readable engine's
    races), remembered in ``folder`` as the races are (None: always computed).

    A remembered value only confirms a match: a test that finds its own result differs from it
    asks again with ``fresh``, which computes the value anew (and keeps that one)."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder

    def value(self, parts: Sequence[object], compute: Callable[[], T], fresh: bool = False,
              valid: Callable[[object], bool] | None = None) -> T:
        """What ``compute`` gives (JSON: a number, a list), for the inputs ``parts`` (JSON:
        every input of ``compute`` besides ``trackformat`` itself; the source of a reference
        that lives in the tests belongs there). ``valid`` tells a record of the right shape
        (by default, a number); any other is computed again."""
        path = _path(self.folder, ["value", *parts])
        known = None if fresh else _read(path)
        if known is not None and (valid or _is_number)(known):
            return known  # type: ignore[return-value]
        computed = compute()
        _write(path, computed)
        return computed


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _path(folder: Path | None, parts: list[object]) -> Path | None:
    """The file of the record of ``parts`` under this version of ``trackformat``."""
    if folder is None:
        return None
    key = json.dumps([source_fingerprint(), *parts])
    return folder / f"{hashlib.sha256(key.encode()).hexdigest()[:40]}.json"


def _read(path: Path | None) -> object:
    """The record at ``path``; None when there is none or it cannot be read."""
    if path is None:
        return None
    try:
        known: object = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return known


def _write(path: Path | None, value: object) -> None:
    """Keep ``value`` at ``path``, if anywhere."""
    if path is None:
        return
    # Beside, then renamed over: the other test process may read it meanwhile.
    partial = path.with_name(f"{path.name}.{os.getpid()}.partial")
    try:
        partial.write_text(json.dumps(value), encoding="utf-8")
        partial.replace(path)
    except OSError:
        partial.unlink(missing_ok=True)  # nowhere to keep it: computed again next time
