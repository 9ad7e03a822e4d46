"""Reading and writing track files: JSON, format versions and migrations, located errors."""

from trackformat.io.errors import Problem, TrackFileError, json_pointer
from trackformat.io.files import FileRefused, check_writable, read_limited
from trackformat.io.jsonio import (
    dumps_document,
    dumps_track,
    load_track,
    loads_track,
    parse_json,
    save_track,
    track_from_document,
    track_to_document,
    write_atomically,
    write_text_atomically,
)
from trackformat.io.migrations import MIGRATIONS, MigrationError, upgrade

__all__ = [
    "MIGRATIONS",
    "FileRefused",
    "MigrationError",
    "Problem",
    "TrackFileError",
    "check_writable",
    "dumps_document",
    "dumps_track",
    "json_pointer",
    "load_track",
    "loads_track",
    "parse_json",
    "read_limited",
    "save_track",
    "track_from_document",
    "track_to_document",
    "upgrade",
    "write_atomically",
    "write_text_atomically",
]
