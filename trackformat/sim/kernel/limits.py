"""What the kernel cannot race, said before it races: the few boards and rulesets whose moves
would outgrow the fixed room of its route rows.

A route row keeps at most :data:`~trackformat.sim.kernel.route_rows.MAX_DEPTH` spaces, the lanes it
left on a straight (:data:`~trackformat.sim.kernel.route_rows.MAX_LEFT` of them) and the corners it
left without their stops (:data:`~trackformat.sim.kernel.route_rows.MAX_EXITS`). The printed game
stays far inside them (rolls of at most 30 spaces, two lane changes, a handful of corners in
reach), and so do the real boards we know of (at most 6 corners in reach of the longest move,
on twelve GP Online boards); a house ruleset may not (a ruleset file may allow nine lane
changes, or print a die face up to 100). Rows wide enough for every allowed ruleset would slow
every race; instead such a batch races on the readable engine, which has no such limits and
gives the same races.
"""

from __future__ import annotations

import numpy as np

from trackformat.rules import Ruleset
from trackformat.sim.kernel.arrays import BoardArrays
from trackformat.sim.kernel.route_rows import MAX_DEPTH, MAX_EXITS, MAX_LEFT


class KernelLimit(ValueError):
    """A board and ruleset whose moves the kernel cannot keep (the message says which limit)."""


def longest_move(rules: Ruleset) -> int:
    """The most spaces one move covers: the highest face of any gear's die, plus the slipstream's
    extra spaces, or a super start's spaces if that is more."""
    longest = max(max(faces) for faces in rules.dice.gears)
    if rules.slipstream is not None:
        longest += rules.slipstream.extra_spaces
    return max(longest, rules.start.super_start_spaces)


def most_corners_left(arrays: BoardArrays, spaces: int) -> int:
    """An upper bound on the corners one route of at most ``spaces`` spaces leaves: every step
    out of a corner into another corner or a straight counts, whatever the stops made, the cars
    in the way or the lanes, so the true number is at most this."""
    count = len(arrays.names)
    nexts = np.concatenate([arrays.track_next, arrays.pit_entry, arrays.pit_next], axis=1)
    missing = nexts < 0
    target = np.where(missing, count, nexts)
    corner = np.append(arrays.corner, -2)  # the column past the last space: no space at all
    leaves = (arrays.corner[:, None] >= 0) & (corner[target] != arrays.corner[:, None])
    # best[s]: the most corners left by a route of the steps so far that starts on s.
    best = np.zeros(count + 1, np.int64)
    for _ in range(spaces):
        following = np.where(missing, 0, best[target] + leaves)
        best[:count] = following.max(axis=1, initial=0)
    return int(best[:count].max(initial=0))


def kernel_limit(arrays: BoardArrays, rules: Ruleset) -> str | None:
    """Why the kernel cannot race on this board under ``rules`` (one sentence), or None when it
    can."""
    longest = longest_move(rules)
    if longest > MAX_DEPTH:
        face = max(max(faces) for faces in rules.dice.gears)
        extra = rules.slipstream.extra_spaces if rules.slipstream is not None else 0
        why = (f"a super start of {longest} spaces" if longest > face + extra
               else f"a die face of {face} and {extra} slipstream spaces" if extra
               else f"a die face of {face}")
        return (f"the compiled engine keeps moves of at most {MAX_DEPTH} spaces, and this "
                f"ruleset's moves reach {longest} ({why})")
    lanes = len(arrays.lane_length)
    changes = rules.movement.max_lane_changes_on_straight
    if changes > MAX_LEFT and lanes > MAX_LEFT:
        return (f"the compiled engine keeps at most {MAX_LEFT} lanes left in one move, and this "
                f"ruleset allows {changes} lane changes on a straight of this track's {lanes} "
                "lanes")
    corners = most_corners_left(arrays, longest)
    if corners > MAX_EXITS:
        return (f"the compiled engine keeps at most {MAX_EXITS} corners left in one move, and a "
                f"move of {longest} spaces on this track may leave up to {corners}")
    return None
