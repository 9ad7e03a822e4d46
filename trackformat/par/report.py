"""What ``par`` says about a track: the par, its distribution, where the turns go, the gear plan
through each corner and what the optimal line costs, as one JSON-ready document.

Everything but the par itself comes from playing the policy forward
(:func:`~trackformat.par.forward.play_forward`) and reading what it counted.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from trackformat.analysis import corners_in_lap_order
from trackformat.par.bellman import FINISH
from trackformat.par.forward import WIDTH, play_forward
from trackformat.par.layout import wear_levels
from trackformat.par.policy import CLEAN, COUNTED, policy_graph
from trackformat.par.problem import MODELLED, Kind
from trackformat.par.solve import Solution
from trackformat.sim.kernel.moves import board_arrays

Floats = npt.NDArray[np.float64]

SHOWN = 1e-3
"""The least chance a row of the gear plan needs to be listed."""


def report(solution: Solution) -> dict[str, Any]:
    """The document ``par --json`` prints (see docs/par.md for each field). ``"par"`` is None
    (JSON's null) where no policy avoids every risk of elimination: there is then no race to
    describe."""
    solo, layout, packed = solution.solo, solution.layout, solution.packed
    if not np.isfinite(solution.par):
        return {**_heading(solution), "par": None, "distribution": [], "segments": [],
                "gear_plan": [], "costs": {}, "solve": _figures(solution, 0)}
    board = solo.board
    arrays = board_arrays(board)
    spaces = len(arrays.names)
    corners = len(arrays.corner_names)
    corner_of = np.asarray(arrays.corner, np.int64)
    turns_cap = 4 * board.lap_length * (solo.laps + 1) + 100
    finished = np.zeros(turns_cap + 2)
    turn_starts = np.zeros(spaces)
    plan = np.zeros((spaces, packed.shape[1]))
    arrivals = np.zeros((spaces, packed.shape[1], max(corners, 1)))
    paid = np.zeros(len(COUNTED))
    clean_left = np.zeros(WIDTH)
    starts, start_chances = _start_states(solution, turn_starts, paid, finished, clean_left)
    graph = policy_graph(packed.places, packed.moves, packed.gears, packed.dice,
                         solution.values, solution.choices, packed.chances, packed.refill,
                         packed.tops, packed.quick_gear, solo.laps, corner_of,
                         np.asarray(starts, np.int64), len(COUNTED))
    count = len(graph[0])
    first_chances = np.zeros((count, WIDTH))
    second_chances = np.zeros((count, WIDTH))
    index = {int(state): n for n, state in enumerate(graph[0][: len(starts)])}
    for state, (chance, turn) in zip(starts, start_chances, strict=True):
        (first_chances if turn == 1 else second_chances)[index[state]] += chance
    place_of = graph[0] // int(np.prod(packed.shape[1:]))
    last_lap = np.asarray([p.lap == solo.laps and p.kind == Kind.TURN for p in layout.places],
                          np.int64)
    played = play_forward(graph, place_of, packed.places[7], last_lap, first_chances,
                          second_chances, turns_cap, finished, turn_starts, plan, arrivals,
                          paid, clean_left)
    if played > turns_cap:
        raise RuntimeError("par's policy did not finish within the turn limit")
    par = solution.par
    expected = float(np.dot(np.arange(len(finished)), finished))
    if abs(expected - par) > 1e-9 * max(par, 1.0):
        raise RuntimeError(f"par's policy played forward takes {expected} turns, not {par}")
    start = layout.start
    return {
        **_heading(solution),
        "par": par,
        "distribution": _distribution(finished),
        "segments": _segments(solution, turn_starts),
        "gear_plan": _gear_plan(solution, plan, arrivals),
        "costs": {
            **{name: {"expected_wp": float(paid[n]), "chance": _paid(clean_left[1 + n])}
               for n, name in enumerate(MODELLED)},
            **{name: {"expected": float(paid[COUNTED.index(name)]),
                      "chance": _paid(clean_left[1 + CLEAN.index(name)])}
               for name in ("overshoot", "spin", "pit_stop")},
            "quick_stop": {"expected": float(paid[COUNTED.index("quick_stop")])},
            "slow_stop": {"expected": float(paid[COUNTED.index("slow_stop")])},
            "stall": {"chance": start.stall},
            "super_start": {"chance": start.super_start},
            "engine_wp_lost_before_last_lap": {
                "expected": float(paid[COUNTED.index("engine_before_last_lap")])},
        },
        "solve": _figures(solution, count),
    }


def _heading(solution: Solution) -> dict[str, Any]:
    solo = solution.solo
    return {"track": solo.track.metadata.name, "ruleset": solo.rules.name, "laps": solo.laps,
            "definition": "least expected game turns over the policies never eliminated"}


def _figures(solution: Solution, policy_states: int) -> dict[str, Any]:
    figures = solution.figures
    return {"places": figures.places, "states": figures.states, "policy_states": policy_states,
            "moves_tabled": figures.moves, "kernel_calls": figures.kernel_calls,
            "cpu_seconds": round(figures.layout_seconds + figures.solve_seconds, 2)}


def _start_states(solution: Solution, turn_starts: Floats, paid: Floats, finished: Floats,
                  clean_left: Floats) -> tuple[list[int], list[tuple[Floats, int]]]:
    """The states the race starts from, each with its chances and the turn it plays first: the
    grid on turn 1 (a normal start: the first turn goes on from the grid), the grid again on
    turn 2 after a stall, and where the best super start leaves the car on turn 2."""
    solo, layout, packed = solution.solo, solution.layout, solution.packed
    start = layout.start
    grid = layout.index[solo.grid_place()]
    top = solo.top
    grid_state = int(np.ravel_multi_index((grid, 0, *top), packed.shape))
    turn_starts[solo.board.network.number[solo.pole.space]] += start.stall + start.super_start
    starts = [grid_state, grid_state]
    chances = [(np.full(WIDTH, start.normal), 1), (np.full(WIDTH, start.stall), 2)]
    if start.super_start > 0 and start.super_places:
        leaps = [solution.value(place, 1, wear) for place, wear in start.super_places]
        place, wear = start.super_places[int(np.argmin(leaps))]
        chance = np.full(WIDTH, start.super_start)
        levels = wear_levels(wear)
        for n, (level, most) in enumerate(zip(levels, top, strict=True)):
            if level < most:
                paid[n] += start.super_start * (most - level)
                chance[1 + n] = 0.0
        if place == FINISH:
            finished[1] += start.super_start
            clean_left += chance
        else:
            slot = 0 if packed.places[2][place] else 1
            starts.append(int(np.ravel_multi_index((place, slot, *levels), packed.shape)))
            chances.append((chance, 2))
    return starts, chances


def _paid(clean: float) -> float:
    """The chance of paying at least once, from the chance of never paying (rounding below
    1e-12 is no chance at all)."""
    chance = 1.0 - float(clean)
    return 0.0 if chance < 1e-12 else min(chance, 1.0)


def _distribution(finished: Floats) -> list[dict[str, float]]:
    """The chance of finishing on each turn, and within it."""
    rows = []
    within = 0.0
    for turns in np.flatnonzero(finished > 0):
        within += float(finished[turns])
        rows.append({"turns": int(turns), "chance": float(finished[turns]),
                     "within": min(within, 1.0)})
    return rows


def _segments(solution: Solution, turn_starts: Floats) -> list[dict[str, Any]]:
    """Expected turns started in each corner, each straight (named by the corner it leads
    to) and the pit lane, in lap order: together, the par."""
    board = solution.solo.board
    names = board.network.names
    graphs = board.graphs
    ordered = [c for c in corners_in_lap_order(graphs) if c.id in board.corner_stops]
    leads_to = _next_corners(solution)
    corner_turns = {c.id: 0.0 for c in ordered}
    straight_turns = {c.id: 0.0 for c in ordered}
    pit = 0.0
    unplaced = 0.0
    for number in np.flatnonzero(turn_starts > 0):
        space = names[number]
        chance = float(turn_starts[number])
        if board.in_pit(space):
            pit += chance
        elif space in board.corner_of and board.corner_of[space] in corner_turns:
            corner_turns[board.corner_of[space]] += chance
        elif leads_to.get(space) in straight_turns:
            straight_turns[leads_to[space]] += chance
        else:
            unplaced += chance
    rows: list[dict[str, Any]] = []
    for corner in ordered:
        rows.append({"kind": "straight", "to": corner.id, "name": f"to {corner.name or corner.id}",
                     "turns": straight_turns[corner.id]})
        rows.append({"kind": "corner", "id": corner.id, "name": corner.name or corner.id,
                     "stops": corner.stops, "turns": corner_turns[corner.id]})
    if pit:
        rows.append({"kind": "pit lane", "name": "pit lane", "turns": pit})
    if unplaced or not ordered:
        rows.append({"kind": "straight", "name": "track", "turns": unplaced})
    return rows


def _next_corners(solution: Solution) -> dict[str, str]:
    """The corner each straight space leads to, following its lane."""
    board = solution.solo.board
    found: dict[str, str] = {}
    for space in board.lane:
        path: list[str] = []
        current: str | None = space
        while (current is not None and current not in found and current not in board.corner_of
               and len(path) <= len(board.lane)):
            path.append(current)
            current = board.ahead.get(current)
        if current is None:
            continue
        target = found.get(current) or board.corner_of.get(current)
        if target is not None:
            found.update(dict.fromkeys(path, target))
    return found


def _gear_plan(solution: Solution, plan: Floats, arrivals: Floats) -> list[dict[str, Any]]:
    """For each corner, on the last lap: the spaces the car starts a turn from on its way into
    the corner and inside it, with the chance of each and the gear the policy takes there."""
    board = solution.solo.board
    arrays = board_arrays(board)
    names = arrays.names
    progress = board.progress
    rows = []
    for c, corner_id in enumerate(arrays.corner_names):
        corner = next(k for k in board.graphs.track.corners if k.id == corner_id)
        turns = []
        into = arrivals[:, :, c]
        for number in np.flatnonzero(into.sum(axis=1) >= SHOWN):
            turns.append(_plan_row(names[number], into[number], False))
        for number in np.flatnonzero(plan.sum(axis=1) >= SHOWN):
            if arrays.corner[number] == c:
                turns.append(_plan_row(names[number], plan[number], True))
        first = min((progress.get(s, 0) for s in corner.spaces), default=0)
        lap = board.lap_length or 1
        turns.sort(key=lambda row: ((progress.get(row["space"], 0) - first + lap // 2) % lap,
                                    row["space"]))
        rows.append({"corner": corner_id, "name": corner.name or corner_id,
                     "stops": corner.stops, "turns": turns})
    return rows


def _plan_row(space: str, by_gear: Floats, inside: bool) -> dict[str, Any]:
    chance = float(by_gear.sum())
    gear = int(np.argmax(by_gear))
    return {"space": space, "in_corner": inside, "chance": chance, "gear": gear,
            "gear_chance": float(by_gear[gear]) / chance}
