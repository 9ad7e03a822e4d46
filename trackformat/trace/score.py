"""How good a traced draft is, against a board traced by hand: the figures the issue asks for.

The truth is a list of the printed spaces (their centres in the picture's pixels, their lanes
where known) and the moves the board allows between them. A traced space *finds* a printed one
when its centre lies within a quarter of a space of it; the pairing is one to one (an optimal
assignment, so two traced spaces cannot both claim one printed space). Then:

- spaces found: printed spaces paired, over all printed spaces;
- false spaces: traced spaces paired with none;
- lanes right: of the paired spaces in a lane of the truth, those whose draft lane is the same
  lane counted from the driver's left;
- moves present: the board's moves whose two ends were found and which the draft links too
  (the pit lane's entry and exit count as links); the rest are absent; extra links are the
  draft's links that are no move of the board;
- pit spaces found: the pit lane's printed spaces paired with a pit space of the draft; false
  pit spaces: the draft's pit spaces paired with none of them;
- grid slots: the board's slots whose space is a slot of the draft, and of those, the ones in
  the same place of the grid (the pole the pole).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from scipy.optimize import linear_sum_assignment  # type: ignore[import-untyped]
from scipy.spatial import cKDTree  # type: ignore[import-untyped]

from trackformat.model.track import Track

NEAR = 0.25
"""A traced centre finds a printed space within this share of a space's length."""


@dataclass(frozen=True)
class Truth:
    """A board traced by hand, in the picture's pixels."""

    centres: NDArray[np.float64]
    """(N, 2): the centre of each printed space."""
    lanes: Sequence[int | None]
    """Each space's lane, 1 the driver's left; None off the lanes (pit lane, boxes)."""
    moves: Sequence[tuple[int, int]]
    """The moves the board allows, as pairs of indices into ``centres``."""
    space_length: float
    """A space's length in pixels (the median step straight on along a lane)."""
    corners: Sequence[Sequence[int]] = ()
    """The corners, each as the indices of its spaces (empty when the truth has none)."""
    stops: Sequence[int] = ()
    """Each corner's stops, alike."""
    pit: Sequence[int] = ()
    """The pit lane's spaces in driving order (boxes aside), as indices into ``centres``."""
    grid: Sequence[int] = ()
    """The grid's slots, pole first, alike."""


@dataclass(frozen=True)
class Score:
    """The figures of one draft against one truth."""

    spaces: int
    found: int
    false: int
    lanes_judged: int
    lanes_right: int
    moves: int
    moves_present: int
    links: int
    links_extra: int
    corners: int = 0
    corners_traced: int = 0
    corner_spaces: int = 0
    """The truth's corner spaces that were found."""
    corner_spaces_right: int = 0
    """Of those, the ones in a traced corner."""
    corner_spaces_extra: int = 0
    """Traced corner spaces found as spaces in no corner of the truth."""
    stops_read: int = 0
    """Corners of the truth whose traced corner (the one holding most of its spaces) has
    stops read (not 0)."""
    stops_right: int = 0
    """Of those, the ones read right."""
    links_guessed: int = 0
    """Links the draft marks as guessed."""
    extra_guessed: int = 0
    """Extra links (no move of the board) among the guessed ones."""
    pit_spaces: int = 0
    """The board's pit-lane spaces."""
    pit_found: int = 0
    """Of those, the ones found as a pit space of the draft."""
    pit_traced: int = 0
    """The draft's pit spaces."""
    pit_false: int = 0
    """Of those, the ones that find no pit-lane space of the board."""
    pit_moves: int = 0
    """The board's moves into, along and out of its pit lane (the moves in and out of its
    boxes aside)."""
    pit_moves_present: int = 0
    """Of those, the ones the draft links."""
    pit_links: int = 0
    """The draft's links into, along and out of its pit lane."""
    pit_links_extra: int = 0
    """Of those, the ones that are no move of the board (counted among the extra links too)."""
    grid_slots: int = 0
    """The board's grid slots."""
    grid_traced: int = 0
    """The draft's grid slots."""
    grid_found: int = 0
    """The board's slots whose space is a slot of the draft."""
    grid_placed: int = 0
    """Of those, the ones in the same place of the grid."""

    @property
    def found_share(self) -> float:
        return self.found / self.spaces if self.spaces else 0.0

    @property
    def lanes_share(self) -> float:
        return self.lanes_right / self.lanes_judged if self.lanes_judged else 0.0

    @property
    def moves_share(self) -> float:
        return self.moves_present / self.moves if self.moves else 0.0

    @property
    def moves_absent(self) -> int:
        return self.moves - self.moves_present

    def lines(self) -> list[str]:
        """The figures as lines of text."""
        return [
            f"spaces found   {self.found} of {self.spaces} ({self.found_share:.1%})",
            f"false spaces   {self.false}",
            f"lanes right    {self.lanes_right} of {self.lanes_judged} ({self.lanes_share:.1%})",
            f"moves present  {self.moves_present} of {self.moves} ({self.moves_share:.1%}); "
            f"absent {self.moves_absent}",
            f"extra links    {self.links_extra} of the draft's {self.links}; "
            f"{self.extra_guessed} of them among the {self.links_guessed} marked guessed",
            f"corners        {self.corners_traced} traced, {self.corners} on the board; corner "
            f"spaces in a corner {self.corner_spaces_right} of {self.corner_spaces}, "
            f"{self.corner_spaces_extra} more",
            f"stops          read for {self.stops_read} of {self.corners} corners, "
            f"{self.stops_right} right",
            f"pit lane       {self.pit_found} of {self.pit_spaces} pit spaces found; "
            f"{self.pit_traced} traced, {self.pit_false} false; moves present "
            f"{self.pit_moves_present} of {self.pit_moves}; {self.pit_links_extra} of its "
            f"{self.pit_links} links extra",
            f"grid           {self.grid_found} of {self.grid_slots} slots in the draft's grid, "
            f"{self.grid_placed} in their place; {self.grid_traced} traced",
        ]


def pair_spaces(traced: NDArray[np.float64], printed: NDArray[np.float64], radius: float
                ) -> dict[int, int]:
    """Traced index -> printed index, one to one, each pair within ``radius``, as many pairs
    as possible and then the nearest (an assignment over the pairs close enough)."""
    if len(traced) == 0 or len(printed) == 0:
        return {}
    tree = cKDTree(printed)
    far = radius * 1000.0
    cost = np.full((len(traced), len(printed)), far)
    for i, near in enumerate(tree.query_ball_point(traced, r=radius)):
        for j in near:
            cost[i, j] = float(np.hypot(*(traced[i] - printed[j])))
    rows, cols = linear_sum_assignment(cost)
    return {int(i): int(j) for i, j in zip(rows, cols, strict=True) if cost[i, j] <= radius}


def score_track(track: Track, truth: Truth,
                guessed: Collection[tuple[str, str]] = ()) -> Score:
    """The figures of ``track`` against ``truth`` (see the module's docstring); ``guessed``
    are the links the draft marks as guessed, to count how many of the extra links the marks
    point the designer to."""
    spaces = list(track.spaces)
    centres = np.array([s.centre for s in spaces], dtype=np.float64).reshape(-1, 2)
    pairs = pair_spaces(centres, truth.centres, NEAR * truth.space_length)
    lane_number = {lane.id: k + 1 for k, lane in enumerate(track.lanes)}
    judged = right = 0
    for i, j in pairs.items():
        if truth.lanes[j] is None:
            continue
        judged += 1
        lane = spaces[i].lane
        right += lane is not None and lane_number.get(lane) == truth.lanes[j]
    printed_to_id = {j: spaces[i].id for i, j in pairs.items()}
    links = {(link.from_, link.to) for link in track.links}
    if track.pit_lane is not None:
        links |= {(link.from_, link.to) for link in (*track.pit_lane.entry, *track.pit_lane.exit)}
    moves = set(truth.moves)
    present = sum((printed_to_id.get(a), printed_to_id.get(b)) in links for a, b in moves)
    board_links = {(printed_to_id[a], printed_to_id[b]) for a, b in moves
                   if a in printed_to_id and b in printed_to_id}
    in_corner = {space_id for corner in track.corners for space_id in corner.spaces}
    printed_corner = {j for corner in truth.corners for j in corner}
    found_corner = [j for j in printed_corner if j in printed_to_id]
    read = right_stops = 0
    for corner, stops in zip(truth.corners, truth.stops, strict=False):
        holders = [c for c in track.corners
                   if any(printed_to_id.get(j) in set(c.spaces) for j in corner)]
        if not holders:
            continue
        best = max(holders, key=lambda c: sum(printed_to_id.get(j) in set(c.spaces)
                                               for j in corner))
        if best.stops:
            read += 1
            right_stops += best.stops == stops
    return Score(spaces=len(truth.centres), found=len(pairs), false=len(spaces) - len(pairs),
                 lanes_judged=judged, lanes_right=right, moves=len(moves),
                 moves_present=present, links=len(links),
                 links_extra=len(links - board_links), corners=len(truth.corners),
                 corners_traced=len(track.corners), corner_spaces=len(found_corner),
                 corner_spaces_right=sum(printed_to_id[j] in in_corner for j in found_corner),
                 corner_spaces_extra=sum(space_id in in_corner
                                         for j, space_id in printed_to_id.items()
                                         if j not in printed_corner),
                 stops_read=read, stops_right=right_stops, links_guessed=len(set(guessed)),
                 extra_guessed=len((links - board_links) & set(guessed)),
                 **_pit_and_grid(track, truth, printed_to_id, links, board_links))


def _pit_and_grid(track: Track, truth: Truth, printed_to_id: dict[int, str],
                  links: set[tuple[str, str]], board_links: set[tuple[str, str]]
                  ) -> dict[str, int]:
    """The pit lane's and the grid's figures of :class:`Score`."""
    pit_ids = set(track.pit_lane.spaces) if track.pit_lane is not None else set()
    printed_pit = set(truth.pit)
    found_pit = {j for j in printed_pit if printed_to_id.get(j) in pit_ids}
    true_pit = {printed_to_id[j] for j in found_pit}
    boxes = {j for j, lane in enumerate(truth.lanes) if lane is None} - printed_pit
    pit_moves = [(a, b) for a, b in truth.moves
                 if (a in printed_pit or b in printed_pit) and not {a, b} & boxes]
    pit_links = {(a, b) for a, b in links if a in pit_ids or b in pit_ids}
    slots = [printed_to_id.get(j) for j in truth.grid]
    return {"pit_spaces": len(printed_pit), "pit_found": len(found_pit),
            "pit_traced": len(pit_ids), "pit_false": len(pit_ids - true_pit),
            "pit_moves": len(pit_moves),
            "pit_moves_present": sum((printed_to_id.get(a), printed_to_id.get(b)) in links
                                     for a, b in pit_moves),
            "pit_links": len(pit_links), "pit_links_extra": len(pit_links - board_links),
            "grid_slots": len(truth.grid), "grid_traced": len(track.grid),
            "grid_found": sum(slot is not None and slot in set(track.grid) for slot in slots),
            "grid_placed": sum(slot is not None and k < len(track.grid) and track.grid[k] == slot
                               for k, slot in enumerate(slots))}
