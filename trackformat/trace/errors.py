"""What the tracer says when it cannot trace a picture."""

from __future__ import annotations


class TraceError(Exception):
    """A picture the tracer cannot work on: not a picture, too large, or with no road on it.

    The message completes a sentence that begins with the picture's name ("board.jpg: is not a
    picture ..."), so the command line and the editor can both show it as it is.
    """
