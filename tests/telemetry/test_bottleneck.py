"""Bottleneck labels from constructed run figures (CPU in % of one core, network in Gbit/s)."""

from __future__ import annotations

import dataclasses
import os

import pandas as pd
import pytest

from ycsbctl.provision.base import Endpoint
from ycsbctl.telemetry.bottleneck import (
    LABELS,
    classify,
    client_stall_bottleneck,
    host_busy_bottleneck,
    host_cores,
    lock_wait_bottleneck,
    server_cores,
    stall_bottleneck,
)
from ycsbctl.telemetry.capture import Capture
from ycsbctl.telemetry.network import NetworkBaseline
from ycsbctl.telemetry.stall import Stall


def _ep(target: str, protocol: str, cpu_limit: float | None = None) -> Endpoint:
    return Endpoint(target=target, protocol=protocol, url="redis://127.0.0.1:6379/0", backend="local",
                    cpu_limit_cores=cpu_limit)


def test_redis_may_use_one_core_and_mongodb_all_it_is_allowed():
    assert server_cores(_ep("redis", "redis"), 8) == 1.0
    assert server_cores(_ep("valkey", "redis"), 8) == 1.0
    assert server_cores(_ep("redis", "redis", cpu_limit=0.5), 8) == 0.5
    assert server_cores(_ep("dragonfly", "redis"), 8) == 8.0
    assert server_cores(_ep("keydb", "redis", cpu_limit=4), 8) == 4.0
    assert server_cores(_ep("mongodb", "mongodb"), 8) == 8.0
    assert server_cores(_ep("mongodb", "mongodb", cpu_limit=2), 8) == 2.0
    assert server_cores(_ep("mongodb", "mongodb", cpu_limit=16), 8) == 8.0
    # a cluster's shards: each process its own core, as many as there are, up to the host's or the limit
    shards = [{"pid": 100 + i} for i in range(3)]
    assert server_cores(dataclasses.replace(_ep("redis-cluster", "redis"), processes=shards), 8) == 3.0
    assert server_cores(dataclasses.replace(_ep("redis-cluster", "redis", cpu_limit=2), processes=shards), 8) == 2.0


def test_redis_at_95_percent_of_its_core_on_a_big_host_is_server_cpu():
    b = classify(server_cpu_pct=95, server_cores=1, client_cpu_pct=300, client_cores=8, host_cores=16)
    assert b.label == "server-cpu"
    assert b.evidence["server_share"] == 0.95
    assert not b.evidence["host_cpu_saturated"]
    assert "95%" in b.text


def test_mongodb_using_three_and_a_half_of_four_cores_is_server_cpu():
    b = classify(server_cpu_pct=370, server_cores=4, client_cpu_pct=100, client_cores=4, host_cores=16)
    assert b.label == "server-cpu"


def test_saturated_workers_are_client_cpu():
    b = classify(server_cpu_pct=40, server_cores=1, client_cpu_pct=380, client_cores=4, host_cores=16)
    assert b.label == "client-cpu"
    assert b.evidence["client_share"] == 0.95


def test_saturated_client_is_never_presented_as_the_servers_limit():
    # Both sides at their line on a 2-core host: the client's saturation wins, and the text says so.
    b = classify(server_cpu_pct=95, server_cores=1, client_cpu_pct=96, client_cores=1, host_cores=2)
    assert b.label == "client-cpu"
    assert b.evidence["host_cpu_saturated"] is True
    assert "not its limit" in b.text and "host CPU saturated" in b.text


def test_client_and_server_sharing_two_cores_is_host_cpu_not_server_cpu():
    # mongod at 120% of the 200% it may use, workers at 70% of 200%: together 190% of 200%.
    b = classify(server_cpu_pct=120, server_cores=2, client_cpu_pct=70, client_cores=2, host_cores=2)
    assert b.label == "host-cpu"
    assert b.evidence["host_cpu_saturated"] is True
    assert b.evidence["host_share"] == 0.95
    assert "not the server's" in b.text


def test_bytes_near_the_iperf_baseline_are_network():
    b = classify(server_cpu_pct=50, server_cores=1, client_cpu_pct=100, client_cores=8, host_cores=16,
                 net_gbit_s=0.95, baseline_gbit_s=1.29)
    assert b.label == "network"
    assert b.evidence["net_share"] == round(0.95 / 1.29, 3)


def test_host_loopback_bytes_at_the_baseline_are_never_network():
    # The FerretDB point of issue 44: 14.952 Gbit/s on the host's loopback against a 14.543 Gbit/s
    # baseline, at 102 ops/s: those bytes were other processes', so the point is not network.
    b = classify(server_cpu_pct=5, server_cores=2, client_cpu_pct=10, client_cores=1, host_cores=2,
                 net_gbit_s=14.952, baseline_gbit_s=14.543, net_source="net-lo")
    assert b.label != "network"
    assert "network unknown (only the host's loopback counters, which include other processes' traffic)" in b.text
    assert b.evidence["net_ours"] is False
    # the same bytes counted by the server itself are ours, and do make the point network
    ours = classify(server_cpu_pct=5, server_cores=2, client_cpu_pct=10, client_cores=1, host_cores=2,
                    net_gbit_s=14.952, baseline_gbit_s=14.543, net_source="redis-info")
    assert ours.label == "network"


def test_study_figures_440_mbps_of_1_29_gbps_are_not_network_bound():
    b = classify(server_cpu_pct=50, server_cores=1, client_cpu_pct=100, client_cores=8, host_cores=16,
                 net_gbit_s=0.44, baseline_gbit_s=1.29)
    assert b.label == "latency"
    assert "34% of baseline" in b.text


def test_no_server_figures_for_basic_leaves_only_the_client():
    assert classify(server_cpu_pct=None, server_cores=1, client_cpu_pct=50, client_cores=2,
                    host_cores=2).label == "latency"
    assert classify(server_cpu_pct=None, server_cores=1, client_cpu_pct=190, client_cores=2,
                    host_cores=2).label == "client-cpu"


def test_every_label_is_listed():
    assert set(LABELS) == {"client-cpu", "server-cpu", "host-cpu", "network", "latency", "stall", "client-stall",
                           "host-busy"}


def test_capture_labels_from_its_samples():
    frame = pd.DataFrame([
        {"t_mono": 1.0, "t_wall": 0.0, "source": "server-process", "cpu_pct": 97.0, "rss_bytes": 10},
        {"t_mono": 2.0, "t_wall": 0.0, "source": "server-process", "cpu_pct": 99.0, "rss_bytes": 12},
        {"t_mono": 1.0, "t_wall": 0.0, "source": "client", "cpu_pct": 150.0, "rss_bytes": 5, "processes": 4},
        {"t_mono": 1.0, "t_wall": 0.0, "source": "redis-info", "net_in_bytes_per_s": 1e6,
         "net_out_bytes_per_s": 5e7, "ops_per_s": 1000.0, "db_used_memory_bytes": 100.0},
    ])
    cap = Capture(_ep("redis", "redis"), NetworkBaseline(1.0, "test"), host_cores=16, frame=frame)
    s = cap.summary()
    assert s.server_cpu_pct_mean == 98.0 and s.server_rss_bytes_max == 12
    assert s.client_processes == 4
    assert s.net_gbit_s_mean == 0.4  # the busier direction: 5e7 bytes/s out
    assert s.net_share_of_baseline == 0.4
    b = cap.bottleneck()
    assert b.label == "server-cpu" and b.evidence["client_cores"] == 4


def test_summary_keeps_the_measured_window_and_the_engines_own_client_cpu():
    from ycsbctl.results.model import PhaseResult

    rows = [  # start-up second (idle), two measured seconds, a tail after the run
        (10.0, 0.0, 0.0), (11.0, 95.0, 80.0), (12.0, 97.0, 90.0), (13.5, 5.0, 1.0)]
    frame = pd.DataFrame(
        [{"t_mono": t, "t_wall": 0.0, "source": "server-process", "cpu_pct": srv} for t, srv, _ in rows]
        + [{"t_mono": t, "t_wall": 0.0, "source": "client", "cpu_pct": cli, "processes": 1} for t, _, cli in rows])
    cap = Capture(_ep("redis", "redis"), None, host_cores=2, frame=frame)
    assert cap.summary().server_cpu_pct_mean == 49.25  # every sample: start-up and tail pull it down
    result = PhaseResult(phase="load", threads=8, runtime_ms=2000.0, operations=100, client_cpu_s=1.7,
                         t_start_mono=10.0, processes=1)
    cap.align(result)
    s = cap.summary()
    assert s.server_cpu_pct_mean == 96.0 and s.server_cpu_pct_max == 97.0
    assert s.client_cpu_pct_mean == 85.0 and s.client_cpu_source == "engine"  # 1.7 CPU s in 2 s
    assert cap.bottleneck().label == "server-cpu"
    short = Capture(_ep("redis", "redis"), None, host_cores=2, frame=frame)
    short.align(PhaseResult(phase="load", threads=8, runtime_ms=300.0, operations=10, client_cpu_s=0.1,
                            t_start_mono=13.55))
    assert short.summary().server_cpu_pct_mean == 49.25  # no sample inside a 0.3 s run: all are kept


def test_host_cores_are_the_cores_this_process_may_run_on():
    allowed = os.sched_getaffinity(0)
    if len(allowed) < 2:
        pytest.skip("one allowed core: pinning to one cannot be told apart from the host")
    os.sched_setaffinity(0, {min(allowed)})  # as `taskset -c <one core>` would
    try:
        pinned = host_cores()
    finally:
        os.sched_setaffinity(0, allowed)
    assert pinned == 1
    assert host_cores() == len(allowed)


def test_without_affinity_host_cores_are_the_cpu_count_and_one_when_unknown(monkeypatch):
    count = os.cpu_count()
    monkeypatch.delattr(os, "sched_getaffinity")  # not Linux
    assert host_cores() == count
    monkeypatch.setattr(os, "cpu_count", lambda: None)  # "None if undetermined" (os.cpu_count's docs)
    assert host_cores() == 1


def _measured() -> dict:
    return {"label": "server-cpu", "evidence": {"server_cpu_pct": 95.0, "server_cores": 1.0}, "text": "server CPU"}


def test_a_stall_relabels_the_point_and_keeps_what_the_figures_said():
    stall = Stall(seconds=3.0, from_s=9.0)
    b = stall_bottleneck(stall, _measured())
    assert b["label"] == "stall" and b["evidence"]["measured_label"] == "server-cpu"
    assert b["evidence"]["server_cpu_pct"] == 95.0 and b["evidence"]["server_cores"] == 1.0
    assert b["evidence"]["stall"] == {"seconds": 3.0, "from_s": 9.0, "timeouts": 0, "warmup_s": 0.0}
    assert b["text"] == ("stall: no reply for 3.0 s, from 9.0 s into the measured window — the server was frozen, "
                         "paused or unreachable, so this point does not measure its capacity or latency")
    why = "the primary waited for a synchronous standby that is gone"
    b = stall_bottleneck(stall, _measured(), why)
    assert b["text"] == (f"stall: no reply for 3.0 s, from 9.0 s into the measured window — {why}, so this point "
                         "does not measure its capacity or latency") and b["evidence"]["stall_cause"] == why
    for measured in (None, {"label": None, "evidence": None}):  # no label from the figures (no telemetry)
        b = stall_bottleneck(stall, measured)
        assert b["label"] == "stall" and b["evidence"] == {"stall": stall.to_dict(), "measured_label": None}


def test_a_busy_host_relabels_the_point_and_keeps_what_the_figures_said():
    b = host_busy_bottleneck("bench engine", _measured())
    assert b["label"] == "host-busy" and b["evidence"]["measured_label"] == "server-cpu"
    assert b["evidence"]["server_cpu_pct"] == 95.0 and b["evidence"]["other"] == "bench engine"
    assert b["text"] == "host busy: bench engine measured on this host at the same time"
    assert b["evidence"]["measured_text"] == _measured()["text"]  # for the why line's own part (telemetry/why.py)
    for measured in (None, {"label": None, "evidence": None}):
        assert host_busy_bottleneck("bench engine", measured)["evidence"] == {"other": "bench engine",
                                                                            "measured_label": None,
                                                                            "measured_text": None}


def test_a_client_stall_or_a_lock_wait_relabels_the_point_and_keeps_what_the_figures_said():
    """The figures measured before the relabelling (the server's CPU …) stay in the evidence the report shows."""
    stall = Stall(3.0, 2.0)
    b = client_stall_bottleneck(2.5, 7.0, _measured(), stall)
    assert b["label"] == "client-stall" and b["evidence"]["server_cpu_pct"] == 95.0
    assert b["evidence"]["client_paused_s"] == 2.5 and b["evidence"]["measured_label"] == "server-cpu"
    assert b["evidence"]["stall"] == stall.to_dict() and "for 2.5 s of the 7.0 s measured" in b["text"]
    b = lock_wait_bottleneck(2.0, 5.0, "the file is held by pid 42", _measured())
    assert b["label"] == "stall" and b["evidence"]["server_cpu_pct"] == 95.0
    assert (
        b["evidence"]["pause_cause"] == "the file is held by pid 42" and b["evidence"]["measured_label"] == "server-cpu"
    )
    for measured in (None, {"label": None, "evidence": None}):
        assert client_stall_bottleneck(1.0, 5.0, measured)["evidence"] == {"client_paused_s": 1.0,
                                                                           "measured_label": None}


def test_a_side_is_cpu_saturated_from_90_percent_of_the_cores_it_may_use_not_below():
    def label(server_pct: float, client_pct: float) -> str:
        return classify(server_cpu_pct=server_pct, server_cores=1, client_cpu_pct=client_pct, client_cores=4,
                        host_cores=16).label

    assert label(90, 100) == "server-cpu"
    assert label(89.5, 100) != "server-cpu"
    assert label(40, 360) == "client-cpu"
    assert label(40, 358) != "client-cpu"


def test_a_points_evidence_is_read_once_per_frame_and_window_and_each_caller_gets_its_own(monkeypatch):
    """summary() and bottleneck() of one point read the thread roles once, not three times; a new window
    (align) or a new frame reads them again; what one caller changes in its copy is not the next one's."""
    from ycsbctl.results.model import PhaseResult
    from ycsbctl.telemetry import capture as capture_module

    def role(t: float, pct: float) -> dict:
        return {"t_mono": t, "t_wall": 0.0, "source": "server-threads", "thread": "main", "oncpu_pct": pct,
                "user_pct": pct, "system_pct": 0.0, "runq_pct": 0.0, "busiest_pct": pct, "vcsw_per_s": 1.0,
                "ivcsw_per_s": 0.0, "threads": 1}
    frame = pd.DataFrame([role(10.0, 10.0), role(11.0, 90.0), role(12.0, 96.0), role(13.5, 4.0)]
                         + [{"t_mono": t, "t_wall": 0.0, "source": "server-process", "cpu_pct": 50.0}
                            for t in (10.0, 11.0, 12.0, 13.5)])
    reads = []
    real = capture_module.ev.thread_roles
    monkeypatch.setattr(capture_module.ev, "thread_roles", lambda *a, **k: reads.append(a[1]) or real(*a, **k))
    cap = Capture(_ep("redis", "redis"), None, host_cores=2, frame=frame)
    cap.summary()
    whole = cap.bottleneck().evidence["server_threads"]["main"]["oncpu_pct"]
    assert reads == ["server-threads", "client-threads"]  # one reading of each side for both calls
    assert whole == round((10.0 + 90.0 + 96.0 + 4.0) / 4, 2)
    cap.evidence()["server"]["oncpu_pct"] = -1.0  # a caller's copy
    assert cap.evidence()["server"]["oncpu_pct"] == whole
    cap.align(PhaseResult(phase="run", threads=2, runtime_ms=2000.0, operations=10, t_start_mono=10.0))
    assert cap.evidence()["server"]["oncpu_pct"] == round((90.0 + 96.0) / 2, 2)  # the measured window's
    assert len(reads) == 4
    cap.frame = frame.copy()
    cap.evidence()
    assert len(reads) == 6


def test_a_bottleneck_given_the_points_summary_makes_no_other_and_says_the_same(monkeypatch):
    frame = pd.DataFrame([
        {"t_mono": 1.0, "t_wall": 0.0, "source": "server-process", "cpu_pct": 97.0, "rss_bytes": 10},
        {"t_mono": 2.0, "t_wall": 0.0, "source": "server-process", "cpu_pct": 99.0, "rss_bytes": 12},
        {"t_mono": 1.0, "t_wall": 0.0, "source": "client", "cpu_pct": 150.0, "rss_bytes": 5, "processes": 4}])
    cap = Capture(_ep("redis", "redis"), NetworkBaseline(1.0, "test"), host_cores=16, frame=frame)
    alone = cap.bottleneck().to_dict()
    summary = cap.summary()
    made = []
    real = Capture.summary
    monkeypatch.setattr(Capture, "summary", lambda self: made.append(1) or real(self))
    assert cap.bottleneck(summary).to_dict() == alone and alone["label"] == "server-cpu"
    assert made == []


def test_redis_with_io_threads_may_use_them_and_when_they_take_every_core_a_latency_point_is_host_cpu():
    from ycsbctl.provision.base import Endpoint
    from ycsbctl.telemetry.bottleneck import Bottleneck, io_threads_note, server_cores

    def ep(io_threads: int | None) -> Endpoint:
        return Endpoint(target="redis", protocol="redis", url="redis://127.0.0.1:6379/0", backend="local",
                        traits={"io_threads": io_threads} if io_threads else None)

    assert (server_cores(ep(None), 8), server_cores(ep(4), 8), server_cores(ep(4), 2)) == (1.0, 4.0, 2.0)
    # 2 I/O threads on the client's 2 cores: every core taken, nothing crossed its line: host-cpu
    b = io_threads_note(Bottleneck("latency", {}, "t"), ep(2), 2)
    assert (b.label, b.evidence["measured_label"], b.evidence["server_io_threads"]) == ("host-cpu", "latency", 2)
    # on 4 cores they leave the client some: the measured label stays
    assert io_threads_note(Bottleneck("latency", {}, "t"), ep(2), 4).label == "latency"
    assert io_threads_note(Bottleneck("server-cpu", {}, "t"), ep(2), 2).label == "server-cpu"
    # one I/O thread is Redis's own way (the main thread serves every client): nothing is said
    one = io_threads_note(Bottleneck("latency", {"client_share": 0.1}, "t"), ep(1), 2)
    assert (one.label, one.text, one.evidence) == ("latency", "t", {"client_share": 0.1})
    # every core taken: why is the client's share of the time it could run, below half or not
    said = {share: io_threads_note(Bottleneck("server-cpu", {"client_share": share}, "t"), ep(2), 2).text
            for share in (0.499, 0.5, None)}
    assert said[0.499].startswith("t; the server runs 2 I/O threads on the 2 cores the client uses too: no core is "
                                  "left to the client alone, and it ran only 50% of the time it could"), said
    assert said[0.5] == said[None] == ("t; the server runs 2 I/O threads on the 2 cores the client uses too: no core "
                                       "is left to the client alone, so this point is likely client-bound (client "
                                       "and server take turns on the host), not a measure of what the I/O threads give")
