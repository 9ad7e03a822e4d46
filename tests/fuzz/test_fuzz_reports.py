"""Fuzz target: hostile test-drive reports given to ``testdrive compare`` and ``render --heatmap``.

A report is a file the user names, perhaps edited by hand, cut short, or written by another
program. Each generated report is compared with the sound one it came from and drawn as the
heatmap of the track it is a report of, both on the command line and both held to the contract
of :mod:`tests.fuzz.contract`: exit 0 or 2, never 3, no traceback. The mutations reach past the
JSON syntax into the figures compare does arithmetic on: counts of hundreds of digits, NaN, 1e308,
strings and objects where numbers belong, names that break lines, nesting far too deep.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import io
import json
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import event, given, settings
from hypothesis import strategies as st

from tests.factories import ring
from tests.fuzz.contract import run_cli
from tests.fuzz.strategies import JSON_VALUES, NUMBERS, damaged_bytes, walk_down
from trackformat import cli
from trackformat.io import save_track

FUZZ = settings.get_profile("fuzz")

HOSTILE_NUMBERS = st.one_of(
    NUMBERS,
    st.sampled_from([10**400, -(10**400), 10**4299, 1e308, -1e308, 10**15 + 1, 2**63, 0.999]),
)
"""What a count or a share may be replaced with: :data:`NUMBERS` and numbers no float holds."""

HOSTILE_NAMES = st.one_of(
    st.text(max_size=12), st.sampled_from(["a\nb", "\0", "x" * 5000, "", "c0", "Casino"]),
)
"""Corner names, ids and bot names that could break a message or a label."""


@functools.cache
def sound() -> tuple[bytes, dict[str, Any]]:
    """The track file of the test ring and a real report of it: three races of three random
    cars on the readable engine (no kernel to compile), written by ``testdrive --json``."""
    with tempfile.TemporaryDirectory() as folder:
        track, out = Path(folder) / "ring.json", Path(folder) / "report.json"
        save_track(ring(), track)
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            code = cli.main(["testdrive", str(track), "--races", "3", "--cars", "3", "--bot",
                             "random", "--engine", "reference", "--json", str(out)])
        assert code == cli.EXIT_OK
        return track.read_bytes(), json.loads(out.read_text(encoding="utf-8"))


@st.composite
def mutated_report(draw: st.DrawFn, max_changes: int = 4) -> dict[str, Any]:
    """The sound report with a few changes anywhere in it, most of them where compare and the
    heatmap read: a count, a share, a corner, a bot, a space."""
    document = copy.deepcopy(sound()[1])
    for _ in range(draw(st.integers(min_value=1, max_value=max_changes))):
        parent: Any = None
        key: Any = None
        node: Any = document
        start = draw(st.sampled_from(["races", "cars", "finished", "no_winner", "by_bot",
                                      "corners", "spaces", "anywhere"]))
        if start in document:  # not when an earlier change removed or renamed it
            parent, key, node = document, start, document[start]
        parent, key = walk_down(draw, parent, key, node,
                                draw(st.integers(min_value=0, max_value=3)))
        if parent is None:
            continue
        action = draw(st.sampled_from(["number", "number", "value", "remove", "name", "double"]))
        if action == "number":
            parent[key] = draw(HOSTILE_NUMBERS)
        elif action == "value":
            parent[key] = draw(JSON_VALUES)
        elif action == "remove":
            del parent[key]
        elif action == "name" and isinstance(parent, dict):
            parent[draw(HOSTILE_NAMES)] = parent.pop(key)
        elif action == "double" and isinstance(parent, list):
            parent.insert(key, copy.deepcopy(parent[key]))
    return document


def _text(document: Any) -> bytes:
    """JSON as Python writes it: NaN and Infinity included, as a hostile program may write."""
    return json.dumps(document).encode("utf-8")


def check_report(data: bytes) -> None:
    """Compare the sound report with ``data`` (both ways round) and draw ``data`` as a heatmap
    of the ring, holding every command to the contract: exit 0 or 2, never 3, no traceback."""
    track, report = sound()
    with tempfile.TemporaryDirectory() as folder:
        base = Path(folder)
        (base / "ring.json").write_bytes(track)
        (base / "before.json").write_bytes(_text(report))
        (base / "after.json").write_bytes(data)
        before, after = str(base / "before.json"), str(base / "after.json")
        for pair in ((before, after), (after, before)):
            code, printed = run_cli("testdrive", "compare", *pair, "--json", "-")
            assert code in (cli.EXIT_OK, cli.EXIT_UNUSABLE), printed
            if code == cli.EXIT_OK:
                assert isinstance(json.loads(printed)["changes"], list)
            else:  # one line, naming the file at fault
                assert printed.count("\n") == 1 and "testdrive compare: " in printed, printed
            event(f"compare exit {code}")
        drawn, printed = run_cli("render", str(base / "ring.json"), "-o",
                                 str(base / "heat.svg"), "--heatmap", after)
        assert drawn in (cli.EXIT_OK, cli.EXIT_UNUSABLE), printed
        assert (drawn == cli.EXIT_OK) == (base / "heat.svg").exists()
        if drawn == cli.EXIT_UNUSABLE:
            assert f"heatmap {after}: " in printed and printed.count("\n") == 1, printed
        event(f"render --heatmap exit {drawn}")


@FUZZ
@given(mutated_report())
def test_a_mutated_report(document: dict[str, Any]) -> None:
    check_report(_text(document))


@FUZZ
@given(st.data())
def test_a_damaged_report(data: st.DataObject) -> None:
    check_report(data.draw(damaged_bytes(json.dumps(sound()[1], indent=1))))


@FUZZ
@given(JSON_VALUES | st.fixed_dictionaries({"races": HOSTILE_NUMBERS}, optional={
    "cars": HOSTILE_NUMBERS, "finished": HOSTILE_NUMBERS, "no_winner": HOSTILE_NUMBERS,
    "by_bot": JSON_VALUES, "corners": JSON_VALUES, "spaces": JSON_VALUES}))
def test_any_json_document(document: Any) -> None:
    check_report(_text(document))


@FUZZ
@given(st.sampled_from(["[", "{\"a\": ", "[{\"b\": "]), st.integers(min_value=1, max_value=200_000),
       st.booleans())
def test_json_nested_deep(opening: str, depth: int, closed: bool) -> None:
    """JSON nested up to 200,000 deep, closed or cut short: Python's parser gives up (a
    RecursionError) somewhere under a thousand levels."""
    closing = {"[": "]", "{\"a\": ": "}", "[{\"b\": ": "}]"}[opening]
    check_report((opening * depth + ("0" + closing * depth if closed else "")).encode("utf-8"))
