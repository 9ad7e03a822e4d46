"""``trackformat render``: a track drawn to a PNG or SVG picture, or printed to a PDF.

The drawing modules are imported when the command runs: rendering needs Pillow and printing
fpdf2, which the other commands must not pay for at start-up.
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

# Imported by build_parser, once the package is loaded: its UsageError exits 2 with a message.
from trackformat.cli import UsageError
from trackformat.cli.output import emit, error
from trackformat.cli.paths import FileRoles, refuse_output_onto_picture
from trackformat.io import TrackFileError, load_track

EXIT_OK, EXIT_UNUSABLE = 0, 2
PICTURES = (".png", ".svg")
PAPERS = ("A4", "A3", "letter", "poster")
"""The ``--paper`` choices (``trackformat.interop.render_pdf.PAPER_CHOICES``, named here so that
building the parser does not import the PDF library)."""


def _drawing(suffix: str, args: argparse.Namespace) -> tuple[Callable[..., Any], dict[str, Any]]:
    """The function that draws to ``suffix`` and the options it takes from the command line."""
    if suffix == ".pdf":
        printing = importlib.import_module("trackformat.interop.render_pdf")
        options = {"paper": args.paper, "space_mm": args.space_mm,
                   "with_picture": args.with_picture}
        return printing.print_to_file, {k: v for k, v in options.items() if v is not None}
    if args.paper or args.space_mm is not None or args.with_picture:
        raise UsageError("--paper, --space-mm and --with-picture are for printing: "
                               "name a .pdf")
    return importlib.import_module("trackformat.interop.render").render_to_file, {}


def cmd_render(args: argparse.Namespace) -> int:
    out = Path(args.output)
    suffix = out.suffix.lower()
    if suffix not in (*PICTURES, ".pdf"):
        raise UsageError(f"{out}: the picture must end in .png, .svg or .pdf")
    try:
        draw, options = _drawing(suffix, args)
    except (ImportError, AttributeError) as err:
        error(f"rendering is not available in this installation ({err})")
        return EXIT_UNUSABLE
    try:
        track = load_track(args.track)
    except TrackFileError as err:
        error(err.render())
        return EXIT_UNUSABLE
    refuse_output_onto_picture(out, track, args.track)
    options["track_path"] = Path(args.track)
    if args.heatmap is not None:
        options |= {"heatmap": Path(args.heatmap), "heat": args.heat}
    try:
        done = draw(track, out, **options)
    except TrackFileError as err:
        error(err.render())
        return EXIT_UNUSABLE
    except (OSError, ValueError, MemoryError) as err:
        error(f"{out}: cannot render: {err or type(err).__name__}")
        return EXIT_UNUSABLE
    # A picture returns its notes; a print its notes and a summary of its size and pages.
    notes, summary = (done.notes, f": {done.summary}") if suffix == ".pdf" else (done, "")
    for note in notes:
        error(f"{out}: note: {note}")
    emit(f"wrote {out}{summary}")
    return EXIT_OK


def _millimetres(text: str) -> float:
    """A ``--space-mm`` value: a number of millimetres a space can be printed at."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of millimetres") from None
    if not 1.0 <= value <= 200.0:
        raise argparse.ArgumentTypeError(f"{text} mm is not a printable space (1 to 200 mm)")
    return value


def register(command: Callable[[str, str], argparse.ArgumentParser]) -> None:
    render = command("render", "draw a track to a PNG or SVG picture, or print it to a PDF")
    render.add_argument("track", metavar="TRACK", help="track file")
    render.add_argument("-o", "--output", required=True, metavar="OUT",
                        help="OUT.png, OUT.svg, or OUT.pdf to print the board at table scale")
    render.add_argument("--paper", choices=PAPERS,
                        help="PDF: pages to tile the board over, or one poster page of the "
                             "board's size (default: A4)")
    render.add_argument("--space-mm", type=_millimetres, metavar="MM",
                        help="PDF: printed size of a space (default: the published boards', "
                             "which prints Monaco 100 cm wide)")
    render.add_argument("--with-picture", action="store_true",
                        help="PDF: print the board picture underneath")
    render.add_argument(
        "--heatmap", metavar="REPORT",
        help="colour spaces from a test-drive report (or a JSON object of space ids and numbers)",
    )
    render.add_argument(
        "--heat", choices=("stops", "overshoots", "eliminations"), default="stops",
        help="which count of a test-drive report to paint (default: stops)",
    )
    render.set_defaults(
        run=cmd_render, file_roles=FileRoles(inputs=("track", "heatmap"), outputs=("output",))
    )
