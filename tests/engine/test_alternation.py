"""An alternated session (ycsbctl.engine.alternation): the schedule, every target's operations credited to the
server that served them (its own INFO commandstats), the slices as the schedule says, and the refusals."""

from __future__ import annotations

import itertools
import math
import os
import signal
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pandas as pd
import pytest
import redis

from tests.fixtures.cgroups import cpu_quota
from tests.fixtures.servers import Server, free_port, start_redis
from ycsbctl.engine.alternated_session import SLICE_COLUMNS, target_status
from ycsbctl.engine.alternating_worker import SHIP_AT
from ycsbctl.engine.alternation import Alternation, schedule, slice_target
from ycsbctl.engine.cluster import ClusterEngine
from ycsbctl.engine.messages import Done, Message, SliceReport, TargetEnd
from ycsbctl.engine.runner import PhaseRunner, run_phase
from ycsbctl.engine.spec import ERRORS_SHOWN, PhaseSpec, Tick
from ycsbctl.engine.ycsb_java import YcsbEngine
from ycsbctl.errors import UserError
from ycsbctl.results.model import PhaseResult
from ycsbctl.workload.properties import load_properties

RECORDS = 300
SLICE_S = 0.2


def _props(workload: str = "workload-a", **overrides: object) -> dict[str, str]:
    props = dict(load_properties(workload))
    props.update(recordcount=str(RECORDS), **{k: str(v) for k, v in overrides.items()})
    return props


# -- the schedule (pure) -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4])
def test_every_block_holds_each_target_twice_as_a_permutation_then_its_reverse(n: int) -> None:
    for seed in range(20):
        order = schedule(n, seed, 2 * n * 10)
        for b in range(10):
            block = order[2 * n * b: 2 * n * (b + 1)]
            assert Counter(block) == {t: 2 for t in range(n)}
            assert block[n:] == block[:n][::-1]  # A B | B A: a linear drift lands on every target alike


def test_two_targets_come_in_abba_or_baab_quartets() -> None:
    order = schedule(2, 7, 400)
    quartets = {tuple(order[i:i + 4]) for i in range(0, 400, 4)}
    assert quartets == {(0, 1, 1, 0), (1, 0, 0, 1)}  # both occur in 100 blocks


def test_the_schedule_is_reproducible_from_its_seed_and_differs_between_seeds() -> None:
    assert schedule(3, 11, 60) == schedule(3, 11, 60)
    assert schedule(3, 11, 60) != schedule(3, 12, 60)
    assert len({tuple(schedule(2, s, 40)) for s in range(10)}) > 1
    alt = Alternation(("redis://a", "redis://b", "redis://c"), seed=11)
    assert [slice_target(alt, k) for k in range(60)] == schedule(3, 11, 60) == \
        [slice_target(3, k, seed=11) for k in range(60)]
    assert schedule(2, 5, 7) == schedule(2, 5, 100)[:7]


# -- two real servers ----------------------------------------------------------------------------------------------


def _loaded(tmp: Path, name: str) -> Server:
    s = start_redis(tmp / name)
    r = run_phase(PhaseSpec("load", s.url, _props(), threads=4, processes=1))
    assert r.status == "ok" and r.operations == RECORDS, r.errors
    return s


@pytest.fixture(scope="module")
def twin_servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Server]]:
    tmp = tmp_path_factory.mktemp("alternation")
    servers = [_loaded(tmp, "a"), _loaded(tmp, "b")]
    yield servers
    for s in servers:
        s.proc.terminate()
        s.proc.wait(10)


def _calls(port: int) -> Counter[str]:
    """The server's commands served so far, by name (INFO commandstats)."""
    stats = redis.Redis(port=port).info("commandstats")
    return Counter({k.removeprefix("cmdstat_"): v["calls"] for k, v in stats.items()})


def _session(servers: list[Server], seed: int, warmup_s: float, duration_s: float, **props: object
             ) -> list[PhaseResult]:
    alt = Alternation(tuple(s.url for s in servers), slice_s=SLICE_S, seed=seed)
    spec = PhaseSpec("run", servers[0].url, _props("workload-a", **props), threads=4, processes=2, warmup_s=warmup_s,
                     duration_s=duration_s, seed=seed, alternation=alt)
    return PhaseRunner(spec).run_alternated()


@pytest.mark.truth
def test_each_targets_operations_are_what_its_own_server_served(twin_servers: list[Server]) -> None:
    """workload-a (reads: HGETALL, updates: HMSET) over two workers, 1 s of warm-up then 1.6 s in 0.2 s slices."""
    before = [_calls(s.port) for s in twin_servers]
    called = time.perf_counter()
    results = _session(twin_servers, seed=3, warmup_s=1.0, duration_s=1.6)
    wall_s = time.perf_counter() - called  # the session's start and its last operation's end both lie inside it
    served = [_calls(s.port) - b for s, b in zip(twin_servers, before)]
    order = schedule(2, 3, 13)
    for t, (r, calls) in enumerate(zip(results, served)):
        assert r.status == "ok", r.errors
        series = r.series
        everything = {op: int(series[series.op == op].operations.sum()) for op in ("READ", "UPDATE")}
        assert everything == {"READ": calls["hgetall"] + calls["hmget"], "UPDATE": calls["hmset"]}
        assert calls["zadd"] == 0 and min(everything.values()) > 0
        s = r.slices
        assert s is not None and list(s.columns) == list(SLICE_COLUMNS)
        assert list(s.slice) == [k for k in range(13) if order[k] == t]  # every slice of it, as scheduled
        assert int(s.operations.sum()) == sum(everything.values())
        measured = s[~s.warmup]
        assert list(measured.slice) == [k for k in range(5, 13) if order[k] == t]
        assert r.operations == int(measured.operations.sum()) == r.ops["READ"].operations + r.ops["UPDATE"].operations
        kept = series[~series.warmup.astype(bool)]  # the warm-up is whole seconds here: series and slices agree
        assert r.ops["READ"].operations == int(kept[kept.op == "READ"].operations.sum())
        assert r.runtime_ms == pytest.approx(1000 * SLICE_S * len(measured))
        assert (s.errors == 0).all() and (s.switch_s >= 0).all()
        # a slice's last operation ended switch_s past the slice's end, before the session returned
        assert (s.t_end_s + s.switch_s <= wall_s).all(), (wall_s, s[["t_end_s", "switch_s"]])
        assert (s.t_end_s - s.t_start_s).round(9).eq(SLICE_S).all()


@pytest.mark.truth
def test_a_slice_ships_half_way_through_the_next_and_its_counts_stay_exact(twin_servers: list[Server]) -> None:
    """Each worker's report of slice k reaches the controller no sooner than SHIP_AT of a slice into slice k + 1
    (the last slice's once the clients are through: there is no next one); every count is still what the servers
    served (workload-a over two workers, 0.4 s of warm-up then 0.8 s)."""
    arrivals: list[tuple[int, float]] = []

    def seen(msg: Message) -> None:
        if isinstance(msg, SliceReport):
            arrivals.append((msg.slice, time.perf_counter()))

    before = [_calls(s.port) for s in twin_servers]
    alt = Alternation(tuple(s.url for s in twin_servers), slice_s=SLICE_S, seed=8)
    runner = PhaseRunner(PhaseSpec("run", twin_servers[0].url, _props(), threads=4, processes=2, warmup_s=0.4,
                                   duration_s=0.8, seed=8, alternation=alt), on_message=seen)
    results = runner.run_alternated()
    served = [_calls(s.port) - b for s, b in zip(twin_servers, before)]
    assert sorted(k for k, _ in arrivals) == [k for k in range(6) for _ in range(2)]  # each slice, from each worker
    early = [(k, at - runner.t0) for k, at in arrivals if k < 5 and at < runner.t0 + (k + 1 + SHIP_AT) * SLICE_S]
    assert not early, f"shipped before half-way through the next slice (slice, s since the start): {early}"
    for r, calls in zip(results, served):
        s = r.slices
        assert r.status == "ok" and s is not None, r.errors
        assert int(s.operations.sum()) == calls["hgetall"] + calls["hmget"] + calls["hmset"] > 0


@pytest.mark.truth
def test_a_settle_windows_operations_are_counted_apart_and_none_is_lost_or_credited_to_the_other_server(
        twin_servers: list[Server]) -> None:
    """workload-a in 0.2 s slices, the first 0.03 s of each a settle window: what starts in it is in the slices
    table's settle_operations only, the rest in the point's histograms and series; together what each server
    served (its own INFO commandstats); the point's runtime its slices less their settle windows."""
    settle_s = 0.03
    before = [_calls(s.port) for s in twin_servers]
    alt = Alternation(tuple(s.url for s in twin_servers), slice_s=SLICE_S, seed=5, settle_s=settle_s)
    spec = PhaseSpec("run", twin_servers[0].url, _props(), threads=4, processes=2, warmup_s=0.8, duration_s=1.6,
                     seed=5, alternation=alt)
    ticks: list[Tick] = []
    results = PhaseRunner(spec).run_alternated(ticks.append)
    served = [_calls(s.port) - b for s, b in zip(twin_servers, before)]
    _ticks_are_the_slices_seconds(ticks, results, 0.8, 0.8 + 1.6)
    for r, calls in zip(results, served):
        assert r.status == "ok", r.errors
        s = r.slices
        assert s is not None and len(s) == 6 and (s.settle_s == settle_s).all()
        assert (s.settle_operations > 0).all() and (s.operations > 0).all() and (s.settle_p99_us > 0).all()
        series = r.series  # every slice's operations after its settle window, warm-up too
        timed = int(series[series.op.isin(("READ", "UPDATE"))].operations.sum())
        assert timed == int(s.operations.sum())
        assert timed + int(s.settle_operations.sum()) == calls["hgetall"] + calls["hmset"]
        measured = s[~s.warmup]
        histograms = [r.ops[op].histogram for op in ("READ", "UPDATE")]
        assert r.operations == int(measured.operations.sum()) == sum(  # the histograms' total
            h.get_total_count() for h in histograms if h is not None)
        assert r.runtime_ms == pytest.approx(1000 * (SLICE_S - settle_s) * len(measured))


@pytest.mark.truth
def test_a_seconds_progress_waits_for_every_workers_report_of_its_first_slice(twin_servers: list[Server]) -> None:
    """One 1 s slice, two workers: the progress line's one second is that slice's, so its tick waits for both
    workers' reports of it (slice 0 too: none is in before the first report), its rate every operation of the
    slice over its time, as the slices tables count them."""
    alt = Alternation(tuple(s.url for s in twin_servers), slice_s=1.0, seed=4)
    spec = PhaseSpec("run", twin_servers[0].url, _props(), threads=2, processes=2, warmup_s=0.0, duration_s=1.0,
                     seed=4, alternation=alt)
    ticks: list[Tick] = []
    results = PhaseRunner(spec).run_alternated(ticks.append)
    assert all(r.status == "ok" for r in results), [r.errors for r in results]
    _ticks_are_the_slices_seconds(ticks, results, 0.0, 1.0)


def _ticks_are_the_slices_seconds(ticks: list[Tick], results: list[PhaseResult], warmup_s: float,
                                  session_s: float) -> None:
    """The progress line, computed again from the slices tables: one tick a second from 0 to the session's last
    started second, its rate the operations of every target's slices starting in that second over their measured
    time (settle windows out), its running total at least every operation of those slices and the ones before
    (settle windows never counted), at most every operation of the session."""
    both = pd.concat([r.slices for r in results if r.slices is not None])
    ticks = [t for t in ticks if not t.starting]  # before the start: what the point waits for
    assert [t.second for t in ticks] == list(range(math.ceil(session_s - 1e-9)))
    total = int(both.operations.sum())
    for t in ticks:
        mine = both[(both.t_start_s >= t.second - 1e-9) & (both.t_start_s < t.second + 1 - 1e-9)]
        measured = float((mine.t_end_s - mine.t_start_s - mine.settle_s).sum())
        assert t.ops_per_s == pytest.approx(int(mine.operations.sum()) / measured)
        assert int(both[both.t_start_s < t.second + 1 - 1e-9].operations.sum()) <= t.operations <= total
        assert t.warmup == (t.second < math.ceil(warmup_s))  # a second the warm-up reaches is the warm-up's


@pytest.mark.speed
def test_a_server_held_to_a_tenth_of_a_core_serves_fewer_operations_than_its_free_twin(tmp_path: Path) -> None:
    servers = [_loaded(tmp_path, "free"), _loaded(tmp_path, "slow")]
    try:
        with cpu_quota(0.1, period_us=10_000) as group:
            group.add(servers[1].proc.pid)
            free, slow = _session(servers, seed=1, warmup_s=0.0, duration_s=1.6, readproportion=0.95,
                                  updateproportion=0.05)
        assert free.status == slow.status == "ok"
        assert slow.operations < free.operations
        assert slow.throughput_ops < free.throughput_ops
    finally:
        for s in servers:
            s.proc.terminate()


@pytest.mark.fault
def test_a_target_killed_mid_session_fails_alone_and_the_other_keeps_its_slices(tmp_path: Path) -> None:
    servers = [_loaded(tmp_path, "stays"), _loaded(tmp_path, "killed")]
    alt = Alternation(tuple(s.url for s in servers), slice_s=SLICE_S, seed=2)
    spec = PhaseSpec("run", servers[0].url, _props(), threads=4, processes=1, duration_s=3.2, seed=2, alternation=alt)
    runner = PhaseRunner(spec)
    killed_at: list[float] = []  # s since the session's start

    def kill_after_the_first_second(tick: Tick) -> None:
        if tick.second == 0 and not killed_at:
            servers[1].proc.kill()
            killed_at.append(time.perf_counter() - runner.t0)

    try:
        stays, killed = runner.run_alternated(kill_after_the_first_second)
    finally:
        for s in servers:
            s.proc.kill()
    assert killed_at and killed.status == "failed" and stays.status == "ok", (killed.errors, stays.errors)
    assert "lost" in killed.errors[0] and not stays.errors
    assert stays.slices is not None and killed.slices is not None
    assert len(killed.slices) == len(stays.slices) == 8  # its slices are still reported after the loss, idle
    after = killed.slices[killed.slices.t_start_s > killed_at[0]]
    # the first of its slices after the kill finds the connection gone (an ERROR per client); the rest idle
    assert len(after) >= 2 and (after.operations.iloc[1:] == 0).all()
    assert (stays.slices.operations > 0).all() and (stays.slices.errors == 0).all()


@pytest.mark.fault
def test_operations_held_across_several_slices_by_a_frozen_server_still_count_where_they_started(
        twin_servers: list[Server]) -> None:
    """Server b frozen (SIGSTOP) for 8 slices of 0.05 s: its operations in flight end long after their slice, every
    client waits (the ring of slice recorders fills), and still every operation goes to its own server's count."""
    alt = Alternation(tuple(s.url for s in twin_servers), slice_s=0.05, seed=4)
    spec = PhaseSpec("run", twin_servers[0].url, _props(), threads=4, processes=1, duration_s=1.6, alternation=alt)
    runner = PhaseRunner(spec)
    frozen: list[float] = []  # when b was frozen, then thawed (s since the session's start)

    def freeze_b() -> None:
        runner.started.wait(30)
        time.sleep(0.4)
        os.kill(twin_servers[1].proc.pid, signal.SIGSTOP)
        frozen.append(time.perf_counter() - runner.t0)
        time.sleep(0.4)
        os.kill(twin_servers[1].proc.pid, signal.SIGCONT)
        frozen.append(time.perf_counter() - runner.t0)

    before = [_calls(s.port) for s in twin_servers]
    thread = threading.Thread(target=freeze_b)
    thread.start()
    try:
        results = runner.run_alternated()
    finally:
        thread.join()
        os.kill(twin_servers[1].proc.pid, signal.SIGCONT)
    for r, s, b in zip(results, twin_servers, before):
        calls = _calls(s.port) - b
        assert r.status == "ok" and r.operations == calls["hgetall"] + calls["hmset"]
    b_slices = results[1].slices
    assert b_slices is not None
    # b's first slice with operations that ran into the freeze: its operations in flight ended after the thaw
    hit = b_slices[(b_slices.t_end_s > frozen[0]) & (b_slices.t_start_s < frozen[1]) & (b_slices.operations > 0)]
    first = hit.iloc[0]
    assert first.switch_s >= frozen[1] - first.t_end_s - 0.01
    assert first.switch_s > 3 * 0.05  # held longer than the ring of slice recorders: the clients waited for it


def test_a_stop_ends_the_session_inside_its_slice_and_keeps_what_was_measured(twin_servers: list[Server]) -> None:
    alt = Alternation(tuple(s.url for s in twin_servers), slice_s=2.0, seed=0)
    spec = PhaseSpec("run", twin_servers[0].url, _props(), threads=2, processes=1, duration_s=8.0, alternation=alt)
    runner = PhaseRunner(spec)
    results = runner.run_alternated(lambda tick: runner.stop() if tick.second == 0 else None)
    assert [r.status for r in results] == ["interrupted", "interrupted"]
    slices = sorted(k for r in results for k in r.slices.slice)  # type: ignore[union-attr]
    assert slices == list(range(len(slices))) and 2 <= len(slices) < 4  # the slices after the stop never ran
    last = slices[-1]  # cut by the stop, before its 2 s were through
    cut, other = sorted(results, key=lambda r: last not in r.slices.slice.values)  # type: ignore[union-attr]
    assert cut.runtime_ms - 2000 * (len(cut.slices) - 1) < 2000  # type: ignore[arg-type]
    assert cut.operations > 0 and other.runtime_ms == 2000 * len(other.slices)  # type: ignore[arg-type]


# -- refusals ------------------------------------------------------------------------------------------------------

A, B = "redis://127.0.0.1:1", "redis://127.0.0.1:2"


def _spec(**change: object) -> PhaseSpec:
    alt = change.pop("alternation", Alternation((A, B), slice_s=0.5))
    spec = PhaseSpec("run", A, _props(), threads=2, duration_s=2.0, alternation=alt)  # type: ignore[arg-type]
    for k, v in change.items():
        setattr(spec, k, v)
    return spec


@pytest.mark.parametrize(("change", "words"), [
    ({"alternation": Alternation((A,))}, "two targets or more"),
    ({"phase": "load"}, "load phase cannot alternate"),
    ({"properties": _props(insertproportion=0.1, readproportion=0.9, updateproportion=0)}, "inserts"),
    ({"target_rate": 1000.0}, "target rate"),
    ({"properties": {**_props(), "workload": "tests.workload.faulty_plugin:Faulty"}},
     "plug-in Faulty does not say its operations can alternate"),
    ({"alternation": Alternation((A, B), slice_s=0.01)}, "slice of 0.01 s"),
    ({"alternation": Alternation((A, B), slice_s=11)}, "slice of 11 s"),
    ({"alternation": Alternation((A, B), slice_s=0.5, settle_s=0.3)}, "settle window of 0.3 s"),
    ({"duration_s": None}, "needs a duration"),
    ({"properties": _props(dataintegrity="true")}, "dataintegrity"),
    ({"url": B}, "first URL"),
])
def test_an_alternation_the_engine_cannot_measure_fairly_is_refused_in_one_line(change: dict, words: str) -> None:
    with pytest.raises(UserError) as e:
        PhaseRunner(_spec(**change))
    assert words in str(e.value) and "\n" not in str(e.value)


def test_a_target_that_cannot_be_reached_stops_the_session_before_its_start_naming_it(
        twin_servers: list[Server]) -> None:
    closed = f"redis://127.0.0.1:{free_port()}/0"
    spec = PhaseSpec("run", twin_servers[0].url, _props(), threads=2, processes=1, duration_s=1.0,
                     alternation=Alternation((twin_servers[0].url, closed)))
    with pytest.raises(UserError) as e:
        PhaseRunner(spec).run_alternated()
    assert f"alternated target 2: {closed}" in str(e.value) and "\n" not in str(e.value)


@pytest.mark.parametrize("engine", [lambda: YcsbEngine(None), lambda: ClusterEngine("tcp://127.0.0.1:1")])
def test_the_java_and_cluster_engines_refuse_an_alternation(engine) -> None:
    with pytest.raises(UserError, match="cannot alternate targets") as e:
        engine().prepare(_spec())
    assert "\n" not in str(e.value)


def test_slices_stay_in_order_of_the_session_for_any_seed() -> None:
    for seed, n in itertools.product(range(5), (2, 3)):
        assert sorted(schedule(n, seed, 6 * n)) == sorted(list(range(n)) * 6)


def test_a_sessions_slices_are_counted_exactly_and_the_slice_range_and_property_sets_are_checked() -> None:
    """``slice_count``: the slices of a session, its last cut short by its end, counted as exact arithmetic
    (``fractions``) counts them — 2.1 s in slices of 0.3 s is 7, though 2.1 / 0.3 is 7.000000000000001 in floats;
    ``slice_edges``: the last slice ends with the session. The engine accepts both ends of ``SLICE_S_RANGE``, and one
    property set per target or none, refusing another count in one line."""
    import math
    from fractions import Fraction

    from ycsbctl.engine.alternation import SLICE_S_RANGE, slice_count, slice_edges

    for slice_s, session_s in ((0.3, 2.1), (0.3, 2.7), (0.1, 1.15), (0.2, 2.0), (0.3, 0.9), (0.05, 7.0), (0.7, 0.5)):
        assert slice_count(slice_s, session_s) == math.ceil(Fraction(str(session_s)) / Fraction(str(slice_s)))
    assert slice_count(0.2, 0.0) == 1  # a session of no time still has its one slice
    assert slice_edges(11, 0.1, 1.15) == (pytest.approx(1.1), 1.15) and slice_edges(0, 0.2, 2.0) == (0.0, 0.2)
    for slice_s in SLICE_S_RANGE:
        PhaseRunner(_spec(alternation=Alternation((A, B), slice_s=slice_s)))  # accepted: no UserError
    for slice_s in (0.0499, 10.01):  # just outside: one line naming the range
        with pytest.raises(UserError) as e:
            PhaseRunner(_spec(alternation=Alternation((A, B), slice_s=slice_s)))
        assert str(e.value) == f"slice of {slice_s:g} s: use 0.05 to 10 s"
    PhaseRunner(_spec(alternation=Alternation((A, B), properties=(_props(), _props()))))
    with pytest.raises(UserError) as e:
        PhaseRunner(_spec(alternation=Alternation((A, B), properties=(_props(),))))
    assert "1 property sets for 2 alternated targets" in str(e.value) and "\n" not in str(e.value)


def test_each_target_has_its_own_binding_properties_and_its_slices_the_streams_the_module_documents() -> None:
    """``properties_of``: an alternation with a property set per target gives each its own, one without gives the
    phase's; ``block_order``: the permutation ``random.Random(f"ycsbctl-alternation:{seed}:{block}")`` shuffles, then
    its reverse, as the module's docstring says (a folder's schedule is derived again from its seed)."""
    import random

    from ycsbctl.engine.alternation import block_order

    own = Alternation((A, B), properties=({"redis.password": "a"}, {"redis.password": "b"}))
    assert [own.properties_of(t, {"x": "1"}) for t in (0, 1)] == [{"redis.password": "a"}, {"redis.password": "b"}]
    assert Alternation((A, B)).properties_of(1, {"x": "1"}) == {"x": "1"}
    for n, seed, block in ((2, 0, 0), (3, 7, 3), (4, 11, 12)):
        pi = list(range(n))
        random.Random(f"ycsbctl-alternation:{seed}:{block}").shuffle(pi)
        assert block_order(n, seed, block) == pi + pi[::-1]


def test_a_targets_errors_come_once_each_why_clients_stopped_first_and_at_most_errors_shown() -> None:
    """``target_status``: a target's reasons from every worker's part of :class:`Done`, each once, the clients'
    ends first, a lost worker's reasons (a final without targets) added once to every target, and the list cut at
    :data:`ERRORS_SHOWN` (the length a plain point keeps)."""
    many = [f"error {i}" for i in range(ERRORS_SHOWN + 3)]
    parts = [TargetEnd(errors=many[:8], ended=["timed out"]), TargetEnd(errors=many[4:], ended=["timed out"])]
    ok = SimpleNamespace(status="ok", finals={})
    status, errors, stopped = target_status(ok, parts)  # type: ignore[arg-type]
    assert (status, stopped) == ("failed", 2)  # a client stopped early: the target failed
    assert errors == (["timed out"] + many)[:ERRORS_SHOWN]
    lost = SimpleNamespace(status="failed", finals={0: Done(0, errors=["worker 1 lost", "timed out"]),
                                                    1: Done(1, targets=parts)})
    status, errors, stopped = target_status(lost, [TargetEnd(errors=["refused"])])  # type: ignore[arg-type]
    assert (status, errors, stopped) == ("failed", ["refused", "worker 1 lost", "timed out"], 0)
    status, errors, _ = target_status(lost, [TargetEnd(errors=["worker 1 lost"])])  # type: ignore[arg-type]
    assert errors == ["worker 1 lost", "timed out"]


def test_a_schedule_given_a_number_of_targets_and_no_seed_is_seed_zeros():
    assert [slice_target(3, k) for k in range(24)] == [slice_target(3, k, 0) for k in range(24)] == schedule(3, 0, 24)
    assert schedule(3, 0, 24) != schedule(3, 1, 24)  # the seed matters: seed 0 is a choice, not every seed's schedule
