"""The one place numba is imported: compiled functions, their cache in a user cache folder.

numba compiles each function the first time it runs and can keep the machine code on disk. By
default it would write next to the module, inside site-packages, which a user often cannot write
to; the cache goes instead to the user's cache folder (``$XDG_CACHE_HOME``, ``~/.cache`` or the
platform's equivalent), under ``formula-d-trackkit/numba``. ``NUMBA_CACHE_DIR`` set by the
user wins.
"""

from __future__ import annotations

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


os.environ.setdefault("NUMBA_CACHE_DIR", str(cache_folder()))
CACHE = Path(os.environ["NUMBA_CACHE_DIR"])
"""The folder numba keeps compiled code in, for this process."""

import numba  # noqa: E402  (after the cache folder is chosen)

numba.config.CACHE_DIR = str(CACHE)  # type: ignore[attr-defined]


def compiled(function: F) -> F:
    """``function`` compiled by numba in nopython mode, its machine code cached on disk."""
    return cast(F, numba.njit(cache=True)(function))
