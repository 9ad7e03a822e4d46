"""``trackformat trace``: a board picture in, a draft track out.

The tracer (:mod:`trackformat.trace`) needs the image libraries of the ``trace`` extra, which
the rest of the command line does not: it is imported only when this command runs, so that
``trackformat validate`` works (and starts fast) without them, and a missing library is a
message saying what to install, not a traceback.

Writes the draft track and, beside it, its trace report (``<draft>.trace.json``: each space's
confidence, the links guessed and what to check), both atomically.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from trackformat.cli.output import emit, error
from trackformat.cli.paths import FileRoles, same_file
from trackformat.io import dumps_document, save_track, write_text_atomically

EXIT_OK, EXIT_UNUSABLE = 0, 2

EXIT_CODES_HELP = """\
exit codes:
  0  the draft and its report were written
  2  the picture cannot be traced (not a picture, too large, no road found), the image
     libraries are missing, or an output cannot be written (the message says which)
  3  internal error in trackformat (please report it with the picture that caused it)

docs/trace.md explains the draft, its report and how well the tracer does on real boards.
"""


def report_path(output: Path) -> Path:
    """Where the trace report of the draft ``output`` goes: ``draft.json`` ->
    ``draft.trace.json``, beside it."""
    return output.with_name(f"{output.stem}.trace.json")


def picture_reference(picture: Path, output: Path) -> str:
    """The picture's path as the draft names it: relative to the draft's folder, with forward
    slashes (its bare name when no relative path exists, as across Windows drives)."""
    try:
        relative = os.path.relpath(picture.resolve(), output.resolve().parent)
    except ValueError:
        return picture.name
    return Path(relative).as_posix()


def _space_length(text: str) -> float:
    value = float(text)
    if not math.isfinite(value) or value < 4:
        raise argparse.ArgumentTypeError(f"{text}: a space is at least 4 px long")
    return value


def _lanes(text: str) -> int:
    value = int(text)
    if not 1 <= value <= 8:
        raise argparse.ArgumentTypeError(f"{text}: a track has 1 to 8 lanes")
    return value


def cmd_trace(args: argparse.Namespace) -> int:
    """Trace the picture and write the draft and its report."""
    try:
        from trackformat.trace import TraceError, trace_picture
    except ImportError as err:
        error(f"trackformat trace: the tracer needs the image libraries ({err.name or err}): "
              'install them with: pip install "formula-d-trackkit[trace]"')
        return EXIT_UNUSABLE
    picture, output = Path(args.picture), Path(args.output)
    report = report_path(output)
    if same_file(report, picture):
        error(f"trackformat trace: {report}: is the input picture; writing the report there "
              "would destroy it, so nothing was written: choose another output name")
        return EXIT_UNUSABLE
    progress = _progress_printer() if args.progress else None
    try:
        result = trace_picture(picture, args.lanes, space_length=args.space_length,
                               image_name=picture_reference(picture, output),
                               progress=progress)
    except TraceError as err:
        error(f"trackformat trace: {err}")
        return EXIT_UNUSABLE
    try:
        save_track(result.track, output)
        write_text_atomically(report, dumps_document(result.report()))
    except OSError as err:
        error(f"trackformat trace: {err.filename or output}: cannot be written: "
              f"{err.strerror or err}")
        return EXIT_UNUSABLE
    emit(_summary(result, output, report))
    return EXIT_OK


def _summary(result: Any, output: Path, report: Path) -> str:
    """What was written, in one paragraph: counts, the weak spaces, what to check."""
    track = result.track
    weak = result.weak_spaces()
    finish = "a finish line" if track.finish_line is not None else "no finish line found"
    grid = f"{len(track.grid)} grid slots" if track.grid else "no grid"
    pit = (f"a pit lane of {len(track.pit_lane.spaces)} spaces" if track.pit_lane is not None
           else "no pit lane found")
    lines = [
        f"wrote {output}: {len(track.spaces)} spaces in {len(track.lanes)} lanes, "
        f"{len(track.links)} links, {len(track.corners)} corners, {finish}, {grid}, {pit}",
        f"wrote {report}: {len(weak)} spaces of low confidence, "
        f"{len(result.diagnostics)} things to check",
    ]
    lines += [f"  {d.code} {d.message}" for d in result.diagnostics if d.code != "TRACE001"]
    return "\n".join(lines)


def _progress_printer() -> Callable[[float, str], None]:
    """A progress callback that prints each stage on stderr."""

    def show(share: float, stage: str) -> None:
        print(f"{share:4.0%} {stage}", file=sys.stderr, flush=True)

    return show


def register(command: Callable[[str, str], argparse.ArgumentParser]) -> None:
    """Add the ``trace`` command to the command line's parser."""
    trace = command("trace", "trace a board picture into a draft track (needs the 'trace' "
                             "extra)")
    trace.epilog = EXIT_CODES_HELP
    trace.add_argument("picture", metavar="PICTURE", help="the board picture (PNG, JPEG, ...)")
    trace.add_argument("--lanes", required=True, type=_lanes, metavar="N",
                       help="how many lanes the circuit has (1 to 8)")
    trace.add_argument("--space-length", type=_space_length, metavar="PX",
                       help="length of a space in the picture's pixels (default: measured)")
    trace.add_argument("-o", "--output", required=True, metavar="DRAFT",
                       help="the draft track to write; its report goes beside it "
                            "(DRAFT.trace.json)")
    trace.add_argument("--progress", action="store_true",
                       help="print each stage on stderr as it starts")
    trace.set_defaults(run=cmd_trace, file_roles=FileRoles(("picture",), ("output",)))
