"""Placing the board picture under the track: the map from picture pixels to board pixels.

The track's coordinates are the board's. A scan of another size, or one turned a little, is laid
under the track through a :class:`~trackformat.model.Placement` instead of moving the track, so
the shipped track stays as it is and each designer's own scan lines up with it. This module has
the arithmetic (no Qt): the placement that scales a picture to the board, the one that matched
point pairs give, how well the pairs agree with it, and what a relinked picture of another size
needs to cover the same board.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from editor.alignment import Pair, fit_transform, transform_track
from editor.edits import EditError
from trackformat.model import Board, Placement, Track

Size = tuple[int, int]
"""A picture's width and height in pixels."""

IDENTITY = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0))


def matrix_of(placement: Placement | None) -> np.ndarray:
    """The 2x3 matrix of a placement (identity for none)."""
    return np.array(placement.matrix if placement else IDENTITY, dtype=float)


def placement_of(matrix: np.ndarray) -> Placement:
    """A placement from a 2x3 matrix, rounded so that the file stays readable (the scale and
    turn to 1e-9, the shift to 1e-4 px: far below a pixel anywhere on a board)."""
    rows = [[round(float(v), 9) for v in matrix[r, :2]] + [round(float(matrix[r, 2]), 4)]
            for r in range(2)]
    if abs(rows[0][0] * rows[1][1] - rows[0][1] * rows[1][0]) < 1e-12:
        raise EditError("those points would squash the picture onto a line")
    return Placement(matrix=(tuple(rows[0]), tuple(rows[1])))  # type: ignore[arg-type]


def picture_to_board(placement: Placement | None, x: float, y: float) -> tuple[float, float]:
    """Where the picture pixel (x, y) lies on the board."""
    return placement.apply(x, y) if placement else (x, y)


def board_to_picture(placement: Placement | None, x: float, y: float) -> tuple[float, float]:
    """The picture pixel under the board point (x, y)."""
    return placement.inverse(x, y) if placement else (x, y)


def placed_bounds(placement: Placement | None, size: Size) -> tuple[float, float, float, float]:
    """The board rectangle (left, top, right, bottom) the placed picture covers."""
    width, height = size
    corners = [picture_to_board(placement, x, y) for x, y in
               ((0, 0), (width, 0), (0, height), (width, height))]
    xs, ys = [p[0] for p in corners], [p[1] for p in corners]
    return (min(xs), min(ys), max(xs), max(ys))


# -- a picture of another size -------------------------------------------------------------------


def scaled_to_board(size: Size, board: Board) -> Placement | None:
    """The placement that scales a picture to the board's width (its shape kept, its top-left
    corner on the board's); none when the picture is the board's size already."""
    width, height = size
    if (width, height) == (board.width, board.height):
        return None
    scale = board.width / width
    return placement_of(np.array([[scale, 0.0, 0.0], [0.0, scale, 0.0]]))


def board_scaled_to_picture(track: Track, size: Size) -> Track:
    """The track with its board made the picture's size and every space scaled with it (the
    alternative to placing the picture: the track's coordinates become the picture's pixels)."""
    scale = size[0] / track.board.width
    moved = transform_track(track, np.array([[scale, 0.0, 0.0], [0.0, scale, 0.0]]))
    board = track.board.model_copy(
        update={"width": size[0], "height": size[1], "placement": None}
    )
    return moved.model_copy(update={"board": board})


def relinked(placement: Placement | None, old: Size, new: Size) -> Placement | None:
    """The placement under which a picture of size ``new`` covers the board where the picture
    of size ``old`` did (a rescan at another resolution replacing the old file)."""
    if old == new:
        return placement
    shrink = np.array([[old[0] / new[0], 0.0, 0.0], [0.0, old[1] / new[1], 0.0], [0, 0, 1]])
    return placement_of(matrix_of(placement) @ shrink)


def size_words(size: Size) -> str:
    return f"{size[0]} x {size[1]} px"


# -- matched points ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Fit:
    """A placement found from matched pairs, and what can be said of its quality."""

    placement: Placement
    kind: str
    """"similarity" (moved, turned, scaled alike) or "affine" (also sheared or stretched)."""
    pairs: int
    needed: int
    """How many pairs this kind of map needs; with more, the fit can be checked."""
    worst: float | None
    """The largest distance (board px) from a pair's track point to where its picture point
    lands; None when there are exactly enough pairs and every pair is met exactly."""
    rms: float | None

    def describe(self) -> str:
        """A sentence for the status bar."""
        head = f"Picture placed on the track from {self.pairs} pairs ({self.kind})"
        if self.worst is None or self.rms is None:
            return (
                f"{head}: {self.pairs} pairs are exactly what a {self.kind} needs, so the fit "
                "cannot be checked; match one more pair to measure it"
            )
        return f"{head}: the worst pair is {self.worst:.1f} px off, {self.rms:.1f} px on average"


def similarity_fit(pairs: Sequence[Pair]) -> np.ndarray:
    """The move, turn and uniform scale taking the first points of the pairs nearest (least
    squares) to the second ones; exact for two pairs."""
    if len(pairs) < 2:
        raise EditError("match at least two points")
    source = np.array([complex(*p) for p, _ in pairs])
    target = np.array([complex(*q) for _, q in pairs])
    source_c, target_c = source - source.mean(), target - target.mean()
    spread = float(np.sum(np.abs(source_c) ** 2))
    if spread < 1e-12:
        raise EditError("the points on the picture are all the same point")
    turn = complex(np.sum(np.conj(source_c) * target_c) / spread)
    shift = complex(target.mean() - turn * source.mean())
    return np.array([[turn.real, -turn.imag, shift.real], [turn.imag, turn.real, shift.imag]])


def fit_placement(pairs: Sequence[Pair], keep_shape: bool = False) -> Fit:
    """The placement that takes each pair's picture pixel onto its board point: two pairs give
    a similarity, three or more an affine map (least squares past three), or a similarity
    again when ``keep_shape`` (a flat scan is not sheared)."""
    if len(pairs) < 2:
        raise EditError("match at least two points of the picture with the track")
    kind = "similarity" if keep_shape or len(pairs) == 2 else "affine"
    if kind == "affine":
        design = np.array([[p[0], p[1], 1.0] for p, _ in pairs])
        if np.linalg.matrix_rank(design) < 3:
            raise EditError(
                "the points on the picture lie on one line: pick points spread over the board"
            )
    matrix = similarity_fit(pairs) if kind == "similarity" else fit_transform(pairs)
    placement = placement_of(matrix)
    needed = 2 if kind == "similarity" else 3
    if len(pairs) <= needed:
        return Fit(placement, kind, len(pairs), needed, None, None)
    distances = [math.dist(placement.apply(*p), q) for p, q in pairs]
    rms = math.sqrt(sum(d * d for d in distances) / len(distances))
    return Fit(placement, kind, len(pairs), needed, max(distances), rms)


# -- by hand -------------------------------------------------------------------------------------


def moved_by_hand(
    placement: Placement | None,
    pivot: tuple[float, float],
    start: tuple[float, float],
    now: tuple[float, float],
    how: str,
) -> Placement:
    """The placement after a drag on the board from ``start`` to ``now``: ``how`` is "move"
    (the picture follows the mouse), "turn" (about ``pivot``, by the angle the mouse swept
    round it) or "scale" (about ``pivot``, by how much nearer or farther the mouse went)."""
    px, py = pivot
    if how == "move":
        change = np.array([[1.0, 0.0, now[0] - start[0]], [0.0, 1.0, now[1] - start[1]]])
    else:
        before = complex(start[0] - px, start[1] - py)
        after = complex(now[0] - px, now[1] - py)
        if abs(before) < 1e-9 or abs(after) < 1e-9:
            return placement or placement_of(np.array(IDENTITY))
        ratio = after / before
        if how == "turn":
            ratio /= abs(ratio)
        elif how == "scale":
            ratio = complex(abs(ratio), 0.0)
        else:
            raise ValueError(f"unknown way to move the picture: {how!r}")
        shift = complex(px, py) - ratio * complex(px, py)
        change = np.array([[ratio.real, -ratio.imag, shift.real],
                           [ratio.imag, ratio.real, shift.imag]])
    full = np.vstack([change, [0.0, 0.0, 1.0]]) @ np.vstack([matrix_of(placement), [0, 0, 1]])
    return placement_of(full[:2])
