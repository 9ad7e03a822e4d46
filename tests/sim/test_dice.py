"""The project's generator: the published SplitMix64, fair dice, stable seeds, and the same
draws in the readable engine and the compiled kernel."""

from __future__ import annotations

from collections import Counter

import numpy as np

from trackformat.sim.core.dice import Dice
from trackformat.sim.kernel import dice as kernel_dice


def test_the_generator_is_splitmix64() -> None:
    # The first outputs of SplitMix64 from state 0, as published with the algorithm.
    dice = Dice(0)
    assert [dice.next64() for _ in range(3)] == [
        0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


def test_every_face_of_a_die_is_equally_likely() -> None:
    dice = Dice(2026)
    counts = Counter(dice.randrange(20) for _ in range(100_000))
    assert sorted(counts) == list(range(20))
    assert all(4_700 < n < 5_300 for n in counts.values()), counts


def test_a_string_seed_gives_the_same_draws_in_every_process() -> None:
    # The seed is the BLAKE2b digest of the string (ac7dfa1228a6c53d, read little-endian), not
    # Python's hash(), which changes from process to process.
    dice = Dice("random-driver:0:7:3")
    assert dice.state == 0x3DC5A62812FA7DAC
    assert [dice.randrange(20) for _ in range(8)] == [18, 7, 6, 8, 5, 18, 13, 5]


def test_the_kernel_draws_what_the_readable_engine_draws() -> None:
    sizes = np.array([20, 4, 6, 8, 12, 30, 1, 2, 3, 7, 1000, 2**40 + 3] * 50, np.int64)
    for seed in [*range(200), 2**63 + 5, "random-driver:0:11:2"]:
        dice = Dice(seed)
        expected = [dice.randrange(int(n)) for n in sizes]
        state = kernel_dice.new_state(seed)
        assert kernel_dice.draws(state, sizes).tolist() == expected, seed
        assert int(state[0]) == dice.state, seed
