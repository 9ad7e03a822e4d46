"""The real Monaco board as traced by hand in the corpus (``monaco-board/circuits.js``), for tests.

The trace is someone else's data: a JavaScript file holding ``CIRCUITS.monaco`` as JSON, with one
cell per printed space (its centre in the trace's SVG units, its lane, and ``adjacence``: the
forward moves the board allows). It names cells by ids that mix strings and integers and gives no
order, so this module orders them the way our track files do: each lane in lap order from the
space named at the finish line (``computed.laneEnds``), the pit lane from its entry, and the team
boxes in the order the pit lane passes them. Tests only: the program never reads the corpus.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

Point = tuple[float, float]


class BoardFileError(ValueError):
    """The trace is not what this reader expects; the message says what and where."""


@dataclass(frozen=True)
class Cell:
    """One printed space of the board."""

    id: str
    centre: Point
    lane: int | None
    """1 (the driver's left) to 3 (the pit side); None in the pit lane and the boxes."""
    heading: float
    """Direction of travel in degrees, as traced."""
    moves: tuple[str, ...]
    """Ids of the cells a car may move onto from this one: straight on, the arrows' diagonals."""


@dataclass(frozen=True)
class Board:
    """The traced board, ordered: lanes from the finish line, pit lane from its entry, boxes."""

    cells: dict[str, Cell]
    lanes: dict[int, tuple[str, ...]]
    """Each lane's cells in lap order; index 0 is the space at the finish line."""
    pit: tuple[str, ...]
    """The pit lane's cells from the entry to the exit."""
    boxes: tuple[str, ...]
    """The team boxes in the order the pit lane passes them."""

    def moves(self) -> Iterator[tuple[str, str]]:
        """Every move the board allows, as (from cell, to cell)."""
        for cell in self.cells.values():
            for target in cell.moves:
                yield cell.id, target

    def our_ids(self) -> dict[str, str]:
        """Cell id -> the id of the same space in our files (``1-007``, ``pit-03``, ``box-2``)."""
        names: dict[str, str] = {}
        for lane, cells in self.lanes.items():
            names.update((cell, f"{lane}-{index:03d}") for index, cell in enumerate(cells))
        names.update((cell, f"pit-{index:02d}") for index, cell in enumerate(self.pit))
        names.update((cell, f"box-{number}") for number, cell in enumerate(self.boxes, start=1))
        return names


def _document(text: str, path: Path) -> dict[str, object]:
    """The JSON object after ``monaco:`` in the JavaScript source."""
    marker = text.find("monaco:")
    start = text.find("{", marker) if marker >= 0 else -1
    if start < 0:
        raise BoardFileError(f"{path}: no 'monaco:' object found")
    try:
        document, _ = json.JSONDecoder().raw_decode(text, start)
    except json.JSONDecodeError as err:
        raise BoardFileError(f"{path}: the monaco object is not JSON ({err})") from None
    if not isinstance(document, dict) or not isinstance(document.get("cells"), dict):
        raise BoardFileError(f"{path}: the monaco object has no 'cells'")
    return document


def _cell(key: str, raw: dict[str, object], path: Path) -> Cell:
    try:
        centre = raw["center"]
        assert isinstance(centre, dict)
        moves = raw["adjacence"]
        assert isinstance(moves, list)
        lane = raw.get("lane")
        return Cell(
            id=key,
            centre=(float(centre["x"]), float(centre["y"])),
            lane=int(lane) if isinstance(lane, int) else None,
            heading=float(raw.get("angle", 0.0)),  # type: ignore[arg-type]
            moves=tuple(str(m) for m in moves),
        )
    except (KeyError, AssertionError, TypeError, ValueError):
        raise BoardFileError(f"{path}: cell {key} lacks a centre or its moves") from None


def _lane_order(cells: dict[str, Cell], lane: int, first: str) -> tuple[str, ...]:
    """The lane's cells in lap order, following each cell's one straight-on move."""
    order = [first]
    while True:
        ahead = [m for m in cells[order[-1]].moves if cells[m].lane == lane]
        if len(ahead) != 1:
            raise BoardFileError(f"cell {order[-1]} of lane {lane} has {len(ahead)} moves ahead")
        if ahead[0] == first:
            return tuple(order)
        if ahead[0] in order:
            raise BoardFileError(f"lane {lane} loops back to {ahead[0]} before the line")
        order.append(ahead[0])


def _pit_order(cells: dict[str, Cell]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The pit lane (the shortest chain of off-lane cells from entry to exit) and the boxes."""
    off_lane = {key for key, cell in cells.items() if cell.lane is None}
    entries = sorted({m for cell in cells.values() if cell.lane is not None
                      for m in cell.moves if m in off_lane})
    exits = {key for key in off_lane if any(cells[m].lane is not None for m in cells[key].moves)}
    if len(entries) != 1 or len(exits) != 1:
        raise BoardFileError(f"expected one pit entry and one exit, got {entries} and {exits}")
    parent: dict[str, str | None] = {entries[0]: None}
    queue = deque(entries)
    while queue:
        here = queue.popleft()
        for nxt in cells[here].moves:
            if nxt in off_lane and nxt not in parent:
                parent[nxt] = here
                queue.append(nxt)
    end: str | None = next(iter(exits))
    if end not in parent:
        raise BoardFileError("the pit exit cannot be reached from the pit entry")
    chain: list[str] = []
    while end is not None:
        chain.append(end)
        end = parent[end]
    chain.reverse()
    position = {key: k for k, key in enumerate(chain)}
    boxes = sorted(off_lane - set(chain), key=lambda box: min(
        position[key] for key in chain if box in cells[key].moves))
    return tuple(chain), tuple(boxes)


def load_board(path: Path) -> Board:
    """The traced board in ``path`` (circuits.js), ordered; :class:`BoardFileError` if not."""
    document = _document(path.read_text(encoding="utf-8"), path)
    raw_cells = document["cells"]
    assert isinstance(raw_cells, dict)
    cells = {str(key): _cell(str(key), raw, path) for key, raw in raw_cells.items()}
    for cell in cells.values():
        unknown = [m for m in cell.moves if m not in cells]
        if unknown:
            raise BoardFileError(f"{path}: cell {cell.id} moves onto unknown cells {unknown}")
    computed = document.get("computed")
    ends = computed.get("laneEnds") if isinstance(computed, dict) else None
    if not isinstance(ends, dict):
        raise BoardFileError(f"{path}: no computed.laneEnds naming the spaces at the line")
    lanes = {lane: _lane_order(cells, lane, str(ends[f"end{lane}"])) for lane in (1, 2, 3)}
    pit, boxes = _pit_order(cells)
    return Board(cells=cells, lanes=lanes, pit=pit, boxes=boxes)
