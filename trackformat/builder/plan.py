"""What a designer tells the builder: the centre line, the lanes, and what is printed on them.

Places along the road are given as *stations*: positions in units of the centre line's own points,
so station 3.5 is halfway (by length) between points 3 and 4. A plan written in stations does not
change when the line is smoothed, and reads like the digitised data it comes from.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from trackformat.builder.road import Point

SpaceRef = tuple[str, int]
"""A track space as (lane id, index in the lane); index 0 is the first space past the line."""


@dataclass(frozen=True)
class Stagger:
    """A stretch where a lane runs in step with the lane it follows, shifted along the road.

    Printed boards often set neighbouring lanes half a space apart, so that a lane change lands
    half a space ahead, not level with the next space. Boundaries ``first`` to ``last`` of the
    lane (boundary ``i`` is the cut behind space ``i``) lie ``offset`` spaces ahead of boundaries
    ``beside``, ``beside + 1`` ... of the followed lane (a negative offset: behind it). The
    stagger changes where one stretch ends and the next begins; between stretches the spaces are
    spread evenly.
    """

    first: int
    last: int
    beside: int
    offset: float = 0.0
    """Share of a space of the followed lane, in (-1, 1): 0.5 is half a space ahead."""


@dataclass(frozen=True)
class LaneChanges:
    """Lane changes the printed arrows allow from a run of spaces of one lane into the next.

    From each space ``i`` of ``lane`` with ``first <= i <= last``, a move leads to space
    ``i + offset`` of ``into`` (counted round the lap), an adjacent lane. Where a board's facts
    list its lane changes space by space, they replace the straight rule's diagonals.
    """

    lane: str
    into: str
    first: int
    last: int
    offset: int


@dataclass(frozen=True)
class LanePlan:
    """One lane: how many spaces, and where some of its cuts must (or should) be."""

    id: str
    spaces: int
    anchors: Mapping[int, float] = field(default_factory=dict)
    """Boundary index -> station, held exactly. Boundary ``i`` is the cut behind space ``i``;
    boundary 0 (the finish line) must be given."""
    targets: Mapping[int, float] = field(default_factory=dict)
    """Boundary index -> station the cut should be near (a corner limit beside another lane's);
    fitted against keeping the spaces even, see :func:`trackformat.builder.lanes.fit_anchors`."""
    name: str = ""
    follow: str | None = None
    """Another lane to cut this one beside (see :mod:`trackformat.builder.cutting`): the finish
    line is where that lane's is, and ``anchors`` and ``targets`` are not used."""
    beside: Mapping[int, int] = field(default_factory=dict)
    """Boundary of this lane -> boundary of ``follow`` it lies beside (corner limits, mostly).
    Between two such boundaries off the corners, equal counts make the lanes run in step."""
    stagger: Sequence[Stagger] = ()
    """Stretches in step with ``follow``, shifted by a fraction of a space: these boundaries are
    held where the stretches put them, before ``beside`` is considered."""


@dataclass(frozen=True)
class RoadShift:
    """A stretch where the lanes lie beside the centre line instead of on it, shifted sideways.

    Rounding off a hairpin's centre line (see ``TrackPlan.min_radius``) pulls its apex in;
    printed boards also swing a whole bend out or in against the line measured along one lane.
    From station ``start`` to station ``end`` (running forward, round the lap if ``end`` is
    smaller) the lanes move ``distance`` lane widths to the driver's right (negative: left),
    easing in from nothing at ``start`` to the full distance midway and out again by ``end``,
    so the road never kinks.
    """

    start: float
    end: float
    distance: float


@dataclass(frozen=True)
class CornerPlan:
    """A corner: its spaces as an inclusive index range in each lane, stops and printed numbers."""

    id: str
    name: str
    stops: int
    ranges: Mapping[str, tuple[int, int]]
    """Lane id -> (first, last) index inside the corner's limits, both included."""
    printed_long: int | None = None
    printed_short: int | None = None


@dataclass(frozen=True)
class PitPlan:
    """The pit lane beside the outer side of the first or last lane, and its team boxes."""

    spaces: int
    beside: str
    """The lane the pit lane runs beside: the first lane (pit on the left) or the last (right)."""
    start: float
    """Boundary of ``beside`` where the pit lane starts; a fraction moves it into the next space
    (147.25 is a quarter of the way along space 147)."""
    end: float
    """Boundary of ``beside`` where it ends; smaller than ``start`` when it runs over the line."""
    entry: Sequence[SpaceRef]
    """Track spaces that link into the first pit space."""
    exit: Sequence[SpaceRef]
    """Track spaces the last pit space links into."""
    boxes: Sequence[tuple[int, int]] = ()
    """Each box as the first and last pit space (indices) it stands beside."""
    box_side: str = "outside"
    """Where the boxes stand: ``"outside"`` the pit lane (away from the track) or ``"inside"``,
    between it and the track (the pit lane must then lie far enough out, see ``profile``)."""
    box_width: float = 1.0
    """Width of a box across the road, in lane widths."""
    profile: Sequence[float] = ()
    """How far the pit lane lies from the lane beside it (centre to centre, in lane widths) at
    each of its boundaries, entry first: ``spaces + 1`` values, at least 1 (touching). Empty: one
    lane width plus ``gap`` all along."""
    enter_boxes_alongside: bool = False
    """Whether a car may also pull into its box from the last pit space beside it (as on the
    Monaco board), not only drive in from the first."""
    taper: float = 0.4
    """Share of a space by which the outer side of the first and last pit spaces is cut short,
    so the pit lane leaves and rejoins the track at a slant (and the sideways move from the
    track space beside the first pit space still goes forward)."""
    boundaries: Sequence[float] = ()
    """Where the pit lane's inner boundaries lie (``spaces - 1`` values, entry first), as
    boundaries of ``beside`` like ``start`` and ``end``: a board whose pit spaces are uneven.
    Empty: the pit lane is cut into equal lengths of the track's centre line."""
    gap: float = 0.0
    """Width of a wall between the track and the pit lane, in lane widths. None by default: the
    entry and exit are moves of one space, so the pit lane must touch the lane it leaves from."""


@dataclass(frozen=True)
class TrackPlan:
    """Everything the builder needs to make a closed circuit."""

    name: str
    board_width: int
    board_height: int
    centre_line: Sequence[Point]
    """The road's centre line, closed (the last point joins the first), in board pixels."""
    lane_spacing: float
    """Distance between the centres of adjacent lanes (the width of a lane), in pixels."""
    lanes: Sequence[LanePlan]
    """The lanes from the driver's left to right."""
    laps: int = 2
    designer: str = ""
    notes: str = ""
    board_image: str | None = None
    smoothing: int = 8
    """Vertices per segment of the smooth line through the centre line (1: as given)."""
    min_radius: float | None = None
    """Bends of the centre line tighter than this are rounded off (default: the road's half
    width and a twentieth of a lane, so the inside edge never folds; a hairpin's inside edge may
    still turn almost on a point, as printed hairpins do)."""
    squeeze: float = 1.0
    """How hard the inside of a bend pinches its spaces: 1 spreads a lane's spaces evenly along
    its own length, more makes the inside spaces of bends shorter still (see
    :func:`trackformat.builder.lanes.even_cuts`)."""
    pull: float = 1.0
    """How firmly fitted cuts stay beside their targets (see ``LanePlan.targets``)."""
    shifts: Sequence[RoadShift] = ()
    """Stretches where the lanes lie shifted sideways off the centre line (see
    :class:`RoadShift`); they must not overlap."""
    corners: Sequence[CornerPlan] = ()
    lane_changes: Sequence[LaneChanges] | None = None
    """Every lane change of the track, written space by space as the board's arrows allow them.
    None: the straight rule gives them (diagonally ahead into each adjacent lane, except from
    ``single_arrow`` spaces)."""
    single_arrow: Sequence[SpaceRef] = ()
    """Spaces with a single straight-ahead arrow: no lane change from them."""
    links_added: Sequence[tuple[SpaceRef, SpaceRef]] = ()
    """Arrows the straight rule does not give (inside corners, mostly)."""
    links_removed: Sequence[tuple[SpaceRef, SpaceRef]] = ()
    """Moves of the straight rule the printed arrows forbid."""
    grid: Sequence[SpaceRef] = ()
    """Start grid slots, pole first."""
    pit: PitPlan | None = None
