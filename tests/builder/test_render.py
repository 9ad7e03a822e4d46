"""Pictures of tracks: PNG and SVG at the board's size, with corners, heatmaps and backdrops."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PIL import Image

from tests.factories import edit, ring
from trackformat.interop.render import load_heatmap, render_to_file
from trackformat.interop.scene import ASPHALT_PIT, BOX_COLOURS, KERB_RED, STOP_YELLOW, heat_colour


def colours(path: Path) -> set[tuple[int, int, int]]:
    with Image.open(path) as image:
        rgb = image.convert("RGB")
        found = rgb.getcolors(maxcolors=1 << 20)
    assert found is not None
    return {colour for _, colour in found}


def near(colour: tuple[int, int, int], palette: set[tuple[int, int, int]], slack: int) -> bool:
    return any(max(abs(a - b) for a, b in zip(colour, c, strict=True)) <= slack for c in palette)


def test_png_at_the_board_size_with_corners_drawn(tmp_path: Path) -> None:
    out = tmp_path / "ring.png"
    render_to_file(ring(), out)
    with Image.open(out) as image:
        assert image.format == "PNG"
        assert image.size == (1200, 1200)
    palette = colours(out)
    assert near(KERB_RED, palette, 6)  # the red-and-white corner limits
    assert near(STOP_YELLOW, palette, 6)  # the stops, in their yellow boxes


def test_svg_is_plain_text_with_the_same_drawing(tmp_path: Path) -> None:
    out = tmp_path / "ring.svg"
    render_to_file(ring(), out)
    root = ET.parse(out).getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert (root.get("width"), root.get("height")) == ("1200", "1200")
    text = out.read_text(encoding="utf-8")
    spaces = len(ring().spaces)
    assert text.count("<polygon") >= spaces
    assert "#d41e26" in text  # kerb red
    assert ">North<" in text and ">South<" in text  # corner names
    assert ">2<" in text  # the South corner's stops


def test_garages_in_line_are_drawn_as_the_teams_stands(tmp_path: Path) -> None:
    track = edit(ring(), lambda d: d["pit_lane"]["garages"].extend(["pit-2", "pit-4"]))
    out = tmp_path / "garages.png"
    render_to_file(track, out)
    centres = {s.id: s.centre for s in track.spaces}
    with Image.open(out) as image:
        rgb = image.convert("RGB")

        def beside_label(space_id: str) -> tuple[int, int, int]:
            x, y = centres[space_id]
            found = rgb.getpixel((round(x) + 7, round(y) + 7))
            assert isinstance(found, tuple)
            return (found[0], found[1], found[2])

        # Boxes 1 and 2 are the ring's boxes; the garages are stands 3 and 4.
        assert near(BOX_COLOURS[2], {beside_label("pit-2")}, 12)
        assert near(BOX_COLOURS[3], {beside_label("pit-4")}, 12)
        assert near(ASPHALT_PIT, {beside_label("pit-3")}, 12)


def test_other_suffixes_are_refused_with_a_clear_message(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"'ring\.jpg' \(suffix '\.jpg'\): name a \.png or \.svg"):
        render_to_file(ring(), tmp_path / "ring.jpg")
    with pytest.raises(ValueError, match="no suffix"):
        render_to_file(ring(), tmp_path / "ring")


def test_heatmap_paints_spaces_on_a_ramp(tmp_path: Path) -> None:
    track = ring()
    values = {s.id: 0.0 for s in track.spaces}
    values["1-5"] = 10.0
    out = tmp_path / "heat.png"
    render_to_file(track, out, heatmap=values)
    centre = next(s for s in track.spaces if s.id == "1-5").centre
    with Image.open(out) as image:
        hot = image.convert("RGB").getpixel((round(centre[0]) + 6, round(centre[1]) + 6))
    assert isinstance(hot, tuple)
    assert near(heat_colour(1.0), {hot[:3]}, 12)
    assert near(heat_colour(0.0), colours(out), 12)


def test_heatmap_from_a_test_drive_report(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    report.write_text(json.dumps({"spaces": {"1-5": {"stops": 7, "overshoots": 1}}}),
                      encoding="utf-8")
    assert load_heatmap(report) == {"1-5": 7.0}
    render_to_file(ring(), tmp_path / "heat.svg", heatmap=report)
    hot = "#{:02x}{:02x}{:02x}".format(*heat_colour(1.0))
    assert f'fill="{hot}"' in (tmp_path / "heat.svg").read_text(encoding="utf-8")
    plain = tmp_path / "plain.json"
    plain.write_text('{"1-5": 2, "1-6": 0.5}', encoding="utf-8")
    assert load_heatmap(plain) == {"1-5": 2.0, "1-6": 0.5}


@pytest.mark.parametrize(
    ("content", "message"),
    [("[1, 2]", "expected an object"), ('{"1-5": "hot"}', "space '1-5' is not a number"),
     ("{nope", "not a JSON file")],
)
def test_unusable_heatmaps_say_why(tmp_path: Path, content: str, message: str) -> None:
    report = tmp_path / "report.json"
    report.write_text(content, encoding="utf-8")
    with pytest.raises(ValueError, match=message):
        render_to_file(ring(), tmp_path / "heat.png", heatmap=report)
    with pytest.raises(ValueError, match="cannot be read"):
        load_heatmap(tmp_path / "missing.json")


def test_the_board_picture_is_drawn_underneath(tmp_path: Path) -> None:
    Image.new("RGB", (1200, 1200), (10, 20, 200)).save(tmp_path / "scan.png")

    def with_scan(document: dict[str, object]) -> None:
        board = document["board"]
        assert isinstance(board, dict)
        board["image"] = "scan.png"

    track = edit(ring(), with_scan)
    out = tmp_path / "over.png"
    render_to_file(track, out, track_path=tmp_path / "ring.json")
    with Image.open(out) as image:
        corner = image.convert("RGB").getpixel((5, 5))
    assert corner == (10, 20, 200)
    # Without the track's path the picture cannot be found: the plain background is drawn.
    render_to_file(track, out)
    with Image.open(out) as image:
        assert image.convert("RGB").getpixel((5, 5)) != (10, 20, 200)
