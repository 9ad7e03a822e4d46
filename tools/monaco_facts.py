"""Facts of the Monaco board of Formula D, as data for ``tools/build_monaco.py``.

Measured from public digitisations of the Formula D Monaco board (Asmodee, 2008): three
independent digitisations agree with each other and with the numbers printed on the board. Only
facts are kept here (counts, index ranges, printed numbers, a coarse centre line), none of the
board's art.

Lanes are numbered from the driver's left on the start straight: lane 1 away from the pits, lane 3
on the pit side. Index 0 of every lane is the first space past the finish line, and indices grow
in the driving direction.
"""

from __future__ import annotations

from dataclasses import dataclass

NAME = "Monaco"
LAPS = 2

BOARD_ASPECT = (2500, 1658)
"""Width and height of the reference scan the centre line was measured on."""

LANE_SPACES = {"1": 168, "2": 166, "3": 163}
"""Spaces per lane, lane 1 first (497 track spaces in all)."""


@dataclass(frozen=True)
class Corner:
    """A printed corner: its limits as an inclusive index range per lane."""

    id: str
    name: str
    stops: int
    long: int
    """Longest path through the corner, as printed."""
    short: int
    """Shortest path through the corner, as printed."""
    lanes: dict[str, tuple[int, int]]
    single_arrows: tuple[tuple[str, int], ...]
    """The two spaces before the entry that carry a single straight-ahead arrow."""


CORNERS = (
    Corner("sainte-devote", "Sainte Dévote", stops=1, long=7, short=3,
           lanes={"1": (5, 11), "2": (5, 9), "3": (6, 8)},
           single_arrows=(("3", 5), ("2", 4))),
    Corner("massenet", "Massenet", stops=1, long=10, short=5,
           lanes={"1": (30, 34), "2": (28, 35), "3": (27, 36)},
           single_arrows=(("1", 29), ("2", 27))),
    Corner("casino", "Casino", stops=1, long=6, short=2,
           lanes={"1": (37, 42), "2": (38, 41), "3": (39, 40)},
           single_arrows=(("3", 38), ("2", 37))),
    Corner("mirabeau", "Mirabeau", stops=1, long=6, short=2,
           lanes={"1": (50, 55), "2": (50, 53), "3": (50, 51)},
           single_arrows=(("2", 49), ("3", 49))),
    Corner("loews", "Loews", stops=3, long=18, short=8,
           lanes={"1": (59, 70), "2": (57, 68), "3": (55, 66)},
           single_arrows=(("2", 56), ("1", 58))),
    Corner("nouvelle-chicane", "Nouvelle Chicane", stops=1, long=9, short=5,
           lanes={"1": (99, 103), "2": (97, 102), "3": (95, 101)},
           single_arrows=(("2", 96), ("1", 98))),
    Corner("tabac", "Tabac", stops=1, long=7, short=3,
           lanes={"1": (113, 115), "2": (111, 115), "3": (109, 115)},
           single_arrows=(("2", 110), ("1", 112))),
    Corner("piscine", "Piscine", stops=2, long=13, short=8,
           lanes={"1": (119, 127), "2": (118, 127), "3": (117, 127)},
           single_arrows=(("2", 117), ("1", 118))),
    Corner("la-rascasse", "La Rascasse", stops=2, long=11, short=6,
           lanes={"1": (132, 140), "2": (131, 138), "3": (130, 136)},
           single_arrows=(("2", 130), ("1", 131))),
    Corner("anthony-noghes", "Anthony Noghes", stops=1, long=6, short=2,
           lanes={"1": (146, 151), "2": (145, 148), "3": (144, 145)},
           single_arrows=(("3", 143), ("2", 144))),
)
"""The ten corners in lap order: 14 stops per lap."""

GRID = (
    ("1", 167), ("3", 161), ("1", 164), ("3", 158), ("1", 161),
    ("3", 155), ("1", 158), ("3", 152), ("1", 155), ("3", 149),
)
"""Start grid slots, pole first: staggered in lanes 1 and 3, pole one space behind the line."""

PIT_SPACES = 18
PIT_ENTRY = (("3", 146), ("3", 147))
"""Track spaces that link into the first pit space (lane 3, just before the grid)."""
PIT_EXIT = (("3", 1), ("3", 2))
"""Track spaces the last pit space links into (lane 3, just after the line)."""
PIT_BOXES = ((3, 4), (5, 6), (7, 8), (9, 10), (11, 12))
"""The five team boxes, each as the two pit spaces (0 = first from the entry) it stands beside."""

LANE_SPACING = 0.0097
"""Distance between the centres of adjacent lanes, as a fraction of the board's width."""
SPACE_LENGTH = 0.0183
"""Typical length of a space, as a fraction of the board's width."""

CENTRE_LINE_STEP = 2
"""The centre line has a point every second space of lane 2, starting at index 0."""
CENTRE_LINE = (
    (0.1222, 0.3543), (0.1457, 0.3095), (0.1702, 0.2662), (0.1942, 0.225),
    (0.2312, 0.2088), (0.2661, 0.2291), (0.2987, 0.2523), (0.3315, 0.2746),
    (0.3665, 0.2874), (0.4024, 0.2899), (0.4384, 0.2918), (0.4736, 0.3027),
    (0.5069, 0.3233), (0.5402, 0.3443), (0.5733, 0.3641), (0.6065, 0.3652),
    (0.6373, 0.3386), (0.6508, 0.295), (0.6488, 0.2427), (0.6438, 0.1889),
    (0.6519, 0.1333), (0.685, 0.1123), (0.7196, 0.1008), (0.7541, 0.0893),
    (0.7888, 0.0781), (0.8237, 0.0671), (0.8549, 0.0868), (0.8478, 0.1416),
    (0.8418, 0.1983), (0.8481, 0.2495), (0.8773, 0.2263), (0.8812, 0.1688),
    (0.9121, 0.149), (0.9456, 0.1775), (0.9512, 0.228), (0.9332, 0.2763),
    (0.915, 0.324), (0.8932, 0.3683), (0.8676, 0.4074), (0.8392, 0.4422),
    (0.8083, 0.4713), (0.7751, 0.4943), (0.7398, 0.5085), (0.7037, 0.5166),
    (0.6672, 0.5169), (0.631, 0.5097), (0.5958, 0.4951), (0.5613, 0.4773),
    (0.5267, 0.4594), (0.4885, 0.4526), (0.4607, 0.4928), (0.4244, 0.4643),
    (0.3927, 0.4407), (0.3599, 0.421), (0.3271, 0.4013), (0.2937, 0.3811),
    (0.2601, 0.3726), (0.2297, 0.3991), (0.2091, 0.4375), (0.1939, 0.4804),
    (0.2068, 0.5279), (0.2042, 0.5847), (0.1927, 0.6388), (0.1655, 0.6799),
    (0.1627, 0.733), (0.1683, 0.7892), (0.1838, 0.8366), (0.2182, 0.8557),
    (0.2211, 0.9138), (0.1863, 0.9324), (0.1504, 0.9272), (0.1155, 0.9221),
    (0.0805, 0.9172), (0.047, 0.8977), (0.0526, 0.8444), (0.0573, 0.79),
    (0.0545, 0.733), (0.0534, 0.676), (0.0563, 0.6191), (0.0629, 0.5629),
    (0.0726, 0.5077), (0.086, 0.4543), (0.102, 0.4026),
)
"""Centre of lane 2 at indices 0, 2, 4, ... 164, as (x, y) fractions of the board's width and
height (y pointing down); the line closes from the last point back to the first."""
