"""GP Online's track builder, as a check: distances along the lap, the pit lane, the grid.

When GP Online loads a track it works out each node's distance along the lap and refuses the
track when it cannot (``TrackData.updateDistances`` and ``TrackData.build`` in its source). This
module does the same work by the same rules, listed with the game's reasons in
``docs/interop.md`` ("What GP Online's builder enforces"), so that an export the game would
refuse is refused here, with what and where. The rules in short:

- the finish line: 3 or 4 finish nodes, which start the distances (2 are refused: so says the
  game's newest source, and its own loader, built from it and run on the files);
- a walk from the line: each straight node reached gets the distance of the node it is reached
  from plus half a step per row it lies ahead (a node with a single way in: 1.0 before a curve,
  else 0.4); a node with no move on is a dead end;
- curves: when the straight walk runs out, the curves met so far get the largest distance yet
  plus their distance attribute (a curve without one is refused), then their curves in turn;
  one of the straights that follow, and the straight it moves to, restart the walk (a curve
  with no such straight after it is refused: "might be missing edges");
- the pit lane: entered from a straight (a pit node a curve moves to is taken for one of the
  straights after the corner, and left unplaced or refused there), one chain of pit nodes, the
  garages in line, each a small step on, its last node leading back to a track node the walk
  reached;
- every node reached, every move forward (but onto the line, into and out of the pit lane)
  to a larger distance, and a curve node with two moves on must reach two different distances:
  the lanes are told apart by them.

The order in which the game meets nodes decides ties, so the walk visits them in the game's
order (:mod:`javaorder`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from trackformat.interop.gponline.dat import NodeType
from trackformat.interop.gponline.gameload import GameNode, GameRefusal, GameTrack

MIN_GRID = 10
"""Grid slots an export keeps: GP Online's loader drops a track with fewer than
``Main.minGridSize`` (10 in the older stored versions, 6 in the newest), and 10 holds in all."""


Placer = Callable[[GameTrack, list[GameNode], float], None]
"""Called when the builder is about to place curves: with the curves met and the distance it
adds their attributes to. The check never uses one; an export does, to choose attributes that
fit the distances the game reached (see :mod:`export_curves`)."""


def distance_to_int(distance: float) -> int:
    """The game's rounding of a distance to hundredths (``TrackLanes.distanceToInt``)."""
    return int(100 * distance + 0.5)


@dataclass
class _Walk:
    """The builder's working state."""

    track: GameTrack
    prev: dict[int, list[GameNode]]
    work: deque[GameNode]
    curves: deque[GameNode]
    pit: GameNode | None = None
    place: Placer | None = None

    def before(self, node: GameNode) -> list[GameNode]:
        """The nodes with a move into ``node``; the game fails on a node with none."""
        found = self.prev.get(node.id)
        if found is None:
            raise GameRefusal(
                "reached", f"node {node.id} has no move into it, so GP Online cannot place it",
                nodes=(node.id,),
            )
        return found

    def on(self, node: GameNode) -> list[GameNode]:
        return self.track.children(node)

    def ahead(self, node: GameNode) -> list[GameNode]:
        """Moves on from ``node``, the pit lane's left out."""
        return [n for n in self.on(node) if not n.is_pit]


def _finish_line(walk: _Walk) -> int:
    """Start distances at the line; returns the lane count (the finish nodes)."""
    edges = [n for n in walk.track.nodes if n.finish]
    lanes = len(edges)
    children = {c.id for n in edges for c in walk.on(n) if c.finish}
    if not 3 <= lanes <= 4:
        raise GameRefusal(
            "finish", f"the track has {lanes} finish node(s); GP Online needs 3 or 4 (one per "
            "lane at the line)", f"Invalid finish line width {lanes}",
        )
    if lanes == 4:
        if len(children) != 2:
            raise GameRefusal(
                "finish", "of four finish nodes, exactly two must be moved onto from another "
                "finish node (the line is staggered)", "Malformed Finish line of width 4",
            )
        for n in edges:
            if n.id not in children:
                n.distance = 0.0
                walk.work.append(n)
    elif len(children) == 1:
        centre = next(n for n in edges if n.id in children)
        edges.remove(centre)
        centre.distance = 0.5
        edges[0].distance = edges[1].distance = 0.0
        walk.work.append(centre)
        if len(centre.children) == 1:  # the line right before a curve
            for edge in edges:
                for n in walk.on(edge):
                    if n is not centre and n.id not in centre.children:
                        if walk.track.is_curve(n):
                            walk.curves.append(n)
                        else:
                            n.distance = 1.0
                            walk.work.append(n)
    elif len(children) == 2:
        centre = next(n for n in edges if n.id not in children)
        centre.distance = 0.0
        walk.work.append(centre)
    elif sum(walk.track.is_curve(n) for n in edges) == 1:
        behind = {p.id for n in edges for p in walk.before(n)} | children
        found = [n for n in edges if all(n.id in walk.track.by_id[p].children for p in behind)]
        if not found:
            raise GameRefusal("finish", "the finish nodes are not side by side",
                              "Finish line seems to be disjoint")
        centre = found[0]
        edges.remove(centre)
        centre.distance = 0.0
        walk.work.append(centre)
        curve, straight = edges if walk.track.is_curve(edges[0]) else edges[::-1]
        walk.curves.append(curve)
        straight.distance = 0.5
        walk.work.append(straight)
    else:
        raise GameRefusal("finish", "the finish nodes are not side by side",
                          "Finish line seems to be disjoint")
    return lanes


def _step(walk: _Walk, node: GameNode, nxt: GameNode, rows: list[set[int]]) -> float:
    """How far on from ``node`` the straight ``nxt`` lies: half a step per row."""
    if sum(not p.is_pit for p in walk.before(nxt)) == 1:
        return 1.0 if any(walk.track.is_curve(c) for c in walk.on(nxt)) else 0.4
    for depth in (4, 3, 2, 1):
        if nxt.id in rows[depth - 1]:
            return 0.5 * depth
    return 0.5


def _straights(walk: _Walk, node: GameNode) -> None:
    """One step of the straight walk from ``node``."""
    if not walk.ahead(node):
        raise GameRefusal("dead end", f"node {node.id} has no move on",
                          f"Found dead-end node: {node.id}", (node.id,))
    rows = [{n.id for n in walk.ahead(node)}]
    while len(rows) < 4:
        rows.append({c.id for i in rows[-1] for c in walk.ahead(walk.track.by_id[i])
                     if len(walk.before(c)) != 1})
    for nxt in walk.on(node):
        if nxt.distance >= 0.0:
            continue
        if walk.track.is_curve(nxt):
            walk.curves.append(nxt)
        elif nxt.is_pit:
            walk.pit = nxt
            nxt.distance = node.distance - 0.4
        else:
            nxt.distance = node.distance + _step(walk, node, nxt, rows)
            walk.work.append(nxt)


def _largest(nodes: Iterable[GameNode]) -> float:
    return max(n.distance for n in nodes)


def _curves(walk: _Walk) -> None:
    """Place the curves met, then restart the walk on the straight after them."""
    track = walk.track
    base = _largest(track.nodes) + (3 - len({n.id for n in walk.curves})) * 0.5
    if walk.place is not None:
        walk.place(track, list(walk.curves), base)
    while walk.curves:
        curve = walk.curves.popleft()
        if curve.id not in track.attributes:
            raise GameRefusal(
                "curve attribute", f"curve node {curve.id} has no distance attribute",
                f"Found curve without distance attribute: {curve.id}", (curve.id,),
            )
        curve.distance = base + track.attributes[curve.id]
        if not walk.ahead(curve):
            raise GameRefusal("dead end", f"curve node {curve.id} has no move on",
                              f"Found dead-end curve: {curve.id}", (curve.id,))
        for nxt in walk.on(curve):
            if nxt.distance >= 0.0:
                continue
            if not track.is_curve(nxt):  # a pit node too: the game takes it for a straight
                walk.work.append(nxt)
            else:
                walk.curves.append(nxt)
    top = _largest(track.nodes) + (3 - len({n.id for n in walk.work})) * 0.5
    if not walk.work:
        raise GameRefusal("curve exit", "the lap ends in a curve",
                          "Track cannot end in a curve")
    centre = None
    for straight in walk.work:
        if not all(track.is_curve(p) for p in walk.before(straight) if not p.is_pit):
            continue
        if len(walk.ahead(straight)) == 3:
            centre = straight
            break
        straight.distance = top
        centre = next((n for n in walk.work if n.id in straight.children), None)
        pit = next((n for n in walk.on(straight) if n.is_pit), None)
        if pit is not None and pit.distance <= 0.0:
            walk.pit = pit
            pit.distance = top - 0.4
        break
    if centre is None:
        ids = " ".join(str(i) for i in dict.fromkeys(n.id for n in walk.work))
        raise GameRefusal(
            "curve exit",
            f"after a curve, no straight among nodes {ids} is moved onto only from curves and "
            "moves to another of them, so GP Online cannot restart its count there"
            + _pit_from_curve(track),
            f"Curve exit {ids} might be missing edges", tuple(n.id for n in walk.work),
        )
    walk.work.clear()
    centre.distance = top + 0.5
    walk.work.append(centre)


def _pit_from_curve(track: GameTrack) -> str:
    """Why a pit node went astray, when a curve moves into the pit lane; else nothing."""
    for node in track.nodes:
        if track.is_curve(node):
            pit = next((c for c in track.children(node) if c.is_pit), None)
            if pit is not None:
                return (f" (curve node {node.id} moves into pit node {pit.id}: GP Online enters "
                        "its pit lane only from a straight, and takes a pit node after a curve "
                        "for a straight of the track)")
    return ""


def _pit_lane(walk: _Walk) -> None:
    """The pit lane: one chain from its entry, each node a hundredth on."""
    if walk.pit is None:
        return
    entry = walk.pit
    entry.distance = max(p.distance for p in walk.before(entry)) + 0.1
    for _ in walk.track.nodes:
        node = walk.pit
        if any(n.distance < 0.0 for n in walk.ahead(node)):
            raise GameRefusal(
                "pit lane", f"pit node {node.id} leads back to a track node the lap never "
                "reaches", "Distance not defined at pit lane exit", (node.id,),
            )
        pits = [n for n in walk.on(node) if n.is_pit]
        if len(pits) > 1:
            raise GameRefusal(
                "pit lane", f"the pit lane branches at node {node.id} (it moves to pit nodes "
                f"{', '.join(str(n.id) for n in pits)}); GP Online's pit lane is one chain of "
                "nodes, its garages in line", "Pit lane is branching",
                (node.id, *(n.id for n in pits)),
            )
        if not pits:
            if not walk.ahead(node):
                raise GameRefusal("pit lane", f"pit node {node.id} leads nowhere",
                                  f"Pit lane has dead-end: {node.id}", (node.id,))
            return
        for nxt in walk.on(node):
            nxt.distance = node.distance + 0.01
            walk.pit = nxt
    raise GameRefusal("pit lane", "the pit lane leads round in a circle; GP Online would "
                      "follow it for ever")


def _steps_to_line(walk: _Walk) -> None:
    """The game's count of steps to the line; it fails only on a node it must step back from
    that has no move into it."""
    steps: dict[int, int] = {}
    work: deque[GameNode] = deque()
    for n in walk.track.nodes:
        if n.distance == 0.0:
            work.extend(walk.before(n))
    for n in list(dict.fromkeys(work)):
        steps[n.id] = 1
        work.extend(walk.before(n))
    while work:
        node = work.popleft()
        if node.is_pit or steps.get(node.id, -1) >= 0:
            continue
        least = min((steps.get(c.id, -1) for c in walk.ahead(node)), default=-1) + 1
        if least > 0:
            steps[node.id] = least
            work.extend(walk.before(node))


def distances(track: GameTrack, place: Placer | None = None) -> int:
    """Fill every node's ``distance`` as the game does; returns the lane count (the finish
    nodes); raises :class:`GameRefusal` where the game refuses the track. ``place`` is told
    of each group of curves before they are placed (see :data:`Placer`)."""
    prev: dict[int, list[GameNode]] = {}
    for node in track.nodes:
        node.distance = 0.0 if node.type == NodeType.BLOCKED else -1.0
        for child in track.children(node):
            prev.setdefault(child.id, []).append(node)
    walk = _Walk(track, prev, deque(), deque(), place=place)
    lanes = _finish_line(walk)
    while walk.work:
        _straights(walk, walk.work.popleft())
        if not walk.work and walk.curves:
            _curves(walk)
    _pit_lane(walk)
    _steps_to_line(walk)
    for blocked in (n for n in track.nodes if n.type == NodeType.BLOCKED):
        ahead = [walk.before(c)[0].distance for c in walk.on(blocked)]
        if ahead:
            blocked.distance = min(ahead) - 0.01
    for node in track.nodes:
        if track.is_curve(node) and len(walk.ahead(node)) == 2 and (
            len({c.distance for c in walk.on(node)}) < 2
        ):
            raise GameRefusal(
                "lanes at curves", f"curve node {node.id} moves to two nodes at the same "
                "distance, so GP Online cannot tell their lanes apart (their curve distance "
                "attributes must differ)",
                f"Identical distances for child nodes, unable to deduce lanes: {node.id}",
                (node.id, *(c.id for c in walk.on(node))),
            )
    return lanes


def build(track: GameTrack) -> tuple[int, list[GameNode]]:
    """The distances (:func:`distances`), then the builder's checks: every node reached, every
    move forward; returns the lane count and the grid, pole first."""
    lanes = distances(track)
    for node in track.nodes:
        if node.distance < 0.0:
            raise GameRefusal(
                "reached", f"node {node.id} at ({node.x}, {node.y}) is never reached on the lap"
                + (_pit_from_curve(track) if node.is_pit else ""),
                f"Track contains unreachable node: {node.id} ({node.x},{node.y})", (node.id,),
            )
    for node in track.nodes:
        for nxt in track.children(node):
            if nxt.finish or node.is_pit != nxt.is_pit:
                continue
            if nxt.distance <= node.distance:
                raise GameRefusal(
                    "forward", f"the move {node.id} -> {nxt.id} does not lead forward (distance "
                    f"{node.distance:g} to {nxt.distance:g})",
                    "Distance does not increase when moving forwards, track might contain a "
                    f"cycle: {node.id} -> {nxt.id}", (node.id, nxt.id),
                )
    slots = [n for n in track.nodes if n.grid_angle is not None and n.grid_angle == n.grid_angle]
    grid = sorted(slots, key=lambda n: -distance_to_int(n.distance))
    return lanes, grid
