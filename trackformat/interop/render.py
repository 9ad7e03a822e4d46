"""Pictures of a track: PNG (Pillow) or SVG (plain text), chosen by the file's suffix.

The picture is the project's own drawing of the track (see :mod:`trackformat.interop.scene`),
optionally over the board picture named by the track, and optionally with a heatmap of values per
space, as test drives produce.
"""

from __future__ import annotations

import io
import math
import os
import unicodedata
import warnings
from collections.abc import Mapping
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from trackformat.interop.render_svg import scene_to_svg
from trackformat.interop.scene import Fill, Label, Scene, Stroke, build_scene
from trackformat.io import write_atomically, write_text_atomically
from trackformat.model.track import Placement, Track

SUPERSAMPLE = 2
"""PNGs are drawn this many times larger and scaled down, which smooths every edge."""

MAX_PICTURE_PIXELS = 4096 * 4096
"""Largest PNG drawn. The format allows boards of 100,000 x 100,000 px, whose picture would
need some 120 GB while drawn: a larger board is drawn scaled down to this many pixels, and the
command says so. A printed board scanned at 300 dpi is about 7,000 x 5,000 px."""

MAX_BOARD_PICTURE_PIXELS = 64 * 1024 * 1024
"""Largest board picture drawn under a track. A small PNG can claim 30,000 x 30,000 px and
unpack to gigabytes (a decompression bomb): a picture claiming more is left out, with a note,
before it is decoded."""

PALETTE_COLOURS = 160
"""Colours kept in a PNG: a drawing has few, and a palette keeps a 4000 px board near 1 MB."""

SUFFIXES = (".png", ".svg")

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


HEAT_KEY = "stops"
"""What a test-drive report's heatmap shows by default: how many moves ended on each space."""

HEAT_KINDS = ("stops", "overshoots", "eliminations")
"""The per-space counts of a test-drive report."""

MAX_HEATMAP_BYTES = 64 * 1024 * 1024
"""Largest heatmap file read: a test-drive report of the largest track is far smaller (the
same limit as ``testdrive compare`` reads its reports with)."""

HEATMAP_HINT = ": not a JSON file of values per space, nor a test-drive report"
"""Said of a heatmap that is not JSON at all: what was expected."""


def render_to_file(
    track: Track,
    out: str | os.PathLike[str],
    *,
    track_path: str | os.PathLike[str] | None = None,
    heatmap: Mapping[str, float] | str | os.PathLike[str] | None = None,
    heat: str = HEAT_KEY,
) -> list[str]:
    """Draw ``track`` to ``out``, a ``.png`` or ``.svg`` file, at the board's size; returns
    notes for the user on what was drawn otherwise than asked (a board too large to draw at
    full size, a board picture left out).

    ``track_path`` is where the track file is: when given, the board picture it names is drawn
    underneath (unless that picture is ``out`` itself). ``heatmap`` maps space ids to values,
    painted from blue (0, or the lowest value if below) to red (the highest); spaces it leaves
    out keep their usual colour. It may also be the path of a JSON file (see
    :func:`load_heatmap`; ``heat`` picks which count of a test-drive report is shown). Raises
    ``ValueError`` for any other suffix, or a heatmap file that cannot be used, saying why.
    """
    target = Path(out)
    suffix = target.suffix.lower()
    if suffix not in SUFFIXES:
        shown = f"suffix {target.suffix!r}" if target.suffix else "no suffix"
        raise ValueError(
            f"cannot draw a track to {target.name!r} ({shown}): name a .png or .svg file"
        )
    values = (
        heatmap if heatmap is None or isinstance(heatmap, Mapping) else load_heatmap(heatmap, heat)
    )
    scene = build_scene(track, values)
    notes: list[str] = []
    backdrop = board_picture_path(track, track_path, target, notes)
    placement = track.board.placement
    if suffix == ".svg":
        href = None
        picture = None
        if backdrop is not None:
            href = Path(os.path.relpath(backdrop, target.resolve().parent)).as_posix()
            picture = _svg_picture(backdrop, placement)
        write_text_atomically(target, scene_to_svg(scene, backdrop=href, picture=picture))
        return notes
    image = render_png(scene, backdrop, placement, notes)
    encoded = io.BytesIO()
    image.save(encoded, format="PNG", optimize=True)
    write_atomically(target, encoded.getvalue())
    return notes


def picture_scale(width: int, height: int) -> float:
    """The share of the board's size a PNG is drawn at: 1, or less for a board larger than
    :data:`MAX_PICTURE_PIXELS`."""
    return min(1.0, math.sqrt(MAX_PICTURE_PIXELS / (width * height)))


def load_heatmap(path: str | os.PathLike[str], heat: str = HEAT_KEY) -> dict[str, float]:
    """Values per space from a JSON file: ``{"space id": number, ...}``, or a test-drive report
    (``trackformat testdrive --json``), whose ``spaces`` give each space's counts; ``heat`` is
    the count to show (one of :data:`HEAT_KINDS`).

    The file is read as ``testdrive compare`` reads its reports (a regular file of at most
    :data:`MAX_HEATMAP_BYTES`, see :mod:`trackformat.sim.batch.report_file`), and every value
    must be a finite number: NaN, Infinity or a whole number of 400 digits has no colour.
    """
    # Imported here: importing the race engine's package costs a drawing without a heatmap
    # some 0.3 s.
    from trackformat.sim.batch.report_file import ReportFileError, name, read_json_report, shown

    if heat not in HEAT_KINDS:
        raise ValueError(f"heatmap: {heat!r} is not one of {', '.join(HEAT_KINDS)}")
    source = Path(path)
    try:
        document = read_json_report(source, "heatmap", hint=HEATMAP_HINT,
                                    limit=MAX_HEATMAP_BYTES)
    except ReportFileError as err:
        raise ValueError(f"heatmap {source}: {err.reason}") from None
    spaces = document.get("spaces", document) if isinstance(document, dict) else None
    if not isinstance(spaces, dict):
        raise ValueError(
            f"heatmap {source}: expected an object of space ids and numbers, or a test-drive "
            "report with a 'spaces' object"
        )
    values: dict[str, float] = {}
    for space_id, value in spaces.items():
        if isinstance(value, dict):
            value = value.get(heat)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError(
                f"heatmap {source}: the value of space {name(space_id)} is not a number"
                + (f" (nor an object with a number under {heat!r})" if value is None else "")
            )
        number = _finite(value)
        if number is None:
            raise ValueError(f"heatmap {source}: the value of space {name(space_id)} is not a "
                             f"finite number ({shown(value)})")
        values[space_id] = number
    return values


def _finite(value: int | float) -> float | None:
    """``value`` as a float, or None when it has none that is finite (NaN, Infinity, or a
    whole number too large for a float: 10^400 parses to an int, and float() overflows)."""
    try:
        number = float(value)
    except OverflowError:
        return None
    return number if math.isfinite(number) else None


def board_picture_path(track: Track, track_path: str | os.PathLike[str] | None,
                   out: Path, notes: list[str]) -> Path | None:
    """The board picture to draw under the track, if the track names one that exists.

    A name that no file can have (one holding a NUL character, or longer than the file
    system allows) makes the picture missing, not the render impossible: it is left out with
    a note in ``notes`` naming the track file and ``/board/image``, as docs/bad-input.md says.
    A picture that simply is not there is left out without one, as it always was: a track is
    often passed on without its scan."""
    image = track.board.image
    if track_path is None or not image:
        return None
    try:
        if "\0" in image:  # any call with it raises ValueError("embedded null byte")
            raise ValueError("it holds a NUL character")
        picture = (Path(track_path).resolve().parent / image).resolve()
        if not picture.is_file() or picture == out.resolve():
            return None
    except (OSError, ValueError, RuntimeError) as err:  # RuntimeError: a loop of symlinks
        from trackformat.sim.batch.report_file import name  # see load_heatmap

        why = getattr(err, "strerror", None) or str(err)
        notes.append(f"{track_path}: /board/image: the board picture {name(image)} cannot be "
                     f"read ({why}): drawn without it")
        return None
    return picture


IDENTITY = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0))
"""The placement of a board picture that has none: its pixels are the board's."""


def _svg_picture(picture: Path, placement: Placement | None) -> tuple[int, int, str] | None:
    """The board picture's size (read from its header only) and its placement as an SVG
    ``transform``; None for a picture that cannot be read, which is then stretched over the
    board as a plain reference."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(picture) as opened:
                width, height = opened.size
    except (Image.DecompressionBombError, OSError, ValueError):
        return None
    (a, b, c), (d, e, f) = placement.matrix if placement else IDENTITY
    return width, height, f"matrix({a!r} {d!r} {b!r} {e!r} {c!r} {f!r})"


def placed_picture(picture: Image.Image, size: tuple[int, int], scale: float,
            placement: Placement | None, background: tuple[int, int, int]) -> Image.Image:
    """A ``size`` image (the board drawn ``scale`` times larger) showing ``picture`` through
    its placement, the background where the picture does not reach."""
    (a, b, c), (d, e, f) = placement.matrix if placement else IDENTITY
    det = a * e - b * d
    # Pillow asks, for each output pixel, which picture pixel to take: the inverse map,
    # from supersampled board pixels.
    inverse = (e / det / scale, -b / det / scale, (b * f - e * c) / det,
               -d / det / scale, a / det / scale, (d * c - a * f) / det)
    return picture.transform(size, Image.Transform.AFFINE, inverse,
                             resample=Image.Resampling.BILINEAR, fillcolor=background)


def render_png(scene: Scene, backdrop: Path | None = None, placement: Placement | None = None,
               notes: list[str] | None = None) -> Image.Image:
    """The scene as a palette image at the board's size (anti-aliased by supersampling), or
    smaller for a board larger than :data:`MAX_PICTURE_PIXELS`, over the board picture
    ``backdrop`` drawn through its ``placement`` (pixel for pixel without); ``notes`` receives
    what the user should be told about it."""
    notes = notes if notes is not None else []
    shrink = picture_scale(scene.width, scene.height)
    final = (max(1, round(scene.width * shrink)), max(1, round(scene.height * shrink)))
    if shrink < 1.0:
        notes.append(
            f"the board is {scene.width} x {scene.height} px, too large to draw at full size: "
            f"drawn at {final[0]} x {final[1]} px ({100 * shrink:.2g}% of its size)"
        )
    scale = SUPERSAMPLE * shrink
    size = (final[0] * SUPERSAMPLE, final[1] * SUPERSAMPLE)
    image = Image.new("RGB", size, scene.background)
    if backdrop is not None:
        board = open_board_picture(backdrop, notes)
        if board is not None:
            image = placed_picture(board, size, scale, placement, scene.background)
    draw = ImageDraw.Draw(image)
    fonts: dict[tuple[int, bool], tuple[Font, bool]] = {}
    for item in scene.items:
        if isinstance(item, Fill):
            points = [(x * scale, y * scale) for x, y in item.points]
            draw.polygon(points, fill=item.colour)
            if item.outline is not None and item.width > 0:
                # An outline drawn as a closed line: Pillow's wide polygon outline builds a
                # mask the size of the picture for every space, hundreds of times slower.
                draw.line([*points, points[0], points[1]], fill=item.outline,
                          width=max(round(item.width * scale), 1), joint="curve")
        elif isinstance(item, Stroke):
            points = [(x * scale, y * scale) for x, y in item.points]
            draw.line(points, fill=item.colour, width=max(round(item.width * scale), 1))
        elif isinstance(item, Label):
            _label(draw, item, scale, fonts)
    small = image.reduce(SUPERSAMPLE)
    return small.quantize(PALETTE_COLOURS, method=Image.Quantize.MEDIANCUT,
                          dither=Image.Dither.NONE)


def open_board_picture(path: Path, notes: list[str]) -> Image.Image | None:
    """The board picture as RGB, or None (with a note) when it cannot or should not be drawn:
    its size is read from the file's header and checked before any pixel is decoded."""
    limit = f"more than the {MAX_BOARD_PICTURE_PIXELS // (1024 * 1024)} million pixels"
    too_large = f"the board picture {path.name} is too large to draw under a track"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            picture = Image.open(path)
        with picture:
            width, height = picture.size
            if width * height > MAX_BOARD_PICTURE_PIXELS:
                notes.append(f"{too_large} ({width} x {height} px, {limit}): drawn without it")
                return None
            return picture.convert("RGB")
    except Image.DecompressionBombError:  # Pillow's own, larger limit, checked on opening
        notes.append(f"{too_large} (its header claims far {limit}): drawn without it")
    except (OSError, ValueError) as err:
        notes.append(f"the board picture {path.name} cannot be read ({err}): drawn without it")
    return None


def _label(
    draw: ImageDraw.ImageDraw,
    item: Label,
    scale: float,
    fonts: dict[tuple[int, bool], tuple[Font, bool]],
) -> None:
    size = max(round(item.size * scale), 6)
    font, full = _font(size, item.bold, fonts)
    text = item.text if full else _plain(item.text)
    at = (item.at[0] * scale, item.at[1] * scale)
    if item.box is not None:
        left, top, right, bottom = draw.textbbox(at, text, font=font, anchor="mm")
        pad = size * 0.3
        width = max(right - left, bottom - top)
        half_w, half_h = width / 2 + pad, (bottom - top) / 2 + pad
        cx, cy = (left + right) / 2, (top + bottom) / 2
        draw.rounded_rectangle(
            (cx - half_w, cy - half_h, cx + half_w, cy + half_h),
            radius=size * 0.2, fill=item.box, outline=item.box_outline,
            width=max(round(size * 0.08), 1),
        )
    draw.text(at, text, fill=item.colour, font=font, anchor="mm")


FONT_FILES = {
    False: ("DejaVuSans.ttf", "Arial.ttf", "arial.ttf", "Helvetica.ttc"),
    True: ("DejaVuSans-Bold.ttf", "Arial Bold.ttf", "arialbd.ttf", "Helvetica.ttc"),
}
"""Fonts looked up by name in the system's font folders, best first; Pillow's own font (which
has no accented letters) is the last resort."""


def _font(
    size: int, bold: bool, fonts: dict[tuple[int, bool], tuple[Font, bool]]
) -> tuple[Font, bool]:
    """A font of ``size`` pixels, and whether it has accented letters."""
    key = (size, bold)
    if key not in fonts:
        for name in FONT_FILES[bold]:
            try:
                fonts[key] = (ImageFont.truetype(name, size), True)
                break
            except OSError:
                continue
        else:
            fonts[key] = (ImageFont.load_default(size=size), False)
    return fonts[key]


def _plain(text: str) -> str:
    """``text`` without accents, for a font that lacks them (Sainte Dévote -> Sainte Devote)."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))
