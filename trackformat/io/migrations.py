"""Upgrading track documents from older format versions, one version step at a time.

Each migration is a function from the JSON document of version ``n`` to the document of version
``n + 1``. Working on plain dicts (as OpenTimelineIO and napari do) means an old file never has to
fit today's models before it is upgraded, and each step stays small enough to test on its own.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from trackformat.model.track import CURRENT_FORMAT_VERSION, FORMAT_NAME

Document = dict[str, Any]
Migration = Callable[[Document], Document]

MIGRATIONS: dict[int, Migration] = {}
"""``MIGRATIONS[n]`` upgrades a version ``n`` document to version ``n + 1``."""


class MigrationError(ValueError):
    """A document whose version cannot be brought to the current one."""


def migration(from_version: int) -> Callable[[Migration], Migration]:
    """Register the function as the step from ``from_version`` to ``from_version + 1``."""

    def register(step: Migration) -> Migration:
        if from_version in MIGRATIONS:
            raise RuntimeError(f"two migrations from format version {from_version}")
        MIGRATIONS[from_version] = step
        return step

    return register


def upgrade(document: Document) -> Document:
    """Return ``document`` upgraded to :data:`CURRENT_FORMAT_VERSION`; the input is never
    changed (a current document is returned as it is, an older one is copied first).

    Raises :class:`MigrationError` for a missing or non-integer version, or a version newer than
    this release understands.
    """
    version = document.get("format_version")
    if isinstance(version, bool) or not isinstance(version, int):
        raise MigrationError(
            "format_version must be an integer"
            if "format_version" in document
            else "format_version is missing: every track file states the version it was written in"
        )
    if version > CURRENT_FORMAT_VERSION:
        raise MigrationError(
            f"this file is format version {version}, newer than version {CURRENT_FORMAT_VERSION} "
            "that this release reads: update trackformat to open it"
        )
    if version < 0:
        raise MigrationError(f"format_version {version} is not a valid version")
    if version == CURRENT_FORMAT_VERSION:
        return document  # nothing to change: no copy of a large document
    upgraded = copy.deepcopy(document)
    while version < CURRENT_FORMAT_VERSION:
        upgraded = MIGRATIONS[version](upgraded)
        version += 1
        upgraded["format_version"] = version
    return upgraded


@migration(0)
def _from_draft(document: Document) -> Document:
    """Version 0, the draft format, to version 1.

    The draft stored a space's centre as separate ``x`` and ``y`` keys, links as ``[from, to]``
    pairs, the grid under ``start_grid``, had no ``format`` marker, and kept the designer's name
    at the top level.
    """
    out: Document = {"format": FORMAT_NAME, "format_version": 0}
    # A value of the wrong type is passed on as it is: the models then say what is wrong with
    # it and where, as they do for a current file, instead of the upgrade tripping over it.
    metadata = document.get("metadata", {})
    if isinstance(metadata, dict):
        metadata = dict(metadata)
        if "designer" in document and "designer" not in metadata:
            metadata["designer"] = document["designer"]
    out["metadata"] = metadata
    for key in ("board", "lanes", "corners", "finish_line", "pit_lane", "ignore"):
        if key in document:
            out[key] = document[key]
    spaces = document.get("spaces", [])
    if isinstance(spaces, list):
        spaces = [_draft_space(space) for space in spaces]
    out["spaces"] = spaces
    links = document.get("links", [])
    if isinstance(links, list):
        links = [_draft_link(link) for link in links]
    out["links"] = links
    if "start_grid" in document:
        out["grid"] = document["start_grid"]
    elif "grid" in document:
        out["grid"] = document["grid"]
    return out


def _draft_space(space: Any) -> Any:
    """A draft space with ``x`` and ``y`` keys, given a ``centre`` instead."""
    if isinstance(space, dict) and "x" in space and "y" in space and "centre" not in space:
        return {k: v for k, v in space.items() if k not in ("x", "y")} | {
            "centre": [space["x"], space["y"]]
        }
    return space


def _draft_link(link: Any) -> Any:
    """A draft link written as a ``[from, to]`` pair, as an object."""
    if isinstance(link, list) and len(link) == 2:
        return {"from": link[0], "to": link[1]}
    return link


@migration(1)
def _before_placement(document: Document) -> Document:
    """Version 1 to version 2, which added ``board.placement``.

    A version 1 board picture always lay pixel for pixel on the board, which is what a board
    without a placement means in version 2, so the document is kept as it is. The version step
    is there for the older readers: a file that places its picture says it is version 2, and
    they refuse it as too new instead of reporting an unknown field.
    """
    return document


@migration(2)
def _before_garages(document: Document) -> Document:
    """Version 2 to version 3, which added ``pit_lane.garages`` and ``gponline``.

    A version 2 pit lane had no garages in line, and a version 2 track no GP Online settings,
    which is what their absence means in version 3: the document is kept as it is. As with
    version 2, the step tells older readers that a file with either is too new for them."""
    return document
