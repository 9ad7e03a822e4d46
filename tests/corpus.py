"""Where the real data made by other people lies, for the tests that check against it.

The corpus sits beside the project (``../shared/corpus`` from the repository root) on the
developers' and CI's machines, never in the project itself. On a user's machine it is absent, and
every test that needs it skips with a message saying so; ``TRACKKIT_CORPUS`` points elsewhere.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(os.environ.get("TRACKKIT_CORPUS", ROOT.parent / "shared" / "corpus"))
"""The corpus folder: ``gponline/`` (real GP Online files), ``monaco-board/`` (the real board)."""


def corpus_path(*parts: str) -> Path:
    """A file or folder of the corpus; skips the calling test when it is not there."""
    path = CORPUS.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"the real-data corpus is not here ({path} is missing)")
    return path
