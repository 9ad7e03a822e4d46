"""The numbers par's compiled modules read are the same in each of them.

Each compiled module defines the numbers its code reads rather than importing them, because
numba keeps compiled code by the file that defines it: a number imported from another module
would be compiled in and kept after that module changed. These tests hold the copies equal.
"""

from __future__ import annotations

from trackformat.par import bellman, forward, layout, policy, tables


def test_the_packing_of_a_move_is_the_same_everywhere() -> None:
    for name in ("OUTCOME_MASK", "PAID_MASK", "TYRES_SHIFT", "BRAKES_SHIFT", "SPIN_SHIFT",
                 "FINISH", "INFINITE"):
        assert getattr(policy, name) == getattr(bellman, name), name
    for name in ("OUTCOME_MASK", "PAID_MASK", "TYRES_SHIFT", "BRAKES_SHIFT", "SPIN_SHIFT"):
        assert getattr(tables, name) is getattr(bellman, name), name


def test_the_flag_and_the_chances_carried_are_the_same_everywhere() -> None:
    assert forward.FINISH == layout.FINISH == bellman.FINISH
    assert 1 + len(policy.CLEAN) == forward.WIDTH


def test_a_packed_move_unpacks_to_what_was_packed() -> None:
    import numpy as np

    priced = np.asarray([[5, 65535, 99, 99, 1], [1, 0, 0, 0, 0], [30, 1234, 6, 3, 0]])
    packed = tables.pack_moves(priced)
    assert packed.dtype == np.int32
    assert [tables.unpack(int(m)) for m in packed] == [tuple(row[1:]) for row in priced]
