"""Corner exits GP Online's builder can restart its count from.

After the curves of a region, GP Online restarts its count on the straights that follow: of the
first straights after the region, it takes the one moved onto only from curve nodes, gives it
the largest distance yet, and walks on from the straight it moves to. Any other first straight
moved onto only from curves is never reached by that walk (it lies behind it), and the game
refuses the track ("unreachable node"), or, when it stands level with a curve node beside it,
cannot tell their lanes apart. Real boards leave every corner one lane behind another, so that
a single lane's first straight is entered only from curves.

A designed corner whose lanes leave it level (the outer lanes side by side, the middle one a
half step ahead, say) is written in its nearest faithful form: the first straight of the lane
furthest along becomes a curve node of the corner, and so on until one lane alone leaves the
curves straight away. Each space so taken into a corner is named in a warning. A space the
pit lane is entered from is taken in last: GP Online enters its pit lane only from a straight.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from trackformat.graph import TrackGraphs
from trackformat.interop.gponline.export_curves import curve_regions
from trackformat.model import SpaceKind


def _first_straights(graphs: TrackGraphs, region: set[str], curve: Collection[str],
                     skip: Collection[str]) -> list[str]:
    """The straights after ``region`` moved onto only from curve nodes."""
    ahead, behind = graphs.successors("moves"), graphs.predecessors("moves")
    racing = {s for s, space in graphs.spaces.items() if space.kind == SpaceKind.TRACK}
    first = {b for a in region for b in ahead.get(a, [])
             if b in racing and b not in curve and b not in skip}
    return sorted(w for w in first
                  if all(p in curve for p in behind.get(w, []) if p in racing))


def fit_exits(graphs: TrackGraphs, corners: Mapping[str, list[str]], skip: Collection[str],
              warnings: list[str], keep: Collection[str] = ()) -> dict[str, list[str]]:
    """Each corner's curve spaces, with the first straights taken in that its exit needs (see
    the module docstring); ``skip``: spaces that are never curves (finish line, blocked);
    ``keep``: spaces left straight while another can be taken in instead (the pit lane's
    entries: GP Online enters its pit lane only from a straight)."""
    fitted = {corner: list(spaces) for corner, spaces in corners.items()}
    corner_of = {s: corner for corner, spaces in fitted.items() for s in spaces}
    lane_index = {s: k for k, lane in enumerate(graphs.lane_order) for s in graphs.lanes[lane]}
    behind = graphs.predecessors("moves")
    taken: list[str] = []
    for _ in range(len(graphs.spaces)):
        stuck = next(
            (found for region in curve_regions(graphs, corner_of)
             if len(found := _first_straights(graphs, region, corner_of, skip)) > 1),
            None,
        )
        if stuck is None:
            break
        space = max([s for s in stuck if s not in keep] or stuck,
                    key=lambda s: (graphs.progress.get(s, 0), lane_index.get(s, 0)))
        lane = graphs.lanes[graphs.lane_order[lane_index[space]]] if space in lane_index else []
        own = lane[lane.index(space) - 1] if space in lane else None
        source = own if own in corner_of else sorted(p for p in behind.get(space, [])
                                                     if p in corner_of)[0]
        corner = corner_of[source]
        fitted[corner].append(space)
        corner_of[space] = corner
        taken.append(f"{space} (corner {corner})")
    if taken:
        warnings.append(
            "GP Online restarts its count after a corner from one lane's first straight, so "
            "the lanes must leave a corner one behind another; where they left it level, the "
            "first straight of the lane furthest along is written as a curve node of the corner "
            "(a car leaves the corner one space later there in GP Online): " + ", ".join(taken)
        )
    return fitted
