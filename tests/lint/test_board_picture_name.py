"""REF006: a board picture's name that cannot be a file name is flagged at /board/image, where
`validate` used to find nothing wrong with the track."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.factories import ring
from trackformat import cli
from trackformat.io import save_track
from trackformat.lint import Severity, all_rules, validate
from trackformat.model import Track

RING = ring()


def _naming(image: str | None) -> Track:
    return RING.model_copy(update={"board": RING.board.model_copy(update={"image": image})})


def _messages(image: str | None) -> list[str]:
    report = validate(_naming(image), codes=["REF006"])
    for found in report.diagnostics:
        assert found.severity == Severity.WARNING
        assert found.location.pointer == "/board/image" and found.location.elements == ()
    return [d.message for d in report.diagnostics]


@pytest.mark.parametrize("image", [
    None, "board.png", "scans/monaco board (v2).jpg", "/home/designer/boards/monaco.png",
    "C:\\boards\\monaco.png", "C:/boards/monaco.png", "y" * 251 + ".png",
    "é" * 125 + ".png", "scans/" + "d" * 255 + "/board.png",
])
def test_a_name_a_file_can_have_passes(image: str | None) -> None:
    assert _messages(image) == []


def test_a_name_too_long_for_the_file_system_is_flagged() -> None:
    assert _messages("y" * 300 + ".png") == [
        'the board picture\'s name "' + "y" * 40 + "..." + "y" * 8 + '.png" cannot be a file '
        "name: it is 304 bytes long, and a file name may have at most 255; rename the picture "
        "and point the track at it (File > Relink board picture in the editor)"
    ]


@pytest.mark.parametrize(("image", "part"), [
    ("y" * 252 + ".png", "is 256 bytes long"),  # one byte over
    ("é" * 126 + ".png", "is 256 bytes long"),  # counted in bytes, not characters
    ("scans/" + "d" * 256 + "/board.png", 'its part "' + "d" * 40 + "..." + "d" * 12
     + '" is 256 bytes long, and a file or folder name may have at most 255'),
    ("scans\\" + "d" * 256 + "\\board.png", "is 256 bytes long"),
])
def test_each_part_is_measured_in_bytes(image: str, part: str) -> None:
    [message] = _messages(image)
    assert part in message


@pytest.mark.parametrize(("image", "shown", "what"), [
    ("board\x00.png", '"board\\u0000.png"', "a NUL character (U+0000)"),
    ("board\t.png", '"board\\t.png"', "the control character U+0009"),
    ("board\x7f.png", '"board\x7f.png"', "the control character U+007F"),
])
def test_a_name_holding_a_control_character_is_flagged(image: str, shown: str, what: str) -> None:
    assert _messages(image) == [
        f"the board picture's name {shown} cannot be a file name: it holds {what}, which a file "
        "name cannot hold; rename the picture and point the track at it (File > Relink board "
        "picture in the editor)"
    ]


def test_the_rule_is_documented() -> None:
    found = {r.code: r for r in all_rules()}["REF006"]
    assert (found.name, found.topic, found.severity) == (
        "board-picture-name", "references", Severity.WARNING)
    assert found.summary and found.explanation and found.example


def test_validate_says_so_on_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "long.json"
    save_track(_naming("y" * 300 + ".png"), path)

    assert cli.main(["validate", str(path)]) == cli.EXIT_OK  # a warning: the track is sound

    printed = capsys.readouterr().out
    assert "warning REF006 board-picture-name: the board picture's name" in printed
    assert "[/board/image]" in printed
