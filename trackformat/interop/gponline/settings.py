"""What a GP Online file says beyond the track itself, read for the way back.

The header's info-box corner and weather, each corner's curve position attributes and each grid
slot's heading have no place in a track's own parts; the importer keeps them in the track's
:class:`~trackformat.model.GPOnline` settings, and the exporter writes them back, so that an
unedited board comes back out as it went in.
"""

from __future__ import annotations

from trackformat.interop.gponline.dat import DatFile
from trackformat.model import GPOnline, Track
from trackformat.model.track import (
    MAX_CURVE_POSITION,
    MAX_HEADING,
    MAX_RAIN,
    MAX_WEATHER_PERIOD,
)


def settings_of(dat: DatFile, track: Track, warnings: list[str]) -> GPOnline:
    """The settings of ``dat``, imported as ``track``: the weather only when the format holds
    it (a warning says when not), the curve positions by corner, the headings of the grid's
    slots."""
    rain, period = dat.rain_probability, dat.min_weather_period
    if rain is not None and period is not None and not (
        0 <= rain <= MAX_RAIN and 0 <= period <= MAX_WEATHER_PERIOD
    ):
        warnings.append(
            f"the header's weather (rain probability {rain:g}, minimum period {period}) is "
            f"beyond what a track holds (0 to {MAX_RAIN:g}, and 0 to {MAX_WEATHER_PERIOD:,}); "
            "not kept"
        )
        rain = period = None
    curve = {
        corner.id: {
            s: dat.attributes[int(s)]
            for s in corner.spaces
            if int(s) in dat.attributes and abs(dat.attributes[int(s)]) <= MAX_CURVE_POSITION
        }
        for corner in track.corners
    }
    slots = set(track.grid)
    headings = {
        str(node): angle
        for node, angle in dat.grid
        if str(node) in slots and abs(angle) <= MAX_HEADING
    }
    return GPOnline(info_corner=dat.info_corner, rain_probability=rain,
                    min_weather_period=period, curve_positions=curve, grid_headings=headings)
