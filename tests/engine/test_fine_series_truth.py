"""The 100 ms series of a disturbed point (PhaseSpec.series_interval_ms = 100), against the server's
own command counters, the per-second series and the totals' histograms of the same run, and the
controller's merging of several workers' 100 ms reports against a reference histogram."""

from __future__ import annotations

import math

import numpy as np
import pytest
import redis
from hdrh.histogram import HdrHistogram

from tests.fixtures.pacing import runtime_bounds_ms
from ycsbctl.engine.measurements import Recorder
from ycsbctl.engine.messages import SecondReport, dispatch
from ycsbctl.engine.runner import Collector, run_phase
from ycsbctl.engine.spec import PhaseSpec, Tick
from ycsbctl.results import histogram as hdr
from ycsbctl.results.fine import histogram_of
from ycsbctl.stores.binding import Status
from ycsbctl.workload.core import READ, UPDATE
from ycsbctl.workload.properties import load_properties

pytestmark = pytest.mark.truth


def _props(**overrides: object) -> dict[str, str]:
    props = dict(load_properties("workload-b"))
    props.update({"recordcount": 300, "operationcount": 0, **overrides})
    return {k: str(v) for k, v in props.items()}


def test_the_100_ms_series_adds_up_to_the_seconds_the_totals_and_the_servers_counters(redis_server):
    rds = redis.Redis.from_url(redis_server.url)
    rds.flushall()
    assert run_phase(PhaseSpec("load", redis_server.url, _props(), threads=4, processes=2)).status == "ok"
    rds.config_resetstat()
    spec = PhaseSpec("run", redis_server.url, _props(), threads=4, processes=2, duration_s=2.0, warmup_s=1.0,
                     series_interval_ms=100)
    r = run_phase(spec)
    calls = {k.removeprefix("cmdstat_"): int(v["calls"]) for k, v in rds.info("commandstats").items()}
    rds.flushall()
    assert r.status == "ok", r.errors
    fine = r.fine
    assert fine is not None and fine.interval_s == 0.1
    # every operation sent is in exactly one 100 ms interval (warm-up included): the server counted them
    assert sum(fine.operations.values()) == calls.get("hgetall", 0) + calls.get("hmset", 0)
    # warm-up and duration of operations; the run ends with the first operation that ends after them (overshoot_ms)
    lo_ms, hi_ms = runtime_bounds_ms(r, spec.warmup_s + spec.duration_s)
    assert lo_ms / 100 <= len(fine.intervals()) <= math.ceil(hi_ms / 100)
    # each second of the per-second series is the sum of its ten intervals
    overall = r.series[r.series["op"] == "OVERALL"].set_index("second")["operations"]
    for second, n in overall.items():
        assert sum(fine.operations.get(second * 10 + t, 0) for t in range(10)) == n, second
    # the measured intervals' latencies are exactly the totals' histograms (READ + UPDATE)
    measured = [k for k in fine.latency if k >= 10]
    total = hdr.merge([r.ops["READ"].histogram, r.ops["UPDATE"].histogram])
    assert np.array_equal(hdr.counts_of(fine.latency_of(measured)), hdr.counts_of(total))
    assert sum(fine.operations[k] for k in measured) == r.operations
    frame = fine.frame()
    assert set(frame["op"]) == {"OVERALL", "CLIENT-LAG"}
    assert frame[frame["op"] == "OVERALL"]["warmup"].sum() == 10


def test_the_controller_merges_the_workers_tenths_exactly_and_ticks_once_per_whole_second():
    """Two workers × 2 seconds × 10 tenths, each with its own latencies: every interval's merged
    counts equal a reference HdrHistogram of the same values; progress ticks come per second, once
    both workers sent its last tenth."""
    rng = np.random.default_rng(34)
    ticks: list[Tick] = []
    c = Collector(2, "op", 0, ticks.append)
    raw: dict[int, list[int]] = {}
    for second in range(2):
        for tenth in range(10):
            for w in range(2):
                rec = Recorder("op", [READ, UPDATE])
                values = rng.lognormal(6, 2, 40 + 7 * w + tenth).astype(np.int64)
                for i, v in enumerate(values):
                    rec.record(READ if i % 4 else UPDATE, Status.OK, 0, int(v) * 1000, 0)
                raw.setdefault(second * 10 + tenth, []).extend(int(v) for v in values)
                dispatch(SecondReport(w, second, rec.roll().compact(), tenth=tenth), c)
            assert [t.second for t in ticks] == list(range(second + (tenth == 9)))
    for k, values in raw.items():
        ref = HdrHistogram(1, 3_600_000_000, 3)
        for v in values:
            ref.record_value(max(v, 0))
        agg = c.fine[k]
        assert agg.operations == len(values)
        got = histogram_of((p.index, p.count) for p in agg.latency)
        assert np.array_equal(hdr.counts_of(got), np.ctypeslib.as_array(ref.counts)), k
    assert [t.ops_per_s for t in ticks] == [sum(len(raw[s * 10 + t]) for t in range(10)) for s in range(2)]
