"""Fuzz target: misdrawn tracks race the same on both engines, or are refused before racing.

A designer races a half-made track (the editor asks first, and lets them): links rewired, spaces
of another kind or with no lane, corners and the grid pointing elsewhere. Each misdrawn ring
that loads races one short race of mixed bots on the readable engine and on the kernel: the
same events and final state; or the race is refused before it starts with a reason (no finish
line, too few grid slots, a track space in no lane), or the kernel refuses the board as beyond
its room. Neither engine crashes.
"""

from __future__ import annotations

from typing import Any

from hypothesis import event, given, settings
from hypothesis import strategies as st

from tests.fuzz.engines import assert_same_race
from tests.fuzz.strategies import misdrawn_ring
from tests.sim.test_kernel_drivers import BOTS
from trackformat.io import TrackFileError, track_from_document
from trackformat.rules import load_ruleset
from trackformat.sim import Board, RaceSetupError

FUZZ = settings.get_profile("fuzz")
RULES = load_ruleset("formula-d")
TURNS = 120
"""Turns a race may last: a misdrawn track may keep its cars from ever finishing."""


@FUZZ
@given(misdrawn_ring(),
       st.lists(st.sampled_from(BOTS), min_size=2, max_size=4),
       st.integers(0, 999))
def test_a_misdrawn_track_races_the_same_on_both_engines(document: dict[str, Any],
                                                           bots: list[str], seed: int) -> None:
    try:
        board = Board.of(track_from_document(document, "misdrawn ring"))
    except TrackFileError:
        event("not a track file")
        return
    try:
        assert_same_race(board, RULES, bots, seed, max_turns=TURNS)
    except RaceSetupError:
        event("refused before racing")
