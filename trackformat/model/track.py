"""The pydantic models of a track file (format version 3).

The models check shape only: types, ranges that no track could ever need, required fields. Meaning
(does this link point at a space that exists? is this corner reachable?) is the validator's job,
so that a half-finished track still loads in the editor and every problem is reported at once.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Literal, Self

from pydantic import Field, Strict, model_validator
from pydantic_core import PydanticCustomError

from trackformat.model.base import Coordinate, ElementId, Point, TrackModel

FORMAT_NAME = "formula-d-track"
"""Value of the ``format`` key that marks a JSON file as a track file."""

CURRENT_FORMAT_VERSION = 3
"""Format version written by this release; older files are migrated on load. Keep it equal to
the ``Literal`` of :attr:`Track.format_version`."""


class Metadata(TrackModel):
    """Who made the track and how it is raced by default."""

    name: Annotated[str, Field(min_length=1, max_length=200)]
    """The circuit's name, as shown to players."""
    designer: Annotated[str, Field(max_length=200)] = ""
    """Who designed or digitised the track."""
    laps: Annotated[int, Field(ge=1, le=20)] = 2
    """Default number of laps of a race on this track."""
    notes: Annotated[str, Field(max_length=20_000)] = ""
    """Free text: provenance, house rules, anything a league should know."""


Coefficient = Annotated[float, Strict(), Field(ge=-10_000_000.0, le=10_000_000.0)]
"""A number of a placement's matrix (bounded far beyond any board: beyond is a broken file)."""

MatrixRow = Annotated[tuple[Coefficient, Coefficient, Coefficient], Strict(False)]


class Placement(TrackModel):
    """Where the board picture lies on the board: the map from picture pixels to board pixels.

    A scan of another resolution, or one turned a little, is placed under the track instead of
    moving the track: the track keeps its coordinates and the picture is drawn through this map.
    """

    matrix: Annotated[tuple[MatrixRow, MatrixRow], Strict(False)]
    """``[[a, b, c], [d, e, f]]``: the picture pixel (x, y) lies on the board at
    (a·x + b·y + c, d·x + e·y + f). A scan scaled, turned and moved alike is a similarity
    (a = e, b = −d); a photo taken at a slant needs the general (affine) map."""

    @model_validator(mode="after")
    def _not_flat(self) -> Self:
        (a, b, _), (d, e, _) = self.matrix
        if abs(a * e - b * d) < 1e-12:
            # A custom error, so that the message reaches the user without pydantic's prefix.
            raise PydanticCustomError(
                "flat_placement",
                "the matrix squashes the picture onto a line (its determinant a·e − b·d is 0)",
            )
        return self

    def apply(self, x: float, y: float) -> tuple[float, float]:
        """Where the picture pixel (x, y) lies on the board."""
        (a, b, c), (d, e, f) = self.matrix
        return (a * x + b * y + c, d * x + e * y + f)

    def inverse(self, x: float, y: float) -> tuple[float, float]:
        """The picture pixel that lies at the board point (x, y)."""
        (a, b, c), (d, e, f) = self.matrix
        det = a * e - b * d
        x, y = x - c, y - f
        return ((e * x - b * y) / det, (a * y - d * x) / det)


class Board(TrackModel):
    """The picture the track is laid over, usually a scan of the printed board."""

    image: Annotated[str, Field(min_length=1, max_length=1000)] | None = None
    """Path of the board picture, relative to the track file, with forward slashes."""
    width: Annotated[int, Field(gt=0, le=100_000)]
    """Width of the board in pixels; every coordinate of the track is in these pixels (the board
    picture's own pixels unless it has a ``placement``)."""
    height: Annotated[int, Field(gt=0, le=100_000)]
    """Height of the board in pixels."""
    placement: Placement | None = None
    """Where the picture lies on the board; none means the picture's pixels are the board's
    pixels, its top-left corner on the board's."""


class Lane(TrackModel):
    """A lane of the circuit. Lanes are listed from the driver's left to right at the start."""

    id: ElementId
    """Identifier referred to by the spaces of this lane."""
    name: Annotated[str, Field(max_length=100)] = ""
    """Optional display name (for example "outside")."""


class SpaceKind(StrEnum):
    """What a space is for."""

    TRACK = "track"
    """A space of the racing circuit, in one lane."""
    PIT = "pit"
    """A space of the pit lane."""
    BOX = "box"
    """A team's box beside the pit lane, where a car stops to change tyres."""


class Space(TrackModel):
    """One space of the board: where exactly one car can stand."""

    id: ElementId
    """Stable identifier, referred to by links, corners, the finish line, grid and pit lane."""
    kind: Annotated[SpaceKind, Strict(False)] = SpaceKind.TRACK
    """Whether this is a circuit, pit-lane or box space."""
    lane: ElementId | None = None
    """Lane of a track space (an id from ``lanes``); pit and box spaces have none."""
    polygon: Annotated[list[Point], Field(min_length=3, max_length=64)]
    """Outline of the printed space in board pixels, in order around it."""
    centre: Point
    """Where a car standing on the space is drawn, in board pixels."""
    heading: Annotated[float, Field(ge=-360.0, le=360.0)]
    """Driving direction in degrees, 0 along +x, 90 along +y (down the board)."""


class Link(TrackModel):
    """A move of one space, from one space to another: straight ahead or into the next lane.

    The arrows printed near and inside corners are links; on straights every allowed one-space
    move is a link too, so that the set of links is the whole movement graph.
    """

    from_: Annotated[ElementId, Field(alias="from")]
    """The space the move starts from."""
    to: ElementId
    """The space the move ends on."""


class Corner(TrackModel):
    """A corner between its red-and-white limits, and the stops it demands."""

    id: ElementId
    """Stable identifier of the corner."""
    name: Annotated[str, Field(max_length=100)] = ""
    """The corner's name, as printed or as known to players."""
    stops: Annotated[int, Field(ge=0, le=9)]
    """Number of stops demanded (the figure in the yellow box; the rules allow 1 to 3)."""
    spaces: list[ElementId]
    """Every space inside the corner's limits, in all lanes."""
    printed_long: Annotated[int, Field(ge=0, le=999)] | None = None
    """Length of the longest path through the corner, as printed on the board, if printed."""
    printed_short: Annotated[int, Field(ge=0, le=999)] | None = None
    """Length of the shortest path through the corner, as printed on the board, if printed."""


class FinishLine(TrackModel):
    """The finish line, given by the first space past it in each lane."""

    spaces: list[ElementId]
    """One space per lane, in lane order: the first space past the line."""


class PitLane(TrackModel):
    """The pit lane: a one-way chain of spaces off the track, with the team boxes beside it."""

    spaces: list[ElementId]
    """The pit-lane spaces in driving order, from entry to exit."""
    entry: list[Link] = []
    """Moves from track spaces into the pit lane."""
    exit: list[Link] = []
    """Moves from the pit lane back onto the track."""
    boxes: list[ElementId] = []
    """The team boxes (spaces of kind ``box``), in order along the pit lane."""
    garages: list[ElementId] = []
    """Pit-lane spaces that are also a team's place to stop, standing in line in the lane
    rather than beside it, in driving order: the garages of GP Online's boards (nodes of the
    pit lane with an attribute), kept so that a board exported back to GP Online has them.
    The race engine stops cars at garages exactly as at boxes."""


MAX_RAIN = 100.0
"""Highest GP Online rain probability a track keeps (real files give 0 to 35)."""
MAX_WEATHER_PERIOD = 1_000_000
"""Highest GP Online minimum weather period a track keeps (real files give 0 to 16)."""
MAX_CURVE_POSITION = 1_000_000.0
"""Largest curve position attribute, either sign, a track keeps (real files stay below 40)."""
MAX_HEADING = 360.0
"""Largest grid heading in degrees, either sign, a track keeps."""

CurvePosition = Annotated[float, Field(ge=-MAX_CURVE_POSITION, le=MAX_CURVE_POSITION)]
"""A curve node's position attribute in a GP Online file (bounded far beyond real files')."""


class GPOnline(TrackModel):
    """What a GP Online board file says beyond the track itself: kept when a board is imported
    from GP Online (a computer version of the game) and written back when it is exported, so
    that a board ported there and back keeps what GP Online reads. The numbers are GP Online's,
    in its own units."""

    info_corner: Annotated[int, Field(ge=0, le=4)] = 0
    """The board corner where GP Online draws its information box (0 to 4)."""
    rain_probability: Annotated[float, Field(ge=0.0, le=MAX_RAIN)] | None = None
    """GP Online's rain probability (real files give 0 to 35); none: the file sets no
    weather."""
    min_weather_period: Annotated[int, Field(ge=0, le=MAX_WEATHER_PERIOD)] | None = None
    """GP Online's minimum weather period (real files give 0 to 16); set with
    ``rain_probability``, or neither."""
    curve_positions: dict[ElementId, dict[ElementId, CurvePosition]] = {}
    """By corner id, the position attribute of each of its spaces as the file gave it (real
    files number a corner's nodes their own way: half steps across the lanes, with gaps and
    repeats). An export writes a corner's when they name exactly its spaces (blocked spaces
    aside, which are no curve nodes), and numbers a corner afresh once its spaces have
    changed."""
    grid_headings: dict[ElementId, Annotated[float, Field(ge=-MAX_HEADING, le=MAX_HEADING)]] = {}
    """Each grid slot's heading in degrees as the file gave it; a slot without one is written
    with its space's heading."""

    @model_validator(mode="after")
    def _weather_whole(self) -> Self:
        if (self.rain_probability is None) != (self.min_weather_period is None):
            raise PydanticCustomError(
                "half_weather",
                "rain_probability and min_weather_period go together: GP Online's file "
                "holds both or neither",
            )
        return self


class Ignore(TrackModel):
    """A deliberate oddity: diagnostics the designer has checked and accepts."""

    code: Annotated[str, Field(min_length=1, max_length=32)]
    """Code of the validator rule to silence (for example ``GEOM002``)."""
    elements: list[ElementId] = []
    """Silence only diagnostics about these elements; empty silences the rule for the track."""
    reason: Annotated[str, Field(max_length=1000)] = ""
    """Why the oddity is deliberate, for the next person who reads the file."""


class Track(TrackModel):
    """A Formula D circuit: its spaces, the moves between them and everything printed on it."""

    format: Literal["formula-d-track"] = "formula-d-track"
    """Marks the file as a track file."""
    format_version: Literal[3] = 3
    """Version of the file format; always written, older versions are migrated on load."""
    metadata: Metadata
    """Name, designer, default laps and notes."""
    board: Board
    """The board picture and its size in pixels."""
    lanes: Annotated[list[Lane], Field(max_length=8)]
    """The lanes, from the driver's left to right on the start straight."""
    spaces: list[Space]
    """Every space: track, pit lane and boxes."""
    links: list[Link] = []
    """Every one-space move on the track and in the pit lane."""
    corners: list[Corner] = []
    """The corners, in any order (the validator puts them in lap order)."""
    finish_line: FinishLine | None = None
    """The finish line, if laid out yet."""
    grid: list[ElementId] = []
    """Start grid slots, pole position first."""
    pit_lane: PitLane | None = None
    """The pit lane, if the track has one."""
    ignore: list[Ignore] = []
    """Validator diagnostics accepted as deliberate."""
    gponline: GPOnline | None = None
    """GP Online's settings of the board, for a track ported from or to GP Online."""


__all__ = [
    "CURRENT_FORMAT_VERSION",
    "FORMAT_NAME",
    "Board",
    "Coordinate",
    "Corner",
    "FinishLine",
    "GPOnline",
    "Ignore",
    "Lane",
    "Link",
    "Metadata",
    "PitLane",
    "Placement",
    "Point",
    "Space",
    "SpaceKind",
    "Track",
]
