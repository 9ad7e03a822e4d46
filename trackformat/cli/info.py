"""``trackformat info``: a track's counts, shortest lap and corners in lap order, and its par
when ``par`` has solved it before."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any

from trackformat.analysis import corners_in_lap_order, measure_corner, shortest_lap
from trackformat.cli import EXIT_OK, EXIT_UNUSABLE, json_text, read_track
from trackformat.cli.output import emit
from trackformat.graph import TrackGraphs, build_graphs
from trackformat.model.track import SpaceKind, Track


def register(command: Callable[[str, str], argparse.ArgumentParser]) -> None:
    """Add ``info`` to the command line."""
    info = command("info", "print a track's counts, shortest lap and corners")
    info.add_argument("path", metavar="PATH", help="track file")
    info.add_argument("--json", action="store_true", help="print one JSON object")
    info.set_defaults(run=cmd_info)


def track_info(track: Track, graphs: TrackGraphs | None = None) -> dict[str, Any]:
    """The figures ``info`` prints: counts, the shortest lap and each corner, in lap order."""
    graphs = graphs or build_graphs(track)
    kinds = [space.kind for space in graphs.spaces.values()]
    lap = shortest_lap(graphs)
    corners = []
    for corner in corners_in_lap_order(graphs):
        measure = measure_corner(graphs, corner)
        corners.append(
            {
                "id": corner.id,
                "name": corner.name,
                "stops": corner.stops,
                "printed_long": corner.printed_long,
                "printed_short": corner.printed_short,
                "long": measure.long,
                "short": measure.short,
            }
        )
    lane_ids = list(graphs.lane_order)
    return {
        "name": track.metadata.name,
        "designer": track.metadata.designer,
        "format_version": track.format_version,
        "board": {"width": track.board.width, "height": track.board.height},
        "lane_ids": lane_ids,
        "lanes": [len(graphs.lanes.get(lane_id, [])) for lane_id in lane_ids],
        "track_spaces": kinds.count(SpaceKind.TRACK),
        "pit_spaces": kinds.count(SpaceKind.PIT),
        "boxes": kinds.count(SpaceKind.BOX),
        "garages": len(track.pit_lane.garages) if track.pit_lane else 0,
        "links": len(track.links),
        "grid_slots": len(track.grid),
        "laps": track.metadata.laps,
        "shortest_lap": lap.moves if lap is not None else None,
        "stops_per_lap": sum(corner.stops for corner in track.corners),
        "corners": corners,
    }


def _blank(value: object) -> str:
    return "-" if value is None or value == "" else str(value)


def _par_text(info: dict[str, Any]) -> str:
    status = info.get("par_status", "not solved")
    if status == "solved":
        return f"{info['par']:.2f} turns ({info['laps']} laps, formula-d)"
    if status == "no safe line":
        return "none: every line risks elimination"
    return "not solved yet (trackformat par TRACK solves it)"


def info_text(info: dict[str, Any], source: str) -> str:
    """``info`` as a short table for people."""
    counts = zip(info["lane_ids"], info["lanes"], strict=True)
    lanes = ", ".join(f"{lane_id}: {count}" for lane_id, count in counts)
    lap = info["shortest_lap"]
    rows = [
        ("file", source),
        ("designer", _blank(info["designer"])),
        ("board", f"{info['board']['width']} x {info['board']['height']} px"),
        ("lanes", f"{len(info['lanes'])} ({lanes or 'none'} spaces)"),
        ("track spaces", str(info["track_spaces"])),
        ("pit spaces", str(info["pit_spaces"])),
        ("boxes", str(info["boxes"])),
        ("garages", str(info["garages"])),
        ("grid slots", str(info["grid_slots"])),
        ("laps", str(info["laps"])),
        ("shortest lap", f"{lap} moves" if lap is not None else "none (no complete lap)"),
        ("stops per lap", str(info["stops_per_lap"])),
        ("par", _par_text(info)),
    ]
    lines = [info["name"], *(f"  {key:<14}{value}" for key, value in rows)]
    if info["corners"]:
        header = ("corner", "name", "stops", "long", "short", "printed long/short")
        table = [header] + [
            (
                c["id"], _blank(c["name"]), str(c["stops"]), _blank(c["long"]), _blank(c["short"]),
                f"{_blank(c['printed_long'])}/{_blank(c['printed_short'])}",
            )
            for c in info["corners"]
        ]
        widths = [max(len(row[i]) for row in table) for i in range(len(header))]
        lines.append("")
        for row in table:
            cells = (cell.ljust(width) for cell, width in zip(row, widths, strict=True))
            lines.append("  " + "  ".join(cells).rstrip())
    return "\n".join(lines)


def cmd_info(args: argparse.Namespace) -> int:
    source = str(Path(args.path))
    track = read_track(args.path)
    if track is None:
        return EXIT_UNUSABLE
    info = track_info(track)
    info |= _cached_par(track)
    emit(json_text({"file": source, **info}) if args.json else info_text(info, source))
    return EXIT_OK


def _cached_par(track: Track) -> dict[str, Any]:
    """``info``'s par: the track's under the default rules for its own laps if ``par`` solved
    it before (never solved here: a solve takes up to a minute). ``par`` is the expected turns
    or None; ``par_status`` says "solved", "not solved" or "no safe line" (no policy finishes
    without a risk of elimination)."""
    from trackformat.par import cached_par

    par = cached_par(track)
    if par is None:
        return {"par": None, "par_status": "not solved"}
    if par == float("inf"):
        return {"par": None, "par_status": "no safe line"}
    return {"par": par, "par_status": "solved"}
