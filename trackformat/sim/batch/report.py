"""The JSON report of a test drive: a batch's counts
(:class:`~trackformat.sim.batch.stats.DriveStats`) turned into rates with their 95% intervals,
the turns a race and a lap takes, each corner in lap order and each space (``docs/testdrive.md``
describes every key).

It holds nothing that depends on how the batch was run (workers, chunks, engine), so equal
batches give equal reports, byte for byte.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from trackformat.analysis import corners_in_lap_order
from trackformat.sim.batch.stats import (
    SPACE_COUNTS,
    DriveStats,
    mean,
    median,
    percentile,
    wilson,
)
from trackformat.sim.core.board import Board

if TYPE_CHECKING:
    from trackformat.sim.batch.testdrive import DriveContext


def _share(part: int, whole: int) -> float:
    return round(part / whole, 4) if whole else 0.0


def _interval(part: int, whole: int) -> list[float]:
    """The 95% Wilson interval of ``part`` / ``whole``, written beside the rate as [low, high]."""
    low, high = wilson(part, whole)
    return [round(low, 4), round(high, 4)]


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def _turns(stats: DriveStats, laps: int) -> dict[str, Any]:
    histogram = stats.turns
    middle: dict[str, float | None] = {
        "mean": mean(histogram), "median": median(histogram),
        "p90": percentile(histogram, 0.9),
    }
    per_race: dict[str, float | None] = {key: _rounded(value) for key, value in middle.items()}
    per_race["p90"] = percentile(histogram, 0.9)
    per_race |= {"min": min(histogram, default=None), "max": max(histogram, default=None)}
    per_lap = {key: _rounded(value / laps if value is not None else None)
               for key, value in middle.items()}
    return {"per_race": per_race, "per_lap": per_lap,
            "histogram": {str(turns): histogram[turns] for turns in sorted(histogram)}}


def _corners(stats: DriveStats, board: Board) -> list[dict[str, Any]]:
    rows = []
    for corner in corners_in_lap_order(board.graphs):
        count = {what: stats.corners[corner.id, what] for what in
                 ("entries", "overshoots", "overshoot_spaces", "eliminations", "spins",
                  "tyre_wp")}
        rows.append({
            "id": corner.id,
            "name": corner.name or corner.id,
            "stops": corner.stops,
            "entries": count["entries"],
            "overshoots": count["overshoots"],
            "overshoot_rate": _share(count["overshoots"], count["entries"]),
            "overshoot_rate_ci": _interval(count["overshoots"], count["entries"]),
            "mean_overshoot": _share(count["overshoot_spaces"], count["overshoots"]),
            "eliminations": count["eliminations"],
            "elimination_rate": _share(count["eliminations"], count["entries"]),
            "elimination_rate_ci": _interval(count["eliminations"], count["entries"]),
            "spins": count["spins"],
            "spin_rate": _share(count["spins"], count["entries"]),
            "spin_rate_ci": _interval(count["spins"], count["entries"]),
            "tyre_wp": count["tyre_wp"],
        })
    return rows


def board_notes(board: Board) -> list[str]:
    """What no race of a batch can show on ``board``, in words, for the report to say rather
    than leave a reader to guess from figures that are missing.

    A pit lane with neither team boxes beside it nor garages in line in it sees no pit stop: a
    car turns into the pit lane only to stop at its place, and no car has one."""
    pit = board.graphs.track.pit_lane
    if pit is None or not pit.spaces or pit.boxes or pit.garages:
        return []
    return ["no pit stops: the pit lane has neither team boxes beside it nor garages in it, and "
            "a car turns into the pit lane only to stop at its team's place"]


def _builds(stats: DriveStats, context: DriveContext) -> dict[str, Any]:
    """The line-up's builds (building your car) and how each did: nothing when it gave none."""
    spec = context.spec
    if not spec.builds:
        return {}
    wear = {label: points.model_dump() if points is not None
            else context.rules.starting_wear(spec.laps).model_dump()
            for label, points in zip(spec.builds, context.builds, strict=True)}
    return {
        "builds": list(spec.builds),
        "by_build": {
            label: {"wear": wear[label], "cars": stats.build_cars[label],
                    "wins": stats.build_wins[label],
                    "winner_share": _share(stats.build_wins[label], stats.races),
                    "winner_share_ci": _interval(stats.build_wins[label], stats.races),
                    "finished": stats.build_finished[label],
                    "finish_rate": _share(stats.build_finished[label], stats.build_cars[label]),
                    "finish_rate_ci": _interval(stats.build_finished[label],
                                                stats.build_cars[label])}
            for label in dict.fromkeys(spec.builds)
        },
    }


def batch_report(stats: DriveStats, context: DriveContext) -> dict[str, Any]:
    """The JSON report of a batch (docs/testdrive.md describes every key). It holds nothing
    that depends on how the batch was run, so equal batches give equal reports."""
    spec, board = context.spec, context.board
    bots = list(dict.fromkeys(spec.bots))
    spaces = {
        space.id: {what: stats.spaces[space.id, what]
                   for what in SPACE_COUNTS}
        for space in board.graphs.track.spaces
    }
    pit_stops = sum(stats.spaces[space_id, "pit_stops"] for space_id in spaces)
    return {
        "track": board.graphs.track.metadata.name,
        "ruleset": context.rules.name,
        "laps": spec.laps,
        "cars": len(spec.bots),
        "bots": list(spec.bots),
        "races": stats.races,
        "seed": spec.seed,
        "completed": stats.completed,
        "turns": _turns(stats, spec.laps),
        "finished": stats.finished,
        "finish_rate": _share(stats.finished, stats.cars),
        "finish_rate_ci": _interval(stats.finished, stats.cars),
        "pit_stops": pit_stops,
        "pit_stops_per_car": _share(pit_stops, stats.cars),
        "dnf": {cause: stats.dnf[cause]
                for cause in sorted(stats.dnf, key=lambda c: (-stats.dnf[c], c))},
        "winner_share": {bot: _share(stats.wins[bot], stats.races) for bot in bots},
        "winner_share_ci": {bot: _interval(stats.wins[bot], stats.races) for bot in bots},
        "no_winner": _share(stats.no_winner, stats.races),
        "no_winner_ci": _interval(stats.no_winner, stats.races),
        "by_bot": {
            bot: {"cars": stats.bot_cars[bot], "wins": stats.wins[bot],
                  "finished": stats.bot_finished[bot],
                  "finish_rate": _share(stats.bot_finished[bot], stats.bot_cars[bot]),
                  "finish_rate_ci": _interval(stats.bot_finished[bot], stats.bot_cars[bot])}
            for bot in bots
        },
        **_builds(stats, context),
        "corners": _corners(stats, board),
        "teams": [
            {"team": team + 1, "cars": [2 * team + 1, 2 * team + 2],
             "bots": list(spec.bots[2 * team:2 * team + 2]),
             "points": stats.team_points[team],
             "mean_points": _rounded(stats.team_points[team] / stats.races) if stats.races else 0.0,
             "wins": stats.team_wins[team]}
            for team in range((len(spec.bots) + 1) // 2)
        ] if context.rules.team_points else [],
        **({"team_repairs": context.rules.team_repairs.points}
           if context.rules.team_repairs is not None else {}),
        "spaces": spaces,
        "notes": board_notes(board),
    }
