"""Where the compiled kernel is kept between runs: a folder this user can write to, chosen once
per process, and whether there is one at all.

numba keeps the machine code of each compiled function on disk. By default it would write next
to the module, inside site-packages, which a user often cannot write to; the kernel's code goes
instead to the user's cache folder (``$XDG_CACHE_HOME``, ``~/.cache`` or the platform's
equivalent, under ``formula-d-trackkit/numba``), or under ``NUMBA_CACHE_DIR`` when the user sets
it, one subfolder per version of the kernel's source.

A home folder can be read-only (a sandbox, a shared lab machine, a container). numba then
refuses even to define a function marked for caching, which stopped every test drive with an
internal error. So the folder is checked first: when it cannot be written, a folder of this
user's own in the temporary folder keeps the kernel instead; failing that, nothing keeps it
(:data:`KEPT` is False): each process that races on the kernel compiles it in memory, and the
batches that would have compiled it in a process of their own race on the reference engine
(see :mod:`trackformat.sim.batch.engines`). :data:`NOTE` says which, in words.

No numba here: a process that only asks whether the kernel is compiled need not import it.
"""

from __future__ import annotations

import hashlib
import os
import stat
import sys
import tempfile
from importlib import metadata
from pathlib import Path
from typing import NamedTuple


def cache_folder() -> Path:
    """Where compiled code is kept between runs, unless ``NUMBA_CACHE_DIR`` says otherwise."""
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "formula-d-trackkit" / "numba"


def source_fingerprint() -> str:
    """A hash of the kernel's source (and of the generator's constants it compiles in), of
    where it is installed, and of the numba and Python that compile it.

    numba checks a cached function against its own file only: a function that calls into
    another module, or reads a constant from it, would keep running its old machine code after
    that module changed. Every version of the kernel's source therefore gets its own folder.
    So does every numba, every Python and every place of install: numba would find none of its
    machine code in the folder of another, and compile the whole kernel again in the first
    race, unannounced, since the folder says it is compiled."""
    folder = Path(__file__).resolve().parent
    digest = hashlib.blake2b(digest_size=8)
    for path in (*sorted(folder.glob("*.py")), folder.parent / "core" / "dice.py"):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    digest.update(f"{folder}|{compiler_version()}|{sys.version}".encode())
    return digest.hexdigest()


def compiler_version() -> str:
    """The version of numba installed (read from its metadata: numba is not imported here)."""
    try:
        return metadata.version("numba")
    except metadata.PackageNotFoundError:
        return "none"


class Place(NamedTuple):
    """Where this version of the kernel is kept: its folder, whether it can be written there
    (False: compiled in memory by each process), and why it is not in the preferred folder, in
    words (None when it is)."""

    folder: Path
    kept: bool
    note: str | None


def why_unwritable(folder: Path) -> str | None:
    """None when ``folder`` can be made and a file written in it; else the system's reason."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as error:
        return error.strerror or str(error)
    return None


def private_temporary(temporary: Path | None = None) -> Path | None:
    """A folder of this user's own in the temporary folder (made if need be), for compiled code;
    None when it cannot be made, or when it is not this user's alone: numba runs the code it
    finds in its cache, so no one else may be able to write there."""
    base = temporary if temporary is not None else Path(tempfile.gettempdir())
    getuid = getattr(os, "getuid", None)
    user = getuid() if getuid is not None else None
    top = base / (f"formula-d-trackkit-{user}" if user is not None else "formula-d-trackkit")
    try:
        top.mkdir(mode=0o700, exist_ok=True)
        status = top.lstat()
    except OSError:
        return None
    if not stat.S_ISDIR(status.st_mode):
        return None  # a link or a file in its place
    if user is not None and (status.st_uid != user or status.st_mode & 0o022):
        return None
    return top / "numba"


def place_for(preferred: Path, version: str, temporary: Path | None = None) -> Place:
    """Where version ``version`` of the kernel is kept: under ``preferred`` if it can be
    written, else in this user's own temporary folder, else nowhere (its folder under
    ``preferred``, not kept)."""
    first = preferred / f"kernel-{version}"
    why = why_unwritable(first)
    if why is None:
        return Place(first, True, None)
    spare = private_temporary(temporary)
    if spare is not None:
        folder = spare / f"kernel-{version}"
        if why_unwritable(folder) is None:
            return Place(folder, True, f"{preferred} cannot be written ({why}), so the compiled "
                                       f"kernel is kept in {spare}")
    return Place(first, False, f"no folder can keep the compiled kernel: {preferred} cannot be "
                               f"written ({why}), nor a folder of this user's own in the "
                               "temporary folder; set NUMBA_CACHE_DIR to a folder you can "
                               "write to")


PLACE = place_for(Path(os.environ.get("NUMBA_CACHE_DIR") or cache_folder()),
                  source_fingerprint())
CACHE = PLACE.folder
"""The folder numba keeps the compiled kernel in, for this version of its source."""
KEPT = PLACE.kept
"""Whether the compiled kernel can be kept in :data:`CACHE` (False: compiled in memory, by
each process that races on it)."""
NOTE = PLACE.note
"""Why the kernel is not kept in the user's cache folder, in words; None when it is."""
