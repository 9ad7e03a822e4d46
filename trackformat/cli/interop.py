"""``trackformat import`` and ``export``: tracks to and from other Formula D programs.

One format so far, GP Online's ``.dat``. Both commands print what had to be inferred or left out
as warnings on stderr; a file that cannot be read or written exits 2 with a located message.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from trackformat.cli.paths import FileRoles, OutputRefused, refuse_output_onto_picture
from trackformat.interop.gponline import (
    DatError,
    GPOnlineExportError,
    GPOnlineImportError,
    export_file,
    import_file,
)
from trackformat.io import TrackFileError, load_track, save_track
from trackformat.lint import validate

FORMATS = ("gponline",)
EXIT_OK, EXIT_INVALID, EXIT_UNUSABLE = 0, 1, 2


def _warn(lines: list[str], source: str) -> None:
    for line in lines:
        print(f"{source}: warning: {line}", file=sys.stderr)


def cmd_import(args: argparse.Namespace) -> int:
    source = Path(args.file)
    try:
        result = import_file(source, name=args.name)
    except (DatError, GPOnlineImportError) as err:
        print(str(err), file=sys.stderr)
        return EXIT_UNUSABLE
    out = Path(args.output)
    track = result.track
    try:
        refuse_output_onto_picture(out, track, source)
    except OutputRefused as err:
        print(err, file=sys.stderr)
        return EXIT_UNUSABLE
    _warn(result.warnings, str(source))
    if track.board.image:
        # The picture sits beside the .dat; store it relative to the new track file.
        import os

        picture = (source.parent / track.board.image).resolve()
        relative = Path(os.path.relpath(picture, out.resolve().parent)).as_posix()
        track = track.model_copy(
            update={"board": track.board.model_copy(update={"image": relative})}
        )
    try:
        save_track(track, out)
    except OSError as err:
        print(f"{out}: cannot be written: {err.strerror or err}", file=sys.stderr)
        return EXIT_UNUSABLE
    report = validate(track, source=str(out))
    print(
        f"wrote {out}: {len(track.spaces)} spaces, {len(track.corners)} corners; {report.summary()}"
    )
    return EXIT_OK if report.ok else EXIT_INVALID


def cmd_export(args: argparse.Namespace) -> int:
    try:
        track = load_track(args.track)
    except TrackFileError as err:
        print(err.render(), file=sys.stderr)
        return EXIT_UNUSABLE
    try:
        refuse_output_onto_picture(args.output, track, args.track)
    except OutputRefused as err:
        print(err, file=sys.stderr)
        return EXIT_UNUSABLE
    out = Path(args.output)
    # The header names the board picture relative to the .dat, as the track names it relative
    # to the track file.
    picture = Path(args.track).parent / track.board.image if track.board.image else None
    try:
        result = export_file(
            track, out, picture=picture, image=args.image, info_corner=args.info_corner
        )
    except GPOnlineExportError as err:
        print(f"{args.track}: cannot export to GP Online: {err}", file=sys.stderr)
        return EXIT_UNUSABLE
    except OSError as err:
        print(f"{out}: cannot be written: {err.strerror or err}", file=sys.stderr)
        return EXIT_UNUSABLE
    _warn(result.warnings, str(args.track))
    print(f"wrote {out}: {len(result.dat.nodes)} nodes, {len(result.dat.edges)} edges")
    return EXIT_OK


def register(command: Callable[[str, str], argparse.ArgumentParser]) -> None:
    """Add the ``import`` and ``export`` commands to the command line's parser."""
    importer = command("import", "import a track from another program's file")
    importer.add_argument("format", choices=FORMATS, help="the other program's format")
    importer.add_argument("file", metavar="FILE", help="the file to import (GP Online: .dat)")
    importer.add_argument(
        "-o", "--output", required=True, metavar="TRACK", help="track file to write"
    )
    importer.add_argument("--name", help="the track's name (default: the board picture's name)")
    importer.set_defaults(run=cmd_import, file_roles=FileRoles(("file",), ("output",)))

    exporter = command("export", "export a track to another program's file")
    exporter.add_argument("format", choices=FORMATS, help="the other program's format")
    exporter.add_argument("track", metavar="TRACK", help="track file")
    exporter.add_argument("-o", "--output", required=True, metavar="FILE", help="file to write")
    exporter.add_argument("--image", help="board picture named in the file (default: the track's)")
    exporter.add_argument(
        "--info-corner",
        type=int,
        default=None,
        choices=range(5),
        metavar="0-4",
        help="GP Online: the board corner where its info box goes (default: the track's, as "
        "imported from GP Online, else 0)",
    )
    exporter.set_defaults(run=cmd_export, file_roles=FileRoles(("track",), ("output",)))
