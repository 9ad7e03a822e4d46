"""GP Online interop: its ``.dat`` track files in and out.

GP Online is a free Java Formula D program with its own track editor; its circuits can be
imported here to be checked and improved, and exported back to be played there.
"""

from __future__ import annotations

from pathlib import Path

from trackformat.interop.gponline.dat import DatError, DatFile, NodeType, format_dat, parse_dat
from trackformat.interop.gponline.exporter import (
    ExportResult,
    GPOnlineExportError,
    export_track,
)
from trackformat.interop.gponline.importer import GPOnlineImportError, ImportResult, import_dat

MAX_DAT_BYTES = 10 * 1024 * 1024


def read_dat_file(path: Path) -> DatFile:
    """Read and parse a ``.dat`` file; raises :class:`DatError` with the file and line at fault."""
    source = str(path)
    try:
        if path.stat().st_size > MAX_DAT_BYTES:
            raise DatError(source, None, "the file is too large to be a GP Online track")
        data = path.read_bytes()
    except OSError as err:
        raise DatError(source, None, f"cannot be read: {err.strerror or err}") from None
    if b"\x00" in data[:4096]:
        raise DatError(source, None, "binary data, not a GP Online track file")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    return parse_dat(text, source)


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
    "export_track",
    "format_dat",
    "import_dat",
    "import_file",
    "parse_dat",
    "read_dat_file",
]
