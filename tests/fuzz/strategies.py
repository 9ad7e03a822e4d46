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


def walk_down(draw: st.DrawFn, parent: Any, key: Any, node: Any, levels: int
              ) -> tuple[Any, Any]:
    """A place in a JSON document, as (container, key): from ``node`` (found at ``key`` of
    ``parent``), down ``levels`` levels or until a value with nothing inside."""
    for _depth in range(levels):
        keys = _children(node)
        if not keys:
            break
        parent, key = node, draw(st.sampled_from(keys))
        node = parent[key]
    return parent, key


@st.composite
def mutated_ring(draw: st.DrawFn, max_changes: int = 4) -> dict[str, Any]:
    """The ring's document with a few random changes anywhere in it: a value replaced by any
    JSON value, a key or element removed, an element doubled, an id or number swapped for a
    nasty one."""
    document = copy.deepcopy(RING)
    for _ in range(draw(st.integers(min_value=1, max_value=max_changes))):
        # Walk down a few levels, stopping anywhere.
        parent, key = walk_down(draw, None, None, document,
                                draw(st.integers(min_value=1, max_value=5)))
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


VALID_IDS = [i for i in IDS if i] + ["ghost-2", "x" * 64]
COORDINATES = st.one_of(
    st.floats(min_value=-1_000_000, max_value=1_000_000, allow_nan=False),
    st.sampled_from([0.0, -0.0, 1e-9, 1_000_000.0, -1_000_000.0, 600.0, 600.0001]),
)


def _pick(draw: st.DrawFn, items: list[Any]) -> Any:
    return draw(st.sampled_from(items)) if items else None


@st.composite
def misdrawn_ring(draw: st.DrawFn, max_changes: int = 6) -> dict[str, Any]:
    """The ring's document with a few changes that keep it a well-formed track file but break
    what it means: links rewired, removed or doubled, spaces moved, stacked, renamed or of
    another kind, corners, grid, finish line and pit lane pointing elsewhere, a board too small
    or huge. These load, so every rule of the validator runs on them."""
    document = copy.deepcopy(RING)
    spaces, links = document["spaces"], document["links"]
    pit = document["pit_lane"]
    lists = [document["grid"], document["finish_line"]["spaces"], pit["spaces"], pit["boxes"],
             *(corner["spaces"] for corner in document["corners"])]
    for _ in range(draw(st.integers(min_value=1, max_value=max_changes))):
        action = draw(st.sampled_from([
            "rewire", "unlink", "double-link", "move", "stack", "rename", "kind", "lane",
            "list-id", "list-drop", "list-double", "board", "pit-link", "point", "stops",
        ]))
        space, link = _pick(draw, spaces), _pick(draw, links)
        if action == "rewire" and link:
            link[draw(st.sampled_from(["from", "to"]))] = draw(st.sampled_from(VALID_IDS))
        elif action == "unlink" and link:
            links.remove(link)
        elif action == "double-link" and link:
            links.append(dict(link) if draw(st.booleans()) else
                         {"from": link["to"], "to": link["from"]})
        elif action == "move" and space:
            dx, dy = draw(COORDINATES), draw(COORDINATES)
            space["polygon"] = [[x + dx % 2000, y + dy % 2000] for x, y in space["polygon"]]
        elif action == "stack" and space:
            copies = draw(st.integers(min_value=1, max_value=30))
            same_id = draw(st.booleans())
            spaces.extend(dict(space, id=space["id"] if same_id else f"{space['id']}.{n}")
                          for n in range(copies))
        elif action == "rename" and space:
            space["id"] = draw(st.sampled_from(VALID_IDS))
        elif action == "kind" and space:
            space["kind"] = draw(st.sampled_from(["track", "pit", "box"]))
        elif action == "lane" and space:
            space["lane"] = draw(st.sampled_from([None, "1", "2", "9"]))
        elif action in ("list-id", "list-drop", "list-double"):
            target = _pick(draw, lists)
            if target is None:
                continue
            if action == "list-id" or not target:
                target.append(draw(st.sampled_from(VALID_IDS)))
            elif action == "list-drop":
                target.pop(draw(st.integers(min_value=0, max_value=len(target) - 1)))
            else:
                target.append(draw(st.sampled_from(target)))
        elif action == "board":
            document["board"][draw(st.sampled_from(["width", "height"]))] = draw(
                st.sampled_from([1, 10, 600, 100_000]))
        elif action == "pit-link":
            which = pit[draw(st.sampled_from(["entry", "exit"]))]
            which.append({"from": draw(st.sampled_from(VALID_IDS)),
                          "to": draw(st.sampled_from(VALID_IDS))})
        elif action == "point" and space:
            outline = space["polygon"]
            outline[draw(st.integers(min_value=0, max_value=len(outline) - 1))] = [
                draw(COORDINATES), draw(COORDINATES)]
        elif action == "stops":
            corner = _pick(draw, document["corners"])
            if corner:
                corner["stops"] = draw(st.integers(min_value=0, max_value=9))
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
