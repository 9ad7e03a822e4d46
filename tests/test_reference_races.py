"""The readable engine's races remembered between runs (``tests/reference_races.py``) never let a
kernel race that differs pass: a remembered digest only spares the readable engine a race the
kernel gives exactly, and anything else is raced again and compared in full. The slow
references' values (par's brute force) are remembered by the same inputs."""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path

import pytest

from tests.factories import ring
from tests.reference_races import ReferenceRaces, ReferenceValues, race_digest
from trackformat.rules import load_ruleset
from trackformat.sim import Board, run_race
from trackformat.sim.kernel.race import KernelRacer

pytestmark = pytest.mark.usefixtures("compiled_kernel")

RACES = [(seed, ("random", "strong")) for seed in range(3)]


@pytest.fixture
def the_board() -> Board:
    return Board.of(ring())


def _readable_races(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the readable engine's races from now on (the seeds it raced)."""
    import tests.reference_races as reference

    raced: list[int] = []

    def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        raced.append(args[3])
        return run_race(*args, **kwargs)

    monkeypatch.setattr(reference, "run_race", counted)
    return raced


def test_a_second_run_races_the_kernel_alone_and_a_first_races_both(
        tmp_path: Path, the_board: Board, monkeypatch: pytest.MonkeyPatch) -> None:
    rules = load_ruleset("formula-d")
    raced = _readable_races(monkeypatch)
    ReferenceRaces(tmp_path).assert_kernel_races_as_readable(the_board, rules, 1, RACES)
    assert raced == [0, 1, 2]
    (record,) = tmp_path.iterdir()
    assert len(json.loads(record.read_text())) == 3
    ReferenceRaces(tmp_path).assert_kernel_races_as_readable(the_board, rules, 1, RACES)
    assert raced == [0, 1, 2], "the remembered races are not raced again"
    # Another ruleset, other laps, other races: other records, raced afresh.
    ReferenceRaces(tmp_path).assert_kernel_races_as_readable(
        the_board, load_ruleset("formule-de-basic"), 1, RACES)
    ReferenceRaces(tmp_path).assert_kernel_races_as_readable(the_board, rules, 2, RACES)
    assert raced == [0, 1, 2] * 3
    assert len(list(tmp_path.iterdir())) == 3


def test_a_kernel_race_unlike_the_remembered_one_fails_with_the_full_comparison(
        tmp_path: Path, the_board: Board, monkeypatch: pytest.MonkeyPatch) -> None:
    rules = load_ruleset("formula-d")
    ReferenceRaces(tmp_path).assert_kernel_races_as_readable(the_board, rules, 1, RACES)
    real = KernelRacer.race

    def one_event_short(self, seed, *args, **kwargs):  # type: ignore[no-untyped-def]
        result = real(self, seed, *args, **kwargs)
        return dataclasses.replace(result, events=result.events[:-1]) if seed == 1 else result

    monkeypatch.setattr(KernelRacer, "race", one_event_short)
    raced = _readable_races(monkeypatch)
    with pytest.raises(AssertionError) as failure:
        ReferenceRaces(tmp_path).assert_kernel_races_as_readable(the_board, rules, 1, RACES,
                                                                 label=("ring",))
    assert raced == [1], "only the race that differs is raced again"
    assert "'ring', ('random', 'strong'), 1" in str(failure.value)


@pytest.mark.parametrize("damage", ["wrong digests", "not json", "a list of numbers"])
def test_a_damaged_record_is_raced_again_and_written_anew(
        damage: str, tmp_path: Path, the_board: Board, monkeypatch: pytest.MonkeyPatch) -> None:
    rules = load_ruleset("formula-d")
    ReferenceRaces(tmp_path).assert_kernel_races_as_readable(the_board, rules, 1, RACES)
    (record,) = tmp_path.iterdir()
    good = record.read_text()
    record.write_text({"wrong digests": json.dumps(["0" * 32] * 3), "not json": "[\"0",
                       "a list of numbers": "[1, 2, 3]"}[damage])
    raced = _readable_races(monkeypatch)
    ReferenceRaces(tmp_path).assert_kernel_races_as_readable(the_board, rules, 1, RACES)
    assert raced == [0, 1, 2]
    assert record.read_text() == good


def test_with_no_folder_every_race_is_raced_in_both_engines(
        the_board: Board, monkeypatch: pytest.MonkeyPatch) -> None:
    raced = _readable_races(monkeypatch)
    for _ in range(2):
        ReferenceRaces(None).assert_kernel_races_as_readable(
            the_board, load_ruleset("formula-d"), 1, RACES)
    assert raced == [0, 1, 2] * 2


def test_races_that_differ_have_digests_that_differ(the_board: Board) -> None:
    racer = KernelRacer(the_board, load_ruleset("formula-d"), ["random", "strong"], 1)
    digests = {race_digest(racer.race(seed)) for seed in range(20)}
    assert len(digests) == 20
    assert race_digest(racer.race(7)) == race_digest(racer.race(7))


def test_a_reference_value_is_computed_once_then_remembered_unless_asked_fresh(
        tmp_path: Path) -> None:
    computed: list[float] = []

    def compute() -> float:
        computed.append(float(len(computed) + 1))
        return computed[-1]

    values = ReferenceValues(tmp_path)
    assert values.value(["par", 1], compute) == 1.0
    assert ReferenceValues(tmp_path).value(["par", 1], compute) == 1.0
    assert computed == [1.0], "a second run takes the remembered value"
    assert values.value(["par", 2], compute) == 2.0, "other inputs, another value"
    assert values.value(["par", 1], compute, fresh=True) == 3.0
    assert values.value(["par", 1], compute) == 3.0, "the fresh value is the one kept"
    assert ReferenceValues(None).value(["par", 1], compute) == 4.0


def test_a_damaged_reference_value_is_computed_again(tmp_path: Path) -> None:
    values = ReferenceValues(tmp_path)
    values.value(["brute"], lambda: math.inf)
    assert values.value(["brute"], lambda: 0.0) == math.inf, "infinity is kept as it is"
    (record,) = tmp_path.iterdir()
    for damaged in ("[\"0", "\"a word\"", "true"):
        record.write_text(damaged)
        assert values.value(["brute"], lambda: 5.0) == 5.0
