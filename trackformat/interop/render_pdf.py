"""A track printed at table scale: a vector PDF of the board, on one poster page or tiled over
home-printer pages.

A designed circuit is meant to be raced on a table, with real cars, so the print must be at the
scale of the published boards, whatever the resolution the track was drawn at: every track is
printed with the same size of space (:data:`SPACE_MM`), which prints Monaco at the size of the
printed board. The drawing is the same scene as the PNG and SVG renders (:mod:`scene`), written
as PDF shapes and text (so it stays sharp at any size); the board picture goes underneath only
when asked, since the scan is the publisher's art and the user's own business to print.

Tiled prints have a first page with the assembly map (the board, small, cut into its numbered
pages), then one page per tile: each tile overlaps its neighbours by :data:`OVERLAP_MM`, has cut
marks where the next page's paper begins, alignment crosses in the overlap, and its row and
column printed in the margin ("B3": second row, third column).
"""

from __future__ import annotations

import math
import os
import string
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from fpdf import FPDF
from fpdf.enums import StrokeCapStyle, StrokeJoinStyle
from PIL import Image

from trackformat.interop.render import (
    HEAT_KEY,
    board_picture_path,
    load_heatmap,
    open_board_picture,
    placed_picture,
)
from trackformat.interop.scene import RGB, XY, Fill, Item, Label, Scene, Stroke, build_scene
from trackformat.io import write_atomically
from trackformat.model.track import Track

MONACO_BOARD_MM = (1000.0, 700.0)
"""The published size of the Formula D board, 100 x 70 cm (the Monaco side of the 2008 box)."""
MONACO_BOARD_PX = 3750.0
"""The width of Monaco's board in tracks/monaco.json, in its pixels (the board art is 3750 x
2487 px, 2500:1658 in the corpus' reference)."""
MONACO_SPACE_PX = 51.2
"""Monaco's size of a space in the same pixels: the square root of the median space's area."""
SPACE_MM = MONACO_SPACE_PX * MONACO_BOARD_MM[0] / MONACO_BOARD_PX
"""The printed size of a space (the square root of its area), 13.7 mm: the one that prints
Monaco's board 100 cm wide, as the published board is. Every track prints with it so that the
same cars fit."""

PAPERS: dict[str, tuple[float, float]] = {
    "A4": (210.0, 297.0),
    "A3": (297.0, 420.0),
    "letter": (215.9, 279.4),
}
"""Sheet sizes in millimetres (portrait). ``poster`` is not a sheet: one page of the board's own
size, for a print shop."""
PAPER_CHOICES = (*PAPERS, "poster")

MARGIN_MM = 8.0
"""Unprinted border of a home printer's sheet: the page number and marks are drawn in it."""
OVERLAP_MM = 10.0
"""How far each tile's drawing runs under its neighbour's, to glue pages edge on edge."""
MM_PER_POINT = 25.4 / 72
MAX_PAGES = 400
"""Most pages a print may take: a poster of 5 x 4 m on A4. More means a wrong --space-mm."""


class PrintError(ValueError):
    """A print that cannot be made as asked (a scale that needs too many pages)."""


@dataclass(frozen=True)
class Tiling:
    """How the board is cut into pages: ``rows`` x ``columns`` sheets of ``page`` mm, each
    showing ``window`` mm of the board (the sheet less its margins)."""

    page: tuple[float, float]
    window: tuple[float, float]
    rows: int
    columns: int

    @property
    def pages(self) -> int:
        return self.rows * self.columns + (1 if self.rows * self.columns > 1 else 0)

    def origin(self, row: int, column: int) -> XY:
        """The board position (mm) at the top left of a tile's window."""
        step_x, step_y = self.window[0] - OVERLAP_MM, self.window[1] - OVERLAP_MM
        return column * step_x, row * step_y


def tile_name(row: int, column: int) -> str:
    """A tile's name as printed on it: its row as a letter, its column as a number ("B3")."""
    letters = string.ascii_uppercase
    row_name = letters[row] if row < 26 else letters[row // 26 - 1] + letters[row % 26]
    return f"{row_name}{column + 1}"


def tile_outlines(tiling: Tiling, board_mm: tuple[float, float]
                  ) -> list[tuple[str, tuple[float, float, float, float]]]:
    """Each tile's name and the part of the board it prints (left, top, width, height in mm,
    the last row and column cut at the board's edge), row by row: what the assembly map
    outlines, and the editor's print preview draws."""
    outlines = []
    for row in range(tiling.rows):
        for column in range(tiling.columns):
            x, y = tiling.origin(row, column)
            outlines.append((tile_name(row, column),
                             (x, y, min(tiling.window[0], board_mm[0] - x),
                              min(tiling.window[1], board_mm[1] - y))))
    return outlines


def print_summary(board_mm: tuple[float, float], tiling: Tiling, paper: str) -> str:
    """The print in a few words, as the command line and the editor say it ("100.0 x 66.3 cm
    on 17 pages of A4")."""
    pages = tiling.pages
    return (f"{board_mm[0] / 10:.1f} x {board_mm[1] / 10:.1f} cm on {pages} "
            f"{'page' if pages == 1 else 'pages'}" + ("" if paper == "poster" else f" of {paper}"))


def plan_tiles(board_mm: tuple[float, float], paper: str) -> Tiling:
    """The tiling of a board of ``board_mm`` on ``paper``: one page for ``poster``; otherwise the
    sheet turned whichever way takes fewer pages."""
    if paper == "poster":
        return Tiling(board_mm, board_mm, 1, 1)
    best: Tiling | None = None
    short, long = PAPERS[paper]
    for page in ((short, long), (long, short)):
        window = (page[0] - 2 * MARGIN_MM, page[1] - 2 * MARGIN_MM)
        columns = max(1, math.ceil((board_mm[0] - OVERLAP_MM) / (window[0] - OVERLAP_MM)))
        rows = max(1, math.ceil((board_mm[1] - OVERLAP_MM) / (window[1] - OVERLAP_MM)))
        tiling = Tiling(page, window, rows, columns)
        if best is None or tiling.pages < best.pages:
            best = tiling
    assert best is not None
    return best


def board_size_mm(scene: Scene, space_mm: float) -> tuple[float, float]:
    """The printed size of the board when a space (``scene.unit`` pixels) prints ``space_mm``."""
    scale = space_mm / scene.unit
    return scene.width * scale, scene.height * scale


class _Printer:
    """Draws a scene's items in millimetres on the current page of an FPDF document."""

    def __init__(self, pdf: FPDF, scale: float, offset: XY) -> None:
        self.pdf, self.scale, self.offset = pdf, scale, offset

    def at(self, point: XY) -> XY:
        return point[0] * self.scale + self.offset[0], point[1] * self.scale + self.offset[1]

    def colours(self, fill: RGB | None, line: RGB | None, width: float) -> None:
        if fill is not None:
            self.pdf.set_fill_color(*fill)
        if line is not None:
            self.pdf.set_draw_color(*line)
            self.pdf.set_line_width(max(width * self.scale, 0.05))

    def item(self, item: Item) -> None:
        if isinstance(item, Fill):
            self.colours(item.colour, item.outline, item.width)
            style = "DF" if item.outline is not None and item.width > 0 else "F"
            self.pdf.polygon([self.at(p) for p in item.points], style=style)
        elif isinstance(item, Stroke):
            self.colours(None, item.colour, item.width)
            self.pdf.polyline([self.at(p) for p in item.points], style="D")
        else:
            self.label(item)

    def label(self, item: Label) -> None:
        size_mm = item.size * self.scale
        self.pdf.set_font("Helvetica", "B" if item.bold else "", size_mm / MM_PER_POINT)
        text = printable(item.text)
        width = self.pdf.get_string_width(text)
        x, y = self.at(item.at)
        if item.box is not None:
            pad = size_mm * 0.3
            half_w, half_h = max(width, size_mm * 0.72) / 2 + pad, size_mm * 0.36 + pad
            self.colours(item.box, item.box_outline or item.box, item.size * 0.08)
            self.pdf.rect(x - half_w, y - half_h, 2 * half_w, 2 * half_h,
                          style="DF" if item.box_outline else "F", round_corners=True,
                          corner_radius=size_mm * 0.2)
        self.pdf.set_text_color(*item.colour)
        # Text sits on its baseline: a capital's height is about 0.72 of the font size.
        self.pdf.text(x - width / 2, y + size_mm * 0.36, text)


def printable(text: str) -> str:
    """``text`` in the PDF's standard fonts (Latin-1): accents kept, other letters spelled
    plainly, anything else as "?"."""
    try:
        text.encode("latin-1")
        return text
    except UnicodeEncodeError:
        plain = "".join(c for c in unicodedata.normalize("NFKD", text)
                        if not unicodedata.combining(c))
        return plain.encode("latin-1", "replace").decode("latin-1")


def _bounds(item: Item) -> tuple[float, float, float, float]:
    """An item's box in board pixels (a label's is its centre, grown by its size)."""
    if isinstance(item, Label):
        reach = item.size * max(len(item.text), 1)
        return item.at[0] - reach, item.at[1] - reach, item.at[0] + reach, item.at[1] + reach
    xs, ys = [p[0] for p in item.points], [p[1] for p in item.points]
    grow = getattr(item, "width", 0.0)
    return min(xs) - grow, min(ys) - grow, max(xs) + grow, max(ys) + grow


def _visible(items: tuple[Item, ...], window_px: tuple[float, float, float, float]
             ) -> Iterator[Item]:
    left, top, right, bottom = window_px
    for item in items:
        x0, y0, x1, y1 = _bounds(item)
        if x1 >= left and x0 <= right and y1 >= top and y0 <= bottom:
            yield item


def pdf_of(scene: Scene, *, paper: str = "A4", space_mm: float = SPACE_MM,
           picture: Image.Image | None = None, title: str = "") -> tuple[bytes, Tiling]:
    """``scene`` as a PDF at ``space_mm`` a space, ``picture`` (already in board pixels)
    underneath: the file's bytes and the tiling. Raises :class:`PrintError` for a print of
    more than :data:`MAX_PAGES` pages."""
    if paper not in PAPER_CHOICES:
        raise PrintError(f"unknown paper {paper!r} (choose {', '.join(PAPER_CHOICES)})")
    if not (1.0 <= space_mm <= 200.0):
        raise PrintError(f"--space-mm {space_mm:g} is not a printable space (1 to 200 mm)")
    board = board_size_mm(scene, space_mm)
    tiling = plan_tiles(board, paper)
    if tiling.pages > MAX_PAGES:
        raise PrintError(
            f"the board would print {board[0] / 10:.0f} x {board[1] / 10:.0f} cm on "
            f"{tiling.pages} pages of {paper}, more than {MAX_PAGES}: choose a smaller --space-mm"
        )
    scale = space_mm / scene.unit
    pdf = FPDF(unit="mm", format=tiling.page)
    pdf.set_auto_page_break(False)
    pdf.set_creator("trackformat")
    pdf.set_title(title or "Formula D board")
    single = tiling.rows * tiling.columns == 1
    if not single:
        _assembly_map(pdf, scene, tiling, board, title, scale, picture)
    for row in range(tiling.rows):
        for column in range(tiling.columns):
            pdf.add_page()
            margin = 0.0 if single else MARGIN_MM
            origin = tiling.origin(row, column)
            offset = (margin - origin[0], margin - origin[1])
            window = (origin[0] / scale, origin[1] / scale,
                      (origin[0] + tiling.window[0]) / scale,
                      (origin[1] + tiling.window[1]) / scale)
            with pdf.rect_clip(margin, margin, *tiling.window):
                _board(pdf, scene, scale, offset, picture, board, window)
            if not single:
                _tile_marks(pdf, tiling, row, column, title)
    return bytes(pdf.output()), tiling


def _board(pdf: FPDF, scene: Scene, scale: float, offset: XY, picture: Image.Image | None,
           board: tuple[float, float], window: tuple[float, float, float, float]) -> None:
    """The board's background, picture and scene, drawn at ``scale`` mm a pixel."""
    printer = _Printer(pdf, scale, offset)
    pdf.set_fill_color(*scene.background)
    pdf.rect(offset[0], offset[1], board[0], board[1], style="F")
    if picture is not None:
        pdf.image(picture, x=offset[0], y=offset[1], w=board[0], h=board[1])
    # Round ends and joins, as the PNG's strokes have: kerbs and arrows meet without notches.
    with pdf.local_context(stroke_cap_style=StrokeCapStyle.ROUND,
                           stroke_join_style=StrokeJoinStyle.ROUND):
        for item in _visible(scene.items, window):
            printer.item(item)


def _tile_marks(pdf: FPDF, tiling: Tiling, row: int, column: int, title: str) -> None:
    """Cut marks where the neighbouring sheets' drawings begin, alignment crosses in the
    overlaps, and the tile's name in its margin."""
    left, top = MARGIN_MM, MARGIN_MM
    right, bottom = left + tiling.window[0], top + tiling.window[1]
    pdf.set_draw_color(0, 0, 0)
    pdf.set_line_width(0.2)
    cut_x = [right - OVERLAP_MM] if column < tiling.columns - 1 else []
    cut_y = [bottom - OVERLAP_MM] if row < tiling.rows - 1 else []
    for x in cut_x:  # ticks in the top and bottom margins: cut along here, glue under the next
        pdf.line(x, 1.0, x, top - 1.0)
        pdf.line(x, bottom + 1.0, x, tiling.page[1] - 1.0)
    for y in cut_y:
        pdf.line(1.0, y, left - 1.0, y)
        pdf.line(right + 1.0, y, tiling.page[0] - 1.0, y)
    overlaps_x = [left + OVERLAP_MM / 2] * (column > 0) + [right - OVERLAP_MM / 2] * bool(cut_x)
    overlaps_y = [top + OVERLAP_MM / 2] * (row > 0) + [bottom - OVERLAP_MM / 2] * bool(cut_y)
    for x in overlaps_x:
        for y in (top + OVERLAP_MM / 2, (top + bottom) / 2, bottom - OVERLAP_MM / 2):
            _cross(pdf, x, y)
    for y in overlaps_y:
        for x in (left + OVERLAP_MM / 2, (left + right) / 2, right - OVERLAP_MM / 2):
            _cross(pdf, x, y)
    pdf.set_text_color(0, 0, 0)
    pdf.set_font("Helvetica", "B", 9)
    name = tile_name(row, column)
    pdf.text(left, tiling.page[1] - 2.5, f"{name}  ({row + 1} of {tiling.rows} rows, "
                                          f"{column + 1} of {tiling.columns} columns)")
    pdf.set_font("Helvetica", "", 7)
    tail = printable(title)
    pdf.text(right - pdf.get_string_width(tail), tiling.page[1] - 2.5, tail)


def _cross(pdf: FPDF, x: float, y: float) -> None:
    """An alignment cross: pages are glued so that their crosses lie on each other."""
    pdf.set_draw_color(0, 0, 0)
    pdf.set_line_width(0.15)
    pdf.line(x - 2.5, y, x + 2.5, y)
    pdf.line(x, y - 2.5, x, y + 2.5)
    pdf.circle(x, y, 1.2, style="D")


def _assembly_map(pdf: FPDF, scene: Scene, tiling: Tiling, board: tuple[float, float],
                  title: str, scale: float, picture: Image.Image | None) -> None:
    """The first page: the whole board, small, with the page grid and each page's name."""
    pdf.add_page()
    pdf.set_text_color(0, 0, 0)
    pdf.set_font("Helvetica", "B", 14)
    pdf.text(MARGIN_MM, MARGIN_MM + 5, printable(title or "Formula D board"))
    pdf.set_font("Helvetica", "", 9)
    pdf.text(MARGIN_MM, MARGIN_MM + 11,
             f"{board[0] / 10:.1f} x {board[1] / 10:.1f} cm on {tiling.rows * tiling.columns} "
             f"pages: cut each page along its marks, lay it over the page before it so that the "
             f"crosses meet, and glue.")
    room = (tiling.page[0] - 2 * MARGIN_MM, tiling.page[1] - 2 * MARGIN_MM - 16)
    shrink = min(room[0] / board[0], room[1] / board[1])
    offset = (MARGIN_MM, MARGIN_MM + 16)
    _board(pdf, scene, scale * shrink, offset, picture, (board[0] * shrink, board[1] * shrink),
           (-math.inf, -math.inf, math.inf, math.inf))
    pdf.set_draw_color(0, 0, 0)
    pdf.set_line_width(0.3)
    pdf.set_font("Helvetica", "B", 10)
    for name, (x, y, w, h) in tile_outlines(tiling, board):
        left, top = offset[0] + x * shrink, offset[1] + y * shrink
        pdf.rect(left, top, w * shrink, h * shrink, style="D")
        pdf.set_fill_color(255, 255, 255)
        width = pdf.get_string_width(name) + 2
        pdf.rect(left + 1, top + 1, width, 5, style="F")
        pdf.text(left + 2, top + 4.8, name)


def print_to_file(track: Track, out: str | os.PathLike[str], *,
                  track_path: str | os.PathLike[str] | None = None,
                  heatmap: str | os.PathLike[str] | None = None, heat: str = HEAT_KEY,
                  paper: str = "A4", space_mm: float = SPACE_MM,
                  with_picture: bool = False) -> Printed:
    """Print ``track`` to the PDF file ``out`` (see the module's docstring). The file is
    written whole or not at all."""
    target = Path(out)
    values = None if heatmap is None else load_heatmap(heatmap, heat)
    scene = build_scene(track, values)
    notes: list[str] = []
    picture = None
    if with_picture:
        backdrop = board_picture_path(track, track_path, target, notes)
        opened = open_board_picture(backdrop, notes) if backdrop is not None else None
        if opened is not None:
            picture = placed_picture(opened, (scene.width, scene.height), 1.0,
                                     track.board.placement, scene.background)
        elif backdrop is None and not notes:
            notes.append("the track names no board picture: printed without one")
    data, tiling = pdf_of(scene, paper=paper, space_mm=space_mm, picture=picture,
                          title=track.metadata.name)
    write_atomically(target, data)
    return Printed(notes, print_summary(board_size_mm(scene, space_mm), tiling, paper))


@dataclass(frozen=True)
class Printed:
    """What printing did: ``notes`` for the user on what was printed otherwise than asked, and
    a ``summary`` of the print ("100.0 x 66.3 cm on 17 pages of A4")."""

    notes: list[str]
    summary: str
