"""A lazy free's whole cost (issue 72), end to end from the CLI on two real redis-servers: a big set deleted with DEL
on one and with DEL under ``lazyfree-lazy-user-del yes`` (freed by a background thread) on the other, while this test
polls each server's INFO ``lazyfree_pending_objects`` on a connection of its own, on the clock the engine's start
(``t_start_mono``) is recorded on.

Checked against that independent record and the point's own 100 ms series (read here from series_100ms.parquet):
the affected window covers every 100 ms interval in which the server still had the set to free; the operations lost
are the area between the reference rate and the series over that window, summed here; the window ends where the
series is back within the band of the samples before it (worked out here with numpy); the headline compares the two
targets on those costs. The set is sized from how long a background free of a smaller one takes on this machine
(measured first), so that its free takes over a second here whatever the machine's speed."""

from __future__ import annotations

import math
import threading
import time
from pathlib import Path
from urllib.parse import urlparse

import numpy as np
import pandas as pd
import pytest
import redis

from tests.fixtures.cli import ycsbctl
from tests.fixtures.servers import start_redis
from ycsbctl.report.study_headlines import COST_MARGIN_S, COST_RATIO, QUIET_RUN_S
from ycsbctl.results import load
from ycsbctl.results.disturbance import BACK_SAMPLES, BAND_SIGMAS, SLOW_FRACTION
from ycsbctl.stores.disturb import parse_disturb
from ycsbctl.stores.redis.disturb import RedisDisturber

pytestmark = [pytest.mark.truth, pytest.mark.speed]  # reads dips of a 100 ms series: the quiet phase

DT = 0.1  # the series' interval, s
WANTED_FREE_S = 1.0  # the background free the set is sized for, idle (longer under the point's load)
PROBE, MOST = 200_000, 4_000_000  # members of the set timed first, and the most the test builds
POLL_S = 0.005  # how often this test asks each server for lazyfree_pending_objects
WARMUP_S, AT_S, DURATION_S = 1.0, 1.0, 3.5


def _pending(r: redis.Redis) -> int:
    return int(r.info("memory").get("lazyfree_pending_objects", 0))


def _free_seconds(url: str) -> float:
    """How long the server's background thread takes to free a set of :data:`PROBE` members (s), timed here."""
    d = RedisDisturber(url, parse_disturb(f"unlink:set:{PROBE}@1s"), "probe")
    r = redis.Redis.from_url(url)
    try:
        d.build()
        t = time.monotonic()
        r.unlink(d.key)
        while _pending(r) > 0:
            time.sleep(POLL_S)
        return time.monotonic() - t
    finally:
        d.close()
        r.close()


class PendingPoller:
    """Each server's ``lazyfree_pending_objects`` every :data:`POLL_S`, on a thread and connections of its own:
    (time.monotonic() s at the middle of the call, pending) per URL."""

    def __init__(self, urls: list[str]) -> None:
        self.clients = {u: redis.Redis.from_url(u) for u in urls}
        self.seen: dict[str, list[tuple[float, int]]] = {u: [] for u in urls}
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self.stop.wait(POLL_S):
            for u, r in self.clients.items():
                before = time.monotonic()
                n = _pending(r)
                self.seen[u].append(((before + time.monotonic()) / 2, n))

    def __enter__(self) -> PendingPoller:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join(timeout=10)
        for r in self.clients.values():
            r.close()


@pytest.fixture(scope="module")
def del_and_lazy_del(tmp_path_factory: pytest.TempPathFactory):
    tmp = tmp_path_factory.mktemp("lazyfree")
    plain = start_redis(tmp / "plain")
    lazy = start_redis(tmp / "lazy", extra=("--lazyfree-lazy-user-del", "yes"))
    try:
        size = int(min(MOST, max(PROBE, PROBE * WANTED_FREE_S / max(_free_seconds(lazy.url), 1e-3))))
        out = tmp / "folder"
        with PendingPoller([plain.url, lazy.url]) as poller:
            proc = ycsbctl("run", "workload-b", "--target", plain.url, "--target", lazy.url, "--load",
                           "--records", "1000", "--threads", "4", "--warmup", str(WARMUP_S), "--duration",
                           str(DURATION_S), "--no-telemetry", "--no-report", "--disturb", f"del:set:{size}@{AT_S}s",
                           "--out", str(out))
        yield out, proc, poller.seen, {plain.url: "plain", lazy.url: "lazy"}
    finally:
        plain.stop()
        lazy.stop()


def _ran(proc, out: Path) -> None:
    """Every point measured: ok, or degraded by what else ran on the host (exit 3 then: not this test's to judge)."""
    assert proc.returncode in (0, 3) and "Traceback" not in proc.stderr, proc.stderr[-3000:]
    runs = load(out).runs
    assert set(runs["status"]) <= {"ok", "degraded"}, runs[["run_id", "status", "error"]]


def _runs(out: Path, seen: dict[str, list[tuple[float, int]]], kinds: dict[str, str]):
    """Per target: its kind (plain, lazy), its event row, its OVERALL 100 ms operations by interval, the engine's
    start (monotonic s) and the polls of its server."""
    exp = load(out)
    for _, e in exp.events.iterrows():
        url = next(u for u in kinds if e["target"].endswith(f"-{urlparse(u).port}"))
        fine = exp.fine_series_of(e["run_id"])
        ops = fine[fine["op"] == "OVERALL"].set_index("interval")["operations"].astype(float)
        t0 = float(exp.run_doc(e["run_id"])["result"]["t_start_mono"])
        yield kinds[url], e, ops, t0, seen[url]


def _cost(ops: pd.Series, e: pd.Series) -> float:
    """Operations short of the reference rate over the event's window, summed here interval by interval."""
    first, last = math.floor(e["t_s"] / DT + 1e-9), round(e["affected_end_s"] / DT)
    return max(0.0, sum(e["pre_ops_per_s"] * DT - ops.get(k, 0.0) for k in range(first, last)))


def test_the_window_covers_every_interval_in_which_the_server_still_had_the_set_to_free(del_and_lazy_del):
    out, proc, seen, kinds = del_and_lazy_del
    _ran(proc, out)
    rows = list(_runs(out, seen, kinds))
    assert sorted(kind for kind, *_ in rows) == ["lazy", "plain"]
    for kind, e, _ops, t0, polls in rows:
        busy = [math.floor((t - t0) / DT + 1e-9) for t, n in polls if n > 0 and t > t0]
        if kind == "plain":
            assert busy == [] and pd.isna(e["background_s"])  # a plain DEL frees it at once
            continue
        assert busy, "the lazily deleted set was seen pending by the test's own polls"
        first = math.floor(e["t_s"] / DT + 1e-9)
        last_full = round((WARMUP_S + DURATION_S) / DT) - 1  # the point's last whole interval
        for k in busy:
            assert k >= first
            if k <= last_full:
                assert k < round(e["affected_end_s"] / DT) or e["window_open"], (k, e["affected_end_s"])
            else:  # still freeing when the point ended: the window is said open, not cut
                assert e["window_open"]
        # the events table says when the server's own count was seen back at 0: after every poll that saw it above
        if not e["window_open"]:
            assert e["background_end_s"] >= max(busy) * DT - POLL_S


def test_the_operations_lost_are_the_area_between_the_reference_rate_and_the_series_over_the_window(
        del_and_lazy_del):
    out, proc, seen, kinds = del_and_lazy_del
    _ran(proc, out)
    for _, e, ops, _, _ in _runs(out, seen, kinds):
        # the reference rate: the median of the whole measured seconds before the event, summed here
        seconds = range(max(math.ceil(WARMUP_S), math.ceil(e["t_s"] - 3.0)), math.floor(e["t_s"]))
        per_s = [sum(ops.get(s * 10 + i, 0.0) for i in range(10)) for s in seconds]
        assert e["pre_ops_per_s"] == pytest.approx(float(np.median(per_s)))
        assert e["ops_lost"] == pytest.approx(_cost(ops, e))
        if e["window_open"]:
            continue
        # closed where the series is back: the next intervals at or above the band of the samples before it
        k_start, end = math.floor(e["t_s"] / DT + 1e-9), round(e["affected_end_s"] / DT)
        before = np.array([ops.get(k, 0.0) / DT for k in range(max(round(WARMUP_S / DT), k_start - 30), k_start)])
        spread = 1.4826 * float(np.median(np.abs(before - np.median(before))))
        low = max(SLOW_FRACTION * e["pre_ops_per_s"], e["pre_ops_per_s"] - max(BAND_SIGMAS * spread, 1 / DT))
        assert e["band_low_ops_per_s"] == pytest.approx(low, rel=1e-4)  # 1.4826: the normal-consistent scale
        assert all(ops.get(k, 0.0) / DT >= low for k in range(end, end + BACK_SAMPLES))
        assert ops.get(end - 1, 0.0) / DT < low or e["background_end_s"] > (end - 1) * DT - 1e-9 or \
            end - 1 <= math.floor((e["t_s"] + e["command_s"]) / DT + 1e-9)  # it ended there for a reason


def _longest_below_half(ops: pd.Series, e: pd.Series) -> float:
    """The longest run of intervals below half the reference rate in the event's window (s), counted here."""
    first, last = math.floor(e["t_s"] / DT + 1e-9), round(e["affected_end_s"] / DT)
    best = run = 0
    for k in range(first, last):
        run = run + 1 if ops.get(k, 0.0) / DT < SLOW_FRACTION * e["pre_ops_per_s"] else 0
        best = max(best, run)
    return best * DT


def test_the_headline_compares_del_and_lazy_del_on_what_both_series_show(del_and_lazy_del):
    from ycsbctl.report.summary import findings

    out, proc, seen, kinds = del_and_lazy_del
    _ran(proc, out)
    rows = {kind: (e, ops) for kind, e, ops, *_ in _runs(out, seen, kinds)}
    exp = load(out)
    line = next(f for f in findings(exp, exp.points("p99")) if f.startswith("DEL ("))
    cost = {kind: _cost(ops, e) for kind, (e, ops) in rows.items()}
    for kind, (e, _) in rows.items():
        assert e["ops_lost"] == pytest.approx(cost[kind])
        said = f"{'at least ' if e['window_open'] else ''}{e['ops_lost']:,.0f} ops lost over"
        assert f"{e['target']} " in line and said in line, (said, line)
    best, other = sorted(cost, key=lambda k: cost[k])
    rate = max(rows[best][0]["pre_ops_per_s"], rows[other][0]["pre_ops_per_s"])
    clear = cost[other] >= COST_RATIO * cost[best] and cost[other] - cost[best] >= COST_MARGIN_S * rate
    if clear and not rows[best][0]["window_open"]:
        assert f"— {rows[best][0]['target']} wins: fewest operations lost over the whole affected window" in line
    else:
        assert "wins" not in line, line
    slowed = [_longest_below_half(ops, e) for e, ops in rows.values()]
    if max(slowed) > QUIET_RUN_S + 1e-9:
        assert "no target stalled" not in line, (slowed, line)
    assert " ".join(line.split()) in " ".join(proc.stderr.split())  # the console's closing lines say it too
