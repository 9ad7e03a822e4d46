"""Fuzz target: no command changes a file it was given to read, nor one it failed to write.

Every command that writes (``render``, ``export``, ``import``, ``race --log``, ``testdrive
--json``, ``schema -o``) runs on a track that may be sound, mutated or damaged, with its output
named in one of many ways: a new file, an existing file of the user's, or one of the command's
own inputs (the track, the ``.dat``, the board picture the track names) spelled plainly, through
``..``, through a symbolic or a hard link. Whatever happens:

- every input keeps every byte;
- a command that fails leaves the folder exactly as it was: no changed file, no fragment;
- an output that is one of the inputs is refused with exit 2.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import event, given, settings
from hypothesis import strategies as st

from tests.fuzz.contract import run_cli
from tests.fuzz.strategies import RING, damaged_bytes, mutated_ring
from trackformat import cli

FUZZ = settings.get_profile("fuzz")
HARBOUR = Path(__file__).resolve().parents[2] / "tracks" / "harbour-sprint.json"

PICTURE = b"\x89PNG\r\n\x1a\n the board scan"
USERS_FILE = b"a file of the user's that only a successful command may replace\n"

# Output names: (name on the command line, the file it reaches or None for a new file).
OUTPUTS: dict[str, tuple[str, str | None]] = {
    "new": ("out{suffix}", None),
    "existing": ("mine{suffix}", "mine{suffix}"),
    "track": ("track.json", "track.json"),
    "track through ..": ("sub/../track.json", "track.json"),
    "track through a link": ("link-track.json", "track.json"),
    "track through a hard link": ("hard-track.json", "track.json"),
    "picture": ("board.png", "board.png"),
    "picture through ..": ("./sub/../board.png", "board.png"),
    "dat": ("ring.dat", "ring.dat"),
}
INPUTS = {"track.json", "board.png", "ring.dat"}

COMMANDS: dict[str, tuple[str, Callable[[str], list[str]]]] = {
    # name: (the output's usual suffix, the command line for an output name)
    "render": (".png", lambda out: ["render", "track.json", "-o", out]),
    "render svg": (".svg", lambda out: ["render", "track.json", "-o", out]),
    "export": (".dat", lambda out: ["export", "gponline", "track.json", "-o", out]),
    "import": (".json", lambda out: ["import", "gponline", "ring.dat", "-o", out]),
    "race": (".jsonl", lambda out: ["race", "track.json", "--cars", "2", "--log", out]),
    "testdrive": (".json", lambda out: ["testdrive", "track.json", "--races", "1", "--cars",
                                        "2", "--engine", "reference", "--json", out]),
    "schema": (".json", lambda out: ["schema", "-o", out]),
}


def _sound_ring() -> dict[str, Any]:
    document = json.loads(json.dumps(RING))
    document["board"]["image"] = "board.png"
    return document


def _track_bytes() -> st.SearchStrategy[bytes]:
    text = json.dumps(_sound_ring())
    pictured = mutated_ring().map(lambda d: {**d, "board": {**d.get("board", {}),
                                                            "image": "board.png"}}
                                  if isinstance(d.get("board"), dict) else d)
    return st.one_of(
        st.just(text.encode()),
        damaged_bytes(text),
        pictured.map(lambda document: json.dumps(document).encode()),
    )


def _folder(folder: Path, track: bytes, suffix: str) -> None:
    """The user's folder: the track, its board picture, a .dat of the ring, a file of theirs,
    and links to the track."""
    (folder / "sub").mkdir()
    # The .dat of a shipped track GP Online can hold, naming the same board picture.
    shipped = json.loads(HARBOUR.read_text(encoding="utf-8"))
    shipped["board"]["image"] = "board.png"
    (folder / "track.json").write_text(json.dumps(shipped))
    code, printed = run_cli("export", "gponline", str(folder / "track.json"),
                            "-o", str(folder / "ring.dat"))
    assert code == cli.EXIT_OK, printed
    (folder / "track.json").write_bytes(track)
    (folder / "board.png").write_bytes(PICTURE)
    (folder / f"mine{suffix}").write_bytes(USERS_FILE)
    (folder / "link-track.json").symlink_to("track.json")
    os.link(folder / "track.json", folder / "hard-track.json")


def _snapshot(folder: Path) -> dict[str, bytes | str]:
    """Every entry of the folder tree: a file's bytes, a link's target."""
    entries: dict[str, bytes | str] = {}
    for path in sorted(folder.rglob("*")):
        name = str(path.relative_to(folder))
        if path.is_symlink():
            entries[name] = f"-> {os.readlink(path)}"
        elif path.is_file():
            entries[name] = path.read_bytes()
        else:
            entries[name] = "folder"
    return entries


@FUZZ
@given(command=st.sampled_from(sorted(COMMANDS)), output=st.sampled_from(sorted(OUTPUTS)),
       track=_track_bytes())
def test_no_command_harms_an_input_or_a_file_it_failed_to_write(
        command: str, output: str, track: bytes) -> None:
    suffix, argv_for = COMMANDS[command]
    spelled, reached = (part.format(suffix=suffix) if part else part for part in OUTPUTS[output])
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        _folder(folder, track, suffix)
        before = _snapshot(folder)
        here = Path.cwd()
        os.chdir(folder)
        try:
            code, printed = run_cli(*argv_for(spelled))
        finally:
            os.chdir(here)
        after = _snapshot(folder)
    event(f"{command} exit {code}")
    uses = {"track.json", "board.png"} if command != "import" else {"ring.dat", "board.png"}
    if command == "schema":
        uses = set()
    if reached in uses:
        assert code == cli.EXIT_UNUSABLE, f"{command} wrote over its input {reached}:\n{printed}"
    if code != cli.EXIT_OK and not (command == "import" and code == cli.EXIT_INVALID):
        assert after == before, f"{command} failed with {code} and changed the folder:\n{printed}"
        return
    written = {reached} if reached else {spelled}
    if reached == "track.json":
        written |= {"link-track.json", "hard-track.json"}  # the same file under other names
    for entry in INPUTS & set(before) - written:
        assert after[entry] == before[entry], f"{command} changed its input {entry}"
    unchanged = {k: v for k, v in before.items() if k not in written}
    assert {k: after.get(k) for k in unchanged} == unchanged, f"{command} changed another file"
