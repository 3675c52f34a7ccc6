"""Key names: YCSB's FNV-1a 64 hashing, ``user`` prefix, zero padding; Java's String.hashCode."""

from __future__ import annotations

import numpy as np
import pytest

from ycsbctl.workload.keys import (
    build_key_name,
    build_key_names,
    fnvhash64,
    fnvhash64_array,
    java_string_hashcode,
)

# ycsb-semantics.md §2
HASHED = {
    0: "user6284781860667377211",
    1: "user8517097267634966620",
    2: "user1820151046732198393",
    999: "user2071219101098386137",
}


@pytest.mark.parametrize(("keynum", "name"), sorted(HASHED.items()))
def test_hashed_key_names_match_ycsb_vectors(keynum: int, name: str) -> None:
    assert build_key_name(keynum) == name
    assert "user" + str(fnvhash64(keynum)) == name


@pytest.mark.parametrize("keynum", [0, 1, 2, 999, 123456789])
def test_ordered_key_is_the_plain_number(keynum: int) -> None:
    assert build_key_name(keynum, ordered=True) == f"user{keynum}"


def test_zeropadding_pads_ordered_keys_to_the_width() -> None:
    assert build_key_name(5, ordered=True, zeropadding=8) == "user00000005"
    assert build_key_name(123456789, ordered=True, zeropadding=8) == "user123456789"  # never truncated


def test_zeropadding_pads_hashed_keys_too() -> None:
    assert build_key_name(0, zeropadding=25) == "user" + "0" * 6 + "6284781860667377211"  # 19 digits
    assert build_key_name(0, zeropadding=3) == HASHED[0]


def test_vectorised_hash_equals_the_scalar_one() -> None:
    rng = np.random.default_rng(1)
    values = np.concatenate([
        np.arange(0, 2000, dtype=np.int64),
        rng.integers(0, 2**63 - 1, size=2000, dtype=np.int64),
        np.array([2**31 - 1, 2**32, 10_000_000_000, -1, -(2**40)], dtype=np.int64),
    ])
    hashed = fnvhash64_array(values)
    assert hashed.dtype == np.int64
    assert hashed.tolist() == [fnvhash64(int(v)) for v in values]
    assert (hashed >= 0).all()


@pytest.mark.parametrize(("ordered", "zeropadding"), [(False, 1), (True, 1), (True, 8), (False, 22)])
def test_vectorised_key_names_equal_the_scalar_ones(ordered: bool, zeropadding: int) -> None:
    nums = np.array([0, 1, 2, 5, 999, 144, 610, 10_000], dtype=np.int64)
    names = build_key_names(nums, ordered, zeropadding)
    assert names == [build_key_name(int(n), ordered, zeropadding).encode() for n in nums]


def test_hottest_workloada_key_number_144_names_user1573987489603120213() -> None:
    assert build_key_name(144) == "user1573987489603120213"


def test_java_string_hashcode_of_key_zero_is_the_redis_index_score() -> None:
    assert java_string_hashcode("user6284781860667377211") == -594971599
    assert java_string_hashcode(b"user6284781860667377211") == -594971599


@pytest.mark.parametrize(
    ("text", "code"),
    # Values of Java's "…".hashCode().
    [("", 0), ("a", 97), ("hello", 99162322), ("user0", 111578565), ("polygenelubricants", -2147483648)],
)
def test_java_string_hashcode_wraps_to_signed_32_bit(text: str, code: int) -> None:
    assert java_string_hashcode(text) == code
