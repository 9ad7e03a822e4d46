"""The one error the track builder raises: a plan that cannot be built, and where it is wrong."""

from __future__ import annotations


class BuildError(ValueError):
    """A track plan that cannot be built; the message names the lane, corner or space at fault.

    A ``ValueError`` so that callers who only want "bad input" can catch that; the tools print
    the message and exit instead of showing a traceback.
    """
