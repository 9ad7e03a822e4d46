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
