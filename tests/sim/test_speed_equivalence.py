"""The fast engine plays exactly as the plain one: same legal moves, same races, event for event.

The route walk was rewritten for speed (numbered spaces, car-free walks kept per board, moves
priced once per walk). Two nets hold it to the original behaviour: seeded races recorded from
the original engine must replay identically (tests/sim/recorded.py), and on many random
positions, packs of cars, debris, corners half done, spun cars, pit lane, the legal moves must
equal those of the original walker, kept as tests/sim/reference.py.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from tests.sim import reference
from tests.sim.positions import ahead, position
from tests.sim.recorded import RACES, RecordedRace, board, play, recorded
from trackformat.rules import load_ruleset
from trackformat.sim import (
    RaceState,
    legal_moves,
    legal_moves_by_roll,
)
from trackformat.sim.move.reuse import _need

TRACKS = ("ring", "monaco")
PRESETS = ("formula-d", "formule-de-basic")


@pytest.fixture(scope="module")
def logs() -> dict[str, list[list[object]]]:
    return recorded()


@pytest.mark.parametrize("race", RACES, ids=lambda r: r.name)
def test_recorded_races_replay_event_for_event(race: RecordedRace,
                                               logs: dict[str, list[list[object]]]) -> None:
    expected = logs[race.name]
    got = play(race)
    for n, (old, new) in enumerate(zip(expected, got, strict=False)):
        assert old == new, f"{race.name}: event {n} differs"
    assert len(got) == len(expected), race.name


@pytest.mark.parametrize("track", TRACKS)
@pytest.mark.parametrize("preset", PRESETS)
def test_legal_moves_equal_the_plain_walkers_on_random_positions(track: str,
                                                                 preset: str) -> None:
    rules = load_ruleset(preset)
    rng = random.Random(f"{track}:{preset}")
    checked = 0
    for n in range(150):
        state = position(board(track), rules, rng)
        gear = rng.randint(1, 6)
        faces = sorted(set(rules.faces(gear)))
        assert legal_moves_by_roll(state, 0, faces) == reference.legal_moves_by_roll(
            state, 0, faces), (track, preset, n)
        roll = rng.randint(1, 30)
        assert legal_moves(state, 0, roll) == reference.legal_moves(state, 0, roll), (
            track, preset, n, roll)
        checked += sum(len(m) for m in reference.legal_moves_by_roll(state, 0, faces).values())
    assert checked > 1000, "the positions should give plenty of moves to compare"


@pytest.mark.parametrize("track", TRACKS)
def test_a_kept_walk_is_reused_only_where_it_still_holds(track: str) -> None:
    # The same car asked again and again while the other cars and the debris move about, near
    # and far: each answer must be what the plain walker says for that very position, whether
    # the engine walked afresh or reused a walk kept from an earlier position.
    rules = load_ruleset("formula-d")
    rng = random.Random(f"reuse:{track}")
    the_board = board(track)
    spaces = sorted(the_board.lane)
    for n in range(60):
        state = position(the_board, rules, rng)
        for _ in range(4):
            state = _shuffle_others(state, spaces, rng)
            for roll in (rng.randint(1, 30), rng.randint(1, 12)):
                assert legal_moves(state, 0, roll) == reference.legal_moves(state, 0, roll), (
                    track, n, roll)


def _shuffle_others(state: RaceState, spaces: list[str], rng: random.Random) -> RaceState:
    """Every other car moved to a random free space (near the first car or anywhere), and the
    debris drawn again."""
    own = state.cars[0].space
    near = [s for s in ahead(state.board, own, 12) if s in state.board.lane and s != own]
    taken = {own}
    cars = [state.cars[0]]
    for car in state.cars[1:]:
        pool = near if rng.random() < 0.3 else spaces
        free = [s for s in pool if s not in taken] or [s for s in spaces if s not in taken]
        space = rng.choice(free)
        taken.add(space)
        corner = state.board.corner_of.get(space)
        cars.append(replace(car, space=space, corner=corner, stops=0))
    free = [s for s in spaces if s not in taken]
    debris = frozenset(rng.sample(free, k=rng.choice((0, 0, 2, 5))))
    return replace(state, cars=tuple(cars), debris=debris)


@pytest.mark.parametrize("track", TRACKS)
def test_the_region_of_a_walk_is_whole_in_every_lane(track: str) -> None:
    # A route that leaves a lane and comes back asks about the lane positions in between, which
    # it never enters: the region that decides whether a car-free walk may be reused must hold
    # them, so in each lane the positions within a reach form one unbroken run.
    net = board(track).network
    rng = random.Random(track)
    for start in rng.sample(range(len(net.names)), 40):
        need = _need(net, start)
        for reach in (1, 4, 12, 30):
            inside = {s for s, n in need.items() if n <= reach}
            assert {s for s in net.links[start]} <= inside
            for lane, spaces in enumerate(net.lane_spaces):
                positions = sorted(p for p, s in spaces.items() if s in inside)
                if len(positions) < 2:
                    continue
                length = net.lane_length[lane]
                following = positions[1:] + positions[:1]
                gaps = [(b - a) % length for a, b in zip(positions, following, strict=True)]
                assert sorted(gaps)[:-1] == [1] * (len(gaps) - 1), (track, start, reach, lane)
