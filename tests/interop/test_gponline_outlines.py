"""What the GP Online importer draws on its own: outlines, headings and the board's size.

A ``.dat`` holds points only, so the importer guesses each space's outline and heading and, with
no picture beside the file, the board's size. Its guesses must not make the validator report
what the user cannot act on. The boards here are generated: three staggered lanes round a
stadium, the middle lane squeezed close between the other two as on real GP Online boards.
"""

from __future__ import annotations

import math
from pathlib import Path

from trackformat.cli import main
from trackformat.interop.gponline import import_dat, import_file, parse_dat
from trackformat.lint import Severity, validate
from trackformat.model import Track


def stadium_dat(*, x0: float = 100.0, y0: float = 100.0, step: float = 33.0,
                lane_width: float = 12.0, radius: float = 60.0, turn: int = 8) -> str:
    """A ``.dat`` of three lanes round a stadium, 8 rows per straight and ``turn`` per bend,
    the middle lane half a space ahead of the other two, moves straight on and diagonally into
    the next lane, one-stop curve nodes in the bends and a grid of ten behind the line."""
    straight = 8
    rows = 2 * straight + 2 * turn
    centre_x, centre_y = x0 + radius + 2 * lane_width, y0 + radius + 2 * lane_width

    def place(u: float, lane: int) -> tuple[float, float]:
        r = radius + (2 - lane) * lane_width
        if u < straight:
            return centre_x + u * step, centre_y - r
        if u < straight + turn:
            a = math.radians(-90 + (u - straight) * 180 / turn)
            return centre_x + straight * step + r * math.cos(a), centre_y + r * math.sin(a)
        if u < 2 * straight + turn:
            return centre_x + (2 * straight + turn - u) * step, centre_y + r
        a = math.radians(90 + (u - 2 * straight - turn) * 180 / turn)
        return centre_x + r * math.cos(a), centre_y + r * math.sin(a)

    offset = (0.0, 0.5, 0.0)
    nodes, edges = [], []
    for row in range(rows):
        for lane in range(3):
            u = (row + offset[lane]) % rows
            x, y = place(u, lane)
            curve = straight <= u < straight + turn or u >= 2 * straight + turn
            nodes.append(f"{3 * row + lane} {round(x)} {round(y)} {3 if curve else 1}"
                         + (" F" if row == 0 else ""))
            following = (row + 1) % rows
            edges.append(f"{3 * row + lane} {3 * following + lane}")
            for other in (lane - 1, lane + 1):
                if 0 <= other <= 2:
                    ahead = row if offset[other] > offset[lane] else following
                    edges.append(f"{3 * row + lane} {3 * ahead + other}")
    grid = [f"{3 * row + lane} 0" for row in range(rows - 4, rows) for lane in (0, 2)]
    grid += [f"{3 * (rows - 5) + lane} 0" for lane in (0, 2)]
    return "\r\n".join(["board.png 0", *nodes, "", *edges, "", "", *grid]) + "\r\n"


def imported(text: str, folder: Path | None = None) -> Track:
    if folder is None:
        return import_dat(parse_dat(text, "stadium.dat"), "stadium.dat").track
    (folder / "stadium.dat").write_text(text)
    return import_file(folder / "stadium.dat").track


def codes(track: Track, *selected: str) -> list[str]:
    return [d.code for d in validate(track, codes=list(selected)).diagnostics]


def test_a_squeezed_middle_lane_keeps_its_spaces_touching() -> None:
    # Cells drawn round each node alone met across the middle lane and cut each of its spaces off
    # from the next: 24 links "apart" on this board. Drawn lane by lane, every move touches.
    track = imported(stadium_dat())
    assert codes(track, "GEOM002", "GEOM003", "GEOM006") == []


def test_a_hand_drawn_link_to_a_far_space_is_still_caught() -> None:
    # The same board with one move that skips a space, as a slip in a file can.
    text = stadium_dat().replace("\r\n30 33\r\n", "\r\n30 33\r\n30 36\r\n", 1)
    report = validate(imported(text), codes=["GEOM003"])
    assert [d.location.elements for d in report.diagnostics] == [("30", "36")]
    assert report.diagnostics[0].severity == Severity.WARNING


def test_a_tight_hairpin_keeps_every_move_ahead_of_its_heading() -> None:
    # Two rows per half turn round a 2-pixel radius: along the lane, a node's heading left a
    # diagonal move more than 100 degrees behind, and the lap rule called it backward.
    track = imported(stadium_dat(radius=2.0, turn=2))
    assert codes(track, "LAP001", "GEOM005") == []
    assert validate(track).errors == 0


def test_without_a_picture_the_board_holds_every_outline(tmp_path: Path) -> None:
    # Nodes a few pixels from the top left corner: the outlines round them reached past 0.
    track = imported(stadium_dat(x0=2.0, y0=2.0, step=120.0), tmp_path)
    assert codes(track, "GEOM004") == []
    points = [p for space in track.spaces for p in space.polygon]
    assert min(x for x, _ in points) >= 0 and min(y for _, y in points) >= 0
    assert max(x for x, _ in points) <= track.board.width
    assert max(y for _, y in points) <= track.board.height


def test_with_a_picture_the_outlines_stay_on_it(tmp_path: Path) -> None:
    from PIL import Image

    text = stadium_dat()
    nodes = [line.split() for line in text.split("\r\n")[1:] if len(line.split()) >= 4]
    right = max(int(n[1]) for n in nodes) + 4
    bottom = max(int(n[2]) for n in nodes) + 4
    Image.new("RGB", (right, bottom)).save(tmp_path / "board.png")
    track = imported(text, tmp_path)
    assert (track.board.width, track.board.height) == (right, bottom)
    assert codes(track, "GEOM004") == []
    assert validate(track).errors == 0


def test_a_picture_the_nodes_do_not_fit_is_still_an_error(tmp_path: Path) -> None:
    # A picture smaller than the nodes' extent is not the one they were placed on: the user is
    # told, the outlines of the nodes off it are not cut away to hide it.
    from PIL import Image

    Image.new("RGB", (300, 300)).save(tmp_path / "board.png")
    track = imported(stadium_dat(), tmp_path)
    assert "GEOM004" in codes(track, "GEOM004")


def test_the_command_line_imports_a_generated_board_with_exit_0(tmp_path: Path) -> None:
    (tmp_path / "stadium.dat").write_text(stadium_dat(x0=2.0, y0=2.0))
    out = tmp_path / "stadium.json"
    assert main(["import", "gponline", str(tmp_path / "stadium.dat"), "-o", str(out)]) == 0
    assert main(["validate", str(out)]) == 0
