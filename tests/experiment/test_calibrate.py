"""ycsbctl calibrate: ycsbctl's client against redis-benchmark on one real redis-server, reading the same
records. The truths hold at any speed: the server's own count of HGETALL calls (INFO commandstats, read
here) is exactly the reads both sides sent, each ratio is the paired geometric mean of the rounds'
samples, and each verdict agrees with its interval."""

from __future__ import annotations

import json
import math
import os
import re
import shutil

import pytest
import redis
from click.testing import CliRunner

from tests.fixtures.docs import docs_page
from ycsbctl.cli import main
from ycsbctl.results import stats

pytestmark = pytest.mark.skipif(shutil.which("redis-benchmark") is None,
                                reason="needs redis-benchmark (apt-get install redis-tools)")

DB = 9  # an empty database of the session's server: calibrate refuses one that holds keys


def _hgetall_calls(r: redis.Redis) -> int:
    return int((r.info("commandstats").get("cmdstat_hgetall") or {}).get("calls", 0))


LOAD_AVERAGES = (0.25, 1.5, 3.0)  # os.getloadavg() while calibrate runs


@pytest.fixture(scope="module")
def calibrated(redis_server, tmp_path_factory):
    url = redis_server.url.rsplit("/", 1)[0] + f"/{DB}"
    r = redis.Redis.from_url(url)
    r.flushdb()
    for _ in range(3):  # reads the server counted before calibrate began: not among those it counts
        r.hgetall("not-a-record")
    before, connections = _hgetall_calls(r), int(r.info("stats")["total_connections_received"])
    assert before >= 3
    out = tmp_path_factory.mktemp("calibrate") / "cal.json"
    with pytest.MonkeyPatch.context() as mp:  # the host's load averages over 1, 5 and 15 minutes, each its own
        mp.setattr(os, "getloadavg", lambda: LOAD_AVERAGES)
        result = CliRunner().invoke(main, ["calibrate", "--target", url, "--threads", "2", "--rounds", "2",
                                           "--duration", "0.5", "--records", "500", "--processes", "1",
                                           "--warmup", "0.2", "--json", str(out)])
    served = _hgetall_calls(r) - before
    connections = int(r.info("stats")["total_connections_received"]) - connections
    left = int(r.dbsize())
    r.close()
    return result, json.loads(out.read_text()) if out.exists() else None, served, left, connections


@pytest.mark.truth
def test_both_sides_read_the_same_server_and_it_counted_every_read(calibrated):
    result, cal, served, left, connections = calibrated
    assert result.exit_code == 0, result.output
    assert re.fullmatch(r"Redis \d+\.\d+\.\d+", cal["server"]), cal["server"]  # the server that answered, its version
    samples = cal["samples"]
    assert {(s["side"], s["threads"], s["round"]) for s in samples} == {
        (side, 2, r) for side in ("ycsbctl", "redis-benchmark") for r in (1, 2)}
    # INFO commandstats of the server, read here: every HGETALL either side sent, warm-ups included, and no other
    assert served == cal["reads_served"] == cal["reads_sent"] >= sum(s["reads"] for s in samples) > 0
    assert all(s["reads"] > 0 and s["ops_s"] > 0 for s in samples)
    for s in samples:
        # Little's law on a closed loop: mean latency × rate ÷ connections is the share of a connection's cycle
        # its reads were in flight: at most 1 (plus the reads a short run's deadline leaves finishing after it),
        # 0.5-1 on a quiet host, lower where redis-benchmark's own loop is late to write (it starts the clock
        # then). Its report is in ms: read as µs, a share 1000 times too small or too large fails either bound.
        share = s["mean_us"] * s["ops_s"] / (1e6 * s["threads"])
        assert 0.002 < share <= 1.5, s
        assert s["p99_us"] >= s["mean_us"] / 10 and s["client_us_per_op"] > 0
    assert left == 0  # the records are gone again
    # the warm-ups (not kept): the reference's 2,000 requests per thread count and ycsbctl's 0.2 s (--warmup 0.2),
    # which read too (the server counted them among the served) ...
    ref = {s["round"]: s for s in samples if s["side"] == "redis-benchmark"}
    assert cal["reads_sent"] - sum(s["reads"] for s in samples) - 2_000 > 0
    # ... and each later run of it is sized by the rate of the one before: about --duration seconds, 1,000 at least
    assert ref[2]["reads"] == max(1_000, int(ref[1]["ops_s"] * 0.5))
    # the load's clients are min(8, records), not one per record: 8, then 2 per run of either side (6 runs) and a
    # few admin connections; 32 measured on a quiet host (a load of 500 clients would open 500)
    assert connections < 100
    # each sample's line says its own side's figures
    for s in samples:
        assert f"round {s['round']}/2, 2 threads, {s['side']}: {s['ops_s']:,.0f} ops/s" in result.output
    ours = sum(s["reads"] for s in samples if s["side"] == "ycsbctl")
    # how it ran, as printed: the counts above, the records read, the family tested, the host's load
    assert (f"the same server: it counted {served:,} HGETALL calls over the warm-ups and rounds, the {served:,} both "
            f"sides sent ({ours:,} by ycsbctl and {sum(s['reads'] for s in samples) - ours:,} by "
            "redis-benchmark in the rounds)") in result.output
    assert "both read the same 500 records (user000000000000 … user000000000499, 10 fields" in result.output
    assert "Benjamini–Hochberg over the 3 cells tested" in result.output
    assert cal["load_avg"] == [LOAD_AVERAGES[0]] * 2  # the 1-minute load average, before and after the rounds
    assert "load average 0.25 before the rounds, 0.25 after" in result.output


@pytest.mark.truth
def test_each_ratio_is_the_rounds_paired_geometric_mean_and_each_verdict_agrees_with_its_interval(calibrated):
    result, cal, _, _, _ = calibrated
    assert result.exit_code == 0, result.output
    pick = {"throughput": "ops_s", "client CPU per read": "client_us_per_op", "READ p99": "p99_us"}
    by = {(s["side"], s["threads"], s["round"]): s for s in cal["samples"]}
    cells = cal["comparisons"]
    assert len(cells) == 3  # throughput, client CPU per read, READ p99 at 2 threads
    for c in cells:
        logs = [math.log(by[("ycsbctl", c["threads"], r)][pick[c["metric"]]]
                         / by[("redis-benchmark", c["threads"], r)][pick[c["metric"]]]) for r in (1, 2)]
        assert c["ratio"] == pytest.approx(math.exp(sum(logs) / 2), rel=1e-9)
        assert c["n"] == 2 and c["test"] == "paired t (log ratio per round)"
        assert c["ci_low"] <= c["ratio"] <= c["ci_high"]
        excludes_one = c["ci_low"] > 1 or c["ci_high"] < 1
        if c["verdict"] in (stats.BETTER, stats.WORSE):
            assert excludes_one and (c["ratio"] > 1) == ((c["verdict"] == stats.BETTER) == c["higher_is_better"])
        elif c["verdict"] == stats.EQUIVALENT:  # inside the ±10 % margin, whether or not it leaves 1 out
            assert c["ci_low"] >= 1 / 1.1 and c["ci_high"] <= 1.1
        else:
            assert c["verdict"] == stats.UNDECIDED and not excludes_one
    # the verdicts are the statistics module's own on these samples, decided together (one family)
    decided = stats.decide([stats.compare({r: by[("redis-benchmark", c["threads"],
                                                  r)][pick[c["metric"]]] for r in (1, 2)},
                                          {r: by[("ycsbctl", c["threads"], r)][pick[c["metric"]]] for r in (1, 2)},
                                          paired=True) for c in cells], [c["higher_is_better"] for c in cells])
    for c, d in zip(cells, decided):
        assert (c["ci_low"], c["ci_high"]) == pytest.approx((d.low, d.high), rel=1e-9) and c["verdict"] == d.verdict
        assert c["detectable_pct"] == pytest.approx(100 * d.detectable, rel=1e-9)
    tp = [c for c in cells if c["metric"] == "throughput"]
    tested = [c for c in cells if c["p_adjusted"] == c["p_adjusted"]]
    called = sum(c["p_adjusted"] < 0.05 for c in tested)
    family = 100 * (1 - max(called, 1) * 0.05 / len(tested))  # the family's level (Benjamini-Yekutieli)
    same = [c for c in tested if c["verdict"] == stats.EQUIVALENT]  # at the two one-sided tests' level, 90 %
    lines = result.output.splitlines()
    for c in cells:  # each table's row: both sides' figures in the metric's unit, the ratio and the verdict
        head = lines.index(f"{c['metric']} ({c['unit']}, {'higher' if c['higher_is_better'] else 'lower'} is better)")
        said = re.search(r"\[([\d.]+) %(?: \(an equivalent cell's: ([\d.]+) %\))?\]", lines[head + 1])
        assert said, lines[head + 1]
        first = 90.0 if len(same) == len(tested) else family
        assert float(said[1]) == pytest.approx(first, abs=0.05), lines[head + 1]
        assert (said[2] is not None) == (0 < len(same) < len(tested)), lines[head + 1]
        assert said[2] is None or float(said[2]) == 90.0
        row = lines[head + 2]
        unit = {"throughput": "{:,.0f}", "client CPU per read": "{:,.1f}"}.get(c["metric"])
        for side in ("ycsbctl", "reference"):
            want = unit.format(c[side]) if unit else f"{c[side] / 1000:,.2f} ms"  # p99 in ms
            assert f" {want} " in row, (c["metric"], side, row)
        verdict = c["verdict"] + (
            f" (could detect ±{c['detectable_pct']:.0f} %)" if c["verdict"] == stats.UNDECIDED else ""
        )
        assert row.split()[0] == "2" and f"{c['ratio']:.2f}×" in row and row.endswith(verdict), row
    said = next(line for line in result.output.splitlines()
                if line.startswith(("ycsbctl's client is not", "The client limits", "No shortfall detected")))
    worse = [c for c in tp if c["verdict"] == stats.WORSE]
    assert said.startswith("The client limits") == bool(worse)
    if said.startswith("ycsbctl's client is not"):
        assert min(c["ci_low"] for c in tp) >= 0.95


def test_a_database_that_holds_keys_a_store_without_a_reference_and_a_unix_socket_are_refused_in_one_line(redis_server):
    url = redis_server.url.rsplit("/", 1)[0] + f"/{DB + 1}"
    r = redis.Redis.from_url(url)
    r.set("mine", "1")
    try:
        res = CliRunner().invoke(main, ["calibrate", "--target", url, "--rounds", "1"])
        assert res.exit_code == 2 and res.output == (f"error: calibrate loads its own records: the database at {url} "
                                                     "holds 1; give an empty one (redis://host:port/15)\n"), res.output
        assert r.get("mine") == b"1"  # nothing lost
    finally:
        r.flushdb()
        r.close()
    for target, said in (("mongodb://127.0.0.1:1/ycsb",
                          "calibrate needs a store that ships a load generator of its own"),
                         ("unix:///tmp/redis.sock", "calibrate runs redis-benchmark over TCP")):
        res = CliRunner().invoke(main, ["calibrate", "--target", target])
        assert res.exit_code == 2 and res.output.startswith(f"error: {said}") and res.output.count("\n") == 1, (
            res.output
        )


def _cell(threads: int, ratio: float, low: float, high: float, verdict: str) -> dict:
    return {"threads": threads, "metric": "throughput", "unit": "ops/s", "higher_is_better": True, "ratio": ratio,
            "ci_low": low, "ci_high": high, "ci_level": 0.99, "p_adjusted": 0.5 if low == low else math.nan,
            "verdict": verdict, "detectable_pct": 4.0}


def test_the_verdict_on_the_client_is_said_only_as_far_as_the_intervals_go():
    from types import SimpleNamespace

    from ycsbctl.experiment.calibrate import CalibratePlan
    from ycsbctl.experiment.calibrate_text import verdict_sentence

    cal = SimpleNamespace(reference="redis-benchmark", plan=CalibratePlan(), rounds_run=5, round_s=None)
    nan = math.nan
    ok = verdict_sentence(cal, [_cell(8, 1.01, 0.95, 1.06, stats.UNDECIDED), _cell(32, 1.10, 1.02, 1.18, stats.BETTER)])
    assert ok == ("ycsbctl's client is not the bottleneck at 8 and 32 threads: from the same server it got "
                  "1.01× [0.95, 1.06] at 8 and 1.10× [1.02, 1.18] at 32 threads of redis-benchmark's rate — at least "
                  "0.95× of it (99 % intervals).")  # a shortfall of 5 % exactly is ruled out
    # a shortfall not ruled out: not decided
    wide = verdict_sentence(cal, [_cell(8, 1.14, 0.18, 7.21, stats.UNDECIDED)])
    assert wide.startswith("No shortfall detected at 8 threads") and "leave room for one down to 0.18×" in wide
    assert wide.endswith("not decided, neither a shortfall nor within ±10 % — more rounds (--rounds, --budget) or "
                         "longer ones (--duration) narrow them.")  # ±150 %: no figure of rounds would mean much
    edge = verdict_sentence(cal, [_cell(8, 1.0, 0.949, 1.05, stats.UNDECIDED)])
    assert edge.startswith("No shortfall detected")  # 5.1 % below is not ruled out
    short = verdict_sentence(cal, [_cell(8, 1.0, 0.97, 1.03, stats.UNDECIDED), _cell(32, 0.8, 0.7, 0.9, stats.WORSE)])
    assert short.startswith("The client limits what ycsbctl measures at 32 threads: from the same server it got ")
    # within ±10 % at every thread count: said as such, with the shortfall its intervals leave room for
    same = verdict_sentence(cal, [_cell(8, 0.99, 0.93, 1.05, stats.EQUIVALENT),
                                  _cell(32, 1.2, 1.1, 1.3, stats.BETTER)])
    assert same.startswith("ycsbctl's client is within ±10 % of redis-benchmark or above it (equivalent or better) "
                           "at 8 and 32 threads: ") and same.endswith("a shortfall of up to 7 % is not ruled out.")
    both = verdict_sentence(cal, [_cell(8, 0.99, 0.93, 1.05, stats.EQUIVALENT),
                                  _cell(32, 1.0, 0.92, 1.06, stats.EQUIVALENT)])
    assert both.startswith("ycsbctl's client is within ±10 % of redis-benchmark (equivalent) at 8 and 32 threads: ")
    assert both.endswith("a shortfall of up to 8 % is not ruled out.")
    # undecided: about how many rounds would decide it at this spread (12 s rounds from the plan: 2 × 2 × 3 s), the
    # interval narrowed by √(rounds ÷ 5) about its centre then fitting ±10 % (classify, another way of saying it)
    open_ = verdict_sentence(cal, [_cell(8, 0.97, 0.85, 1.107, stats.UNDECIDED)])
    m = re.search(r"about (\d+) rounds would decide it \(--rounds \1, or --budget (\d+)m at ~12 s a round\)", open_)
    assert m is not None, open_
    k = int(m[1]) / 5
    centre, half = (math.log(0.85) + math.log(1.107)) / 2, (math.log(1.107) - math.log(0.85)) / 2
    fits = [stats.classify(math.exp(centre - half / math.sqrt(x)), math.exp(centre + half / math.sqrt(x)), True, 0.10)
            for x in (k, (int(m[1]) - 1) / 5)]
    assert fits == [stats.EQUIVALENT, stats.UNDECIDED] and int(m[2]) == math.ceil(int(m[1]) * 12 / 60)
    one = verdict_sentence(cal, [_cell(8, 1.2, nan, nan, stats.UNDECIDED)])
    assert one == ("Not decided: one round gives no interval (ycsbctl got 1.20× at 8 threads of redis-benchmark's "
                   "rate); run --rounds 5 for a verdict.")


@pytest.mark.parametrize("change", [{"threads": (0, 8)}, {"threads": ()}, {"duration_s": 0.0}, {"rounds": 0},
                                    {"records": 0}, {"warmup_s": -0.5}, {"budget_s": 0.0}, {"budget_s": math.inf},
                                    {"margin": 0.0}, {"margin": 1.0}])
def test_a_plan_with_a_thread_count_under_one_or_no_time_rounds_records_or_a_negative_warm_up_is_refused(change):
    from dataclasses import replace

    from ycsbctl.errors import UserError
    from ycsbctl.experiment.calibrate import CalibratePlan

    CalibratePlan(threads=(1,), duration_s=0.1, rounds=1, records=1, warmup_s=0.0).check()  # the least it takes
    with pytest.raises(UserError):
        replace(CalibratePlan(), **change).check()


def test_a_budget_plans_the_rounds_its_first_round_s_length_fits_two_at_the_least():
    from ycsbctl.experiment.calibrate import CalibratePlan

    assert CalibratePlan(rounds=7).planned(3.0) == 7  # no --budget: --rounds
    budget = CalibratePlan(budget_s=300.0)
    assert [budget.planned(x) for x in (12.0, 13.0, 100.0, 400.0)] == [25, 23, 3, 2]  # 300 // x, two at the least


def test_a_budget_runs_the_rounds_its_first_round_planned_and_the_server_counted_their_reads(redis_server, tmp_path):
    """``--budget 2s`` with rounds of about 1 s or more: the count said after round 1 is what 2 s hold at the length it
    recorded (two at the least), that many rounds ran (each side once a thread count a round: the samples), and the
    server counted every read both sides sent."""
    url = redis_server.url.rsplit("/", 1)[0] + "/11"
    r = redis.Redis.from_url(url)
    r.flushdb()
    before = _hgetall_calls(r)
    out = tmp_path / "cal.json"
    result = CliRunner().invoke(main, ["calibrate", "--target", url, "--threads", "2", "--budget", "2s", "--duration",
                                       "0.3", "--records", "300", "--processes", "1", "--warmup", "0", "--json",
                                       str(out)])
    served = _hgetall_calls(r) - before
    r.close()
    assert result.exit_code == 0, result.output
    cal = json.loads(out.read_text())
    planned = max(2, int(2.0 // cal["round_s"]))
    assert f"rounds planned: {planned} (the --budget of 2 s holds {planned} at ~" in result.output
    assert cal["rounds_run"] == planned and f"{planned} round(s) of about 0.3 s" in result.output
    assert sorted({(s["round"], s["side"]) for s in cal["samples"]}) == sorted(
        (n, side) for n in range(1, planned + 1) for side in ("ycsbctl", "redis-benchmark"))
    assert served == cal["reads_sent"] == sum(s["reads"] for s in cal["samples"]) + 2_000  # + the probe's warm-up


def test_budget_and_rounds_together_or_a_budget_or_margin_not_a_time_or_share_are_one_line_exit_2():
    for argv, said in ((["--budget", "5m", "--rounds", "5"], "--rounds 5 and --budget 5m both say how many rounds"),
                       (["--budget", "soon"], "--budget 'soon': give a time such as 90s, 10m or 1h"),
                       (["--margin", "150%"], "--margin '150%': give a share such as 10% or 0.1")):
        result = CliRunner().invoke(main, ["calibrate", "--target", "redis://127.0.0.1:1/9", *argv])
        assert result.exit_code == 2 and said in result.output and len(result.output.strip().splitlines()) == 1, argv


def test_a_cell_says_its_detectable_difference_only_when_same_and_its_p99_in_ms():
    from ycsbctl.experiment.calibrate_text import _value, _verdict

    assert _verdict(_cell(8, 1.01, 0.95, 1.06, stats.UNDECIDED)) == f"{stats.UNDECIDED} (could detect ±4 %)"
    assert _verdict(_cell(8, 1.10, 1.02, 1.18, stats.BETTER)) == stats.BETTER  # a call needs no detectable size
    assert _verdict({**_cell(8, 1.01, 0.95, 1.06, stats.UNDECIDED), "detectable_pct": math.nan}) == stats.UNDECIDED
    p99 = {"metric": "READ p99", "unit": "µs", "ycsbctl": 1_234_000.0, "reference": math.nan}
    assert (_value(p99, "ycsbctl"), _value(p99, "reference")) == ("1,234.00 ms", "—")
    cpu = {"metric": "client CPU per read", "unit": "µs", "ycsbctl": 7.25}
    tp = {"metric": "throughput", "unit": "ops/s", "ycsbctl": 41_234.6}
    assert (_value(cpu, "ycsbctl"), _value(tp, "ycsbctl")) == ("7.2", "41,235")


def test_how_it_ran_says_the_load_average_before_and_after_and_the_reads_each_side_sent():
    from dataclasses import replace

    from ycsbctl.experiment.calibrate import CalibratePlan, Calibration, Sample
    from ycsbctl.experiment.calibrate_text import how_it_ran

    cal = Calibration(CalibratePlan(records=500), "redis 7.2.4", "redis://127.0.0.1:6379/9", "redis-benchmark",
                      {"zeropadding": "12", "insertorder": "ordered"}, load_avg=(1.5, 2.25), cores=2,
                      reads_sent=7_000, reads_served=7_000,
                      samples=[Sample(1, 8, "ycsbctl", 1.0, 1.0, 1.0, 1.0, 3_000),
                               Sample(1, 8, "redis-benchmark", 1.0, 1.0, 1.0, 1.0, 2_000)])
    lines = how_it_ran(cal, [])
    assert "1-minute load average 1.50 before the rounds, 2.25 after" in lines[-2]
    assert ("the same server: it counted 7,000 HGETALL calls over the warm-ups and rounds, the 7,000 both sides sent "
            "(3,000 by ycsbctl and 2,000 by redis-benchmark in the rounds)") in lines
    assert lines[0].startswith("both read the same 500 records (user000000000000 … user000000000499, 10 fields")
    assert lines[1].endswith(", no warm-up, its default number of worker process(es)")  # processes None
    cal.plan = replace(cal.plan, processes=3)
    assert how_it_ran(cal, [])[1].endswith(", no warm-up, 3 worker process(es)")
    # the family's level is the lowest of the tested cells' (an untested cell's NaN p leaves it out); the first
    # other benchmark seen is named
    cells = [{"ci_level": lv, "p_adjusted": p} for lv, p in ((0.99, 0.5), (0.975, 0.01), (0.5, math.nan))]
    cal.busy = ["memtier_benchmark (pid 41)", "ycsb (pid 42)"]
    lines = how_it_ran(cal, cells)
    assert "Benjamini–Hochberg over the 2 cells tested, intervals at the family's level (97.5 %)" in lines[-5], lines
    # an equivalent cell's interval is the two one-sided tests' (90 %): named beside the family's, not as it
    cells[0].update(verdict=stats.EQUIVALENT, ci_level=0.9)
    assert "intervals at the family's level (97.5 % (an equivalent cell's: 90 %))" in how_it_ran(cal, cells)[-5]
    assert lines[-1].startswith("another benchmark ran on this host meanwhile (memtier_benchmark (pid 41)): ")


def test_a_ycsbctl_side_that_measured_no_read_ends_calibrate_in_one_line():
    from ycsbctl.errors import UserError
    from ycsbctl.experiment.calibrate import CalibratePlan, _ours
    from ycsbctl.workload.properties import load_properties

    # a run that went well but read nothing (every operation an update) has no read figure to hold against the reference
    props = dict(load_properties("workload-c"), recordcount="100", readproportion="0", updateproportion="1")
    with pytest.raises(UserError, match="ycsbctl's run at 2 threads failed: it measured no read$"):
        _ours("basic://", props, CalibratePlan(processes=1), 2, 0.2, 1)


def test_redis_benchmark_reaches_the_host_port_database_and_user_the_url_names_as_redis_py_reads_them():
    # the truth: redis-py's own reading of each URL (the engine's binding reads them alike); the password masked
    from redis.connection import ConnectionPool

    from ycsbctl.stores.redis.benchmark import connection_args

    for url in ("redis://10.0.0.7:7001/3", "redis://cache.example", "redis://u:s3cret@[::1]:6390/0",
                "redis://:pw@127.0.0.1:6379/12"):
        kw = ConnectionPool.from_url(url).connection_kwargs
        args, masked = connection_args(url)
        expect = ["-h", kw["host"], "-p", str(kw.get("port", 6379)), "--dbnum", str(kw.get("db", 0))]
        expect += ["--user", kw["username"]] if kw.get("username") else []
        assert args == expect + (["-a", kw["password"]] if kw.get("password") else []), url
        assert masked == expect + (["-a", "***"] if kw.get("password") else []), url


def test_the_reads_served_are_the_hgetalls_sent_from_none_on_a_server_that_served_none(tmp_path):
    """A new server has served no HGETALL (INFO commandstats has no line for it): 0 reads, then exactly the HGETALLs
    sent to it, a missing key's included."""
    from tests.fixtures.servers import start_redis
    from ycsbctl.stores.redis.benchmark import RedisBenchmark

    server = start_redis(tmp_path / "fresh")
    r = redis.Redis.from_url(server.url)
    try:
        assert "cmdstat_hgetall" not in r.info("commandstats")
        counted = [RedisBenchmark().reads_served(server.url)]
        r.hset("user1", mapping={"field0": "v"})
        for key in ("user1", "user1", "no-such-user"):
            r.hgetall(key)
        counted.append(RedisBenchmark().reads_served(server.url))
    finally:
        r.close()
        server.stop()
    assert counted == [0, 3]


def test_the_plan_by_default_is_the_one_ycsbctl_calibrate_runs_without_options_and_the_docs():
    """CalibratePlan() (what a caller of the module gets) is the plan of `ycsbctl calibrate` with no option, as the
    CLI's own defaults read it, and the line of docs/studies/calibrate.md: 8 and 32 threads, 5 rounds of 3 s."""
    from ycsbctl.cli.calibrate import calibrate as command
    from ycsbctl.experiment.axes import parse_threads
    from ycsbctl.experiment.calibrate import CalibratePlan

    given = {p.name: p.default for p in command.params}
    plan = CalibratePlan()
    assert plan == CalibratePlan(target=given["target"], threads=tuple(parse_threads(given["threads"])),
                                 duration_s=given["duration_s"], rounds=given["rounds"], records=given["records"],
                                 # --processes: its own choice
                                 warmup_s=given["warmup_s"], processes=None, backend=given["backend"],
                                 seed=given["seed"])
    said = re.search(r"starts its own redis: (\d+) and (\d+) threads, (\d+) rounds of (\d+) s",
                     docs_page("studies/calibrate.md"))
    assert said is not None
    assert (plan.threads, plan.rounds, plan.duration_s) == ((int(said[1]), int(said[2])), int(said[3]), float(said[4]))


def test_a_load_that_failed_ends_calibrate_in_one_line_with_the_servers_error_and_exit_1(redis_server):
    """One record, its key already a string on the server: the load's HSET is refused (WRONGTYPE), so calibrate
    stops before any round, in one line saying the server's error, exit status 1; the string is left as it was."""
    from ycsbctl.errors import UserError
    from ycsbctl.experiment.calibrate import CalibratePlan, _load, _properties, reference_for

    url = redis_server.url.rsplit("/", 1)[0] + "/10"
    plan = CalibratePlan(target=url, records=1, processes=1)
    r = redis.Redis.from_url(url)
    r.flushdb()
    props = _properties(plan, reference_for(plan))
    key = f"user{0:0{int(props['zeropadding'])}d}"
    r.set(key, "not a record")
    try:
        with pytest.raises(UserError, match="^the load failed: .*WRONGTYPE") as refused:
            _load(url, props, plan, lambda _: None)
        assert refused.value.exit_code == 1 and r.type(key) == b"string"
    finally:
        r.flushdb()
        r.close()


def test_a_warm_up_of_0_s_runs_no_ycsbctl_warm_up_and_one_of_more_is_round_0_counted_in_the_reads_sent(monkeypatch):
    """_rounds' bookkeeping on sides that answer at once (no server): each side's reads are counted once, the
    reference's warm-up included; ycsbctl's warm-up runs only for a warm-up above 0 s, as round 0 (its seed is not
    a measured round's)."""
    from types import SimpleNamespace

    from ycsbctl.experiment import calibrate as cal_mod
    from ycsbctl.experiment.calibrate import YCSBCTL, CalibratePlan, Calibration, Sample

    ours: list[tuple[int, float, int]] = []

    def fake_ours(url, props, plan, threads, duration_s, rnd):
        ours.append((threads, duration_s, rnd))
        return Sample(rnd, threads, YCSBCTL, 100.0, 1.0, 1.0, 1.0, 7 if rnd == 0 else 11)

    def fake_theirs(url, ref, plan, threads, requests, rnd, cal):
        return Sample(rnd, threads, ref.name, 100.0, 1.0, 1.0, 1.0, 3 if rnd == 0 else 5), None

    monkeypatch.setattr(cal_mod, "_ours", fake_ours)
    monkeypatch.setattr(cal_mod, "_theirs", fake_theirs)
    ref = SimpleNamespace(name="redis-benchmark")
    for warmup_s, want_ours, want_reads in ((0.0, [(1, 0.5, 1), (1, 0.5, 2)], 3 + 2 * (11 + 5)),
                                            (0.25, [(1, 0.25, 0), (1, 0.5, 1), (1, 0.5, 2)], 7 + 3 + 2 * (11 + 5))):
        ours.clear()
        plan = CalibratePlan(threads=(1,), duration_s=0.5, rounds=2, records=1, warmup_s=warmup_s)
        cal = Calibration(plan, "redis", "redis://", ref.name, {})
        cal_mod._rounds(cal, "redis://", ref, lambda _: None, lambda: [])  # type: ignore[arg-type]
        assert (ours, cal.reads_sent, len(cal.samples)) == (want_ours, want_reads, 4), warmup_s


def test_ctrl_c_once_the_load_began_exits_130_in_one_line_saying_the_records_were_removed(redis_server):
    """Ctrl-C as a terminal sends it, 0.2 s after "loading" (in the load, or past it in the rounds: either way):
    exit 130 and one line saying what was undone, and the server's own count of the database's keys is 0 again.
    Was: during the load the engine's interrupted result read as "error: the load failed: interrupted", exit 1."""

    from tests.fixtures.cli import ctrl_c_after, group_processes, start
    from tests.fixtures.waiting import wait_until

    url = redis_server.url.rsplit("/", 1)[0] + "/11"
    r = redis.Redis.from_url(url)
    r.flushdb()
    proc = start("calibrate", "--target", url, "--threads", "2", "--duration", "1", "--rounds", "2", "--records",
                 "100000", "--processes", "1", "--allow-concurrent", own_group=True)
    _, said, _ = ctrl_c_after(proc, ("loading 100,000 records", 120), delay_s=0.2)
    try:
        assert proc.returncode == 130, said[-2000:]
        assert said.strip().splitlines()[-1] == f"calibrate: interrupted: removed the records it loaded from {url}"
        assert "error:" not in said and "Traceback" not in said, said
        assert r.dbsize() == 0
        wait_until(lambda: not group_processes(proc), 15, "every process of the calibration's group gone")
    finally:
        r.flushdb()
        r.close()


def test_a_url_naming_port_0_is_refused_in_one_line_before_anything_starts():
    """``calibrate --target redis://127.0.0.1:0`` (a script's unset port): redis-benchmark's ``-p`` and redis-py
    read port 0 as none given and reached whatever listened on 6379. Refused as ``run --target`` refuses it: one
    line, exit 2."""
    for target in ("redis://127.0.0.1:0", "redis://127.0.0.1:00/15"):
        res = CliRunner().invoke(main, ["calibrate", "--target", target, "--rounds", "1"])
        assert res.exit_code == 2 and res.output.count("\n") == 1, res.output
        assert res.output.startswith(f"error: {target}: port 0 is no server's port"), res.output
