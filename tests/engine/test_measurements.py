"""The engine's recording path: dense HDR counts against HdrHistogram itself, typed messages, and
the client-lag probe — an injected pause of a worker's loop is reported as client lag."""

from __future__ import annotations

import asyncio
import os
import pickle
import queue
import threading
import time
from types import SimpleNamespace

import numpy as np
import pytest

from tests.fixtures.pacing import holdable_rate, unpaced_ops
from ycsbctl.engine.aggregate import SecondAggregate, summaries
from ycsbctl.engine.measurements import COMPONENT, LAG_PROBE_INTERVAL_S, LagProbe, Recorder
from ycsbctl.engine.messages import MESSAGE_VERSION, Done, Failed, Ready, SecondReport, dispatch
from ycsbctl.engine.runner import Collector, PhaseRunner, run_phase
from ycsbctl.engine.spec import PhaseSpec
from ycsbctl.engine.worker import Worker, WorkerPlan
from ycsbctl.results import histogram as hdr
from ycsbctl.results.client_lag import PACING_LABEL, client_lag_warning, schedule_lag_warning
from ycsbctl.results.model import OpSummary, PhaseResult
from ycsbctl.results.names import CLIENT_LAG, VERIFY_NAME
from ycsbctl.results.ycsb_format import format_phase
from ycsbctl.results.ycsb_text import parse_output
from ycsbctl.stores.binding import Status
from ycsbctl.workload.core import READ, READ_MODIFY_WRITE, UPDATE
from ycsbctl.workload.inserts import local_insert_state
from ycsbctl.workload.properties import load_properties


def _values(n: int = 20_000, seed: int = 3) -> list[int]:
    """Latencies (µs) over every HDR bucket size: 0 µs to past one hour."""
    rng = np.random.default_rng(seed)
    v = np.concatenate([rng.integers(0, 2048, n // 4), rng.lognormal(7, 2.5, n // 2).astype(np.int64),
                        [0, 1, 2047, 2048, 2049, 4095, 4096, 10**6, hdr.HIGHEST_US, hdr.HIGHEST_US + 5, 2**33]])
    return [int(x) for x in v]


def test_counts_index_is_hdrhistograms_own_index_for_every_value():
    h = hdr.new_histogram()
    for v in _values():
        clipped = min(v, hdr.HIGHEST_US)
        assert hdr.counts_index(v) == h._counts_index_for(clipped), v


def test_recorded_counts_give_the_histogram_hdrhistogram_records_value_by_value():
    values = _values()
    rec = Recorder("op", [READ])
    t0 = 1_000_000_000
    for v in values:  # t1 − t0 in ns with a sub-µs remainder: YCSB keeps whole µs
        rec.record(READ, Status.OK, t0, t0 + v * 1000 + 999, 0)
    counts = rec.roll().latency[(READ, Status.OK)]
    ours = hdr.from_counts(np.frombuffer(counts, dtype=np.int64))
    ref = hdr.new_histogram()
    for v in values:
        ref.record_value(min(v, hdr.HIGHEST_US))
    assert ours.get_total_count() == ref.get_total_count() == len(values)
    for p in (0.0, 1.0, 50.0, 90.0, 99.0, 99.9, 99.99, 100.0):
        assert ours.get_value_at_percentile(p) == ref.get_value_at_percentile(p), p
    assert ours.get_min_value() == ref.get_min_value() and ours.get_max_value() == ref.get_max_value()
    assert hdr.decode(hdr.encode(ours)).get_value_at_percentile(99.9) == ref.get_value_at_percentile(99.9)


def test_roll_hands_over_the_second_and_starts_from_zero():
    rec = Recorder("both", [READ, UPDATE])
    rec.record(READ, Status.OK, 0, 50_000, 0)  # 50 µs, unpaced: intended = actual
    rec.record(UPDATE, Status.ERROR, 10_000, 20_000, 4_000)  # 10 µs actual, 16 µs intended
    first = rec.roll()
    second = rec.roll()
    one = {k: int(np.frombuffer(a, dtype=np.int64).sum()) for k, a in first.latency.items()}
    assert one[(READ, Status.OK)] == 1 and one[(UPDATE, Status.ERROR)] == 1 and sum(one.values()) == 2
    assert np.frombuffer(first.intended[(UPDATE, Status.ERROR)], dtype=np.int64)[16] == 1
    assert all(not np.frombuffer(a, dtype=np.int64).any() for a in second.latency.values())
    assert first.cpu_s >= 0 and pickle.loads(pickle.dumps(first)).latency.keys() == first.latency.keys()


@pytest.mark.parametrize("stop_after", [None, 1])
def test_a_shipped_second_arrives_whole_even_if_its_slices_stop_half_way(stop_after):
    """The ticker ships a second a slot per turn of the loop; stopping part-way (the phase ended)
    still sends it whole, and a whole shipment leaves its dense counts zeroed for the next roll."""
    rec = Recorder("both", [READ, UPDATE])
    for v in range(1, 3001):
        rec.record(READ if v % 3 else UPDATE, Status.OK, 0, v * 1000, 0)
    rec.count_lag(7, 2)
    out: queue.Queue = queue.Queue()
    loop = asyncio.new_event_loop()
    try:
        probe = LagProbe(loop, rec, out)
        steps = probe.ship_steps(SecondReport(0, 0, rec.roll()))
        for n, _ in enumerate(steps, 1):
            if n == stop_after:
                assert out.empty(), "sent before its slots were compacted"
                break
        probe.stop()
    finally:
        loop.close()
    sent = out.get_nowait().counts
    assert out.empty()
    dense = np.zeros(hdr.COUNTS_LEN, dtype=np.int64)
    for c in sent.latency.values():
        c.add_to(dense)
    merged = hdr.from_counts(dense)
    reference = hdr.new_histogram()
    for v in range(1, 3001):
        reference.record_value(v)
    assert merged.get_total_count() == 3000 and merged.get_value_at_percentile(99) == reference.get_value_at_percentile(
        99
    )
    assert sent.own[CLIENT_LAG].total() == 2 and set(sent.latency) == {(READ, Status.OK), (UPDATE, Status.OK)}
    spare = rec.spares.get_nowait()  # the roll's own spare, or the shipped counts zeroed
    assert all(not np.frombuffer(a, dtype=np.int64).any() for a in [*spare[0], *spare[1], spare[2], spare[3]])


@pytest.mark.parametrize("measurement", ["op", "intended", "both"])
def test_each_measurement_interval_counts_the_latency_it_names_in_the_slot_of_its_op_and_status(measurement):
    rec = Recorder(measurement, [READ, UPDATE])
    rec.record(UPDATE, Status.NOT_FOUND, 20_000, 70_000, 5_000)  # 50 µs actual, 65 µs from the intended start
    out = rec.roll()

    def nonzero(slots):
        return {k: np.flatnonzero(np.frombuffer(a, dtype=np.int64)).tolist() for k, a in slots.items()
                if np.frombuffer(a, dtype=np.int64).any()}

    main = {"op": 50, "intended": 65, "both": 50}[measurement]
    assert nonzero(out.latency) == {(UPDATE, Status.NOT_FOUND): [main]}
    assert nonzero(out.intended) == ({(UPDATE, Status.NOT_FOUND): [65]} if measurement == "both" else {})


def test_the_controller_names_measurements_as_ycsbs_dbwrapper_does():
    rec = Recorder("op", [READ_MODIFY_WRITE, READ])
    rec.record(READ, Status.NOT_FOUND, 0, 30_000, 0)
    rec.record(COMPONENT + READ, Status.OK, 0, 40_000, 0)
    rec.record(COMPONENT + UPDATE, Status.ERROR, 40_000, 90_000, 0)
    rec.record(READ_MODIFY_WRITE, Status.ERROR, 0, 90_000, 0)
    agg = SecondAggregate()
    agg.add(rec.roll())
    totals = summaries({0: agg}, 0)
    assert totals.operations == 2  # the halves of a read-modify-write are no operations of their own
    assert totals.ops["READ"].operations == 1 and totals.ops["READ-FAILED"].operations == 1
    assert totals.ops["UPDATE-FAILED"].operations == 1 and totals.ops["READ-MODIFY-WRITE"].operations == 1
    assert totals.ops["READ"].returns == {"NOT_FOUND": 1, "OK": 1} and totals.ops["UPDATE"].returns == {"ERROR": 1}
    assert totals.ops["READ-MODIFY-WRITE"].returns == {}  # YCSB counts its statuses under READ and UPDATE


def test_messages_are_versioned_and_one_dispatcher_reads_them():
    seen = []

    class H:
        def on_ready(self, m): seen.append(("ready", m.pid))
        def on_second(self, m): seen.append(("second", m.second))
        def on_done(self, m): seen.append(("done", m.end_ns))
        def on_failed(self, m): seen.append(("failed", m.message))

    rec = Recorder("op", [READ])
    for m in (Ready(0, 42), SecondReport(0, 3, rec.roll()), Done(0, 7), Failed(1, "boom")):
        dispatch(pickle.loads(pickle.dumps(m)), H())
    assert seen == [("ready", 42), ("second", 3), ("done", 7), ("failed", "boom")]
    with pytest.raises(ValueError, match="same ycsbctl everywhere"):
        dispatch(Ready(0, 1, version=MESSAGE_VERSION + 1), H())


def _run_worker_in_process(url: str, threads: int, duration_s: float, pause_at_s: float, pause_s: float,
                           target_rate: float | None = None, measurement: str = "op", workload: str = "workload-c",
                           quotas: list[int] | None = None, stop_at_s: float | None = None, **props_given: str):
    """One engine worker on this thread's own loop (the code a spawned worker runs), with the loop
    blocked for ``pause_s`` at ``pause_at_s``, its clients' ``quotas`` (operations; none: until the
    duration), a stop asked at ``stop_at_s`` (as Ctrl-C's stop flag); returns the PhaseResult the controller builds."""
    props = dict(load_properties(workload))
    props.update(recordcount="200", operationcount="0", **props_given)
    spec = PhaseSpec("run", url, props, threads=threads, duration_s=duration_s, target_rate=target_rate,
                     measurement=measurement)
    plan = WorkerPlan(spec, 0, 1, quotas or [0] * threads, None, 0)
    out: queue.Queue = queue.Queue()
    start = threading.Event()
    t_start = SimpleNamespace(value=0.0)
    worker = Worker(plan, local_insert_state(), SimpleNamespace(value=0), out)

    async def main():
        loop = asyncio.get_running_loop()
        task = loop.create_task(worker.run(start, t_start))
        msg = await loop.run_in_executor(None, out.get, True, 30)
        assert isinstance(msg, Ready), msg
        t_start.value = time.perf_counter() + 0.05
        start.set()
        loop.call_later(0.05 + pause_at_s, time.sleep, pause_s)  # the injected pause: blocks the loop
        if stop_at_s is not None:
            loop.call_later(0.05 + stop_at_s, setattr, worker.stop_flag, "value", 1)
        return await task

    last = asyncio.run(main())
    collector = Collector(1, measurement, 0, None)
    collector.started = True
    while not out.empty():
        dispatch(out.get(), collector)
    dispatch(last, collector)
    return PhaseRunner(spec).result(collector, t_start.value)


@pytest.mark.parametrize("phase", ["run", "load"])
def test_the_next_batch_is_drawn_a_slice_or_two_per_take_and_ready_before_this_one_runs_out(phase):
    """The worker spreads the next batch's slices over this one (so no take pays for a batch, ~300 µs):
    at most a few slices per take, in most takes, and the batch is ready when the current one ends."""
    props = dict(load_properties("workload-b"))
    props.update(recordcount="100000", operationcount="0")
    spec = PhaseSpec(phase, "redis://127.0.0.1:1", props, threads=8)
    block = (0, 100_000) if phase == "load" else None
    worker = Worker(WorkerPlan(spec, 0, 1, [0] * 8, block, 0), local_insert_state(), SimpleNamespace(value=0), None)
    draw = worker.gen.batch_steps
    ran: list[int] = []  # one entry per slice: the take it ran in
    now = [0]  # the take under way (0: the first batch, drawn at once)

    def counted(n):
        steps = draw(n)
        while True:
            try:
                next(steps)
            except StopIteration as made:
                return made.value
            ran.append(now[0])
            yield

    switches = 0
    worker.gen.batch_steps = counted  # type: ignore[method-assign]
    worker.refill()
    for now[0] in range(1, 32 * 6):  # six batches of 1,024 at 32 operations per take
        if worker.cursor >= len(worker.ops):
            assert worker.prepared is not None, f"batch {switches} was not ready when the last one ran out"
            switches += 1
        assert len(worker.take(32)[0]) == 32
    per_take = np.bincount(ran)[1:]
    assert switches == 5 and per_take.max() <= 3
    # each batch's preparation starts in the first take of the one before it (take 1 + 32 b), not a take later
    assert all(per_take[32 * b] > 0 for b in range(6)), per_take
    # Most takes run a slice; the compiled core makes a batch in fewer slices than there are takes,
    # and then most slices run in a take of their own.
    spread = (per_take > 0).sum()
    assert spread > 0.75 * min(len(per_take), len(ran)), "the slices bunch up instead of spreading over the batch"

    # The schedule itself: a batch's preparation, made of Y slices (one call more: the one that ends it), runs
    # evenly over the first 7/8 of the batch before it (28 of its 32 takes), one slice ahead: after that batch's
    # k-th take, ⌊calls · k / 28⌋ + 1 slices have run (Y at most), calls those the previous preparation took
    # (64 assumed for the first)
    made = np.bincount(ran, minlength=32 * 6 + 1)[1:]
    for b in range(6):
        done = np.cumsum(made[32 * b:32 * b + 32])
        slices = int(done[-1])
        calls = 64 if b == 0 else int(made[32 * (b - 1):32 * b].sum()) + 1
        assert done.tolist() == [min(slices, calls * k // 28 + 1) for k in range(1, 33)], (b, done.tolist())


def test_paced_threads_start_at_their_own_point_of_the_first_tick_numbered_across_the_phases_workers():
    """A paced phase of 6 threads over 2 workers of 3 (basic://, 60 ops/s: a 100 ms tick per thread): each
    thread starts at the offset YCSB's rule gives its index in the whole phase (random.Random(index) in its
    first tick), worker 1's threads being 3, 4 and 5, not its own 0, 1, 2 again: six distinct starts."""
    import random

    props = dict(load_properties("workload-c"), recordcount="100", operationcount="0")
    spec = PhaseSpec("run", "basic://", props, threads=6, duration_s=1.0, target_rate=60.0)
    tick = int(6 / 60.0 * 1e9)
    offsets: dict[int, list[int]] = {}

    class Seen(Worker):
        async def client(self, b, quota, pacer, deadline_ns):  # the pacer each client got, and no operation
            offsets.setdefault(self.plan.index, []).append(pacer.start_ns - t0[0])

    t0 = [0]
    for index in (0, 1):
        out: queue.Queue = queue.Queue()
        start, t_start = threading.Event(), SimpleNamespace(value=time.perf_counter() + 0.02)
        t0[0] = int(t_start.value * 1e9)
        start.set()
        worker = Seen(WorkerPlan(spec, index, 2, [0] * 3, None, 3 * index), local_insert_state(),
                      SimpleNamespace(value=0), out)
        assert isinstance(asyncio.run(worker.run(start, t_start)), Done)
    assert offsets == {w: [random.Random(3 * w + c).randrange(tick) for c in range(3)] for w in (0, 1)}
    assert len({o for w in offsets.values() for o in w}) == 6


@pytest.fixture
def loaded(redis_server, rds):
    """200 records of workload C in a fresh redis (reads are OK)."""
    rds.flushall()
    props = dict(load_properties("workload-c"))
    props.update(recordcount="200")
    r = run_phase(PhaseSpec("load", redis_server.url, props, threads=2, processes=1))
    assert r.ops["INSERT"].returns == {"OK": 200}
    return redis_server


def test_each_read_and_read_modify_write_reads_every_field_as_the_servers_own_count_says(redis_server, rds):
    """Workload F (reads, read-modify-writes; readallfields) run by a worker on this loop, its reads chained by the
    binding: the server counted one HGETALL per read, a read-modify-write's read half too, never an HMGET of chosen
    fields, and one HSET per read-modify-write."""
    rds.config_resetstat()
    r = _run_worker_in_process(redis_server.url, threads=2, duration_s=0.2, pause_at_s=0.0, pause_s=0.0,
                               workload="workload-f")
    calls = {k.removeprefix("cmdstat_"): v["calls"] for k, v in rds.info("commandstats").items()}
    # READ holds every read, a read-modify-write's read half too (its NOT_FOUNDs among its returns)
    reads, updates = (sum(r.ops[op].returns.values()) for op in ("READ", "UPDATE"))
    rmws = r.ops["READ-MODIFY-WRITE"].operations
    assert r.status == "ok" and reads > rmws > 0 and updates == rmws, r.ops.keys()
    assert (calls.get("hgetall", 0), calls.get("hmget", 0), calls.get("hset", 0) + calls.get("hmset", 0)) == \
        (reads, 0, rmws)


def test_a_client_does_exactly_its_quota_in_one_chain_carried_on_from_take_to_take(loaded, rds, monkeypatch):
    """Two clients with quotas of 33 and 100 reads (one take of 32 and one more; three and a part): the server
    served exactly 133 HGETALLs, and each client's reads went in one chain, handed its next take as each ended
    (ChainContext.more), so that a client does not go back to its loop every 32 operations."""
    from ycsbctl.stores.redis.binding import RedisBinding

    chains: list[tuple[int, int]] = []
    chain = RedisBinding.chain

    async def counted(self, ctx, batch, start, end):
        chains.append((start, end))
        return await chain(self, ctx, batch, start, end)

    monkeypatch.setattr(RedisBinding, "chain", counted)
    rds.config_resetstat()
    r = _run_worker_in_process(loaded.url, threads=2, duration_s=20.0, pause_at_s=0.0, pause_s=0.0, quotas=[33, 100])
    assert r.status == "ok" and r.operations == rds.info("commandstats")["cmdstat_hgetall"]["calls"] == 133
    assert chains == [(0, 32), (0, 32)]


def test_a_stop_asked_mid_point_ends_chained_clients_at_the_next_tick_not_at_the_deadline(redis_server, rds):
    """Ctrl-C's stop flag raised 0.1 s into a 20 s point whose clients' reads are chained take after take by the
    binding (an empty server: each read NOT_FOUND, chained as well): the worker ends at its next tick (1 s), a chain
    asking for no take once the worker stops; it had read (the server counted its HGETALLs)."""
    rds.config_resetstat()
    t = time.perf_counter()
    r = _run_worker_in_process(redis_server.url, threads=2, duration_s=20.0, pause_at_s=0.0, pause_s=0.0, stop_at_s=0.1)
    took = time.perf_counter() - t
    assert took < 20.0 / 4, took
    assert r.status == "ok" and rds.info("commandstats")["cmdstat_hgetall"]["calls"] > 0


def test_with_dataintegrity_a_read_of_all_fields_checks_every_field(redis_server, rds):
    """dataintegrity=true reads one by one (no chains) and checks what it read against YCSB's values: with
    field0 of every record overwritten, the check of every read of all the fields (workload C's readallfields) is an
    UNEXPECTED_STATE (as YCSB says it)."""
    props = dict(load_properties("workload-c"), recordcount="200", dataintegrity="true")
    assert run_phase(PhaseSpec("load", redis_server.url, props, threads=2,
                               processes=1)).ops["INSERT"].returns == {"OK": 200}
    for key in rds.scan_iter(count=1000, _type="HASH"):
        rds.hset(key, "field0", "x" * 100)
    r = _run_worker_in_process(redis_server.url, threads=2, duration_s=0.2, pause_at_s=0.0, pause_s=0.0,
                               dataintegrity="true")
    checked = r.ops[VERIFY_NAME].returns  # each read's check (YCSB's VERIFY): its values against those written
    assert r.ops["READ"].operations > 0 and checked == {"UNEXPECTED_STATE": r.ops["READ"].operations}, checked


@pytest.mark.speed
def test_a_50_ms_pause_of_a_workers_loop_is_reported_as_client_lag_not_server_latency(loaded):
    redis_server = loaded
    pause_us = 50_000  # the injected pause: the loop blocked this long (or longer) by a sleep
    r = _run_worker_in_process(redis_server.url, threads=4, duration_s=2.0, pause_at_s=1.0, pause_s=pause_us / 1e6)
    overall = r.series[r.series.op == "OVERALL"].set_index("second")["operations"]
    assert r.status == "ok" and overall.get(0, 0) > 0 and overall.get(1, 0) > 0  # busy before and after the pause
    lag = r.client_lag
    assert lag is not None and lag.operations >= 100  # ~100 probes a second
    # the pause, seen by the first probe due after it began (probes every 10 ms)
    read = r.ops["READ"]
    assert lag.max_us >= pause_us - LAG_PROBE_INTERVAL_S * 1e6
    # no stall of the loop, the pause or any other a busy host adds, is longer than what the reads in
    # flight through it waited (unpaced: every client always has one in flight), give or take the loop
    # turn between a probe's due time and the last read sent before the stall (a turn shows in the
    # reads' tail, their p99, as measured here) and HDR's bucket at each value (seen here: the lag
    # 32 µs above the read, one bucket at 50 ms)
    h = lag.histogram
    assert h is not None and read.histogram is not None
    assert h.get_lowest_equivalent_value(int(lag.max_us)) <= (
        read.histogram.get_highest_equivalent_value(int(read.max_us)) + read.percentile(99)), \
        (lag.max_us, read.max_us, read.percentile(99))
    # The operations in flight during the pause were charged with it: the slowest one is the pause,
    # and the point says that this maximum is the client's.
    assert read.returns == {"OK": read.operations} and read.max_us >= 45_000
    # The point says so (by its p99.9, its maximum or both: on a busy host the server may have a slower
    # operation of its own, and that one is rightly not called the client's).
    warning = client_lag_warning(r)
    assert warning is not None and warning.startswith("client lag:")
    text = format_phase(r)
    assert "[CLIENT-LAG], Operations, " in text and "[CLIENT-LAG], MaxLatency(us), " in text
    parsed = parse_output(text).result
    assert "CLIENT-LAG" not in parsed.ops and parsed.client_lag.max_us == lag.max_us


@pytest.mark.speed
def test_a_paced_points_late_starts_are_its_schedule_lag_and_label_it_client_pacing(loaded):
    # 400 ops/s over 4 threads (a thread is due every 10 ms and mostly waits for it), or half the unpaced
    # maximum measured first if that is lower, with the loop blocked 200 ms at 1 s: the operations due
    # during the pause (a tenth of them) start up to 200 ms late.
    props = {**load_properties("workload-c"), "recordcount": "200", "operationcount": "0"}
    rate = holdable_rate(400, unpaced_ops(PhaseSpec("run", loaded.url, props, threads=4, processes=1, duration_s=1)))
    tick_us = 4 / rate * 1e6  # each thread's operations are due this far apart
    pause_us = 200_000
    r = _run_worker_in_process(loaded.url, threads=4, duration_s=2.0, pause_at_s=1.0, pause_s=pause_us / 1e6,
                               target_rate=rate, measurement="both")
    read, intended = r.ops["READ"], r.ops["Intended-READ"]
    # the rate was held (a busy host lags)
    assert r.status == "ok" and 0.9 * 2 * rate <= r.operations <= 1.01 * 2 * rate, (r.operations, rate)
    lag = r.schedule_lag
    assert lag is not None and lag.operations == r.operations  # one per paced operation
    # the pause, as late starts: each thread had an operation due within a tick of its start, started
    # once the loop ran again (never later than the loop itself was, by its own lag probe, plus a tick);
    # a tenth of them fell due inside it, so the 99th percentile is one of those, late by a good share of it
    assert r.client_lag is not None  # the probe saw the pause (a timer due within one probe interval of it)
    assert r.client_lag.max_us >= pause_us - LAG_PROBE_INTERVAL_S * 1e6
    # (the probe may read a stall up to one probe interval short)
    probe_us = LAG_PROBE_INTERVAL_S * 1e6
    assert pause_us - tick_us <= lag.max_us <= r.client_lag.max_us + probe_us + tick_us, (lag.max_us,
                                                                                          r.client_lag.max_us)
    assert lag.percentile(99) >= 0.1 * pause_us
    assert lag.percentile(50) < tick_us / 2  # most operations started on time: well before the next was due
    # intended latency runs from the due time: it carries the late starts that the actual latency does not
    assert intended.percentile(99) >= lag.percentile(99) >= 2 * read.percentile(99)
    warning = schedule_lag_warning(r)
    assert warning is not None and warning.startswith(f"{PACING_LABEL}:")
    parsed = parse_output(format_phase(r)).result
    assert "SCHEDULE-LAG" not in parsed.ops and parsed.schedule_lag.max_us == lag.max_us


def test_an_unpaced_point_has_no_schedule_lag_and_is_never_labelled_client_pacing(loaded):
    r = _run_worker_in_process(loaded.url, threads=2, duration_s=1.0, pause_at_s=0.5, pause_s=0.0)
    assert r.ops["READ"].operations > 200 and r.schedule_lag is None and schedule_lag_warning(r) is None
    assert "[SCHEDULE-LAG]" not in format_phase(r)


def test_an_unpaused_point_probes_its_loop_100_times_a_second(loaded):
    r = _run_worker_in_process(loaded.url, threads=2, duration_s=1.5, pause_at_s=0.5, pause_s=0.0)
    assert r.ops["READ"].operations > 500
    probes = r.runtime_ms / 1000 / LAG_PROBE_INTERVAL_S  # one every interval over the run
    assert r.client_lag is not None and 0.6 * probes <= r.client_lag.operations <= probes + 2
    assert r.client_lag.percentile(50) < 2_000  # a probe usually runs within a loop iteration


def _result(p99_us: int, max_us: int, lag_p999_us: int, lag_max_us: int) -> PhaseResult:
    """A result whose READ has the given p99 and max, and whose client lag the given p99.9 and max."""
    def summary(name: str, body: int, p: float, tail: int, top: int) -> OpSummary:
        h = hdr.new_histogram()
        n = 100_000
        k = int(round(n * (100 - p) / 100))  # the values above the percentile
        h.record_value(body, n - k - 1)
        h.record_value(tail, k)
        h.record_value(top)
        return OpSummary.from_histogram(name, h)

    return PhaseResult("run", 8, 1000.0, 100_000, ops={"READ": summary("READ", 50, 99, p99_us, max_us)},
                       client_lag=summary("CLIENT-LAG", 10, 99.9, lag_p999_us, lag_max_us))


def test_client_lag_is_flagged_from_half_the_tail_and_not_below():
    assert client_lag_warning(_result(1000, 2000, 400, 900)) is None
    tail = client_lag_warning(_result(1000, 100_000, 500, 900))
    assert tail is not None and "p99.9 (0.50 ms) is 50% of the operations' p99 (1.00 ms)" in tail
    assert client_lag_warning(_result(1000, 100_000, 495, 900)) is None
    # beyond 2,048 µs HDR keeps 3 significant digits: 51,000 µs reads 51.0 ms, 100,000 µs 100.0 ms
    top = client_lag_warning(_result(1000, 100_000, 100, 51_000))
    assert top is not None and "maximum (51.0 ms) is 51% of the slowest operation's (100.0 ms)" in top
    assert client_lag_warning(_result(1000, 100_000, 100, 48_000)) is None
    # exactly half the slowest operation (both below 2,048 µs, where HDR keeps every microsecond): flagged
    edge = client_lag_warning(_result(1000, 2000, 100, 1000))
    assert edge is not None and "maximum (1.0 ms) is 50% of the slowest operation's (2.0 ms)" in edge


@pytest.mark.parametrize("measurement", ["op", "intended", "both"])
def test_each_measurement_keeps_whole_microseconds_at_a_millisecond(measurement):
    # 1,000,000 ns is 1000 µs (unit resolution below 2048 µs): a divisor off by one would give 1001
    rec = Recorder(measurement, [READ])
    rec.record(READ, Status.OK, 0, 1_000_000, 0)  # unpaced: intended = actual
    out = rec.roll()
    for slots in (out.latency, out.intended) if measurement == "both" else (out.latency,):
        h = hdr.from_counts(np.frombuffer(slots[(READ, Status.OK)], dtype=np.int64))
        assert h.get_total_count() == 1 and h.get_value_at_percentile(100) == 1000


def test_a_lag_probe_counts_its_delay_in_microseconds():
    rec = Recorder("op", [READ])
    probe = LagProbe(asyncio.new_event_loop(), rec, None)
    due = time.perf_counter_ns() - 100_000_000_000  # an expiry 100 s ago, read only now
    probe.due_ns = due
    probe.timer.arm(due)
    try:
        probe._expired()
        read_us = (time.perf_counter_ns() - due) // 1000  # the delay as this test reads it, just after
    finally:
        probe.timer.close()
        probe.loop.close()
    h = hdr.from_counts(np.frombuffer(rec.lag, dtype=np.int64))
    # 100,000,000 µs plus this call's own delay, in HDR's 3 digits (65,536 µs buckets up there)
    assert h.get_total_count() == 1
    assert h.get_lowest_equivalent_value(100_000_000) <= h.get_value_at_percentile(100)
    assert h.get_value_at_percentile(100) <= h.get_highest_equivalent_value(read_us)


def test_both_intervals_name_the_intended_series_as_ycsb_does():
    rec = Recorder("both", [READ])
    rec.record(READ, Status.OK, 10_000, 60_000, 4_000)  # 50 µs actual, 56 µs from the intended start
    agg = SecondAggregate()
    agg.add(rec.roll())
    totals = summaries({0: agg}, 0)
    assert totals.ops["READ"].operations == 1 and totals.ops["READ"].max_us == 50
    assert totals.ops["Intended-READ"].operations == 1 and totals.ops["Intended-READ"].max_us == 56


def test_the_progress_p99_is_hdrhistograms_own_99th_percentile():
    rec = Recorder("op", [READ, UPDATE])
    ref = hdr.new_histogram()
    for v in range(1, 1001):  # p99 = 990 µs, p99.99 = 1000 µs
        rec.record(READ if v % 2 else UPDATE, Status.OK, 0, v * 1000, 0)
        ref.record_value(v)
    agg = SecondAggregate()
    agg.add(rec.roll())
    assert agg.p99_us() == ref.get_value_at_percentile(99.0) == 990


def test_the_time_the_loop_turned_towards_due_times_is_not_reported_as_client_cpu():
    """Pacing turns the loop while it waits for a due time (engine/timerfd.Alarm): that is no load, so a
    second's client CPU is the process's CPU time (the kernel's count) less the time spent turning."""
    rec = Recorder("op", [READ])
    turned = iter([5_000_000_000, 5_200_000_000])  # the alarm's running count: 0.2 s more during the second
    rec.idle_ns = lambda: next(turned)
    rec.idle_mark = rec.idle_ns()
    start = rec.cpu_mark
    while time.process_time() - start < 0.3:  # 0.3 s of CPU, by the kernel's count
        pass
    before = time.process_time() - start
    out = rec.roll()
    after = time.process_time() - start
    # the kernel's count at the roll lies between the two reads around it: exactly 0.2 s less
    assert before - 0.2 - 1e-9 <= out.cpu_s <= after - 0.2 + 1e-9


def test_client_lag_is_held_against_the_slowest_measured_operation_read_modify_write_included_intended_not():
    """READ (p99 2 ms), READ-MODIFY-WRITE (p99 4 ms) and YCSB's Intended-READ (p99 40 ms, the due-time latency
    that counts waiting for the schedule): the lag's 3 ms p99.9 is 75 % of the 4 ms the operations measured —
    not 150 % of READ's alone, nor 7.5 % of the intended latency's."""
    base = _result(2000, 3000, 3000, 3000)
    rmw = _result(4000, 5000, 0, 0).ops["READ"]
    intended = _result(40_000, 50_000, 0, 0).ops["READ"]
    base.ops = {"READ": base.ops["READ"], "READ-MODIFY-WRITE": rmw, "Intended-READ": intended}
    said = client_lag_warning(base)
    assert said is not None and "its p99.9 (3.00 ms) is 75% of the operations' p99 (4.00 ms)" in said, said
    assert "its maximum (3.0 ms) is 60% of the slowest operation's (5.0 ms)" in said, said


def test_client_lag_beside_operations_of_0_us_is_no_warning_and_a_maximum_is_rounded_to_a_tenth_of_a_ms():
    """BasicDB's operations can all read 0 µs: no share of 0 is computed (nor divided by); a lag maximum of
    1,050 µs (HDR exact below 2,048) reads 1.1 ms, half of a 2 ms slowest operation from 1,000 µs."""
    zero = _result(1000, 2000, 10, 10)
    h = hdr.new_histogram()
    h.record_value(0, 1000)
    zero.ops = {"READ": OpSummary.from_histogram("READ", h)}
    assert zero.ops["READ"].max_us == 0 and client_lag_warning(zero) is None
    said = client_lag_warning(_result(500, 2000, 100, 1050))
    assert said is not None and "its maximum (1.1 ms) is 52% of the slowest operation's (2.0 ms)" in said, said


def test_the_schedule_lag_rule_takes_its_99th_percentile():
    """Late starts: 98,500 of 100,000 at 10 µs and 1,500 at 600 µs — p99 600 µs, p98 10 µs — beside operations
    whose p99 is 1 ms: 60 %, flagged; their p98 would say nothing."""
    r = _result(1000, 2000, 10, 10)
    h = hdr.new_histogram()
    h.record_value(10, 98_500)
    h.record_value(600, 1_500)
    r.schedule_lag = OpSummary.from_histogram("SCHEDULE-LAG", h)
    said = schedule_lag_warning(r)
    assert said is not None and "schedule lag p99 (0.60 ms) is 60% of the operations' p99 (1.00 ms)" in said, said


def _late(result: PhaseResult, p99_us: int) -> PhaseResult:
    """``result`` with a schedule lag whose p99 is ``p99_us`` (98.5 % at 10 µs, 1.5 % at ``p99_us``)."""
    h = hdr.new_histogram()
    h.record_value(10, 98_500)
    h.record_value(p99_us, 1_500)
    result.schedule_lag = OpSummary.from_histogram("SCHEDULE-LAG", h)
    return result


def test_the_schedule_lag_rule_is_half_the_operations_p99_and_its_text_in_ms_to_the_hundredth():
    """Below half (400 µs of a 1 ms p99) nothing is said; operations that all read 0 µs are no share at all; the
    two figures in ms (1,994 and 1,995 µs: 1.99 and 2.00, read exactly below 2,048 µs) each from its own value."""
    assert schedule_lag_warning(_late(_result(1000, 2000, 10, 10), 400)) is None
    zero = _result(1000, 2000, 10, 10)
    h = hdr.new_histogram()
    h.record_value(0, 1000)
    zero.ops = {"READ": OpSummary.from_histogram("READ", h)}
    assert schedule_lag_warning(_late(zero, 400)) is None
    for lag, p99, said in ((1994, 1995, "(1.99 ms) is 100% of the operations' p99 (2.00 ms)"),
                           (1995, 1994, "(2.00 ms) is 100% of the operations' p99 (1.99 ms)")):
        text = schedule_lag_warning(_late(_result(p99, 3000, 10, 10), lag))
        assert text is not None and said in text, text
    one = _result(1000, 2000, 10, 10)
    h = hdr.new_histogram()
    h.record_value(1, 1000)
    one.ops = {"READ": OpSummary.from_histogram("READ", h)}
    one.client_lag = OpSummary.from_histogram("CLIENT-LAG", h)
    assert "its maximum (0.0 ms) is 100% of the slowest operation's (0.0 ms)" in (client_lag_warning(one) or "")


@pytest.mark.parametrize("measurement", ["op", "intended", "both"])
def test_the_pure_recording_path_counts_each_latency_in_the_slot_of_its_op_and_status_above_the_linear_range(
    measurement,
):
    """The pure twin of the compiled recorder (``YCSBCTL_PURE_PYTHON=1``, or no compiler): the same slots,
    a value past HDR's linear range (3 ms) at its HDR index, two operations and two statuses apart."""
    rec = Recorder(measurement, [READ, UPDATE])
    record = rec.pure_record()
    record(UPDATE, Status.NOT_FOUND, 20_000, 70_000, 5_000)  # 50 µs actual, 65 µs from the intended start
    record(READ, Status.ERROR, 1_000, 3_001_000, 0)  # 3,000 µs, unpaced: intended = actual
    out = rec.roll()

    def nonzero(slots):  # {slot: {HDR index: count}}
        counts = {k: np.frombuffer(a, dtype=np.int64) for k, a in slots.items()}
        return {k: {int(i): int(c[i]) for i in np.flatnonzero(c)} for k, c in counts.items() if c.any()}

    big = hdr.counts_index(3_000)
    assert big != 3_000
    main = {"op": 50, "intended": 65, "both": 50}[measurement]
    assert nonzero(out.latency) == {(UPDATE, Status.NOT_FOUND): {main: 1}, (READ, Status.ERROR): {big: 1}}
    assert nonzero(out.intended) == ({(UPDATE, Status.NOT_FOUND): {65: 1}, (READ, Status.ERROR): {big: 1}}
                                     if measurement == "both" else {})


def test_a_probe_whose_timer_got_fd_0_closes_it_when_stopped():
    """A worker started with its stdin closed: the probe's timerfd is fd 0, and stop() still closes it
    (and takes it off the loop)."""
    loop = asyncio.new_event_loop()  # its own fds first
    saved = os.dup(0)
    os.close(0)
    try:
        probe = LagProbe(loop, Recorder("op", [0]), None)
        assert probe.timer.fd == 0
        probe.start()
        probe.stop()
        with pytest.raises(OSError):
            os.fstat(0)
        assert not loop.remove_reader(0)  # no reader was left on it
    finally:
        os.dup2(saved, 0)
        os.close(saved)
        loop.close()


def test_a_read_modify_write_is_the_first_failure_of_its_read_and_update_and_its_error_is_kept():
    """A client's read-modify-write (the awaited path: a binding without a chain) ends with its read's status
    when the read failed, else its update's: read OK then update ERROR is an ERROR whose message is kept, read
    NOT_FOUND then update OK a NOT_FOUND; each half is counted under its own status. Paced a second late, the
    intended latency of the operation and of each half runs from its due time: each is a second or more."""
    from ycsbctl.engine.throttle import Pacer
    from ycsbctl.stores.basic.binding import BasicBinding

    class Halves(BasicBinding):
        chain = None  # every operation awaited, one by one

        def __init__(self, read: Status, update: Status) -> None:
            self.statuses = read, update

        async def read(self, table, key, fields) -> Status:
            return self.statuses[0]

        async def update(self, table, key, values) -> Status:
            self.last_error = "update refused"
            return self.statuses[1]

    props = dict(load_properties("workload-a"))
    props.update(recordcount="10", operationcount="0", readproportion="0", updateproportion="0",
                 readmodifywriteproportion="1")
    spec = PhaseSpec("run", "basic://", props, threads=1, measurement="both")
    second = hdr.counts_index(1_000_000)  # µs
    counted = {}
    for read, update in ((Status.OK, Status.ERROR), (Status.NOT_FOUND, Status.OK)):
        worker = Worker(WorkerPlan(spec, 0, 1, [3], None, 0), local_insert_state(), SimpleNamespace(value=0), None)
        late = Pacer(time.perf_counter_ns() - 10**9, 1, None)  # type: ignore[arg-type]  # due 1 s ago: never waits
        asyncio.run(worker.client(Halves(read, update), 3, late, time.perf_counter_ns() + 10**10))
        assert {op: sum(sum(worker.rec.islots[op * 5 + st][second:]) for st in Status if worker.rec.islots[op * 5 + st])
                for op in (READ_MODIFY_WRITE, COMPONENT + READ, COMPONENT + UPDATE)} == \
            {READ_MODIFY_WRITE: 3, COMPONENT + READ: 3, COMPONENT + UPDATE: 3}
        counted[read, update] = ({(op, Status(st)) for op in (READ_MODIFY_WRITE, COMPONENT + READ, COMPONENT + UPDATE)
                                  for st in Status if sum(worker.rec.slots[op * 5 + st]) == 3}, worker.errors)
    assert counted[Status.OK, Status.ERROR] == ({(READ_MODIFY_WRITE, Status.ERROR), (COMPONENT + READ, Status.OK),
                                                 (COMPONENT + UPDATE, Status.ERROR)}, ["update refused"])
    assert counted[Status.NOT_FOUND, Status.OK][0] == {(READ_MODIFY_WRITE, Status.NOT_FOUND),
                                                       (COMPONENT + READ, Status.NOT_FOUND),
                                                       (COMPONENT + UPDATE, Status.OK)}


def test_a_100ms_interval_keeps_its_operations_and_its_client_lag_from_every_part():
    from ycsbctl.engine.aggregate import FineAggregate, fine_series
    from ycsbctl.engine.measurements import COMPONENT, Recorder
    from ycsbctl.results.names import VERIFY_NAME
    from ycsbctl.stores.binding import Status
    from ycsbctl.workload.core import OP_NAMES, READ, READ_MODIFY_WRITE, UPDATE

    verify = OP_NAMES.index(VERIFY_NAME)
    rec = Recorder("op", [READ, UPDATE, READ_MODIFY_WRITE, verify])
    record = rec.pure_record()
    record(READ, Status.OK, 0, 50_000, 0)
    # a read-modify-write is one operation: its halves (READ, UPDATE) and YCSB's VERIFY of a read are none
    record(COMPONENT + READ, Status.OK, 0, 30_000, 0)
    record(COMPONENT + UPDATE, Status.OK, 30_000, 70_000, 0)
    record(READ_MODIFY_WRITE, Status.OK, 0, 70_000, 0)
    record(verify, Status.OK, 0, 1_000, 0)
    rec.count_lag(7, 2)  # two loop-lag samples of 7 µs
    agg = FineAggregate()
    agg.add(rec.roll())
    record(READ, Status.OK, 0, 90_000, 0)
    agg.add(rec.roll())  # a part without loop lag
    fine = fine_series({3: agg}, 0.1, 0.0, None)
    assert fine.operations[3] == 3
    index, count = fine.client_lag[3]
    assert (list(index), list(count)) == ([7], [2])
