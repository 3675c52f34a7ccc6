"""The RDB fork as an event on its point: a ``redis-rdb`` server forced to BGSAVE inside a short point
(a second after its reads begin) records one ``fork`` event in the point's ``server_events`` — inside the
measured window, with the pause the server itself reports afterwards (``INFO persistence``
``latest_fork_usec``) — and the report's findings name it beside the point."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import redis
from click.testing import CliRunner

from ycsbctl.cli import main
from ycsbctl.provision.auto import provision, teardown
from ycsbctl.report.deployment_findings import fork_findings
from ycsbctl.report.summary import findings
from ycsbctl.results.frames import load

DURATION_S = 3


def _bgsave_when_reads_begin(url: str, stop: threading.Event, done: list[float]) -> None:
    r = redis.Redis.from_url(url)
    while not stop.is_set():
        if int(r.info("commandstats").get("cmdstat_hgetall", {}).get("calls", 0)) > 0:
            stop.wait(1.0)  # well inside the window: a sample is counted in the window when most of its second is
            r.bgsave()
            done.append(time.monotonic())
            return
        time.sleep(0.02)


def test_a_forced_bgsave_is_a_fork_event_on_its_point_with_the_servers_own_pause(tmp_path: Path) -> None:
    ep = provision("redis-rdb", "local", experiment_id="tests", say=lambda _: None)
    try:
        r = redis.Redis.from_url(ep.url)
        forks_before = int(r.info("persistence").get("total_forks", r.info("stats")["total_forks"]))
        stop, done = threading.Event(), []
        t = threading.Thread(target=_bgsave_when_reads_begin, args=(ep.url, stop, done), daemon=True)
        t.start()
        res = CliRunner().invoke(main, ["run", "workload-c", "--target", ep.url, "--load", "--records", "300",
                                        "-p", "fieldcount=1", "--threads", "2", "--duration", str(DURATION_S), "--warmup", "0",
                                        "--allow-concurrent", "--out", str(tmp_path / "exp")])
        stop.set()
        t.join(5)
        assert res.exit_code == 0, res.output
        assert done, "the point's reads never began"
        stats = r.info("stats")
        persistence = r.info("persistence")
        assert int(stats["total_forks"]) - forks_before == 1  # ours alone: 600 changes (HSET 1 field, ZADD) never reach save 5 1000
        pause_us = float(stats["latest_fork_usec"])
        assert persistence["rdb_last_bgsave_status"] == "ok"
    finally:
        teardown(ep)
    exp = load(tmp_path / "exp")
    run = exp.runs[exp.runs["phase"] == "run"].iloc[0]
    events = exp.docs[run["run_id"]]["bottleneck"]["evidence"]["server_events"]
    assert [e["event"] for e in events] == ["fork"] and events[0]["forks"] == 1
    assert events[0]["pause_us"] == pause_us  # the server's own figure, sampled in the fork's interval
    assert 0 < events[0]["at_s"] <= DURATION_S + 1  # the sample after the fork, inside the measured window
    assert run["server_forks"] == 1 and run["server_fork_pause_us_max"] == pause_us
    line = fork_findings(exp.runs, exp.docs, exp.targets)
    assert len(line) == 1 and f"paused the server {pause_us / 1000:.2f} ms (latest_fork_usec)" in line[0]
    assert line[0] in findings(exp, exp.points())  # the report's findings, beside the forks' sum
