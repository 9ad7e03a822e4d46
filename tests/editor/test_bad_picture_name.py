"""A board picture's name that cannot be a file name (too long for the file system, or holding
a NUL) leaves the track opening without its picture, saying which name and why, where the
editor used to die on open."""

from __future__ import annotations

from pathlib import Path

import pytest

from editor import file_commands
from tests.factories import ring
from trackformat.io import load_track, save_track

DATA = Path(__file__).resolve().parent.parent / "data" / "gponline"

NAMES = {
    "300 characters": ("y" * 300 + ".png",
                       "is 304 bytes long, and a file name may have at most 255"),
    "a NUL": ("board\x00.png", "holds a NUL character (U+0000)"),
    "a long folder": ("scans/" + "d" * 256 + "/board.png", "is 256 bytes long"),
}


def _track_naming(folder: Path, image: str) -> Path:
    track = ring()
    path = folder / "ring.json"
    save_track(track.model_copy(update={"board": track.board.model_copy(update={"image": image})}),
               path)
    return path


def _problems(window, qtbot) -> list[str]:  # type: ignore[no-untyped-def]
    """The problems panel's rows as "CODE message", once it shows the open track's report."""
    qtbot.waitUntil(lambda: window.validation.checked is window.document.track
                    and window.problems.report is window.validation.report)
    return [f"{d.code} {d.message}" for d in (window.problems.diagnostic_at(row)
                                              for row in range(window.problems.rows()))]


@pytest.mark.parametrize(("image", "why"), NAMES.values(), ids=NAMES.keys())
def test_the_track_opens_without_its_picture_and_says_why(  # type: ignore[no-untyped-def]
    window, qtbot, tmp_path: Path, image: str, why: str
) -> None:
    path = _track_naming(tmp_path, image)
    before = path.read_bytes()

    assert window.open_path(path)

    assert len(window.scene.space_items) == len(ring().spaces)
    assert window.scene.scan_item is None
    status = window.status_label.text()
    assert status.startswith("board picture left out: its name ")
    assert why in status and status.endswith("(File > Relink board picture)")
    assert any(row.startswith("REF006 the board picture's name") and why in row
               for row in _problems(window, qtbot))
    assert path.read_bytes() == before, "opening never writes the file"


def test_saving_keeps_the_name_as_the_file_had_it(  # type: ignore[no-untyped-def]
    window, tmp_path: Path
) -> None:
    image = "y" * 300 + ".png"
    path = _track_naming(tmp_path, image)
    assert window.open_path(path)
    meta = window.document.track.metadata.model_copy(update={"name": "Renamed"})
    window.document.edit("Rename", lambda t: t.model_copy(update={"metadata": meta}))

    assert window.save()

    saved = load_track(path)
    assert saved.metadata.name == "Renamed" and saved.board.image == image


def test_a_gp_online_file_with_a_long_picture_name_imports_into_the_editor(  # type: ignore[no-untyped-def]
    window, qtbot, tmp_path: Path
) -> None:
    # As documented for `import gponline`: a name too long for the file system is kept.
    text = (DATA / "small-oval.dat").read_text(encoding="utf-8")
    dat = tmp_path / "long.dat"
    dat.write_text(text.replace("My Test Board v2.png", "y" * 300 + ".png", 1), encoding="utf-8")

    assert file_commands.import_gponline(window, dat)

    assert window.document.track.board.image == "y" * 300 + ".png"
    assert window.scene.space_items and window.scene.scan_item is None
    assert any(row.startswith("REF006") and "is 304 bytes long" in row
               for row in _problems(window, qtbot))
