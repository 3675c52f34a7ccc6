"""The compiled key functions against their pure-Python twins at the edges: FNV-64 of extreme
values (Java's Math.abs of Long.MIN_VALUE stays negative), zero padding of negative numbers,
scrambling with floor modulo, Java's String.hashCode."""

from __future__ import annotations

import numpy as np
import pytest

from ycsbctl.native import core
from ycsbctl.workload.keys import build_key_name, fnvhash64, java_abs64, java_string_hashcode

pytestmark = pytest.mark.skipif(core is None,
                                reason="the compiled core (ycsbctl._native) is not built: run scripts/setup.sh")

EDGES = [0, 1, 2, 999, 144, 610, -1, -2, 2**31 - 1, 2**62, 2**63 - 1, -(2**63), 10_000_000_000]


def _edges_and_random() -> np.ndarray:
    rng = np.random.default_rng(5)
    return np.concatenate([np.array(EDGES, dtype=np.int64), rng.integers(-(2**63), 2**63 - 1, 5000, dtype=np.int64)])


def test_fnv64_matches_the_pure_hash_value_for_value():
    nums = _edges_and_random()
    out = np.empty_like(nums)
    core.fnv64_into(nums, out)
    want = [fnvhash64(int(v)) for v in nums.tolist()]
    assert out.tolist() == want
    assert [core.fnvhash64(int(v)) for v in nums.tolist()] == want  # one at a time (issue-time keys)
    assert core.fnvhash64(2**64 + 5) == fnvhash64(5)  # masked to 64 bits, as the pure one


def test_java_abs_leaves_long_min_value_negative_as_java_numpy_and_the_core_do():
    assert java_abs64(-(2**63)) == -(2**63) == int(np.abs(np.int64(-(2**63))))
    assert [java_abs64(v) for v in (-(2**63) + 1, -1, 0, 2**63 - 1)] == [2**63 - 1, 1, 0, 2**63 - 1]


def test_key_names_match_build_key_name_hashed_ordered_and_padded():
    nums = _edges_and_random()
    for ordered in (False, True):
        for pad in (1, 8, 25):
            got = core.key_names(nums, ordered, pad, 0, len(nums))
            want = [(b"user%0" + str(pad).encode() + b"d") % (int(v) if ordered else fnvhash64(int(v)))
                    for v in nums.tolist()]
            assert got == want, (ordered, pad)
    assert core.key_names(np.array([5], dtype=np.int64), True, 8, 0, 1) == [build_key_name(5, True, 8).encode()]
    assert core.key_names(nums, False, 1, 3, 5) == core.key_names(nums[3:5].copy(), False, 1, 0, 2)


def test_scramble_is_min_plus_hash_floor_modulo_itemcount():
    nums = _edges_and_random()
    out = np.empty_like(nums)
    for lo, count in ((0, 1001), (7, 3), (100, 2**40 + 1)):
        core.scramble_into(nums, out, lo, count)
        hashed = np.empty_like(nums)
        core.fnv64_into(nums, hashed)
        assert out.tolist() == (lo + hashed % count).tolist()


def test_java_hash_is_string_hashcode():
    for key in (b"user6284781860667377211", b"", b"a", b"user0", b"x" * 300):
        assert core.java_hash(key) == java_string_hashcode(key)
    assert core.java_hash(b"user6284781860667377211") == -594971599


def test_a_buffer_of_another_type_is_refused():
    with pytest.raises(TypeError):
        core.key_names(np.arange(3, dtype=np.float64), False, 1, 0, 3)
