"""The ``trackformat`` command line: validate, describe, export the schema of and render tracks.

Meant for designers checking a file by hand and for CI checking a folder of tracks, so every
outcome is an exit code and a message that names the file and the place in it; a traceback is
never what a user sees (set ``TRACKFORMAT_DEBUG=1`` to get one when hunting a bug).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from trackformat import __version__
from trackformat.cli.output import emit, error, guarded_output
from trackformat.cli.paths import (
    FileRoles,
    OutputRefused,
    check_declared,
)
from trackformat.io import TrackFileError, dumps_document, load_track, write_text_atomically
from trackformat.io.files import megabytes
from trackformat.io.jsonio import MAX_FILE_BYTES
from trackformat.model.track import CURRENT_FORMAT_VERSION, FORMAT_NAME, Track

if TYPE_CHECKING:
    from trackformat.rules import Ruleset

EXIT_OK = 0
"""Every file read, and validation found no error (warnings and notes do not count)."""
EXIT_INVALID = 1
"""Every file read, and validation found at least one error."""
EXIT_UNUSABLE = 2
"""A file could not be read or is not a track file, or the command line itself was wrong."""
EXIT_INTERNAL = 3
"""A bug in trackformat; the message asks for a report."""

SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"
SCHEMA_ID = f"urn:{FORMAT_NAME}:schema:{CURRENT_FORMAT_VERSION}"

_TRACK_LIMIT = megabytes(MAX_FILE_BYTES)
EXIT_CODES_HELP = f"""\
exit codes:
  0  every file was read and no validation error was found (warnings do not fail)
  1  every file was read, and at least one has validation errors
  2  a file could not be read or is not a track file (the message says where),
     or the command line was wrong
  3  internal error in trackformat (please report it with the file that caused it)

Messages name the file and the place in it: a JSON pointer such as /spaces/4/polygon,
or "line N, column M" for JSON syntax errors. Track files are read up to {_TRACK_LIMIT}, and
only from regular files (not devices or pipes): docs/bad-input.md lists every limit.
"""


class UsageError(Exception):
    """A command line that asks for something impossible (unknown rule code, bad extension)."""


# -- output -------------------------------------------------------------------------------------


def json_text(document: Any) -> str:
    """JSON laid out like a track file: short parts on one line, stable from run to run."""
    return dumps_document(document).rstrip("\n")


# -- validate -----------------------------------------------------------------------------------


def _selected_codes(selections: list[str] | None) -> list[str] | None:
    """Rule codes asked for with ``--select`` (codes or rule names, comma separated)."""
    if not selections:
        return None
    from trackformat.lint import all_rules

    rules = all_rules()
    by_key = {r.code.upper(): r.code for r in rules} | {r.name.lower(): r.code for r in rules}
    codes: list[str] = []
    for item in (part.strip() for chunk in selections for part in chunk.split(",")):
        if not item:
            continue
        code = by_key.get(item.upper()) or by_key.get(item.lower())
        if code is None:
            known = ", ".join(r.code for r in rules) or "none registered"
            raise UsageError(f"unknown rule {item!r} in --select (known codes: {known})")
        if code not in codes:
            codes.append(code)
    return codes


def _unreadable_entry(err: TrackFileError) -> dict[str, Any]:
    problems = [
        {"message": p.message, "pointer": p.pointer, "line": p.line, "column": p.column}
        for p in err.problems
    ]
    return {"file": err.path, "readable": False, "ok": False, "problems": problems}


def cmd_validate(args: argparse.Namespace) -> int:
    from trackformat.lint import validate

    codes = _selected_codes(args.select)
    entries: list[dict[str, Any]] = []
    texts: list[str] = []
    unreadable = invalid = 0
    for name in args.paths:
        source = str(Path(name))
        try:
            track = load_track(name)
        except TrackFileError as err:
            unreadable += 1
            error(err.render())
            entries.append(_unreadable_entry(err))
            continue
        except OSError as err:
            unreadable += 1
            error(f"{source}: cannot be read: {err.strerror or err}")
            entries.append({"file": source, "readable": False, "ok": False,
                            "problems": [{"message": str(err.strerror or err)}]})
            continue
        report = validate(track, codes=codes, source=source)
        invalid += 0 if report.ok else 1
        entries.append({"readable": True, **report.to_json()})
        texts.append(report.to_text())

    if args.format == "json":
        emit(json_text({"ok": unreadable == 0 and invalid == 0, "files": entries}))
    else:
        for text in texts:
            emit(text)
        if len(args.paths) > 1:
            emit(f"{len(args.paths)} files: {invalid} with errors, {unreadable} unreadable")
    if unreadable:
        return EXIT_UNUSABLE
    return EXIT_INVALID if invalid else EXIT_OK


def read_track(path: str) -> Track | None:
    """The track file at ``path``, or None once the reason it cannot be read is printed (the
    command then exits 2)."""
    try:
        return load_track(path)
    except TrackFileError as err:
        error(err.render())
    except OSError as err:
        error(f"{Path(path)}: cannot be read: {err.strerror or err}")
    return None


def read_ruleset(name: str) -> Ruleset | None:
    """The ruleset ``--ruleset`` names (a preset or a file), or None
    once the reason it cannot be read is printed (the command then exits 2)."""
    from trackformat.rules import RulesetError, load_ruleset

    try:
        return load_ruleset(name)
    except RulesetError as err:
        error(err.render())
    return None


# -- schema -------------------------------------------------------------------------------------


def track_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a track file, generated from the models."""
    generated = Track.model_json_schema(by_alias=True)
    head = {
        "$schema": SCHEMA_DIALECT,
        "$id": SCHEMA_ID,
        "title": f"Formula D track file (format version {CURRENT_FORMAT_VERSION})",
    }
    schema = head | {key: value for key, value in generated.items() if key != "title"}
    # The model defaults format_version for programs building tracks in memory, but a file must
    # state its version (the loader refuses one that does not), so the schema requires it.
    schema["required"] = ["format_version", *schema["required"]]
    return schema


def cmd_schema(args: argparse.Namespace) -> int:
    text = dumps_document(track_schema())
    if args.output is None:
        sys.stdout.write(text)
        return EXIT_OK
    try:
        write_text_atomically(Path(args.output), text)
    except OSError as err:
        error(f"{args.output}: cannot be written: {err.strerror or err}")
        return EXIT_UNUSABLE
    return EXIT_OK


# -- parser and entry point ---------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    """The argument parser; its ``--help`` documents the exit codes."""
    parser = argparse.ArgumentParser(
        prog="trackformat",
        description="Check, describe and export Formula D track files.",
        epilog=EXIT_CODES_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, summary: str) -> argparse.ArgumentParser:
        return commands.add_parser(
            name, help=summary, description=summary, epilog=EXIT_CODES_HELP,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )

    validate = command("validate", "validate track files and list every problem found")
    validate.add_argument("paths", nargs="+", metavar="PATH", help="track files to check")
    validate.add_argument(
        "--format", choices=("text", "json"), default="text",
        help='text: one line per problem; json: one document {"ok": bool, "files": [...]} '
             "with one entry per file (a report, or the reading problems of an unreadable file)",
    )
    validate.add_argument(
        "--select", action="append", metavar="CODES",
        help="run only these rules: codes or names, comma separated (repeatable)",
    )
    validate.set_defaults(run=cmd_validate)

    schema = command("schema", "print the JSON Schema of the track format")
    schema.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of stdout")
    schema.set_defaults(run=cmd_schema, file_roles=FileRoles(inputs=(), outputs=("output",)))

    from trackformat.cli import info, interop, moves, par, race, render, testdrive, trace

    info.register(command)
    render.register(command)
    interop.register(command)
    moves.register(command)
    par.register(command)
    testdrive.register(command)
    race.register(command)
    trace.register(command)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (see ``trackformat --help``)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:  # --help, --version and usage errors
        return stop.code if isinstance(stop.code, int) else EXIT_UNUSABLE
    # A closed pipe (`validate bad.json | head -1`) drops the rest of the output; the command
    # still runs to the end and exits with the code its result deserves.
    with guarded_output():
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    """Run the parsed command, turning every failure into an exit code and a message."""
    try:
        check_declared(args)
        code: int = args.run(args)
        return code
    except (UsageError, OutputRefused) as err:
        error(f"trackformat {args.command}: {err}")
        return EXIT_UNUSABLE
    except KeyboardInterrupt:
        return 130
    except Exception as err:  # the last resort: a bug must still not greet users with a trace
        if os.environ.get("TRACKFORMAT_DEBUG"):
            raise
        error(
            f"trackformat {args.command}: internal error: {type(err).__name__}: {err}\n"
            "This is a bug in trackformat. Please report it with the file that caused it; "
            "set TRACKFORMAT_DEBUG=1 to see the traceback."
        )
        return EXIT_INTERNAL
