"""CoreWorkload: settings, value bytes, operation mix, insert key sequences, opcount split."""

from __future__ import annotations

import multiprocessing

import numpy as np
import pytest
from scipy import stats

from ycsbctl.workload.core import (
    ALL_FIELDS,
    INSERT,
    INT_MAX,
    READ,
    READ_MODIFY_WRITE,
    SCAN,
    UPDATE,
    CoreWorkload,
    split_count,
)
from ycsbctl.workload.distributions import ScrambledZipfian
from ycsbctl.workload.generators import LoadGenerator, RunGenerator, load_blocks
from ycsbctl.workload.inserts import InsertSequence, shared_insert_state
from ycsbctl.workload.keys import build_key_name
from ycsbctl.workload.properties import Properties, load_properties
from ycsbctl.workload.values import ValuePool, random_bytes

P_MIN = 1e-3


def workload(name: str, *overrides: str) -> CoreWorkload:
    return CoreWorkload.from_properties(load_properties(name, (), overrides))


# -- settings ---------------------------------------------------------------------------------


def test_defaults_are_ycsbs_code_defaults() -> None:
    w = CoreWorkload.from_properties(Properties())
    assert w.recordcount == INT_MAX  # recordcount 0 → Integer.MAX_VALUE
    assert w.operationcount is None
    assert w.table == "usertable" and w.fieldcount == 10 and w.fieldlength == 100
    assert w.field_names == tuple(f"field{i}".encode() for i in range(10))
    assert w.proportions == ((READ, 0.95), (UPDATE, 0.05))
    assert (w.requestdistribution, w.ordered, w.zeropadding) == ("uniform", False, 1)
    assert (w.insertstart, w.insertcount, w.load_operations) == (0, INT_MAX, 0)  # the Client loads recordcount as given
    assert (w.minscanlength, w.maxscanlength) == (1, 1000)
    assert w.readallfields and not w.writeallfields


def test_expected_new_keys_use_the_raw_insertproportion_like_ycsb() -> None:
    assert workload("workloade").expected_new_keys == 100  # int(1000 · 0.05 · 2)
    # YCSB does not normalise: proportions summing to 2 still give 1000 · 1 · 2.
    w = workload("workloada", "readproportion=1", "updateproportion=0", "insertproportion=1")
    assert w.expected_new_keys == 2000


def test_zipfian_key_space_includes_the_expected_new_keys() -> None:
    gen = RunGenerator(workload("workloade"), np.random.default_rng(0))
    assert isinstance(gen.chooser, ScrambledZipfian)
    assert (gen.chooser.min, gen.chooser.itemcount) == (0, 1000 + 100 + 1)


def test_load_operations_are_insertcount_when_given_else_recordcount() -> None:
    assert workload("workloada", "insertstart=100").load_operations == 1000
    assert workload("workloada", "insertstart=100").insertcount == 900
    assert workload("workloada", "insertstart=100", "insertcount=300").load_operations == 300


# -- values -----------------------------------------------------------------------------------

# Byte values each position of a six-byte group can take: ((int >> shift) & mask) + 0x20.
_POSITION_ALPHABETS = [
    list(range(0x20, 0x40)),  # & 31
    list(range(0x20, 0x60)),  # & 63
    list(range(0x20, 0x40)) + list(range(0x60, 0x80)),  # & 95 = 0b1011111
] * 2


def test_value_bytes_are_printable_ascii_0x20_to_0x7f() -> None:
    data = np.frombuffer(random_bytes(600_001, np.random.default_rng(1)), dtype=np.uint8)
    assert len(data) == 600_001
    assert data.min() == 0x20 and data.max() == 0x7F


@pytest.mark.parametrize("position", range(6))
def test_each_of_the_six_bytes_from_one_int_is_uniform_over_its_alphabet(position: int) -> None:
    data = np.frombuffer(random_bytes(6 * 60_000, np.random.default_rng(2)), dtype=np.uint8)
    column = data[position::6]
    alphabet = _POSITION_ALPHABETS[position]
    counts = np.bincount(column, minlength=0x80)
    assert counts.sum() == counts[alphabet].sum(), "bytes outside the position's alphabet"
    assert (counts[alphabet] > 0).all()
    assert stats.chisquare(counts[alphabet]).pvalue > P_MIN


def test_value_pool_values_have_the_length_asked_and_ycsbs_byte_mix() -> None:
    pool = ValuePool(np.random.default_rng(3), max_length=100, chunk_bytes=1 << 16)
    values = [pool.take(n) for n in (1, 57, 100) * 3000]
    assert [len(v) for v in values[:3]] == [1, 57, 100]
    data = np.frombuffer(b"".join(values), dtype=np.uint8)
    assert data.min() >= 0x20 and data.max() <= 0x7F
    # The marginal byte mix of the six positions: 0x20–0x3F most common (all positions), 0x40–0x5F
    # from the two "& 63" positions only, 0x60–0x7F from the two "& 95" positions only.
    share = np.bincount(data >> 5, minlength=4)[1:] / len(data)
    expected = np.array([2 / 6 + 2 / 6 * 0.5 + 2 / 6 * 0.5, 2 / 6 * 0.5, 2 / 6 * 0.5])
    assert share == pytest.approx(expected, abs=0.01)


@pytest.mark.parametrize("per_call", [1, 10])
def test_value_pool_draws_its_next_buffer_while_handing_out_this_one(per_call: int) -> None:
    """No call pays for a whole buffer: the spare is drawn a slice per call from the half-way point,
    so it is ready when the buffer runs out; values stay distinct across buffers."""
    pool = ValuePool(np.random.default_rng(5), max_length=100)
    seen: set[bytes] = set()
    switches = 0
    for _ in range(5000):
        if pool.cut_next + per_call > len(pool.cut) and pool.cut:
            assert pool._ready is not None, "the spare was not drawn by the time the buffer ran out"
            switches += 1
        values = pool.take_many(per_call, 100)
        assert {len(v) for v in values} == {100}
        seen.update(values)
    assert switches >= 10 and len(seen) == 5000 * per_call


def test_value_pool_of_variable_lengths_draws_its_next_buffer_ahead_too() -> None:
    pool = ValuePool(np.random.default_rng(6), max_length=100)
    for length in (1, 57, 100) * 3000:
        if pool.buf and pool.pos + 102 > len(pool.buf):
            assert pool._ready is not None
        pool.take(length)


def test_insert_writes_every_field_and_update_one() -> None:
    gen = RunGenerator(workload("workloada"), np.random.default_rng(4))
    pairs = gen.field_values()
    assert [name for name, _ in pairs] == [f"field{i}".encode() for i in range(10)]
    assert {len(v) for _, v in pairs} == {100}
    assert [name for name, _ in gen.field_values(7)] == [b"field7"]


# -- operation mix ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "mix"),
    [
        ("workloada", {READ: 0.5, UPDATE: 0.5}),
        ("workloadb", {READ: 0.95, UPDATE: 0.05}),
        ("workloadc", {READ: 1.0}),
        ("workloadd", {READ: 0.95, INSERT: 0.05}),
        ("workloade", {SCAN: 0.95, INSERT: 0.05}),
        ("workloadf", {READ: 0.5, READ_MODIFY_WRITE: 0.5}),
    ],
)
def test_operation_mix_matches_the_workload_proportions(name: str, mix: dict[int, float]) -> None:
    ops = np.array(RunGenerator(workload(name), np.random.default_rng(5)).next_batch(100_000).ops)
    counts = np.bincount(ops, minlength=6)
    assert set(np.flatnonzero(counts).tolist()) == set(mix)
    kinds = sorted(mix)
    if len(kinds) > 1:
        expected = np.array([mix[k] for k in kinds]) * len(ops)
        assert stats.chisquare(counts[kinds], expected).pvalue > P_MIN


def test_operation_mix_normalises_weights_that_do_not_sum_to_one() -> None:
    w = workload("workloada", "readproportion=3", "updateproportion=1")
    ops = np.array(RunGenerator(w, np.random.default_rng(6)).next_batch(100_000).ops)
    assert (ops == READ).mean() == pytest.approx(0.75, abs=0.006)


def test_readallfields_false_reads_one_uniform_field_and_writeallfields_writes_all() -> None:
    w = workload("workloada", "readallfields=false", "writeallfields=true")
    b = RunGenerator(w, np.random.default_rng(7)).next_batch(50_000)
    reads = np.array(b.read_field)
    assert reads.min() == 0 and reads.max() == 9
    assert stats.chisquare(np.bincount(reads)).pvalue > P_MIN
    assert set(b.write_field) == {ALL_FIELDS}
    default = RunGenerator(workload("workloada"), np.random.default_rng(7)).next_batch(1000)
    assert set(default.read_field) == {ALL_FIELDS}
    assert set(default.write_field) == set(range(10))


def test_batch_keys_are_the_names_of_the_key_numbers() -> None:
    b = RunGenerator(workload("workloadb"), np.random.default_rng(8)).next_batch(500)
    assert b.keys == [build_key_name(n).encode() for n in b.keynums]
    ordered = RunGenerator(workload("workloadb", "insertorder=ordered", "zeropadding=6"),
                           np.random.default_rng(8)).next_batch(50)
    assert ordered.keys == [f"user{n:06d}".encode() for n in ordered.keynums]


# -- run-phase inserts ------------------------------------------------------------------------


def _take_and_acknowledge(state, start: int, n: int, out) -> None:
    seq = InsertSequence(start, state)
    mine = [seq.next() for _ in range(n)]
    for k in mine:
        seq.acknowledge(k)
    out.put(mine)


def test_worker_processes_share_one_insert_counter_and_one_limit() -> None:
    ctx = multiprocessing.get_context("spawn")
    state, out = shared_insert_state(ctx), ctx.Queue()
    procs = [ctx.Process(target=_take_and_acknowledge, args=(state, 1000, 400, out)) for _ in range(2)]
    for pr in procs:
        pr.start()
    drawn = out.get(timeout=60) + out.get(timeout=60)
    for pr in procs:
        pr.join(timeout=60)
    assert sorted(drawn) == list(range(1000, 1800))  # one counter: no collision, no gap
    seq = InsertSequence(1000, state)
    seq.acknowledge(seq.next())  # a late fold picks up any mark a busy lock left behind
    assert seq.limit() == 1800


def test_limit_is_the_highest_key_with_every_key_up_to_it_acknowledged() -> None:
    seq = InsertSequence(1000)
    assert seq.limit() == 999  # recordcount − 1 before any insert
    k = [seq.next() for _ in range(4)]
    assert k == [1000, 1001, 1002, 1003]
    seq.acknowledge(1001)
    assert seq.limit() == 999  # 1000 still in flight
    seq.acknowledge(1000)
    assert seq.limit() == 1001
    seq.acknowledge(1003)
    assert seq.limit() == 1001
    seq.acknowledge(1002)
    assert seq.limit() == 1003


@pytest.mark.parametrize("dist", ["zipfian", "uniform", "hotspot", "latest", "exponential", "sequential"])
def test_reads_never_go_beyond_the_acknowledged_limit(dist: str) -> None:
    w = workload("workloada", "recordcount=100", "operationcount=100000", "readproportion=0.5",
                 "updateproportion=0", "insertproportion=0.5", f"requestdistribution={dist}")
    gen = RunGenerator(w, np.random.default_rng(9))
    highest_read, late = 0, []
    for _ in range(10):
        b = gen.next_batch(2000)
        for i, op in enumerate(b.ops):
            limit = gen.inserts.limit()
            k = b.keynums[i]  # chosen now, at "issue"
            if op == INSERT:
                assert k >= 100
                if i % 10 == 0:
                    late.append(k)  # acknowledged later: holds the limit back meanwhile
                else:
                    gen.inserts.acknowledge(k)
            else:
                assert 0 <= k <= limit
                highest_read = max(highest_read, k)
            if len(late) > 5:
                gen.inserts.acknowledge(late.pop(0))
    if dist in ("zipfian", "latest", "exponential"):
        assert highest_read > 5000  # reads followed the inserts
    else:
        assert highest_read == 99  # YCSB draws these over insertstart..insertcount−1 only


# -- opcount split and load blocks ------------------------------------------------------------


def test_split_count_gives_the_remainder_to_the_first_threads() -> None:
    assert split_count(10, 3) == [4, 3, 3]
    assert split_count(2, 4) == [1, 1, 0, 0]
    assert split_count(0, 2) == [0, 0]
    for total in (0, 1, 7, 100, 1001):
        for parts in (1, 2, 3, 8, 13):
            split = split_count(total, parts)
            assert sum(split) == total and len(split) == parts
            assert split == sorted(split, reverse=True) and max(split) - min(split) <= 1


@pytest.mark.parametrize("threads_per_process", [[1], [4], [3, 2], [1, 1, 1], [8, 8], [5, 0, 2]])
@pytest.mark.parametrize("extra", [(), ("insertstart=250",), ("insertstart=100", "insertcount=333")])
def test_load_blocks_cover_insertstart_onwards_exactly_once(threads_per_process: list[int], extra: tuple) -> None:
    w = workload("workloada", *extra)
    blocks = load_blocks(w, threads_per_process)
    assert len(blocks) == len(threads_per_process)
    keys = [k for first, count in blocks for k in range(first, first + count)]
    assert keys == list(range(w.insertstart, w.insertstart + w.load_operations))
    per_thread = split_count(w.load_operations, sum(threads_per_process))
    t = 0
    for (_, count), n in zip(blocks, threads_per_process):
        assert count == sum(per_thread[t : t + n])
        t += n


def test_load_generator_hands_out_its_block_in_order() -> None:
    w = workload("workloada")
    gen = LoadGenerator(w, np.random.default_rng(12), 300, 250)
    batches = [gen.next_batch(100) for _ in range(4)]
    assert [len(b) for b in batches] == [100, 100, 50, 0]
    nums = [k for b in batches for k in b.keynums]
    assert nums == list(range(300, 550))
    assert batches[0].keys[0] == build_key_name(300).encode()
    assert set(batches[0].ops) == {INSERT}
    assert len(gen.field_values()) == 10
