"""Fuzz target: the editor opening hostile track files, offscreen.

The editor's contract for any file it is asked to open: it never raises (neither from Open nor
from a slot run meanwhile, which pytest-qt reports), a file it cannot open is refused with a
message naming it and the track already open is kept, a file it opens is shown, and opening
never writes: the file keeps its bytes and its time, and nothing appears beside it (no side
file, no lock, no temporary file). The inputs are those of :mod:`tests.fuzz.test_fuzz_cli`, and
a sound ring whose board picture has a hostile name (a NUL, control characters, parts longer
than a file system allows, folders, absolute paths) with a hostile picture beside it.
"""

from __future__ import annotations

import gc
import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QCoreApplication, QEvent, QSettings

from tests.fuzz.contract import PICTURE_BYTES
from tests.fuzz.strategies import RING, damaged_bytes, draft_document, misdrawn_ring, mutated_ring

FUZZ = settings.get_profile("fuzz")
RING_TEXT = json.dumps(RING, indent=1)

PICTURE_NAMES = st.one_of(
    st.text(min_size=1, max_size=80),
    st.text(st.characters(max_codepoint=0x7F), min_size=1, max_size=20),
    st.integers(min_value=250, max_value=1000).map(lambda n: "y" * (n - 4) + ".png"),
    st.lists(st.sampled_from(["board.png", "..", ".", "", "d" * 256, "scans", "é" * 130,
                              "nul\x00", "C:", "tab\there"]), min_size=1, max_size=5)
    .flatmap(lambda parts: st.sampled_from(["/", "\\"]).map(lambda sep: sep.join(parts))),
    st.sampled_from(["board.png", "/board.png", "/dev/zero", "/", "..", "board.png/"]),
).filter(lambda name: 0 < len(name) <= 1000)
"""Names a track's ``board.image`` may hold (the model allows 1 to 1,000 characters)."""


@pytest.fixture(scope="module")
def window(qapp: object) -> Iterator[Any]:
    """One editor window for all the inputs of this module (a window per input would take
    most of the time), with settings of its own, closed and deleted at the end."""
    from editor.mainwindow import MainWindow

    with tempfile.TemporaryDirectory() as folder:
        window = MainWindow(QSettings(str(Path(folder) / "settings.ini"),
                                      QSettings.Format.IniFormat), ask=False)
        window.unsaved_answer = "discard"
        yield window
        window.validation.wait()
        window.close()
        window.deleteLater()
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        gc.collect()


def _folder_state(folder: Path) -> dict[str, tuple[bytes, int]]:
    return {p.name: (p.read_bytes() if p.is_file() else b"", p.stat().st_mtime_ns)
            for p in folder.iterdir()}


def check_open(window: Any, data: bytes, picture: str | None = None) -> bool:
    """Open ``data`` as a track file in ``window`` (with ``PICTURE_BYTES[picture]`` beside it
    as ``board.png``), holding the editor to the contract; whether it opened."""
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        path = folder / "track.json"
        path.write_bytes(data)
        if picture is not None:
            (folder / "board.png").write_bytes(PICTURE_BYTES[picture])
        before = _folder_state(folder)
        shown = window.document.track
        window.last_error = ""

        opened = window.open_path(path)

        window.validation.wait()
        QCoreApplication.processEvents()
        assert _folder_state(folder) == before, "opening wrote beside the track or into it"
        if opened:
            assert window.document.path == path.resolve()
            assert not window.document.modified
        else:
            assert "track.json" in window.last_error, window.last_error
            assert window.document.track is shown, "a refused file keeps the open track"
        return bool(opened)


@settings(FUZZ)
@given(st.one_of(mutated_ring(), misdrawn_ring(), draft_document()) | damaged_bytes(RING_TEXT),
       st.none() | PICTURE_NAMES)
def test_a_hostile_track_file_opens_or_is_refused_with_a_message(
    window: Any, content: dict[str, Any] | bytes, image: str | None
) -> None:
    if isinstance(content, dict) and image is not None and isinstance(content.get("board"), dict):
        content = {**content, "board": {**content["board"], "image": image}}
    check_open(window, content if isinstance(content, bytes) else json.dumps(content).encode())


@settings(FUZZ)
@given(st.lists(st.tuples(PICTURE_NAMES, st.sampled_from([None, *PICTURE_BYTES])),
                min_size=1, max_size=4))
def test_a_hostile_board_picture_name_never_stops_the_track_opening(
    window: Any, pictures: list[tuple[str, str | None]]
) -> None:
    for image, picture in pictures:
        document = {**RING, "board": {**RING["board"], "image": image}}
        assert check_open(window, json.dumps(document).encode("utf-8"), picture)
        assert window.document.track.board.image == image
        if window.document.picture_problem() is not None:
            assert window.scene.scan_item is None
            assert window.status_label.text().startswith("board picture left out")
