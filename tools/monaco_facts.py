"""Facts of the Monaco board of Formula D, as data for ``tools/build_monaco.py``.

The source is the Formula D Monaco board (Asmodee, 2008). Counts, index ranges, printed numbers,
grid and a coarse centre line were measured from public digitisations of it, which agree with
each other and with the numbers printed on the board. The corner names, the stagger of the lanes
stretch by stretch, the lane changes its arrows allow space by space, the pit lane's course and
the refined points of the centre line were read off a scan of the board and a hand trace of
every one of its spaces. Only facts are kept here, none of the board's art; see docs/monaco.md
for how the arrows were read where the print allows two readings.

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
    Corner("massenet", "Casino", stops=1, long=10, short=5,
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
    Corner("nouvelle-chicane", "Chicane", stops=1, long=9, short=5,
           lanes={"1": (99, 103), "2": (97, 102), "3": (95, 101)},
           single_arrows=(("2", 96), ("1", 98))),
    Corner("tabac", "Bureau de Tabac", stops=1, long=7, short=3,
           lanes={"1": (113, 115), "2": (111, 115), "3": (109, 115)},
           single_arrows=(("2", 110), ("1", 112))),
    Corner("piscine", "« S » de la Piscine", stops=2, long=13, short=8,
           lanes={"1": (119, 127), "2": (118, 127), "3": (117, 127)},
           single_arrows=(("2", 117), ("1", 118))),
    Corner("la-rascasse", "La Rascasse", stops=2, long=11, short=6,
           lanes={"1": (132, 140), "2": (131, 138), "3": (130, 136)},
           single_arrows=(("2", 130), ("1", 131))),
    Corner("anthony-noghes", "Anthony Noghes", stops=1, long=6, short=2,
           lanes={"1": (146, 151), "2": (145, 148), "3": (144, 145)},
           single_arrows=(("3", 143), ("2", 144))),
)
"""The ten corners in lap order: 14 stops per lap. Names as the board's plaques print them (read
off a scan of the board): the second and third corners are both printed "Casino"; the ids keep
the names of the real circuit's corners (Massenet, Nouvelle Chicane, Tabac, Piscine), so that
every corner has its own."""

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
PIT_START = 146.45
PIT_END = 2.2
"""Where the pit lane starts and ends, as boundaries of lane 3 (146.45 is nearly halfway along
space 146): its 18 spaces are a little longer than lane 3's. Read off the traced board."""
PIT_BOXES = ((3, 4), (5, 6), (7, 8), (9, 10), (11, 12))
"""The five team boxes, each as the two pit spaces (0 = first from the entry) it stands beside.
A car pulls in from either of the two; the board's garages stand between the track and the pit
lane."""
BOX_WIDTH = 1.5
"""Width of a team garage across the road, in lane widths."""
PIT_PROFILE = (1.0, 1.6, 3.0, 3.15, 3.2, 3.2, 3.2, 3.2, 3.2, 3.2, 3.2, 3.2, 3.2, 3.2, 3.2, 3.2,
               3.1, 2.3, 1.0)
"""How far the pit lane lies from lane 3 (centre to centre, in lane widths) at each of its 19
boundaries, entry first: it leaves lane 3 touching it, swings out past the garages within three
spaces, and comes back in the last three. Read off the traced board."""
PIT_BOUNDARIES = (147.72, 148.83, 149.62, 150.72, 151.63, 152.72, 153.71, 154.76, 155.79, 156.79,
                  157.85, 158.87, 159.96, 160.79, 162.07, 162.85, 1.43)
"""Where the 17 boundaries between the pit spaces lie, entry first, as boundaries of lane 3 (like
``PIT_START``): the board's pit spaces are a little uneven, the second one longer than the rest.
Read off the traced board, to a hundredth of a space, where each pit space's centre comes out on
the traced one."""

STAGGER: dict[str, tuple[tuple[int, int, int, float], ...]] = {
    "1": (
        (0, 6, 0, -0.5), (9, 9, 8, 0), (11, 29, 10, -0.5), (31, 31, 30, 0), (32, 32, 32, -0.5),
        (35, 38, 35, 0.5), (39, 39, 39, 0.35), (40, 40, 40, 0.1), (42, 51, 42, -0.5),
        (52, 52, 51, 0.3), (53, 53, 52, 0.13), (54, 54, 53, -0.2), (55, 57, 54, -0.5),
        (58, 58, 56, 0.34), (59, 59, 58, -0.27), (60, 60, 60, 0.29), (61, 61, 62, -0.43),
        (63, 63, 63, 0.22), (64, 64, 64, -0.16), (65, 66, 65, -0.5), (70, 98, 69, -0.5),
        (99, 99, 98, -0.42), (100, 100, 99, 0.24), (101, 101, 100, 0.12), (102, 102, 101, -0.34),
        (103, 103, 102, -0.5), (104, 104, 102, 0.3), (105, 113, 104, -0.5), (115, 115, 114, 0.2),
        (117, 118, 117, -0.5), (119, 119, 119, -0.27), (120, 120, 120, 0.08),
        (121, 121, 121, -0.2), (122, 124, 122, -0.5), (125, 125, 124, 0.25),
        (126, 126, 125, -0.15), (128, 131, 128, -0.5), (132, 132, 132, -0.35),
        (133, 133, 133, 0.3), (134, 134, 134, 0.14), (135, 135, 135, -0.22),
        (136, 136, 136, -0.5), (137, 137, 136, 0.23), (138, 138, 137, -0.12),
        (139, 139, 138, -0.37), (140, 146, 139, -0.5), (150, 167, 148, -0.5),
    ),
    "3": (
        (0, 6, 0, -0.5), (7, 7, 7, -0.3), (9, 28, 9, 0.5), (31, 32, 31, 0), (35, 39, 35, -0.5),
        (40, 40, 40, 0), (41, 41, 41, 0.4), (42, 50, 42, 0.5), (51, 51, 52, 0),
        (52, 52, 54, -0.4), (54, 55, 55, 0.5), (57, 57, 58, 0), (59, 59, 59, 0.22),
        (60, 60, 60, -0.2), (62, 62, 62, -0.48), (63, 63, 63, -0.32), (64, 64, 64, 0.46),
        (65, 66, 65, 0.5), (67, 67, 68, 0.25), (68, 68, 70, -0.41), (69, 95, 70, 0.5),
        (96, 96, 97, 0.42), (97, 97, 98, 0.23), (98, 98, 99, -0.16), (100, 100, 102, -0.4),
        (102, 110, 103, 0.5), (111, 111, 112, 0.33), (112, 112, 113, 0.09),
        (113, 113, 114, -0.14), (115, 117, 115, 0.5), (119, 119, 119, 0.1), (122, 122, 122, 0.5),
        (125, 125, 126, -0.1), (127, 131, 127, 0.5), (132, 132, 132, 0.19),
        (133, 133, 133, -0.04), (134, 134, 134, -0.2), (135, 135, 136, -0.38),
        (136, 136, 137, 0.27), (137, 143, 138, 0.5), (144, 144, 146, -0.4), (145, 145, 147, 0.42),
        (146, 146, 149, -0.48), (147, 162, 149, 0.5),
    ),
}
"""Where lanes 1 and 3 lie along lane 2, stretch by stretch: (first boundary, last boundary,
lane-2 boundary, offset). Boundaries ``first`` to ``last`` of the lane (boundary ``i`` is the cut
behind space ``i``) lie ``offset`` of a space ahead of lane 2's boundaries from the one given
(negative: behind). On the board the outer lanes are staggered half a space against the middle
lane on every straight (offset -0.5 or 0.5), so that a lane change lands half a space ahead; in
corners the stagger changes: single boundaries level with lane 2's (offset 0) mark where, and
single boundaries at other shares of a space hold the corner spaces where the board's spaces are
uneven. Read off the traced board: on the straights each boundary halfway between the centres of
the spaces it parts, measured along lane 2, kept where it lies within a tenth of a space of a
half or whole step; in the corners, to a hundredth of a space, where the centres of the spaces
on either side of it come out on the traced centres."""

LANE_CHANGES: dict[tuple[str, str], tuple[tuple[int, int, int], ...]] = {
    ("1", "2"): (
        (0, 7, 0), (9, 28, -1), (35, 39, 1), (41, 52, 0), (54, 57, -1), (60, 62, 1), (64, 67, 0),
        (69, 97, -1), (100, 100, 0), (102, 111, -1), (116, 117, 0), (119, 119, 1), (121, 124, 0),
        (128, 130, 0), (132, 133, 1), (135, 136, 0), (138, 147, -1), (149, 167, -2),
    ),
    ("2", "1"): (
        (0, 3, 1), (10, 26, 2), (28, 28, 2), (30, 32, 1), (34, 36, 0), (42, 48, 1), (54, 55, 2),
        (57, 57, 2), (60, 60, 0), (69, 95, 2), (97, 97, 2), (102, 109, 2), (111, 112, 2),
        (114, 116, 1), (118, 118, 1), (124, 124, 2), (126, 129, 1), (131, 131, 1), (139, 143, 2),
        (149, 165, 3),
    ),
    ("2", "3"): (
        (0, 3, 1), (5, 6, 1), (8, 26, 0), (36, 36, 1), (38, 39, 1), (41, 48, 0), (50, 50, 0),
        (52, 55, -1), (61, 62, 1), (64, 66, 0), (68, 95, -1), (100, 101, -1), (103, 109, -1),
        (116, 116, 0), (119, 119, 1), (121, 123, 0), (128, 129, 0), (132, 132, 1), (134, 135, 0),
        (137, 143, -1), (145, 145, -1), (147, 165, -2),
    ),
    ("3", "2"): (
        (0, 4, 0), (9, 30, 1), (32, 37, 0), (41, 48, 1), (52, 56, 2), (58, 58, 1), (60, 61, 0),
        (67, 96, 2), (100, 111, 2), (113, 118, 1), (123, 123, 2), (125, 131, 1), (137, 142, 2),
        (146, 162, 3),
    ),
}
"""Every lane change the board's arrows allow: for a pair (from lane, into lane), runs of
(first space, last space, offset), where a car on space ``i`` of the first lane may move onto
space ``i + offset`` (round the lap) of the other. Spaces in no run have no lane change that way:
a single arrow, or a fork that only goes the other way. Read off the traced board, whose moves
follow the printed arrows space by space (on straights, where no arrow is printed, every
diagonal is allowed and lands half a space ahead); see docs/monaco.md for the few places where
the print can be read two ways."""

LANE_SPACING = 0.0102
"""Distance between the centres of adjacent lanes, as a fraction of the board's width (measured
on the traced board)."""
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

ROAD_SHIFTS = ((56, 61, 0.3),)
"""Stretches where the board's lanes lie beside lane 2's measured line: (from lane-2 boundary, to
lane-2 boundary, distance in lane widths to the driver's right), eased in and out. In the Loews
hairpin the printed road swings out by nearly a third of a lane against the line through lane 2's
centres, which the builder rounds off there (the hairpin is tighter than the road's half
width). Read off the traced board."""

CENTRE_LINE_EXTRA = {
    49: (0.8061, 0.0726), 51: (0.8416, 0.0679), 53: (0.8551, 0.1148), 55: (0.8442, 0.1698),
    57: (0.8398, 0.2261), 59: (0.8666, 0.2507), 61: (0.8791, 0.1968), 63: (0.8928, 0.1477),
    65: (0.9294, 0.1630), 67: (0.9559, 0.2008), 97: (0.5081, 0.4495), 99: (0.4777, 0.4759),
    101: (0.4393, 0.4844), 103: (0.4085, 0.4502), 117: (0.2007, 0.4580), 119: (0.1955, 0.5048),
    121: (0.2085, 0.5571), 123: (0.2000, 0.6112), 125: (0.1764, 0.6564), 127: (0.1631, 0.7070),
    131: (0.1733, 0.8152), 133: (0.2015, 0.8442), 135: (0.2244, 0.8833), 137: (0.2065, 0.9325),
    139: (0.1679, 0.9297), 143: (0.0980, 0.9197), 145: (0.0627, 0.9138), 147: (0.0466, 0.8698),
    149: (0.0561, 0.8178),
}
"""Centre of lane 2 at the odd indices of the tightest bends (Mirabeau, Loews, the Chicane, « S »
de la Piscine, La Rascasse, Anthony Noghes), where a point every second space cannot draw the
road: index -> (x, y) as in ``CENTRE_LINE``. Read off the traced board."""
