"""Numbers in the words players use: places on the grid and at the flag, gears, lanes."""

from __future__ import annotations


def ordinal(number: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 21st..."""
    if 10 <= number % 100 <= 20:
        return f"{number}th"
    return f"{number}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(number % 10, 'th') }"
