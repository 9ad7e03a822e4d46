"""The one place numba is imported: compiled functions, their cache in a user cache folder.

numba compiles each function the first time it runs and can keep the machine code on disk. By
default it would write next to the module, inside site-packages, which a user often cannot write
to; the cache goes instead to the user's cache folder (``$XDG_CACHE_HOME``, ``~/.cache`` or the
platform's equivalent), under ``formula-d-trackkit/numba``, or under ``NUMBA_CACHE_DIR`` when
the user sets it; one subfolder per version of the kernel's source.
"""

from __future__ import annotations

import hashlib
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

F = TypeVar("F", bound=Callable[..., Any])


def cache_folder() -> Path:
    """Where compiled code is kept between runs."""
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "formula-d-trackkit" / "numba"


def source_fingerprint() -> str:
    """A hash of the kernel's source (and of the generator's constants it compiles in).

    numba checks a cached function against its own file only: a function that calls into
    another module, or reads a constant from it, would keep running its old machine code after
    that module changed. Every version of the kernel's source therefore gets its own folder."""
    folder = Path(__file__).resolve().parent
    digest = hashlib.blake2b(digest_size=8)
    for path in (*sorted(folder.glob("*.py")), folder.parent / "core" / "dice.py"):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


CACHE = Path(os.environ.get("NUMBA_CACHE_DIR") or cache_folder()) / f"kernel-{source_fingerprint()}"
"""The folder numba keeps the compiled kernel in, for this version of its source."""

import numba  # noqa: E402  (numba reads its settings when imported)

# Read by numba when each function below is decorated, so set before any of them is.
numba.config.CACHE_DIR = str(CACHE)  # type: ignore[attr-defined]


def compiled(function: F) -> F:
    """``function`` compiled by numba in nopython mode, its machine code cached on disk."""
    return cast(F, numba.njit(cache=True)(function))
