"""Hypothesis strategies for hostile track files: broken JSON values, sound tracks broken in many
small ways, draft (version 0) documents with values of every type, and files damaged byte by byte.

Mutating a sound track reaches deeper than random JSON: most random documents stop at the first
missing field, while a ring with one id swapped, one link doubled or one coordinate sent to 1e300
loads, and then every rule of the validator runs on it.
"""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import strategies as st

from tests.factories import ring_document

RING = ring_document(lanes=2, per_lane=30)
"""A small sound ring (60 track spaces, pit lane, boxes, corners, grid): the seed of mutations."""

IDS = sorted({s["id"] for s in RING["spaces"]} | {"ghost", "", "north", "1", "2"})

NUMBERS = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0, -0.0, 1e-300, 1e300, 1e6, -1, 2**53 + 1, 0.5, 100_000, 100_001]),
)
SCALARS = st.one_of(
    st.none(), st.booleans(), NUMBERS, st.text(max_size=12), st.sampled_from(IDS),
)
JSON_VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=12,
)
"""Any JSON value, small: what a hand-edited file may hold where a field should be."""


def _children(node: Any) -> list[Any]:
    if isinstance(node, dict):
        return list(node)
    if isinstance(node, list):
        return list(range(len(node)))
    return []


@st.composite
def mutated_ring(draw: st.DrawFn, max_changes: int = 4) -> dict[str, Any]:
    """The ring's document with a few random changes anywhere in it: a value replaced by any
    JSON value, a key or element removed, an element doubled, an id or number swapped for a
    nasty one."""
    document = copy.deepcopy(RING)
    for _ in range(draw(st.integers(min_value=1, max_value=max_changes))):
        parent: Any = None
        key: Any = None
        node: Any = document
        # Walk down a few levels, stopping anywhere.
        for _depth in range(draw(st.integers(min_value=1, max_value=5))):
            keys = _children(node)
            if not keys:
                break
            parent, key = node, draw(st.sampled_from(keys))
            node = parent[key]
        if parent is None:
            continue
        action = draw(st.sampled_from(["replace", "remove", "double", "id", "number"]))
        if action == "replace":
            parent[key] = draw(JSON_VALUES)
        elif action == "remove":
            del parent[key]
        elif action == "double" and isinstance(parent, list):
            parent.insert(key, copy.deepcopy(parent[key]))
        elif action == "id":
            parent[key] = draw(st.sampled_from(IDS))
        else:
            parent[key] = draw(NUMBERS)
    return document


@st.composite
def draft_document(draw: st.DrawFn) -> dict[str, Any]:
    """A version 0 (draft) document: spaces with ``x`` and ``y``, links as pairs, the grid under
    ``start_grid``, the designer at the top; any part may be missing or of any type."""
    spaces = [
        {"id": s["id"], "lane": s["lane"], "kind": s["kind"], "polygon": s["polygon"],
         "x": s["centre"][0], "y": s["centre"][1], "heading": s["heading"]}
        for s in RING["spaces"][: draw(st.integers(min_value=0, max_value=8))]
    ]
    links = [[link["from"], link["to"]] for link in RING["links"][:8]]
    document: dict[str, Any] = {
        "format_version": 0,
        "metadata": {"name": "Draft"},
        "designer": "someone",
        "board": {"width": 1200, "height": 1200},
        "lanes": RING["lanes"],
        "spaces": spaces,
        "links": links,
        "start_grid": RING["grid"][:2],
    }
    for key in draw(st.lists(st.sampled_from(sorted(document)), max_size=4, unique=True)):
        if key == "format_version":
            continue
        if draw(st.booleans()):
            del document[key]
        else:
            document[key] = draw(JSON_VALUES)
    change_a_space = draw(st.booleans())
    if spaces and change_a_space:
        target = draw(st.sampled_from(spaces))
        target[draw(st.sampled_from(["x", "y", "polygon", "id"]))] = draw(JSON_VALUES)
    if draw(st.booleans()):
        document.setdefault("links", [])
        if isinstance(document["links"], list):
            document["links"].append(draw(JSON_VALUES))
    return document


@st.composite
def damaged_bytes(draw: st.DrawFn, text: str) -> bytes:
    """``text`` (a track file) as UTF-8 with a few bytes changed, inserted or cut away, or the
    file cut short."""
    data = bytearray(text.encode("utf-8"))
    for _ in range(draw(st.integers(min_value=1, max_value=4))):
        at = draw(st.integers(min_value=0, max_value=max(len(data) - 1, 0)))
        action = draw(st.sampled_from(["flip", "insert", "delete", "truncate"]))
        if action == "flip" and data:
            data[at] = draw(st.integers(min_value=0, max_value=255))
        elif action == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=8)
                               | st.sampled_from([b"[", b"{", b"]", b'"', b",", b"-", b"1e999"]))
        elif action == "delete":
            del data[at:at + draw(st.integers(min_value=1, max_value=16))]
        else:
            del data[at:]
    return bytes(data)
