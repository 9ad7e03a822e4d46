"""Batches of test drives: seeds, chunks, exact merging, and what the report says."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from dataclasses import replace
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.factories import ring
from tests.sim.helpers import ring_board, rules
from trackformat.io import dumps_document
from trackformat.sim import events as ev
from trackformat.sim import run_race
from trackformat.sim.batch.report import batch_report
from trackformat.sim.batch.stats import DriveStats, mean, median, percentile
from trackformat.sim.batch.testdrive import (
    MAX_CHUNK,
    Chunk,
    DriveContext,
    DriveError,
    DriveSpec,
    bot_lineup,
    plan_chunks,
    prepare,
    race_seed,
    run_batch,
    run_chunk,
)
from trackformat.sim.core.state import Cause, Wear


@cache
def ring_context(bots: tuple[str, ...] = ("random",) * 3, seed: int = 5) -> DriveContext:
    return prepare(DriveSpec.of(ring(), rules(), bots, seed=seed))


def test_race_seeds_are_fixed_numbers_of_the_batch_seed_and_the_race() -> None:
    # Pinned: a batch run on another machine, or by another Python, races the same races.
    assert race_seed(0, 0) == race_seed(0, 0) == 2742004041979224500
    assert len({race_seed(seed, i) for seed in range(3) for i in range(50)}) == 150


@pytest.mark.parametrize("races", [1, 7, 64, 65, 640, 10_001])
def test_chunks_cover_every_race_once_in_order(races: int) -> None:
    chunks = plan_chunks(races)
    assert [c.index for c in chunks] == list(range(len(chunks)))
    assert [i for c in chunks for i in c.races] == list(range(races))
    assert all(1 <= len(c.races) <= MAX_CHUNK for c in chunks)
    assert plan_chunks(races) == chunks


def test_bots_are_given_to_the_cars_in_turn() -> None:
    assert bot_lineup(["random"], 3) == ("random",) * 3
    assert bot_lineup(["random", "cautious"], 5) == (
        "random", "cautious", "random", "cautious", "random")
    with pytest.raises(DriveError, match=r"unknown bot 'fast' \(bots: .*cautious.*random"):
        bot_lineup(["random", "fast"], 2)
    with pytest.raises(DriveError, match="missing"):
        bot_lineup(["random", ""], 2)


def test_a_batch_that_cannot_start_says_why() -> None:
    with pytest.raises(DriveError, match="10 grid slots"):
        prepare(DriveSpec.of(ring(), rules(), ("random",) * 11, seed=0))


def test_the_same_seed_gives_the_same_report_with_one_or_two_workers() -> None:
    context = ring_context()
    alone = batch_report(run_batch(context.spec, 8, workers=1, context=context), context)
    shared = batch_report(run_batch(context.spec, 8, workers=2, context=context), context)
    assert dumps_document(alone) == dumps_document(shared)
    other = prepare(DriveSpec.of(ring(), rules(), ("random",) * 3, seed=6))
    assert batch_report(run_batch(other.spec, 8, context=other), other) != alone


def test_progress_is_told_as_chunks_complete() -> None:
    seen: list[tuple[int, int]] = []
    run_batch(ring_context().spec, 3, progress=lambda done, total: seen.append((done, total)),
              context=ring_context())
    assert seen == [(1, 3), (2, 3), (3, 3)]


def test_progress_with_two_workers_moves_up_to_the_whole_batch() -> None:
    """This process and a worker share the chunks: the progress still counts each race once,
    in order, up to the batch's end."""
    seen: list[int] = []
    context = ring_context()
    run_batch(context.spec, 12, workers=2, progress=lambda done, total: seen.append(done),
              context=context)
    assert seen == sorted(set(seen)) and seen[-1] == 12


def test_chunks_merged_give_the_counts_of_one_run() -> None:
    context = ring_context()
    whole = run_chunk(context, Chunk(0, 0, 9))
    parts = DriveStats()
    for chunk in (Chunk(0, 0, 2), Chunk(1, 2, 3), Chunk(2, 3, 9)):
        parts.merge(run_chunk(context, chunk))
    assert parts == whole
    assert whole.races == 9 and sum(whole.turns.values()) == 9


@cache
def single_race_stats() -> tuple[DriveStats, ...]:
    context = ring_context()
    return tuple(run_chunk(context, Chunk(i, i, i + 1)) for i in range(10))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(min_value=1, max_value=9), unique=True))
def test_any_grouping_of_races_merges_to_the_same_counts(cuts: list[int]) -> None:
    races = single_race_stats()
    bounds = [0, *sorted(cuts), len(races)]
    grouped = DriveStats()
    for start, stop in itertools.pairwise(bounds):
        group = DriveStats()
        for stats in races[start:stop]:
            group.merge(stats)
        grouped.merge(group)
    in_reverse = DriveStats()
    for stats in reversed(races):
        in_reverse.merge(stats)
    assert grouped == in_reverse


def test_histogram_figures() -> None:
    turns = Counter({10: 1, 12: 2, 20: 1})  # 10, 12, 12, 20
    assert mean(turns) == 13.5
    assert median(turns) == 12.0
    assert median(Counter({10: 1, 20: 1})) == 15.0
    assert percentile(turns, 0.9) == 20 and percentile(turns, 0.5) == 12
    assert percentile(Counter({7: 10}), 0.9) == 7
    assert mean(Counter()) is None and median(Counter()) is None


def lane_one(first: int, last: int) -> tuple[str, ...]:
    """Spaces ``first`` to ``last`` of the ring's lane 1, across the line if need be."""
    return tuple(f"1-{k % 40}" for k in range(first, last + 1 if last >= first else last + 41))


def test_corner_and_space_counts_come_from_the_log() -> None:
    # On the ring, "north" is 8-11 and "south" 22-26; the line is between 39 and 0.
    log = [
        # Car 0 enters north, stops in it, then leaves it without overshooting.
        ev.Moved(1, 0, "1-6", "1-9", lane_one(7, 9), 3, 0, 0, 0),
        ev.Moved(2, 0, "1-9", "1-12", lane_one(10, 12), 3, 0, 0, 0),
        # Car 1 overshoots south by 3 (blocked on the way: 1 of its 4 tyres WP is the block's)
        # and is eliminated beyond it: both are put down to south.
        ev.Moved(3, 1, "1-21", "1-29", lane_one(22, 29), 8, 0, 4, 0),
        ev.Blocked(3, 1, "1-29", 1, Wear(tyres=1)),
        ev.Overshoot(3, 1, "south", 3, 1, "1-29"),
        ev.Eliminated(3, 1, Cause.OVERSHOOT, "1-29"),
        # Car 2 spins beyond north after overshooting it.
        ev.Moved(4, 2, "1-6", "1-12", lane_one(7, 12), 6, 0, 1, 0),
        ev.Overshoot(4, 2, "north", 1, 1, "1-12"),
        ev.SpinOut(4, 2, "1-12"),
        # Car 3 loses its body in north, then car 4 its engine on a straight.
        ev.Eliminated(5, 3, Cause.BODY, "1-9"),
        ev.Eliminated(5, 4, Cause.ENGINE, "1-30"),
        # Car 5 completes a lap into north; car 6 finishes, its move running on into north.
        ev.Moved(6, 5, "1-38", "1-8", lane_one(39, 8), 10, 0, 0, 0),
        ev.LapCompleted(6, 5, 1),
        ev.Moved(6, 6, "1-37", "1-9", lane_one(38, 9), 12, 0, 0, 0),
        ev.Finished(6, 6, 1),
    ]
    stats = DriveStats()
    stats.count_events(log, ring_board())
    north = {what: stats.corners["north", what] for what in
             ("entries", "overshoots", "overshoot_spaces", "eliminations", "spins", "tyre_wp")}
    south = {what: stats.corners["south", what] for what in north}
    assert north == {"entries": 3, "overshoots": 1, "overshoot_spaces": 1, "eliminations": 1,
                     "spins": 1, "tyre_wp": 1}
    assert south == {"entries": 1, "overshoots": 1, "overshoot_spaces": 3, "eliminations": 1,
                     "spins": 0, "tyre_wp": 3}
    assert stats.spaces["1-9", "stops"] == 2 and stats.spaces["1-29", "overshoots"] == 1
    assert stats.spaces["1-29", "eliminations"] == 1 and stats.spaces["1-30", "eliminations"] == 1


def test_the_report_agrees_with_the_races_it_counted() -> None:
    context = ring_context(("random", "cautious"), seed=3)
    races = 4
    report = batch_report(run_batch(context.spec, races, context=context), context)
    json.dumps(report, allow_nan=False)
    # The same races, raced one by one from their seeds.
    results = []
    for index in range(races):
        seed = race_seed(3, index)
        drivers = [context.factories[name](seed) for name in context.spec.bots]
        results.append(run_race(context.board, context.rules, drivers, seed))
    events = [e for r in results for e in r.events]
    assert report["races"] == races and report["seed"] == 3 and report["cars"] == 2
    assert report["bots"] == ["random", "cautious"]
    turns = sorted(r.turns for r in results)
    per_race = report["turns"]["per_race"]
    assert (per_race["min"], per_race["max"]) == (turns[0], turns[-1])
    assert per_race["mean"] == pytest.approx(sum(turns) / races, abs=1e-4)
    assert report["turns"]["per_lap"]["mean"] == pytest.approx(per_race["mean"] / 2, abs=1e-4)
    assert per_race["min"] <= per_race["median"] <= per_race["p90"] <= per_race["max"]
    finished = sum(c.place is not None for r in results for c in r.cars)
    assert report["finished"] == finished
    assert finished + sum(report["dnf"].values()) == races * 2
    winners = Counter(context.spec.bots[r.finish_order[0]] for r in results if r.finish_order)
    assert report["winner_share"] == {bot: winners[bot] / races for bot in ("random", "cautious")}
    assert sum(report["winner_share"].values()) + report["no_winner"] == pytest.approx(1.0)
    assert [c["id"] for c in report["corners"]] == ["north", "south"]
    for corner in report["corners"]:
        overshoots = [e for e in events
                      if isinstance(e, ev.Overshoot) and e.corner == corner["id"]]
        assert corner["overshoots"] == len(overshoots) <= corner["entries"]
        assert 0.0 <= corner["overshoot_rate"] <= 1.0
    assert set(report["spaces"]) == {s.id for s in context.board.graphs.track.spaces}
    stops = sum(counts["stops"] for counts in report["spaces"].values())
    assert stops == sum(isinstance(e, ev.Moved) for e in events)


def test_fresh_bots_race_each_race_so_a_race_depends_on_its_seed_only() -> None:
    context = ring_context()
    late = run_chunk(context, Chunk(0, 4, 5))
    seed = race_seed(5, 4)
    drivers = [context.factories["random"](seed) for _ in range(3)]
    result = run_race(context.board, context.rules, drivers, seed)
    alone = DriveStats()
    alone.add_race(result, context.board, context.spec.bots, context.rules.team_points)
    assert late == alone


@pytest.mark.parametrize("bots", [("random",) * 4, ("cautious", "random", "cautious")])
def test_both_engines_give_the_same_report(bots: tuple[str, ...]) -> None:
    reports = []
    for engine in ("kernel", "reference"):
        context = prepare(DriveSpec.of(ring(), rules(), bots, seed=3, engine=engine))
        assert (context.racer is not None) == (engine == "kernel")
        reports.append(dumps_document(batch_report(run_batch(context.spec, 12,
                                                             context=context), context)))
    assert reports[0] == reports[1]


def test_an_unknown_engine_is_refused_with_the_choices() -> None:
    with pytest.raises(DriveError, match="unknown engine 'fast': choose kernel or reference"):
        prepare(DriveSpec.of(ring(), rules(), ("random",) * 3, seed=0, engine="fast"))


def test_the_background_compile_prepares_the_batch_in_a_process_of_its_own() -> None:
    from trackformat.sim.batch.engines import BackgroundCompile

    spec = DriveSpec.of(ring(), rules(), ("random", "cautious"), seed=1, engine="kernel")
    compiling = BackgroundCompile(spec)
    assert compiling.process.wait(timeout=600) == 0, compiling.why()
    assert compiling.done() and not compiling.failed
    broken = BackgroundCompile(replace(spec, laps=0))
    broken.process.wait(timeout=600)
    assert broken.failed
    assert broken.why().endswith("a race needs at least one lap, not 0")


def test_the_kernel_counts_what_the_test_drive_counts() -> None:
    from trackformat.sim.batch import stats
    from trackformat.sim.kernel import counts

    assert counts.CORNER_COUNTS == stats.CORNER_COUNTS
    assert counts.SPACE_COUNTS == stats.SPACE_COUNTS
