"""The contract every fuzzed input must keep, checked on the command line as a user runs it.

For any input up to the size limit: an exit code the command documents (never 3, the code of a
bug), no traceback, no rule that failed (the validator turns a rule's crash into an INTERNAL
error, which is a bug too), and no run over :data:`MEMORY_GROWTH` more memory. The 10 s limit
per input is Hypothesis' deadline, set in :mod:`tests.fuzz.conftest`.

``FUZZ_EXAMPLES`` sets how many inputs each target tries: a few dozen in the normal test run, with
a fixed seed so that CI is repeatable; ``make fuzz`` raises it and draws new inputs each run.
"""

from __future__ import annotations

import contextlib
import io
import resource
import tempfile
from pathlib import Path

from hypothesis import event

from trackformat import cli

MEMORY_GROWTH = 1024 * 1024 * 1024
"""Most the process may grow while handling one input: 1 GB."""

BUG_SIGNS = ("Traceback", "internal error", "INTERNAL", "Exception ignored")


def _peak_bytes() -> int:
    # ru_maxrss is in kilobytes on Linux (bytes on macOS, where this only overestimates).
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def run_cli(*argv: str) -> tuple[int, str]:
    """``trackformat ARGV`` in this process: its exit code and everything it printed."""
    out, err = io.StringIO(), io.StringIO()
    before = _peak_bytes()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(list(argv))
    grown = _peak_bytes() - before
    printed = out.getvalue() + err.getvalue()
    assert grown < MEMORY_GROWTH, f"trackformat {' '.join(argv)} grew by {grown >> 20} MB"
    for sign in BUG_SIGNS:
        assert sign not in printed, f"trackformat {' '.join(argv)} printed {sign!r}:\n{printed}"
    return code, printed


def check_file(data: bytes, name: str = "track.json") -> tuple[int, int]:
    """Write ``data`` to a file and run ``validate`` and ``info`` on it, holding both to the
    contract; their exit codes."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_bytes(data)
        validated, _ = run_cli("validate", str(path))
        assert validated in (cli.EXIT_OK, cli.EXIT_INVALID, cli.EXIT_UNUSABLE)
        described, _ = run_cli("info", "--json", str(path))
        assert described in (cli.EXIT_OK, cli.EXIT_UNUSABLE)
        # Counted in `make fuzz`'s statistics: how many inputs got as far as the validator.
        event(f"validate exit {validated}")
        # A file that loads for one command loads for the other.
        assert (validated == cli.EXIT_UNUSABLE) == (described == cli.EXIT_UNUSABLE)
    return validated, described


def _png(width: int, height: int) -> bytes:
    """A tiny PNG whose header claims ``width`` x ``height`` pixels (a decompression bomb when
    that is large)."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(kind + data) & 0xFFFFFFFF
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\0"))
            + chunk(b"IEND", b""))


PICTURE_BYTES = {
    "bomb": _png(30_000, 30_000),
    "wide": _png(200_000, 10),
    "junk": b"not a picture at all",
    "small": _png(8, 8),
}


def check_import(text: str, picture: str = "none") -> int:
    """Write ``text`` as a ``.dat`` (with a hostile ``picture`` beside it under the names the
    generated files use) and import it, holding the import to the contract; then export the
    imported track and import that again, which must succeed whenever the export did.
    Returns the import's exit code."""
    with tempfile.TemporaryDirectory() as folder:
        base = Path(folder)
        dat = base / "board.dat"
        dat.write_text(text, encoding="utf-8", newline="")
        if picture in PICTURE_BYTES:
            for name in ("board.png", "my board v2.jpg", "two-lanes.jpg", "My Test Board v2.png"):
                (base / name).write_bytes(PICTURE_BYTES[picture])
        imported = base / "imported.json"
        code, _ = run_cli("import", "gponline", str(dat), "-o", str(imported))
        assert code in (cli.EXIT_OK, cli.EXIT_INVALID, cli.EXIT_UNUSABLE)
        event(f"import exit {code}")
        if code != cli.EXIT_UNUSABLE:
            check_export(imported)
    return code


def check_export(track: Path) -> int:
    """Export the track file ``track`` to GP Online, holding the export to the contract; a file
    it writes must import again (exit 0 or 1, never 2). Returns the export's exit code."""
    dat = track.with_name(track.stem + "-exported.dat")
    code, _ = run_cli("export", "gponline", str(track), "-o", str(dat))
    assert code in (cli.EXIT_OK, cli.EXIT_UNUSABLE)
    event(f"export exit {code}")
    assert (code == cli.EXIT_OK) == dat.exists()
    if code == cli.EXIT_OK:
        again, printed = run_cli("import", "gponline", str(dat), "-o", str(dat) + ".json")
        assert again in (cli.EXIT_OK, cli.EXIT_INVALID), f"the export does not import:\n{printed}"
    return code
