"""Keys of a run that inserts are chosen when the operation is issued, against the acknowledged-insert
limit ``L`` of that moment (YCSB's ``nextKeynum``), not when its batch was drawn — and once chosen they
stay. Truths: ``L − offset`` by hand for exponential, the vectorised ``SkewedLatest`` generator fed the
same uniforms for latest, YCSB's ``buildKeyName`` (pure Python) for the names."""

from __future__ import annotations

import numpy as np
import pytest

from ycsbctl.workload import distributions as d
from ycsbctl.workload.inserts import InsertSequence
from ycsbctl.workload.keys import build_key_name
from ycsbctl.workload.live import INSERT, IssueTimeKeys, LiveColumn, PendingKeys

READ = 0
RECORDS = 100  # the load's records: L = 99 before any run-phase insert


def _batch(chooser: object, ops: list[int], draws: list, inserts: InsertSequence,
           ) -> tuple[LiveColumn, LiveColumn, IssueTimeKeys]:
    """One batch of ``ops`` with what it drew for them: (its key numbers, its key names, the resolver)."""
    live = IssueTimeKeys(chooser, inserts, np.random.default_rng(1), ordered=False, zeropadding=1)
    p = PendingKeys(ops, draws, [None] * len(ops), [None] * len(ops), live)
    return LiveColumn(p, 0, len(ops), names=False), LiveColumn(p, 0, len(ops), names=True), live


def _name(keynum: int) -> bytes:
    return build_key_name(keynum).encode()


def test_an_exponential_key_is_taken_back_from_the_limit_of_the_moment_it_is_issued() -> None:
    inserts = InsertSequence(RECORDS)
    keynums, keys, live = _batch(d.Exponential(95, 10), [READ, INSERT, READ, READ], [3, 0, 3, 7], inserts)
    assert live.mode == "exponential"
    assert keynums[0] == RECORDS - 1 - 3  # issued before any insert: L = 99
    assert keynums[1] == RECORDS  # the insert takes the counter's next number when issued
    inserts.acknowledge(RECORDS)  # the insert returned: L = 100
    assert keynums[2] == RECORDS - 3  # drawn in the same batch as operation 0, issued after L moved
    assert keys[3] == _name(RECORDS - 7) and keynums[3] == RECORDS - 7  # the name is of the same number
    inserts.acknowledge(inserts.next())  # L = 101: what was issued stays what it was
    assert [keynums[i] for i in range(4)] == [96, 100, 97, 93]
    assert list(keys) == [_name(k) for k in (96, 100, 97, 93)]


def test_inserts_are_numbered_in_the_order_they_are_issued_not_the_order_of_the_batch() -> None:
    inserts = InsertSequence(RECORDS)
    keynums, keys, _ = _batch(d.Exponential(95, 10), [INSERT, INSERT, INSERT], [0, 0, 0], inserts)
    assert keys[2] == _name(RECORDS)  # the last of the batch, issued first
    assert keynums[0] == RECORDS + 1 and keynums[1] == RECORDS + 2
    assert keynums[-1] == RECORDS and keys[-3] == _name(RECORDS + 1)


def test_a_zipfian_key_is_never_above_the_limit_and_a_candidate_under_it_is_kept() -> None:
    limit = 9  # ten records loaded; the chooser's range (insert-ahead) is far wider
    chooser = d.ScrambledZipfian(0, 999)
    draws = chooser.draw(2000, np.random.default_rng(7)).tolist()
    keynums, keys, live = _batch(chooser, [READ] * len(draws), draws, InsertSequence(limit + 1))
    assert live.mode == "zipfian"
    got = list(keynums)
    assert all(0 <= k <= limit for k in got)
    kept = [(k, draw) for k, draw in zip(got, draws) if draw <= limit]
    assert kept and all(k == draw for k, draw in kept)  # YCSB: do { next } while (keynum > L)
    assert sum(draw > limit for draw in draws) > 1000  # most candidates were redrawn: the search was used
    assert list(keys) == [_name(k) for k in got]


def test_a_latest_key_is_the_skewed_latest_generators_at_the_limit_of_the_moment() -> None:
    """The same uniforms through the vectorised generator at the same ``L`` give the same keys, as ``L``
    grows between the operations of one batch."""
    inserts = InsertSequence(RECORDS)
    chooser, truth = d.SkewedLatest(RECORDS - 1), d.SkewedLatest(RECORDS - 1)
    live = IssueTimeKeys(chooser, inserts, np.random.default_rng(3), ordered=True, zeropadding=1)
    assert live.mode == "latest"
    for seed in range(5):
        uniforms = np.random.default_rng(seed).random(200)  # what a batch kept for 200 operations
        want = truth.draw(200, np.random.default_rng(seed), latest=inserts.limit())  # draws the same uniforms
        assert [live.pick(u) for u in uniforms] == want.tolist()
        assert want.min() >= 0 and want.max() <= inserts.limit()
        for _ in range(37):  # 37 inserts acknowledged before the next operations are issued
            inserts.acknowledge(inserts.next())


def test_a_column_slices_as_a_view_and_refuses_an_index_past_its_end() -> None:
    keynums, keys, _ = _batch(d.Exponential(95, 10), [READ] * 6, [0, 1, 2, 3, 4, 5], InsertSequence(RECORDS))
    tail = keynums[2:5]
    assert len(tail) == 3 and list(tail) == [97, 96, 95] and tail == [97, 96, 95]
    assert keynums[::2] == [99, 97, 95] and keys[-1] == _name(94)
    with pytest.raises(IndexError):
        keynums[6]
    with pytest.raises(IndexError):
        tail[3]
