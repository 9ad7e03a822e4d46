"""Tracing a board picture into a draft track.

Every port of a printed board starts by tracing it: hundreds of spaces, one at a time. The
printed boards are regular (flat grey spaces between thin dark lines, red and white kerbs,
arrows, a chequered line), so :func:`trace_picture` does most of that work and leaves the
designer to check it: a draft track whose coordinates are the picture's pixels, with each
space's confidence and a list of what to check beside it (:class:`TraceResult`).

This package is the only part of trackformat that uses the image libraries (OpenCV's headless
wheel, scikit-image, SciPy: ``pip install "formula-d-trackkit[trace]"``); nothing else in
trackformat imports it, so the rest works without them.
"""

from trackformat.trace.draft import TraceResult
from trackformat.trace.errors import TraceError
from trackformat.trace.pipeline import MAX_LANES, Progress, trace_image, trace_picture

__all__ = ["MAX_LANES", "Progress", "TraceError", "TraceResult", "trace_image", "trace_picture"]
