"""Settings every test shares."""

from __future__ import annotations

import pytest


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


@pytest.fixture(scope="session")
def compiled_kernel() -> None:
    """The race kernel compiled, or loaded from its cache, before the first test that races.

    On a cold cache (a fresh machine, a new version of the kernel) the compile takes a minute or
    more; a test's wait for its races measures the panel (or, for a test of a cold start, the
    stand-in it puts in the compile's place), not that compile. Compiled here, the kernel is in
    the cache for the worker processes the panels start too: the race loop of every mix of
    drivers, each compiled for its own (see ``trackformat.sim.kernel.drivers``)."""
    from tests.factories import ring
    from trackformat.rules import load_ruleset
    from trackformat.sim import Board
    from trackformat.sim.kernel.race import KernelRacer

    board, rules = Board.of(ring()), load_ruleset("formula-d")
    for bots in (["strong"], ["cautious"], ["random"], ["strong", "cautious"]):
        KernelRacer(board, rules, bots, 1).race(0)
