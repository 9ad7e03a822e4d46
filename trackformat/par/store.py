"""Par kept between runs: one small JSON document per track, ruleset and race length, in the
user's cache folder, so that asking again (``par``, ``info``) takes no solve.

The cache lives beside the compiled kernel's (``formula-d-trackkit/par`` in ``$XDG_CACHE_HOME``,
``~/.cache`` or the platform's equivalent; see :func:`~trackformat.sim.kernel.cache.
cache_folder`), or in a folder of this user's own in the temporary folder when that cannot be
written; failing both, nothing is kept and every ask solves. A document is found by a key that
hashes everything its figures depend on: the track file's text, the ruleset's every number, the
laps, and the source of par and of the kernel's move generation (a new version solves again).
A document that cannot be read is solved again and written over.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

from trackformat.io import write_text_atomically
from trackformat.model.track import Track
from trackformat.par.problem import ParError, SoloRace
from trackformat.rules import Ruleset, load_ruleset
from trackformat.sim.kernel.cache import (
    cache_folder,
    private_temporary,
    source_fingerprint,
    why_unwritable,
)

FORMAT = "formula-d-par"
"""What a cached document says it is."""


def solver_fingerprint() -> str:
    """A hash of par's own source and of the kernel's (whose moves par weighs); the par
    driver's is left out: it reads par, and changes nothing par solves."""
    digest = hashlib.blake2b(digest_size=8)
    for path in sorted(Path(__file__).resolve().parent.glob("*.py")):
        if path.name == "driver.py":
            continue
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    digest.update(source_fingerprint().encode())
    return digest.hexdigest()


def cache_key(track: Track, rules: Ruleset, laps: int) -> str:
    """The name of the document of ``track`` under ``rules`` for ``laps`` laps.

    The track counts by its content (every field of the model, as pydantic writes it out), as
    the race logs' :func:`~trackformat.sim.batch.racelog.track_fingerprint` counts it by its
    file's text: the same track laid out otherwise has the same par, and writing the model out
    takes a hundredth of the time of laying out its file (a par found in the cache is asked
    for in well under a second)."""
    digest = hashlib.blake2b(digest_size=12)
    for part in (FORMAT, track.model_dump_json(), rules.model_dump_json(), str(laps),
                 solver_fingerprint()):
        digest.update(part.encode())
        digest.update(b"\0")
    return digest.hexdigest()


def par_folder() -> Path | None:
    """Where par documents are kept (made if need be), or None when no folder can keep them."""
    preferred = cache_folder().parent / "par"
    if why_unwritable(preferred) is None:
        return preferred
    spare = private_temporary()
    if spare is not None:
        folder = spare.parent / "par"
        if why_unwritable(folder) is None:
            return folder
    return None


def load(track: Track, rules: Ruleset, laps: int,
         key: str | None = None) -> dict[str, Any] | None:
    """The cached document of ``track``, ``rules`` and ``laps`` (whose :func:`cache_key` is
    ``key``, if known), or None."""
    folder = par_folder()
    if folder is None:
        return None
    path = folder / f"{key or cache_key(track, rules, laps)}.json"
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        return None
    report = document.get("report")
    if not isinstance(report, dict) or not isinstance(report.get("par"), float | None):
        return None
    return report


def save(track: Track, rules: Ruleset, laps: int, report: dict[str, Any],
         key: str | None = None) -> Path | None:
    """Keep ``report``; the file written, or None when nothing can keep it."""
    folder = par_folder()
    if folder is None:
        return None
    path = folder / f"{key or cache_key(track, rules, laps)}.json"
    text = json.dumps({"format": FORMAT, "report": report}, ensure_ascii=False)
    try:
        write_text_atomically(path, text)
    except OSError:
        return None
    return path


def par_report(track: Track, rules: Ruleset, laps: int,
               solving: Callable[[], None] | None = None) -> tuple[dict[str, Any], bool]:
    """The par document (``par --json``) of ``track`` under ``rules`` for ``laps`` laps, and
    whether it came from the cache; solved and kept when it is not there (``solving`` is
    called first, to say so).

    Raises :class:`~trackformat.par.problem.ParError` for a solo race that cannot be set up."""
    key = cache_key(track, rules, laps)
    known = load(track, rules, laps, key)
    if known is not None:
        return known, True
    solo = SoloRace(track, rules, laps)  # a race that cannot be set up is said before solving
    if solving is not None:
        solving()
    from trackformat.par.report import report  # compiled code: loaded only to solve
    from trackformat.par.solve import solve_race

    document = report(solve_race(solo))
    save(track, rules, laps, document, key)
    return document, False


def cached_par(track: Track, rules: Ruleset | None = None,
               laps: int | None = None) -> float | None:
    """The par of ``track`` if it is cached (for ``info``): under ``rules`` (default: the
    default preset) for ``laps`` laps (default: the track's), else None; infinity for a track
    where no policy avoids every risk of elimination. Never solves."""
    try:
        rules = rules if rules is not None else load_ruleset()
        known = load(track, rules, laps if laps is not None else track.metadata.laps)
    except (ParError, OSError, ValueError):
        return None
    if known is None:
        return None
    return math.inf if known["par"] is None else float(known["par"])
