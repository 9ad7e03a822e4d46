"""GP Online interop: its ``.dat`` track files in and out.

GP Online is a free Java Formula D program with its own track editor; its circuits can be
imported here to be checked and improved, and exported back to be played there.
"""

from __future__ import annotations

from pathlib import Path

from trackformat.interop.gponline.dat import (
    MAX_DAT_BYTES,
    DatError,
    DatFile,
    NodeType,
    decode_dat,
    format_dat,
    parse_dat,
)
from trackformat.interop.gponline.exporter import (
    ExportResult,
    GPOnlineExportError,
    export_file,
    export_track,
)
from trackformat.interop.gponline.importer import GPOnlineImportError, ImportResult, import_dat
from trackformat.io.files import FileRefused, read_limited


def read_dat_file(path: Path) -> DatFile:
    """Read and parse a ``.dat`` file; raises :class:`DatError` with the file and line at fault.

    Read like a track file: only a regular file (a device such as ``/dev/zero`` never ends), and
    never more than :data:`MAX_DAT_BYTES`, whatever the file system says its size is."""
    source = str(path)
    try:
        data = read_limited(path, MAX_DAT_BYTES, "GP Online track file")
    except FileRefused as err:
        raise DatError(source, None, err.reason) from None
    except IsADirectoryError:
        raise DatError(source, None, "is a folder, not a GP Online track file") from None
    except OSError as err:
        raise DatError(source, None, f"cannot be read: {err.strerror or err}") from None
    return parse_dat(decode_dat(data, source), source)


def import_file(path: Path, name: str | None = None) -> ImportResult:
    """Import a ``.dat`` file, looking for its board picture beside it."""
    dat = read_dat_file(path)
    return import_dat(dat, str(path), board_dir=path.parent, name=name)


__all__ = [
    "DatError",
    "DatFile",
    "ExportResult",
    "GPOnlineExportError",
    "GPOnlineImportError",
    "ImportResult",
    "NodeType",
    "export_file",
    "export_track",
    "format_dat",
    "import_dat",
    "import_file",
    "parse_dat",
    "read_dat_file",
]
