"""The native engine against a real redis-server: YCSB's client semantics, exact merging, failures.

Every run is small (a few hundred records, a few seconds) and uses at most 2 worker processes.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest
import redis

from tests.fixtures.pacing import (
    duration_floor,
    holdable_rate,
    largest_delay_s,
    runtime_bounds_ms,
    unpaced_ops,
)
from tests.fixtures.servers import free_port, start_mongo_wire, start_redis
from tests.fixtures.waiting import wait_until
from ycsbctl.engine.runner import PhaseRunner, run_phase
from ycsbctl.engine.spec import PhaseSpec, Tick
from ycsbctl.errors import UserError
from ycsbctl.results.model import PhaseResult
from ycsbctl.workload.core import split_count
from ycsbctl.workload.keys import build_key_name
from ycsbctl.workload.properties import load_properties


def _props(workload: str = "workload-b", **overrides: object) -> dict[str, str]:
    props = dict(load_properties(workload))
    props.update({k: str(v) for k, v in overrides.items()})
    return props


def _load(url: str, records: int, threads: int = 4, processes: int | None = 2,
          workload: str = "workload-b") -> PhaseResult:
    r = run_phase(PhaseSpec("load", url, _props(workload, recordcount=records), threads=threads, processes=processes))
    assert r.status == "ok" and r.ops["INSERT"].returns == {"OK": records}, r.errors
    return r


def _series_total(r: PhaseResult, op: str) -> int:
    s = r.series
    return int(s[(s.op == op) & ~s.warmup.astype(bool)].operations.sum())


def _records(rds: redis.Redis) -> int:
    return rds.dbsize() - (1 if rds.exists("_indices") else 0)


def _settled_clients(rds: redis.Redis, expected: int, timeout_s: float = 10.0) -> int:
    """connected_clients once it reaches ``expected`` (closed connections leave asynchronously)."""
    n = [rds.info("clients")["connected_clients"]]

    def settled() -> bool:
        n[0] = rds.info("clients")["connected_clients"]
        return n[0] == expected

    with contextlib.suppress(TimeoutError):  # the caller asserts the count
        wait_until(settled, timeout_s, f"{expected} clients", 0.01)
    return n[0]


# -- load phase --------------------------------------------------------------------------------


def test_load_over_two_processes_writes_exactly_ycsbs_key_set(redis_server, rds):
    r = _load(redis_server.url, 301, threads=5, processes=2)
    assert r.operations == 301 and r.processes == 2
    expected = {build_key_name(n).encode() for n in range(301)}
    assert set(rds.scan_iter(match="user*", count=1000)) == expected
    assert rds.zcard("_indices") == 301
    assert all(rds.hlen(k) == 10 for k in list(expected)[:20])


# -- run phase: counts, threads, duration -------------------------------------------------------


def test_operationcount_is_split_over_threads_as_ycsb_does():
    spec = PhaseSpec("run", "basic://", _props(operationcount=1001), threads=3, processes=2)
    runner = PhaseRunner(spec)
    quotas = [q for plan in runner._plans() for q in plan.quotas]
    assert quotas == split_count(1001, 3) == [334, 334, 333]
    r = runner.run()
    assert r.operations == 1001
    assert sum(r.ops[op].returns.get("OK", 0) for op in ("READ", "UPDATE") if op in r.ops) == 1001


def _work_until_its_controller_goes(controller: int) -> None:
    import asyncio

    from ycsbctl.engine.worker_process import _ended_with

    asyncio.run(_ended_with(controller, asyncio.sleep(60)))  # type: ignore[arg-type]  # work that outlasts the test


def _watches_a_pidfd(pid: int) -> bool:
    import os

    fds = Path(f"/proc/{pid}/fd")
    with contextlib.suppress(OSError):
        return any(os.readlink(fd) == "anon_inode:[pidfd]" for fd in fds.iterdir())
    return False


@pytest.mark.parametrize("gone", ["while it works", "before it starts"])
def test_a_worker_whose_controller_is_killed_exits_at_once_not_at_its_deadline(gone: str):
    """A controller SIGKILLed runs no clean-up: its workers heard of it only at their deadline (a point's end, or
    120 s waiting for the start), the fork server living on beside them. The worker watches its controller's pid:
    it exits with ORPHANED_EXIT when it goes (or is gone already), where the work (a 60 s sleep) would have ended
    it with 0."""
    import multiprocessing as mp
    import subprocess

    from ycsbctl.engine.worker_process import ORPHANED_EXIT

    controller = subprocess.Popen(["sleep", "120"])
    if gone == "before it starts":
        controller.kill()
        controller.wait()
    worker = mp.get_context("fork").Process(target=_work_until_its_controller_goes, args=(controller.pid,))
    worker.start()
    try:
        if gone == "while it works":
            wait_until(lambda: _watches_a_pidfd(worker.pid),
                       what="the worker watching its controller")  # type: ignore[arg-type]
            controller.kill()
            controller.wait()
        worker.join(50)
        assert worker.exitcode == ORPHANED_EXIT
    finally:
        if worker.is_alive():
            worker.kill()
            worker.join()
        if controller.poll() is None:
            controller.kill()
            controller.wait()


def test_a_worker_watches_its_controller_only_while_it_works_and_one_without_a_controller_watches_none():
    """_ended_with in this process: the work's own answer either way; a pidfd on the controller (this process)
    open while the work runs and closed after it; no controller (a plan built without one): no pidfd at all."""
    import asyncio
    import os

    async def work() -> tuple[str, bool]:
        return "done", _watches_a_pidfd(os.getpid())

    from ycsbctl.engine.worker_process import _ended_with

    assert asyncio.run(_ended_with(os.getpid(), work())) == ("done", True)  # type: ignore[arg-type]
    assert not _watches_a_pidfd(os.getpid())
    assert asyncio.run(_ended_with(None, work())) == ("done", False)  # type: ignore[arg-type]


def test_a_ctrl_c_while_the_workers_start_stops_every_one_of_them(monkeypatch):
    """Ctrl-C between two workers' starts (the first forked, the second asked for): the interrupt comes once both
    have started, the phase ends interrupted, and no worker is left running (one left held the terminal's pipes,
    and `ycsbctl run` never ended for its caller)."""
    import multiprocessing.process
    import os
    import signal

    import psutil

    started: list[int] = []
    start = multiprocessing.process.BaseProcess.start

    def start_then_interrupt(self) -> None:
        start(self)
        started.append(self.pid)
        if len(started) == 1:
            os.kill(os.getpid(), signal.SIGINT)

    monkeypatch.setattr(multiprocessing.process.BaseProcess, "start", start_then_interrupt)
    spec = PhaseSpec("run", "basic://", _props(operationcount=10**9), threads=2, processes=2)
    escaped = False
    try:
        r = PhaseRunner(spec).run()
    except KeyboardInterrupt:  # raised inside the starts: the workers started so far were left behind
        escaped = True
    alive = [pid for pid in started if psutil.pid_exists(pid) and psutil.Process(pid).status() != psutil.STATUS_ZOMBIE]
    for pid in alive:
        os.kill(pid, signal.SIGKILL)
    assert not escaped and not alive, (escaped, alive)
    assert len(started) == 2 and r.status == "interrupted"


def test_every_client_thread_holds_its_own_connection_and_the_start_says_what_it_waits_for(redis_server, rds):
    _load(redis_server.url, 200)
    before = _settled_clients(rds, 1)  # this test's own connection
    seen: list[int] = []
    starting: list[tuple[str, int]] = []  # what the point said it waited for, and the clients Redis had then

    def tick(t: Tick) -> None:
        clients = rds.info("clients")["connected_clients"]
        (starting.append((t.starting, clients)) if t.starting else seen.append(clients))
        assert not (t.starting and seen), "a start phase after a measured second"

    r = run_phase(PhaseSpec("run", redis_server.url, _props(recordcount=200, operationcount=0), threads=12, processes=2,
                            duration_s=2), tick)
    assert r.status == "ok" and seen
    assert max(seen) == before + 12
    assert _settled_clients(rds, before) == before  # all closed at the end
    # before its first second the point said what it waited for, never "0 ops/s": first its processes starting,
    # while Redis had none of its clients yet, then their clients connecting, with how many processes were ready
    assert starting[0] == ("its 2 engine processes start", before), starting
    assert starting[-1][0].startswith("its 2 engine processes connect 12 clients ("), starting
    assert all(clients <= before + 12 for _, clients in starting)


@pytest.mark.speed
def test_duration_ends_the_run_and_warmup_seconds_stay_in_the_series_but_not_the_totals(redis_server, rds):
    _load(redis_server.url, 200)
    rds.config_resetstat()
    spec = PhaseSpec("run", redis_server.url, _props(recordcount=200, operationcount=0), threads=4, processes=1,
                     duration_s=2, warmup_s=1)
    r = run_phase(spec)
    served = sum(int(v["calls"]) for k, v in rds.info("commandstats").items() if k in ("cmdstat_hgetall",
                                                                                       "cmdstat_hmset"))
    assert r.status == "ok" and r.warmup_s == 1.0
    s = r.series
    overall = s[s.op == "OVERALL"]
    assert overall[overall.second == 0].warmup.all() and not overall[overall.second > 0].warmup.any()
    assert overall[overall.second == 0].operations.iloc[0] > 0  # kept in the series
    assert r.operations == _series_total(r, "OVERALL")
    assert r.ops["READ"].operations == _series_total(r, "READ")
    # The clients stop at the first operation that ends after warm-up + duration: the runtime is the
    # duration plus at most the slowest operation and the loop's lag, as the run measured them.
    lo, hi = runtime_bounds_ms(r, spec.duration_s)
    assert lo <= r.runtime_ms <= hi
    # The server served the measured operations and the warm-up's, nothing else.
    assert r.operations + overall[overall.warmup.astype(bool)].operations.sum() == served


def test_per_second_series_and_merged_histograms_of_two_processes_agree_exactly(redis_server, rds):
    _load(redis_server.url, 300)
    r = run_phase(PhaseSpec("run", redis_server.url, _props(recordcount=300, operationcount=4000), threads=4,
                            processes=2))
    assert r.status == "ok" and r.processes == 2 and r.operations == 4000
    read = r.ops["READ"]
    assert read.histogram.get_total_count() == read.operations == read.returns["OK"] == _series_total(r, "READ")
    assert r.ops["UPDATE"].operations == r.ops["UPDATE"].returns["OK"] == _series_total(r, "UPDATE")
    assert read.operations + r.ops["UPDATE"].operations == r.operations == _series_total(r, "OVERALL")


def test_statuses_are_counted_per_operation_and_failures_timed_apart(redis_server, rds):
    _load(redis_server.url, 100, workload="workload-c")
    # Half the key space was never loaded: those reads are NOT_FOUND.
    r = run_phase(PhaseSpec("run", redis_server.url, _props("workload-c", recordcount=200, operationcount=1000,
                                                             requestdistribution="uniform"), threads=4, processes=2))
    read = r.ops["READ"]
    ok, missing = read.returns["OK"], read.returns["NOT_FOUND"]
    assert ok + missing == 1000 and ok > 300 and missing > 300
    assert read.operations == ok and r.ops["READ-FAILED"].operations == missing
    assert r.error_rate == 0.0  # NOT_FOUND is a failed read, not an error


def test_read_modify_write_is_timed_whole_and_counted_under_read_and_update():
    r = run_phase(PhaseSpec("run", "basic://", _props("workload-f", operationcount=2000), threads=4, processes=2,
                            target_rate=4000, measurement="both"))
    rmw = r.ops["READ-MODIFY-WRITE"].operations
    assert 0 < rmw < 2000 and r.operations == 2000
    assert r.ops["READ"].operations == 2000  # plain reads + the read half of every RMW
    assert r.ops["UPDATE"].operations == rmw
    assert r.ops["Intended-READ"].operations == 2000 and r.ops["Intended-UPDATE"].operations == rmw
    assert r.ops["Intended-READ-MODIFY-WRITE"].operations == rmw
    assert r.ops["READ-MODIFY-WRITE"].returns == {}  # YCSB prints RMW statuses under READ and UPDATE


def test_basic_url_answers_ok_to_every_operation():
    load = run_phase(PhaseSpec("load", "basic://", _props("workload-e", recordcount=500), threads=3))
    assert load.ops["INSERT"].returns == {"OK": 500}
    r = run_phase(PhaseSpec("run", "basic://", _props("workload-e", operationcount=3000), threads=3))
    assert r.operations == 3000
    assert {st for s in r.ops.values() for st in s.returns} == {"OK"}
    assert r.ops["SCAN"].returns["OK"] + r.ops["INSERT"].returns["OK"] == 3000


# -- target rate and intended latency -----------------------------------------------------------


@pytest.mark.speed
def test_target_rate_is_held_and_intended_latency_is_recorded_beside_the_actual(redis_server, rds):
    _load(redis_server.url, 200)
    spec = PhaseSpec("run", redis_server.url, _props(recordcount=200, operationcount=0), threads=8, processes=2,
                     duration_s=3, measurement="both")
    spec.target_rate = rate = holdable_rate(1500, unpaced_ops(spec, duration_s=1))  # ≤ half this machine's maximum
    r = run_phase(spec)
    assert r.status == "ok" and r.target_rate == rate
    assert duration_floor(rate, 8, 3, largest_delay_s(r)) <= r.throughput_ops <= 1.05 * rate
    intended, actual = r.ops["Intended-READ"], r.ops["READ"]
    assert intended.operations == actual.operations  # all reads OK here: one intended sample each
    assert intended.percentile(99) >= actual.percentile(99)
    assert intended.percentile(50) >= actual.percentile(50)


def test_intended_measurement_replaces_the_actual_latency():
    r = run_phase(PhaseSpec("run", "basic://", _props(operationcount=600), threads=2, processes=1,
                            target_rate=600, measurement="intended"))
    assert "READ" in r.ops and not any(n.startswith("Intended-") for n in r.ops)


# -- run-phase inserts ----------------------------------------------------------------------------


def test_inserts_from_two_processes_never_collide_and_reads_see_only_acknowledged_keys(redis_server, rds):
    _load(redis_server.url, 300, workload="workload-d")
    props = _props("workload-d", recordcount=300, operationcount=3000, readproportion=0.5, insertproportion=0.5)
    r = run_phase(PhaseSpec("run", redis_server.url, props, threads=4, processes=2))
    inserted = r.ops["INSERT"].returns["OK"]
    assert r.status == "ok" and inserted > 1000
    assert _records(rds) == 300 + inserted == rds.zcard("_indices")
    assert r.ops["READ"].returns.get("NOT_FOUND", 0) == 0  # "latest" never reads past the acknowledged limit


# -- failures -------------------------------------------------------------------------------------


@pytest.mark.speed
def test_a_stalled_server_gives_counted_timeouts_and_the_run_finishes(redis_server, rds):
    _load(redis_server.url, 200)
    pauser = redis.Redis.from_url(redis_server.url)
    paused: list[int] = []

    def tick(t: Tick) -> None:
        if not (paused or t.starting):  # once the clients run, not while they connect
            pauser.execute_command("CLIENT", "PAUSE", "1500", "ALL")
            paused.append(t.second)

    try:
        r = run_phase(PhaseSpec("run", redis_server.url, _props(recordcount=200, operationcount=0), threads=4,
                                processes=1, duration_s=5, timeout_s=0.2), tick)
    finally:
        pauser.execute_command("CLIENT", "UNPAUSE")
        pauser.close()
    assert r.status == "ok", r.errors
    timeouts = r.returns("TIMEOUT")
    assert timeouts >= 4  # every client timed out at least once
    assert any("timed out" in e for e in r.errors)
    assert r.ops["READ"].returns["OK"] > 0
    assert r.operations == _series_total(r, "OVERALL")
    # Work resumed after the pause (1.5 s from the end of second 0): the last full second is busy again.
    s = r.series[(r.series.op == "OVERALL")]
    assert s[s.second == 4].operations.iloc[0] > timeouts


def _kill_after_first_second(server, killed: list[int]):
    """A progress callback that SIGKILLs ``server`` once the first second is reported."""

    def tick(t: Tick) -> None:
        if t.second >= 1 and not killed:
            server.proc.kill()
            server.proc.wait()
            killed.append(t.second)

    return tick


def test_a_killed_server_ends_the_run_as_failed_keeping_what_was_measured(tmp_path: Path):
    server = start_redis(tmp_path / "victim")
    killed: list[int] = []
    tick = _kill_after_first_second(server, killed)

    try:
        _load(server.url, 200)
        r = run_phase(PhaseSpec("run", server.url, _props(recordcount=200, operationcount=0), threads=4, processes=2,
                                duration_s=5, timeout_s=1.0), tick)
    finally:
        server.stop()
    assert killed
    assert r.status == "failed"
    assert r.errors and r.errors[0].startswith("lost the server")
    assert r.operations > 0 and r.ops["READ"].returns["OK"] > 0
    assert r.threads_stopped == 4


def test_an_unreachable_target_is_an_environment_error_naming_the_address():
    port = free_port()
    with pytest.raises(UserError, match=f"cannot connect to 127.0.0.1:{port}") as exc:
        run_phase(PhaseSpec("run", f"redis://127.0.0.1:{port}", _props(operationcount=10), threads=2))
    assert exc.value.exit_code == 1


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (PhaseSpec("run", "basic://", {}, threads=0), "threads must be ≥ 1"),
        (PhaseSpec("warm", "basic://", {}), "unknown phase"),
        (PhaseSpec("run", "http://x", {"operationcount": "10"}), "unsupported target URL"),
        (PhaseSpec("run", "basic://", {"operationcount": "10"}, target_rate=0), "target rate must be > 0"),
        (PhaseSpec("run", "basic://", {"operationcount": "10"}, measurement="sometimes"), "measurement.interval"),
        (PhaseSpec("run", "basic://", {"operationcount": "0"}), "needs operationcount > 0 or a duration"),
    ],
)
def test_bad_specs_are_refused_before_anything_starts(spec: PhaseSpec, message: str):
    with pytest.raises(UserError, match=message) as exc:
        PhaseRunner(spec)
    assert exc.value.exit_code == 2


def test_a_killed_mongodb_server_ends_the_run_as_failed_too(tmp_path: Path):
    server = start_mongo_wire(tmp_path / "victim")
    killed: list[int] = []
    tick = _kill_after_first_second(server, killed)

    try:
        _load(server.url, 100, threads=2, processes=1)
        r = run_phase(PhaseSpec("run", server.url, _props(recordcount=100, operationcount=0), threads=2, processes=1,
                                duration_s=5, timeout_s=1.0), tick)
    finally:
        server.stop()
    assert killed and r.status == "failed"
    assert r.errors[0].startswith("lost the MongoDB server") and "configured timeouts" not in r.errors[0]
    assert r.ops["READ"].returns["OK"] > 0


def test_a_failed_insert_stops_its_loading_thread_as_ycsb_does(tmp_path: Path):
    server = start_redis(tmp_path / "full")
    try:
        r0 = redis.Redis.from_url(server.url)
        r0.config_set("maxmemory-policy", "noeviction")
        r0.config_set("maxmemory", "1")  # every write is refused: OOM
        r = run_phase(PhaseSpec("load", server.url, _props(recordcount=400), threads=4, processes=2))
        r0.close()
    finally:
        server.stop()
    # Each thread's first insert failed, then the thread stopped: the dataset is incomplete.
    assert r.ops["INSERT"].returns == {"ERROR": 4} and r.ops["INSERT-FAILED"].operations == 4
    assert r.status == "failed" and r.threads_stopped == 4
    assert r.errors[0].startswith("an insert failed (OOM command not allowed")
