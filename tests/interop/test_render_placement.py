"""Pictures of a track draw its board picture where the track file places it."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from tests.factories import ring
from trackformat.interop.render import render_to_file
from trackformat.model import Placement, Track


def _over(picture: str, placement: Placement | None) -> Track:
    track = ring()
    board = track.board.model_copy(update={"image": picture, "placement": placement})
    return track.model_copy(update={"board": board})


def _two_colour_scan(path: Path) -> None:
    """A 600 x 600 scan: red left half, blue right half."""
    image = Image.new("RGB", (600, 600), (200, 0, 0))
    image.paste((0, 0, 200), (300, 0, 600, 600))
    image.save(path)


def test_a_placed_picture_is_drawn_scaled_onto_the_board(tmp_path: Path) -> None:
    _two_colour_scan(tmp_path / "scan.png")
    # The ring's board is 1200 px: the 600 px scan placed at twice its size covers it.
    track = _over("scan.png", Placement(matrix=((2.0, 0.0, 0.0), (0.0, 2.0, 0.0))))
    out = tmp_path / "placed.png"
    render_to_file(track, out, track_path=tmp_path / "ring.json")
    with Image.open(out) as image:
        rgb = image.convert("RGB")
        assert rgb.getpixel((5, 1190)) == (200, 0, 0)
        assert rgb.getpixel((1190, 1190)) == (0, 0, 200)
        assert rgb.getpixel((700, 5)) == (0, 0, 200)  # right of the scan's middle, scaled


def test_without_a_placement_the_picture_lies_pixel_for_pixel(tmp_path: Path) -> None:
    _two_colour_scan(tmp_path / "scan.png")
    out = tmp_path / "plain.png"
    render_to_file(_over("scan.png", None), out, track_path=tmp_path / "ring.json")
    with Image.open(out) as image:
        rgb = image.convert("RGB")
        assert rgb.getpixel((5, 5)) == (200, 0, 0)
        assert rgb.getpixel((450, 5)) == (0, 0, 200)
        assert rgb.getpixel((1190, 1190)) not in ((200, 0, 0), (0, 0, 200))


def test_an_svg_places_its_picture_with_a_transform(tmp_path: Path) -> None:
    _two_colour_scan(tmp_path / "scan.png")
    placement = Placement(matrix=((1.5, -0.25, 10.0), (0.25, 1.5, -20.0)))
    out = tmp_path / "placed.svg"
    render_to_file(_over("scan.png", placement), out, track_path=tmp_path / "ring.json")
    text = out.read_text(encoding="utf-8")
    assert '<image href="scan.png" x="0" y="0" width="600" height="600" ' in text
    assert 'transform="matrix(1.5 0.25 -0.25 1.5 10.0 -20.0)"' in text
