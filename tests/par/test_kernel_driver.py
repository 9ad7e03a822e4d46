"""The par driver in the compiled kernel (``trackformat.sim.kernel.par``) races as the readable
par driver does, event for event: alone, against itself, and among the other bots, on tracks
with a pit lane, under both rulesets, on a real GP Online board (garages by grid place, ten
cars), and where it hands its decisions to the strong driver.

Tracks par solves in seconds: the short ring, the shipped tracks, one corpus board. The line-ups
keep to the one race loop of par and strong drivers, random drivers beside them (no cautious
driver: its code would compile a second loop, and it asks par nothing)."""

from __future__ import annotations

import pytest

from tests.par.rings import short_ring, small_rules
from tests.reference_races import ReferenceRaces
from tests.sim.test_kernel_moves import board
from trackformat.rules import Ruleset, WearPoints, load_ruleset
from trackformat.sim import Board
from trackformat.sim.core import events as ev
from trackformat.sim.kernel import par_worth as kworth
from trackformat.sim.kernel.race import KernelRacer

LINEUPS = (("par",), ("par", "par"), ("par", "strong"), ("strong", "par"), ("par", "random"))
"""Two cars at most: the short ring's grid has two slots."""

pytestmark = pytest.mark.usefixtures("compiled_kernel")


def assert_same_races(reference: ReferenceRaces, the_board: Board, rules: Ruleset, laps: int,
                      seeds: range, lineups: tuple[tuple[str, ...], ...] = LINEUPS,
                      builds: tuple[WearPoints | None, ...] = ()) -> list[KernelRacer]:
    """Each seed's race (the line-ups taking turns) in both engines; the racers, to read
    what the kernel's par drivers counted."""
    races = [(seed, lineups[seed % len(lineups)]) for seed in seeds]
    return reference.assert_kernel_races_as_readable(the_board, rules, laps, races, builds)


@pytest.mark.parametrize(("rules", "laps"), [("formula-d", 2), ("small", 2),
                                             ("formule-de-basic", 1)])
def test_on_the_short_ring_par_races_as_the_readable_driver(
        rules: str, laps: int, reference_races: ReferenceRaces) -> None:
    ruleset = small_rules() if rules == "small" else load_ruleset(rules)
    the_board = Board.of(short_ring())
    racers = assert_same_races(reference_races, the_board, ruleset, laps, range(60))
    decisions = sum(int(r.par_counts()[:, kworth.COUNT_DECISIONS].sum()) for r in racers)
    assert decisions > 60 * 5


def test_par_drivers_stop_in_the_pits_in_the_kernel_as_in_the_readable_engine(
        reference_races: ReferenceRaces) -> None:
    # Few WP over two laps: the box's tyres are worth a stop, and the stop is compared too.
    the_board, rules = Board.of(short_ring()), small_rules(tyres=1)
    assert_same_races(reference_races, the_board, rules, 2, range(12), lineups=(("par", "par"),))
    racer = KernelRacer(the_board, rules, ["par", "par"], 2)
    stops = sum(isinstance(event, ev.PitStop) for seed in range(12)
                for event in racer.race(seed).events)
    assert stops > 0


CROWDED = (("par", "strong", "random"), ("strong", "par", "par", "strong"), ("par",) * 4)


@pytest.mark.parametrize(("track", "preset", "seeds"), [
    ("harbour-sprint", "formula-d", 40),
    ("col-du-vent", "formule-de-basic", 12),
    ("monaco", "formula-d", 8),
])
def test_on_the_shipped_tracks_par_races_as_the_readable_driver(
        track: str, preset: str, seeds: int, reference_races: ReferenceRaces) -> None:
    assert_same_races(reference_races, board(track), load_ruleset(preset), 1, range(seeds),
                      lineups=CROWDED)


def test_a_car_built_beyond_par_s_wp_is_driven_by_the_strong_driver_in_both_engines(
        reference_races: ReferenceRaces) -> None:
    # Par solves the ruleset's own car: while a car has more WP than that (a build's brakes),
    # its states are ones par has not solved, and its decisions are the strong driver's.
    rules = load_ruleset("formula-d")
    built = WearPoints(tyres=6, brakes=7, gearbox=3, body=1, engine=2, suspension=1)
    racers = assert_same_races(reference_races, Board.of(short_ring()), rules, 1, range(12),
                               lineups=(("par", "par"),), builds=(built, None))
    counts = racers[0].par_counts()
    assert counts[0, kworth.COUNT_FALLBACKS] > counts[0, kworth.COUNT_DECISIONS] // 2
    assert counts[1, kworth.COUNT_FALLBACKS] < counts[1, kworth.COUNT_DECISIONS] // 10


def test_on_a_real_board_a_full_grid_races_as_in_the_readable_engine(
        reference_races: ReferenceRaces) -> None:
    # A GP Online board: a garage for each car, given by grid place, so each race seats its par
    # drivers at other garages (par solved for each); par and strong drivers, two laps.
    from tests.sim.test_kernel_real_tracks import real_board

    the_board = real_board("minikart.dat")
    racers = assert_same_races(reference_races, the_board, load_ruleset("formula-d"), 2, range(2),
                               lineups=(("par", "strong") * 3,))
    assert len(racers[0].par_boxes) > 3
