"""Fuzz target: race logs given to ``replay``, as a league's referee gets them.

A real log of a short race on the ring, changed the ways a hand, a bad upload or a cheat changes
one: a field of its setup line given any JSON value (a seed of 1.5 or ``true``, no car, more
cars than the grid, a hundred thousand laps) or taken away; event lines cut, doubled or changed;
bytes of the file flipped, inserted, deleted or the file cut short. Whatever the log, ``replay``
keeps the contract (:mod:`tests.fuzz.contract`: exit 0, 1 or 2, never a traceback, bounded
memory), and says "replayed exactly" (exit 0) only for a log whose events are the race's own
and whose seed and laps are the whole numbers the race was raced with.
"""

from __future__ import annotations

import copy
import json
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

from hypothesis import event, given, settings
from hypothesis import strategies as st

from tests.factories import ring
from tests.fuzz.contract import run_cli
from tests.fuzz.strategies import JSON_VALUES, damaged_bytes
from trackformat import cli
from trackformat.io import dumps_track
from trackformat.rules import load_ruleset
from trackformat.sim.batch.racelog import log_lines, race

FUZZ = settings.get_profile("fuzz")
TRACK = ring(lanes=2, per_lane=24)
TRACK_TEXT = dumps_track(TRACK)

FIELDS = ["kind", "version", "track", "ruleset", "bots", "seed", "laps", "builds", "extra"]
"""The setup line's fields, and one it does not have."""

TRICKY = [
    0, -3, 1.5, 1.0, True, False, None, "1", "", 10**30, -(10**30), 1e308, [], {},
    ["cautious"], ["cautious"] * 11, ["cautious"] * 50_000, ["nobody"], [1, 2], "cautious",
    100_000, 21, 20, [None], [{"tyres": 99}], [{"tyres": "many"}], {"format": "formula-d-ruleset"},
]
"""Values a fuzzing campaign found or that sit on a bound: wrong types that Python would take
(``True`` for 1, 1.5 for 1), no car, too many cars, laps beyond a track file's."""


@cache
def original() -> tuple[str, ...]:
    """The lines of the log of one short race of three bots on the ring."""
    setup, result = race(TRACK, load_ruleset("formula-d"), ["cautious", "random", "strong"], 7,
                         laps=1)
    return tuple(log_lines(setup, result))


@st.composite
def edited_setup(draw: st.DrawFn) -> bytes:
    """The log with one to three fields of its setup line changed or taken away."""
    lines = list(original())
    head: dict[str, Any] = json.loads(lines[0])
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        field = draw(st.sampled_from(FIELDS))
        action = draw(st.sampled_from(["tricky", "any", "remove"]))
        if action == "remove":
            head.pop(field, None)
        else:
            head[field] = copy.deepcopy(draw(st.sampled_from(TRICKY) if action == "tricky"
                                             else JSON_VALUES))
    lines[0] = json.dumps(head)
    return ("\n".join(lines) + "\n").encode()


@st.composite
def edited_events(draw: st.DrawFn) -> bytes:
    """The log with a few event lines cut, doubled, or replaced by any JSON value."""
    lines = list(original())
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        at = draw(st.integers(min_value=1, max_value=len(lines) - 1))
        action = draw(st.sampled_from(["cut", "double", "replace"]))
        if action == "cut" and len(lines) > 2:
            del lines[at]
        elif action == "double":
            lines.insert(at, lines[at])
        else:
            lines[at] = json.dumps(draw(JSON_VALUES))
    return ("\n".join(lines) + "\n").encode()


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_replay(data: bytes) -> int:
    """Replay ``data`` as a log on the ring, holding ``replay`` to the contract; its exit
    code."""
    with tempfile.TemporaryDirectory() as folder:
        track, log = Path(folder) / "ring.json", Path(folder) / "race.jsonl"
        track.write_text(TRACK_TEXT, encoding="utf-8")
        log.write_bytes(data)
        code, printed = run_cli("replay", str(log), str(track))
    event(f"replay exit {code}")
    assert code in (cli.EXIT_OK, cli.EXIT_INVALID, cli.EXIT_UNUSABLE), printed
    if code == cli.EXIT_UNUSABLE:
        assert str(log) in printed, f"the message does not name the log:\n{printed}"
    if code == cli.EXIT_OK:
        lines = data.decode("utf-8").splitlines()
        head, logged = json.loads(lines[0]), json.loads(original()[0])
        assert lines[1:] == list(original()[1:]), "replayed exactly, with other events"
        for field in ("seed", "laps"):
            assert _whole(head[field]) and head[field] == logged[field], (
                f"replayed exactly with {field} {head[field]!r}")
    return code


@FUZZ
@given(edited_setup())
def test_a_log_with_an_edited_setup(data: bytes) -> None:
    check_replay(data)


@FUZZ
@given(edited_events())
def test_a_log_with_edited_events(data: bytes) -> None:
    check_replay(data)


@FUZZ
@given(damaged_bytes("\n".join(original()) + "\n"))
def test_a_damaged_log(data: bytes) -> None:
    check_replay(data)
