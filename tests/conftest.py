"""Settings every test shares.

``make test`` runs the suite on two processes (pytest-xdist's ``-n 2``): each test runs in one
of them, in no set order, so no test may count on another having run before it in the same
process, nor write where a test of the other process reads (the repository's files, the user's
folders): a test writes under its own ``tmp_path``."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from tests.reference_races import ReferenceRaces, ReferenceValues

SLOWEST_FIRST = ("tests/sim/test_kernel_drivers.py", "tests/sim/test_kernel_real_tracks.py",
                 "tests/par/test_kernel_driver.py", "tests/par/test_brute_force.py",
                 "tests/par/test_simulation.py")
"""The files whose tests take the longest, run first: the identity tests of the kernel (a minute
of CPU for some when the readable engine races, see ``tests/reference_races.py``) and par's
(10 to 30 s each, most of it par's solves). ``make test``'s processes (``pytest -n 2 --dist
worksteal``) then end on short tests and together, rather than one still on a long test while
the other has none left. The same order in every process, as pytest-xdist requires."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: item.nodeid.split("::")[0] not in SLOWEST_FIRST)  # stable


@pytest.fixture(autouse=True)
def _compile_mark_of_the_test(tmp_path_factory: pytest.TempPathFactory,
                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The mark a background compile of the kernel leaves for other processes is the test's
    own: a test that starts one (or a stand-in) must not hold off the compiles of the tests
    after it, nor of the user's next test drive."""
    from trackformat.sim.batch import engines

    folder = tmp_path_factory.mktemp("compile-mark")
    monkeypatch.setattr(engines, "_mark",
                        lambda spec: folder / f"kernel.{engines.kernel_variant(spec)}.compiling")


@contextlib.contextmanager
def _one_test_process_at_a_time(tmp_path_factory: pytest.TempPathFactory,
                                name: str) -> Iterator[None]:
    """Held by one of the run's test processes at a time (pytest-xdist's workers share the
    parent of their temporary folders); nothing to wait for in a run of one process."""
    if "PYTEST_XDIST_WORKER" not in os.environ:
        yield
        return
    try:
        import fcntl
    except ImportError:  # no fcntl (Windows): the processes may do it side by side
        yield
        return
    shared = Path(tmp_path_factory.getbasetemp()).parent
    with (shared / f"{name}.lock").open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


@pytest.fixture(scope="session")
def compiled_kernel(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The race kernel compiled, or loaded from its cache, before the first test that races.

    On a cold cache (a fresh clone, a new version of the kernel) the compile takes a minute or
    more; a test's wait for its races measures the panel (or, for a test of a cold start, the
    stand-in it puts in the compile's place), not that compile. Compiled here, the kernel is in
    the cache for the worker processes the panels start too: the race loop of every mix of
    drivers, each compiled for its own (see ``trackformat.sim.kernel.drivers``).

    Each test process of the run (``pytest -n``) has this fixture of its own, and each mix is
    compiled by one process at a time: on a cold cache the two processes share the mixes out,
    one taking them from the first, the other from the last, and each loads from the cache the
    ones the other compiled, rather than both compiling every mix (twice the CPU) or one
    compiling them all while the other waits (twice the time)."""
    from tests.factories import ring
    from trackformat.rules import load_ruleset
    from trackformat.sim import Board
    from trackformat.sim.kernel.race import KernelRacer

    board, rules = Board.of(ring()), load_ruleset("formula-d")
    mixes = [["strong", "cautious"], ["strong"], ["par"], ["cautious"], ["random"]]
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw")
    if worker.isdigit() and int(worker) % 2:
        mixes.reverse()
    for bots in mixes:
        with _one_test_process_at_a_time(tmp_path_factory, "compile-" + "+".join(bots)):
            KernelRacer(board, rules, bots, 1).race(0)


def _kept_in(request: pytest.FixtureRequest, name: str) -> Path | None:
    """Folder ``name`` of pytest's cache, where the slow references are remembered
    (``tests/reference_races.py``); None when pytest's cache is off."""
    cache = getattr(request.config, "cache", None)
    return cache.mkdir(name) if cache is not None else None


@pytest.fixture(scope="session")
def reference_races(request: pytest.FixtureRequest) -> ReferenceRaces:
    """The readable engine's races for the kernel's identity tests, remembered between runs
    while ``trackformat`` is unchanged (``pytest --cache-clear`` forgets them). Imported here,
    not at the top: it loads the kernel, which most tests never ask for."""
    from tests.reference_races import ReferenceRaces

    return ReferenceRaces(_kept_in(request, "reference-races"))


@pytest.fixture(scope="session")
def reference_values(request: pytest.FixtureRequest) -> ReferenceValues:
    """Results of the other slow references (par's brute force, the races of par's policy),
    remembered the same way."""
    from tests.reference_races import ReferenceValues

    return ReferenceValues(_kept_in(request, "reference-values"))
