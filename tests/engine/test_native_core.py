"""The compiled core's reply and counting parts against their pure-Python twins: ``Record`` counts
what :meth:`Recorder.pure_record` counts (every measurement mode, small, large and clipped
latencies), and ``Skimmer`` tells RESP replies apart as hiredis parses them, however the bytes are cut."""

from __future__ import annotations

import hiredis
import numpy as np
import pytest

from ycsbctl.engine.measurements import Recorder
from ycsbctl.native import core
from ycsbctl.workload.core import READ, READ_MODIFY_WRITE, UPDATE

pytestmark = pytest.mark.skipif(core is None,
                                reason="the compiled core (ycsbctl._native) is not built: run scripts/setup.sh")


@pytest.mark.parametrize("measurement", ["op", "intended", "both"])
def test_the_compiled_record_counts_what_the_pure_one_counts(measurement):
    compiled, pure = Recorder(measurement, [READ, UPDATE, READ_MODIFY_WRITE]), Recorder(measurement, [READ, UPDATE,
                                                                                                      READ_MODIFY_WRITE])
    assert type(compiled.record).__name__ == "Record"
    record_pure = pure.pure_record()
    rng = np.random.default_rng(2)
    # latencies from 0 to past HdrHistogram's one-hour ceiling (clipped), due times 0 or earlier than t0
    lat = np.concatenate([rng.integers(0, 3000, 3000) * 1000, rng.integers(0, 5_000_000_000_000, 2000)]).tolist()
    slots = [READ * 5, READ * 5 + 1, UPDATE * 5 + 2, READ_MODIFY_WRITE * 5, (8 + READ) * 5 + 3]
    for k, v in enumerate(lat):
        slot = slots[k % len(slots)]
        t0 = 10**12 + k
        due = 0 if k % 3 else t0 - int(rng.integers(0, 10**9))
        compiled.record(slot // 5, slot % 5, t0, t0 + v, due)
        record_pure(slot // 5, slot % 5, t0, t0 + v, due)
    for s in compiled.slot_ids:
        assert bytes(compiled.slots[s]) == bytes(pure.slots[s]), s
        if measurement == "both":
            assert bytes(compiled.islots[s]) == bytes(pure.islots[s]), s
    assert sum(sum(compiled.slots[s]) for s in compiled.slot_ids) == len(lat)


REPLIES = [
    b"+OK\r\n", b":1\r\n", b":0\r\n", b"$-1\r\n", b"*0\r\n", b"*-1\r\n", b"$0\r\n\r\n",
    b"-ERR unknown command 'FOO'\r\n", b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n",
    b"*1\r\n$-1\r\n", b"*2\r\n$-1\r\n$3\r\nabc\r\n", b"*2\r\n$3\r\nabc\r\n$-1\r\n",
    b"*20\r\n" + b"".join(b"$6\r\nfield%d\r\n$100\r\n%b\r\n" % (i, bytes([65 + i]) * 100) for i in range(10)),
    b"*2\r\n*1\r\n:5\r\n$2\r\n\r\n\r\n",  # nested, and a bulk string holding CRLF
]


def _kind(reply) -> int:
    """The kind a chain reads from a parsed reply: 2 error, 1 empty (nil, [] or [nil, …]), else 0."""
    if isinstance(reply, hiredis.ReplyError):
        return 2
    if reply is None or (isinstance(reply, list) and (not reply or reply[0] is None)):
        return 1
    return 0


def test_the_skimmer_tells_replies_apart_as_hiredis_parses_them_however_the_bytes_are_cut():
    stream = b"".join(REPLIES)
    want = []
    reader = hiredis.Reader()
    reader.feed(stream)
    while (r := reader.gets()) is not False:
        want.append(r)
    assert len(want) == len(REPLIES)
    for cut in (1, 2, 3, 7, 64, len(stream)):
        skim = core.Skimmer()
        kinds, raws = [], []
        for i in range(0, len(stream), cut):
            skim.feed(stream[i : i + cut])
            while (k := skim.next()) is not None:
                kinds.append(k)
                raws.append(skim.raw())
        assert kinds == [_kind(r) for r in want], cut
        assert raws == REPLIES, cut  # each reply's own bytes, for what needs it built


def test_a_malformed_reply_is_a_protocol_error():
    skim = core.Skimmer()
    skim.feed(b"?what\r\n")
    with pytest.raises(core.ProtocolError):
        skim.next()


def test_a_reply_larger_than_the_buffer_is_read_whole():
    big = b"*1000\r\n" + b"$1000\r\n" + b"x" * 1000 + b"\r\n" + b"".join(b"$1\r\ny\r\n" for _ in range(999))
    skim = core.Skimmer()
    for i in range(0, len(big), 4096):
        skim.feed(big[i : i + 4096])
        if i + 4096 < len(big):
            assert skim.next() is None
    assert skim.next() == 0 and skim.raw() == big and skim.next() is None


@pytest.mark.parametrize("measurement", ["op", "intended", "both"])
def test_each_rolled_slots_span_is_exactly_where_its_counts_lie_and_the_compaction_keeps_them_all(measurement):
    """The compiled recorder's bounds: each slot's span (Recorder.roll) runs from its lowest to its highest index
    counted (none: lowest > highest), and compacting by the spans keeps what compacting every slot whole keeps."""
    rec = Recorder(measurement, [READ, UPDATE, READ_MODIFY_WRITE])
    rng = np.random.default_rng(4)
    for second in range(3):  # the spans start again after each roll
        for k, v in enumerate(rng.lognormal(np.log(200 * (second + 1)), 1.0, 400).astype(np.int64).tolist()):
            t0 = 10**12 + k
            rec.record([READ, UPDATE][k % 2], k % 3 == 0, t0, t0 + v * 1000, t0 - 5000 * (k % 4))
            if k % 50 == 0:
                rec.record_schedule_lag(v * 1000)
        counts = rec.roll()
        assert ("latency", (READ, 0)) in counts.spans, "the compiled core keeps no spans: rebuild it (scripts/setup.sh)"
        for (part, key), (lo, hi) in counts.spans.items():
            dense = np.frombuffer(getattr(counts, part)[key], dtype=np.int64)
            nz = np.flatnonzero(dense)
            assert (lo, hi) == ((int(nz[0]), int(nz[-1])) if nz.size else (len(dense), -1)), (part, key)
        whole = type(counts)(counts.latency, counts.intended, counts.own, counts.cpu_s).compact()  # no spans
        by_span = counts.compact()
        for part in ("latency", "intended", "own"):
            a, b = getattr(whole, part), getattr(by_span, part)
            assert sorted(a) == sorted(b) and all(a[k].index.tolist() == b[k].index.tolist() and
                                                  a[k].count.tolist() == b[k].count.tolist() for k in a), part
        assert sum(c.total() for c in by_span.latency.values()) == 400
        assert sum(c.total() for c in by_span.intended.values()) == (400 if measurement == "both" else 0)
        assert by_span.own["SCHEDULE-LAG"].total() == 8
