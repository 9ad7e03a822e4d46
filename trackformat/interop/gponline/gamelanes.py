"""GP Online's lanes, deduced from the distances, and its last checks before a race.

After the distances (:mod:`gamebuild`) the game rebuilds the lanes from them, to know which
cars can collide (``TrackLanes.buildCollisionMap`` in its source), and refuses a track whose
lanes it cannot rebuild:

- the finish nodes must be the nodes nearest the line (the lowest distances); they start the
  lanes, from the driver's left as the game orders them;
- every other node, nearest the line first, joins the lane whose last node moves to it, the one
  furthest behind when several do: a lane change must come from a node ahead of the node's own
  predecessor in its lane, or the node joins the wrong lane and a later one finds no lane;
- where the outermost lanes enter or leave a curve, their first (or last) curve nodes must
  stand at matching distances (the same, or half a step apart with 4 lanes), unless the
  lanes' nodes before the change already stand level;
- a blocked node must keep a move on once the moves into blocked nodes are taken away (the
  game removes them before racing).
"""

from __future__ import annotations

from trackformat.interop.gponline.dat import NodeType
from trackformat.interop.gponline.gamebuild import distance_to_int
from trackformat.interop.gponline.gameload import GameNode, GameRefusal, GameTrack


def start_lanes(line: list[GameNode]) -> list[list[GameNode]]:
    """The lanes' first nodes, in the game's lane order, from the ``line`` nodes nearest it."""
    if any(not n.finish for n in line):
        raise GameRefusal(
            "lanes", "the finish nodes are not the nodes nearest the line (node(s) "
            f"{', '.join(str(n.id) for n in line if not n.finish)} lie as near)",
            "Finish line nodes don't have the lowest distance",
            tuple(n.id for n in line if not n.finish),
        )
    if len(line) == 3:
        middle = 2 if line[0].distance == line[1].distance else 0
        order = (0, 2, 1) if middle == 2 else (1, 0, 2)
        return [[line[k]] for k in order]
    first, second = line[0], line[1]
    for ahead, behind in ((first, second), (second, first)):
        if line[2].id in ahead.children and line[3].id in ahead.children:
            common = next((n for n in line if n.id in first.children and n.id in second.children),
                          None)
            if common is None:
                break
            other = line[3] if common is line[2] else line[2]
            return [[behind], [common], [ahead], [other]]
    raise GameRefusal("finish", "the four finish nodes are not staggered as GP Online needs "
                      "(two of them each moving onto the same two others)",
                      "Malformed finish line")


def _curve_ends(track: GameTrack, one: list[GameNode], other: list[GameNode],
                lanes: int) -> None:
    """Where the outermost lanes enter and leave curves, their distances must match."""
    in_curve = False
    i = j = 0
    while i + 1 < len(one) and j + 1 < len(other):
        if one[i + 1].type == NodeType.BLOCKED:
            while j + 1 < len(other) and other[j + 1].distance < one[i + 1].distance:
                j += 1
            i += 1
            continue
        if other[j + 1].type == NodeType.BLOCKED:
            while i + 1 < len(one) and one[i + 1].distance < other[j + 1].distance:
                i += 1
            j += 1
            continue
        curve_one, curve_other = track.is_curve(one[i + 1]), track.is_curve(other[j + 1])
        if curve_one != in_curve and curve_other != in_curve:
            ahead = one[i].distance > other[j].distance
            first = one[i] if ahead else one[i + 1]
            second = other[j + 1] if ahead else other[j]
            shift = (lanes - 3) * (-0.5 if ahead else 0.5)
            if first.distance + shift != second.distance and (
                one[i].distance != other[j].distance
            ):
                where = "leave" if in_curve else "enter"
                apart = "level" if lanes == 3 else "half a step apart"
                raise GameRefusal(
                    "curve ends", f"the outermost lanes {where} a curve at distances that do "
                    f"not match: node {first.id} stands at {first.distance:g} and node "
                    f"{second.id} at {second.distance:g}, where GP Online wants them {apart}",
                    f"Distances not properly configured at curve: {first.id}, {second.id}",
                    (first.id, second.id),
                )
            in_curve = not in_curve
            i, j = i + 1, j + 1
        else:
            i += curve_one == in_curve
            j += curve_other == in_curve


def rebuild_lanes(track: GameTrack, lanes: int) -> list[list[int]]:
    """The lanes as the game rebuilds them from the distances, each a list of node ids from
    its finish node; raises :class:`GameRefusal` where it cannot."""
    ordered = sorted((n for n in track.nodes if not n.is_pit),
                     key=lambda n: distance_to_int(n.distance))
    built = start_lanes(ordered[:lanes])
    for node in ordered[lanes:]:
        best: list[GameNode] | None = None
        for lane in built:
            if node.id in lane[-1].children and (
                best is None
                or distance_to_int(lane[-1].distance) < distance_to_int(best[-1].distance)
            ):
                best = lane
        if best is None:
            raise GameRefusal(
                "lanes", f"node {node.id} (distance {node.distance:g}) follows no lane: when "
                "GP Online reaches it, no lane ends in a node that moves to it (a lane change "
                "before it came from a node behind that lane's own)",
                f"Internal error when calculating lanes: {node.id}", (node.id,),
            )
        best.append(node)
    _curve_ends(track, built[0], built[-1], lanes)
    return [[n.id for n in lane] for lane in built]


def drop_moves_into_blocked(track: GameTrack) -> None:
    """What the game does to blocked nodes before a race: no move may enter one, and each must
    keep a move on (the track would be blocked)."""
    for blocked in (n for n in track.nodes if n.type == NodeType.BLOCKED):
        for node in track.nodes:
            node.children.discard(blocked.id)
        if not len(blocked.children):
            raise GameRefusal(
                "blocked", f"blocked node {blocked.id} has no move on once the moves into "
                "blocked nodes are taken away", "Track seems to be completely blocked",
                (blocked.id,),
            )
