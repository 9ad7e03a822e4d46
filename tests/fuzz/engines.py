"""The check both engine fuzz targets make: one race on the readable engine and on the kernel."""

from __future__ import annotations

from hypothesis import event

from trackformat.rules import Ruleset
from trackformat.sim import DRIVERS, Board, run_race
from trackformat.sim.kernel.limits import KernelLimit
from trackformat.sim.kernel.race import KernelRacer


def assert_same_race(board: Board, rules: Ruleset, bots: list[str], seed: int,
                     max_turns: int | None = None) -> None:
    """One lap of ``bots`` on both engines gives the same events and final state, unless the
    kernel refuses the board and rules as beyond its room (with its reason). A race the
    readable engine refuses to set up raises its :class:`~trackformat.sim.RaceSetupError`."""
    expected = run_race(board, rules, [DRIVERS[bot](seed) for bot in bots], seed, laps=1,
                        max_turns=max_turns)
    try:
        racer = KernelRacer(board, rules, bots, 1, max_turns)
    except KernelLimit as limit:
        assert str(limit).startswith("the compiled engine keeps")
        event("beyond the kernel")
        return
    got = racer.race(seed)
    event("raced on both engines")
    assert got.events == expected.events
    assert got.final == expected.final
