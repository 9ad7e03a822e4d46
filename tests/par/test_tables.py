"""The solver's move tables are the engine's own moves, at every wear level.

The tables ask the kernel once per place with every WP and price the moves for fewer WP
(``MoveTables._priced``: braking needs the brakes WP, an overshoot is paid, spins or eliminates
by the tyres WP left). These tests ask the kernel itself at every tyres and brakes level and
hold the tables to its answers, and hold where each move leads to what ``play_move`` makes of
it.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from tests.par.rings import short_ring, small_rules
from trackformat.io import load_track
from trackformat.model import Track
from trackformat.par.layout import Layout
from trackformat.par.problem import Kind, SoloRace
from trackformat.par.tables import KEY_COLUMNS, MoveTables
from trackformat.rules import Ruleset, load_ruleset
from trackformat.sim import play_move
from trackformat.sim.core.state import CarStatus
from trackformat.sim.kernel import price as kp
from trackformat.sim.move.legal import legal_moves
from trackformat.sim.move.value import CornerExit, Move

MONACO = "tracks/monaco.json"


def kernel_moves(tables: MoveTables, layout: Layout, place_index: int, tyres: int,
                 brakes: int) -> list[tuple[int, bytes, int, int, int]]:
    """The kernel's moves as (roll, outcome, tyres, brakes, spin), in its order."""
    place = layout.places[place_index]
    rows = tables.kernel_rows(place, tyres, brakes)
    rows = rows[rows[:, kp.M_ELIMINATED] == kp.NOT_ELIMINATED]
    return [(int(r[kp.M_ROLL]), r[list(KEY_COLUMNS)].tobytes(), int(r[kp.M_TYRES]),
             int(r[kp.M_BRAKES]), int(r[kp.M_SPIN])) for r in rows]


def table_moves(layout: Layout, place_index: int, tyres: int,
                brakes: int) -> list[tuple[int, bytes, int, int, int]]:
    """The solver's moves of the same place and WP, the same way."""
    table = layout.tables[layout.table_of[place_index]]
    return [(roll, table.outcomes[outcome][list(KEY_COLUMNS)].astype(np.int64).tobytes(),
             tyres_paid, brakes_paid, spin)
            for roll, outcome, tyres_paid, brakes_paid, spin in table.level(tyres, brakes)]


def check_tables(track: Track, rules: Ruleset, laps: int, every: int = 1) -> int:
    solo = SoloRace(track, rules, laps)
    tables = MoveTables(solo)
    layout = Layout(solo, tables)
    seen: set[object] = set()
    checked = 0
    for index in range(0, len(layout.places), every):
        key = layout.tables[layout.table_of[index]].key
        if key in seen:
            continue
        seen.add(key)
        for tyres in range(solo.top[0] + 1):
            for brakes in range(solo.top[1] + 1):
                kernel = kernel_moves(tables, layout, index, tyres, brakes)
                table = table_moves(layout, index, tyres, brakes)
                assert Counter(table) == Counter(kernel), (layout.places[index], tyres, brakes)
                assert table == kernel, ("order", layout.places[index], tyres, brakes)
                checked += 1
    return checked


def test_the_tables_are_the_kernels_moves_at_every_wear_level_on_a_ring() -> None:
    assert check_tables(short_ring(), small_rules(), 2) > 100


def test_the_tables_are_the_kernels_moves_at_every_wear_level_at_monaco() -> None:
    assert check_tables(load_track(MONACO), load_ruleset("formula-d"), 1, every=41) > 200


def test_every_move_leads_where_play_move_takes_the_car() -> None:
    solo = SoloRace(short_ring(), small_rules(), 2)
    tables = MoveTables(solo)
    layout = Layout(solo, tables)
    names = tables.arrays.names
    corners = tables.arrays.corner_names
    compared = 0
    for index, place in enumerate(layout.places):
        if place.kind == Kind.EXIT:
            continue
        number = layout.table_of[index]
        table, resolutions = layout.tables[number], layout.resolutions[number]
        state = solo.state_at(place, laps=10**6)
        for outcome, resolution in zip(table.outcomes, resolutions, strict=True):
            distance = int(outcome[kp.M_DISTANCE])
            move = Move(start=place.space,
                        route=tuple(names[v] for v in outcome[kp.M_ROUTE: kp.M_ROUTE + distance]),
                        roll=int(outcome[kp.M_ROLL]), box=bool(outcome[kp.M_BOX]),
                        overshoots=tuple(CornerExit(corners[outcome[kp.M_EXITS + 3 * e]],
                                                    int(outcome[kp.M_EXITS + 3 * e + 1]),
                                                    int(outcome[kp.M_EXITS + 3 * e + 2]))
                                         for e in range(int(outcome[kp.M_NEXITS]))))
            after = play_move(state, 0, move, _SlowCrew())[0].cars[0]
            assert after.status == CarStatus.RACING
            assert (after.space, after.lap - place.lap, after.pit_stops - place.pit_stops) == (
                resolution.space, resolution.crossings, int(resolution.box))
            assert min(after.stops, solo.needed_stops(after.space)) == resolution.stops
            compared += 1
    assert compared > 1000


def test_a_place_asks_the_moves_the_readable_engine_lists() -> None:
    """Spot check against the readable engine too (the kernel is held to it elsewhere)."""
    solo = SoloRace(short_ring(), small_rules(), 1)
    tables = MoveTables(solo)
    layout = Layout(solo, tables)
    index = layout.index[solo.grid_place()]
    state = solo.state_at(layout.places[index])
    for roll in (1, 2, 4):
        engine = {(m.destination, m.brakes, m.tyres) for m in legal_moves(state, 0, roll)
                  if m.eliminated is None}
        table = layout.tables[layout.table_of[index]]
        ours = {(tables.arrays.names[table.outcomes[outcome][kp.M_DEST]], brakes, tyres)
                for rolled, outcome, tyres, brakes, _ in table.level(*solo.top[:2])
                if rolled == roll}
        assert ours == engine


class _SlowCrew:
    """The black die always shows a slow stop (only the place after the move is compared)."""

    def randrange(self, n: int) -> int:
        return n - 1
