"""Disturbances end to end from the CLI on real servers: a big set deleted with DEL and with UNLINK
during a point of redis and of redis with lazyfree-lazy-user-del, and a large array rewritten on
mongo-wire; the events table against the server's own SLOWLOG, the 100 ms series, the report.

No absolute time is asserted: the size of the set is chosen from how long a DEL takes on this
machine (measured first), and the checks are relations (stall vs the DEL's own SLOWLOG duration,
DEL vs UNLINK, lazyfree vs not)."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest
import redis

from tests.fixtures.cli import ycsbctl
from tests.fixtures.notebook import execute_notebook
from tests.fixtures.servers import need_redis_and_mongo_wire, start_redis
from ycsbctl.results import load
from ycsbctl.results.events import event_label, seconds_text
from ycsbctl.stores.disturb import parse_disturb
from ycsbctl.stores.redis.disturb import RedisDisturber

pytestmark = [pytest.mark.truth, pytest.mark.report]

WANTED_DEL_S = 0.3  # a DEL this long stalls whole 100 ms intervals wherever it falls
INTERVAL_S = 0.1
PROBE, MOST = 300_000, 1_500_000  # members of the set timed first, and the most the test builds
LREM_SIZE = 100_000  # a list whose LREM takes milliseconds (logged in SLOWLOG, far shorter than the expiry)


def _set_size_for_a_long_del(url: str) -> int:
    """Members of a set whose DEL takes about :data:`WANTED_DEL_S` here (from a DEL of PROBE timed now)."""
    d = RedisDisturber(url, parse_disturb(f"del:set:{PROBE}@1s"), "probe")
    try:
        d.build()
        t = d.act()
    finally:
        d.close()
    took = t.server_s or t.duration_s
    return int(min(MOST, max(PROBE, PROBE * WANTED_DEL_S / max(took, 1e-3))))


def _ok(proc) -> None:
    """Exit 0: every point ok (a disturbance's own stall does not degrade its point)."""
    assert proc.returncode == 0, proc.stderr[-3000:]


# speed: the tests of this run compare stalls read from its 100 ms throughput series (the DEL's against the
# UNLINK's), and size the set by timing a DEL first: a test beside them on the other core makes dips of its own
# (a parallel run once read UNLINK's stall estimate at 0.146 s against DEL's 0.129 s). They run in the quiet phase.
@pytest.fixture(scope="module")
def long_del_size(redis_server) -> int:
    """Members of a set whose DEL takes about :data:`WANTED_DEL_S` on this machine (timed once per module)."""
    return _set_size_for_a_long_del(redis_server.url)


@pytest.fixture(scope="module")
def del_vs_unlink(redis_server, long_del_size, tmp_path_factory: pytest.TempPathFactory):
    need_redis_and_mongo_wire()
    size = long_del_size
    out = tmp_path_factory.mktemp("disturb") / "del-unlink"
    proc = ycsbctl("run", "workload-b", "--targets", "redis,redis-lazyfree", "--server-config",
                    "redis-lazyfree:lazyfree-lazy-user-del=yes", "--backend", "local", "--records", "2000",
                    "--threads", "8", "--duration", "6.5", "--warmup", "1", "--no-telemetry",
                    "--disturb", f"del:set:{size}@1s", "--disturb", f"unlink:set:{size}@3s",
                    # an expiry and an LREM at one second: overlapping events (test_an_expiry_and_an_lrem_…)
                    "--disturb", f"expire:set:{size}@5s", "--disturb", f"lrem:list:{LREM_SIZE}@5s", "--out", str(out))
    return out, proc, size


@pytest.mark.speed
def test_the_notebook_tabulates_the_events_and_draws_each_disturbed_points_timeline(del_vs_unlink, tmp_path,
                                                                                     monkeypatch):
    out, proc, _ = del_vs_unlink
    _ok(proc)
    nb = execute_notebook(out, tmp_path, monkeypatch)
    cell = next(c for c in nb.cells if c.cell_type == "code" and "disturbance_report.event_rows" in c.source)
    assert not [o for o in cell.outputs if o.output_type == "error"]
    table = next(o["data"]["text/plain"] for o in cell.outputs if "text/plain" in o.get("data", {})
                 and "stall_s" in o["data"]["text/plain"])
    exp = load(out)
    # 4 events × 2 targets
    assert table.count("redis-lazyfree") == 4 and all(e in table for e in set(exp.events["event"]))
    images = [o for o in cell.outputs if "image/png" in o.get("data", {})]
    assert len(images) == exp.events["run_id"].nunique() == 2  # one timeline per disturbed point


def _event(events, target: str, action: str):
    rows = events[(events["target"] == target) & (events["action"] == action)]
    assert len(rows) == 1, rows
    return rows.iloc[0]


@pytest.mark.speed
def test_del_stalls_for_as_long_as_slowlog_says_and_unlink_does_not(del_vs_unlink):
    out, proc, size = del_vs_unlink
    _ok(proc)
    exp = load(out)
    assert len(exp.events) == 8  # 4 events × 2 targets
    d = _event(exp.events, "redis", "del")
    u = _event(exp.events, "redis", "unlink")
    lazy = _event(exp.events, "redis-lazyfree", "del")
    assert d["size"] == size and d["command"] == "DEL KEY"
    assert d["server_s"] >= INTERVAL_S, "the set was sized for a DEL of ~0.3 s on this machine"
    # the stall, in whole 100 ms intervals, misses at most the two partial ones at its edges and is
    # never longer than the server's own DEL plus one interval; its finer estimate agrees within 100 ms
    assert d["server_s"] - 2 * INTERVAL_S - 1e-9 <= d["stall_s"] <= d["server_s"] + INTERVAL_S + 1e-9
    assert abs(d["stall_est_s"] - d["server_s"]) <= INTERVAL_S
    # the command timed from its own connection contains the server's time for it
    assert d["command_s"] >= d["server_s"]
    assert d["max_latency_us"] >= 0.5 * d["server_s"] * 1e6  # requests waited behind the DEL
    assert d["ops_lost"] > 0
    # Not asserted: p99 during > p99 before. The requests that waited behind the DEL are one per client
    # thread (8) among the window's thousands, under 1 %: its p99 need not move (CI saw 128 µs against
    # 134 µs); the window's max (above) is where they show. tests/results/test_disturbance.py checks the
    # p99s exactly on a series whose slow share is known.
    assert d["max_latency_us"] > d["p99_before_us"]
    # UNLINK frees the set in the background; so does DEL with lazyfree-lazy-user-del: neither holds the server's
    # main thread as the DEL does (SLOWLOG, where it logged them at all), and neither stalls for more whole intervals.
    # Not asserted: fewer operations lost, or a smaller stall estimate. With no whole interval stalled, stall_est_s
    # is the throughput's deficit over the command's own intervals, and on a busy 2-core host the background free
    # competes with the server and the client for the cores there: a fresh-clone CI run with a core held busy read a
    # lazyfree DEL at 0.51 s against the DEL's 0.34 s. What the headline then says is checked in
    # test_the_headline_answers_…
    assert u["stall_s"] <= d["stall_s"] and lazy["stall_s"] <= d["stall_s"]
    for e in (u, lazy):
        assert math.isnan(e["server_s"]) or e["server_s"] < d["server_s"] / 10
    # each action ran at its planned second (never before; how late is recorded), timed on its own
    for e in (d, u, lazy):
        assert e["started_s"] >= e["at_s"]
        assert e["build_s"] > 0 and e["t_s"] == pytest.approx(e["started_s"] + 1.0)


@pytest.mark.speed
def test_disturbed_points_keep_a_100_ms_series_and_the_report_shows_them(del_vs_unlink):
    out, proc, _ = del_vs_unlink
    _ok(proc)
    exp = load(out)
    runs = exp.runs[exp.runs["phase"] == "run"]
    for run_id in runs["run_id"]:
        fine = exp.fine_series_of(run_id)
        overall = fine[fine["op"] == "OVERALL"]
        seconds = exp.series_of(run_id)
        seconds = seconds[seconds["op"] == "OVERALL"]
        # the 100 ms intervals of each second add up to that second of the per-second series
        by_second = overall.groupby(overall["interval"] // 10)["operations"].sum()
        assert by_second.to_dict() == dict(zip(seconds["second"], seconds["operations"]))
        assert len(exp.events_of(run_id)) == 4
    loads = exp.runs[exp.runs["phase"] == "load"]["run_id"]
    assert not exp.series_100ms["run_id"].isin(loads).any()  # only the disturbed points: loads keep seconds
    assert "built the set of" in proc.stderr
    html = (out / "report.html").read_text()
    assert 'id="disturbances"' in html and "del:set:" in html
    assert len(list((out / "plots").glob("timeline.*.png"))) == 2
    assert (out / "events.csv").is_file() and (out / "series_100ms.parquet").is_file()


def test_mongo_wire_gets_the_array_rewrite_at_its_second(tmp_path: Path):
    need_redis_and_mongo_wire()
    out = tmp_path / "mongo"
    proc = ycsbctl("run", "workload-b", "--target", "ferretdb", "--backend", "local", "--records", "500",
                    "--threads", "4", "--duration", "3", "--warmup", "0", "--no-telemetry",
                    "--disturb", "lrem:list:100k@1s", "--disturb", "del:set:20k@2s", "--no-report",
                    "--out", str(out))  # no report: only the data is read
    _ok(proc)
    exp = load(out)
    assert list(exp.events["action"]) == ["lrem", "del"]
    lrem, drop = exp.events.iloc[0], exp.events.iloc[1]
    assert "$pull" in lrem["command"] and drop["command"].startswith("drop of a collection of 20,000")
    for e in (lrem, drop):
        assert e["started_s"] >= e["at_s"]
        assert e["command_s"] > 0 and e["build_s"] > 0 and math.isnan(e["server_s"])  # no SLOWLOG there
        assert e["pre_ops_per_s"] > 0 and e["ops_lost"] >= 0
    fine = exp.series_100ms
    assert (fine[fine["op"] == "OVERALL"]["operations"].sum()
            >= exp.runs[exp.runs["phase"] == "run"]["operations"].sum())


@pytest.mark.fault
def test_a_big_key_the_server_refuses_fails_the_point_in_one_line_and_leaves_nothing(tmp_path: Path):
    server = start_redis(tmp_path / "small", extra=("--maxmemory", "20mb", "--maxmemory-policy", "noeviction"))
    try:
        out = tmp_path / "refused"
        proc = ycsbctl("run", "workload-b", "--target", server.url, "--load", "--records", "200", "--threads", "2",
                        "--duration", "2", "--warmup", "0", "--no-telemetry",
                        "--disturb", "del:set:1M@1s", "--out", str(out))
        assert proc.returncode == 1, proc.stderr[-3000:]
        assert "Traceback" not in proc.stderr
        exp = load(out)
        run = exp.runs[exp.runs["phase"] == "run"].iloc[0]
        assert run["status"] == "failed"
        assert run["error"].startswith("disturbance del:set:1M@1s: could not build its set on redis://127.0.0.1:")
        assert "used memory > 'maxmemory'" in run["error"]  # the server's own words
        rds = redis.Redis.from_url(server.url)
        assert rds.keys("ycsbctl:big:*") == []  # the part built was removed
        assert int(rds.dbsize()) == 200 + 1  # the records and their index, nothing else
        rds.close()
    finally:
        server.stop()


@pytest.mark.speed
def test_the_headline_answers_the_disturbance_study_first_from_its_events_table(del_vs_unlink):
    """Report (first screen), findings and console's closing lines lead with each action's stall and
    operations lost over its whole affected window per target, read back here from events.csv (not through ycsbctl's
    reader); the winner it names is the target that lost clearly fewest operations over that window."""
    import pandas as pd

    from ycsbctl.report.study_headlines import COST_MARGIN_S, COST_RATIO, QUIET_RUN_S, seconds_text
    from ycsbctl.report.summary import findings

    out, proc, _ = del_vs_unlink
    _ok(proc)
    events = pd.read_csv(out / "events.csv")
    exp = load(out)
    first = findings(exp, exp.points("p99"))
    html = (out / "report.html").read_text()
    for action in ("del", "unlink"):
        rows = events[events["action"] == action].set_index("target")
        line = next(f for f in first if f.startswith(f"{action.upper()} ("))
        for target, e in rows.iterrows():
            said = f"stalled {seconds_text(e['stall_s'])}" if e["stall_s"] > 0 else "no stall"
            lost = f"{'at least ' if e['window_open'] else ''}{e['ops_lost']:,.0f} ops lost over " \
                   f"{seconds_text(e['during_s'])}"
            if e["slow_s"] > 0:  # below half the reference rate: how long, and the loss over the whole window
                said = f"{said}; slowed: below 50 % for {seconds_text(e['slow_s'])}"
            elif e["stall_s"] == 0:
                said = f"{said}, not slowed"
            if isinstance(e["overlaps"], str) and e["overlaps"]:
                # its window reached another event's (an UNLINK's lasts until its background free is done: past 5 s
                # on a slow host): the line says where its cost went, by how events.csv charged it
                label = event_label(e["event"], int(e["occurrence"]))
                group = str(e["charged_to"]).split("+")
                if e["charged_to"] == label:  # the server's evidence blamed it: the group's cost on its row
                    assert f"{target} {said}" in line and f"overlapped {e['overlaps']}" in line, line
                    assert "charged here by the server's evidence" in line, line
                elif group[0] == label and len(group) > 1:  # the group's cost on its row, jointly
                    others = [x.split(":", 1)[0].upper() for x in e["overlaps"].split(", ")]
                    actions = "+".join([action.upper(), *others])
                    assert f"{target} {actions} overlapped: {said}" in line and "together" in line, line
                else:  # its cost went to the other event's row
                    assert f"{target} overlapped " in line, line
                continue
            assert f"{target} {said}" in line and lost in line, line
        lost = rows["ops_lost"]
        best, other = lost.idxmin(), lost.idxmax()
        rate = rows["pre_ops_per_s"].max()
        # a target whose cost events.csv charged to the other event its window reached (on a slow host an UNLINK's
        # lasts past the expiry at 5 s) leaves no race to win: its row's loss is not this action's
        elsewhere = any(e["charged_to"].split("+")[0] != event_label(e["event"], int(e["occurrence"]))
                        for _, e in rows.iterrows() if isinstance(e["overlaps"], str) and e["overlaps"]
                        and isinstance(e["charged_to"], str) and e["charged_to"])
        if lost[other] >= COST_RATIO * lost[best] and lost[other] - lost[best] >= COST_MARGIN_S * rate \
                and not rows.loc[best, "window_open"] and not elsewhere:
            assert f"— {best} wins: fewest operations lost over the whole affected window" in line, line
        else:
            assert "wins" not in line, line
        if (rows["slow_run_s"] > QUIET_RUN_S + 1e-9).any() or (rows["stall_s"] > 0).any():
            assert "no target stalled" not in line, line
        assert " ".join(line.split()) in " ".join(proc.stderr.split())  # the console's closing lines (rich folds them)
        answer = html.index('id="answer"')
        assert answer < html.index('id="findings"') and html.index(line[:40], answer) < html.index('id="findings"')
    # the study's answer comes before any sentence about peaks of a single repetition
    assert first.index(next(f for f in first if f.startswith("DEL ("))) < min(
        [i for i, f in enumerate(first) if "peaks at" in f] or [len(first)])
    # … and the ladder's comparison says what its throughput holds
    (ladder,) = [f for f in first if f.startswith("workloadb: redis-lazyfree against redis: ")]
    assert ladder.endswith("(throughput with the disturbances' stalls in it)."), ladder


def _lost(exp, run_id: str, start_s: float, end_s: float, rate: float) -> float:
    """Operations lost against ``rate`` (ops/s) from the interval holding ``start_s`` up to ``end_s`` (s since the
    operations began), counted here from series_100ms.parquet's rows."""
    fine = exp.fine_series_of(run_id)
    k = fine[fine["op"] == "OVERALL"].set_index("interval")["operations"]
    first, last = math.floor(start_s / INTERVAL_S + 1e-9), round(end_s / INTERVAL_S)
    return max(0.0, rate * (last - first) * INTERVAL_S - float(k[(k.index >= first) & (k.index < last)].sum()))


@pytest.mark.speed
def test_a_slowdown_is_stated_and_counted_over_its_window_and_reaches_the_end_of_the_servers_lazyfree(del_vs_unlink):
    out, proc, _ = del_vs_unlink
    _ok(proc)
    exp = load(out)
    lines = [" ".join(line.split()) for line in proc.stderr.splitlines()]
    for _, e in exp.events.iterrows():
        if isinstance(e["overlaps"], str):
            continue  # charged once with the event it overlapped: test_an_expiry_and_an_lrem_at_one_second_…
        # the loss is counted over the whole affected window, as the 100 ms series has it
        assert e["ops_lost"] == pytest.approx(_lost(exp, e["run_id"], e["t_s"], e["affected_end_s"],
                                                    e["pre_ops_per_s"]))
        assert e["slow_s"] >= e["stall_s"] and e["during_s"] >= e["slow_s"]
        fine = exp.fine_series_of(e["run_id"])
        first = fine[(fine["op"] == "OVERALL") & (fine["interval"] == math.floor(e["t_s"] / INTERVAL_S + 1e-9))]
        if len(first) and first["ops_per_s"].iloc[0] < 0.5 * e["pre_ops_per_s"]:
            assert e["slow_s"] > 0  # its own interval below half the rate: a slowdown, stalled or not
        if e["stall_s"] == 0 and e["slow_s"] > 0:
            said = f"no stall; slowed: below 50 % for {seconds_text(e['slow_s'])}"
            lost = f"{e['ops_lost']:,.0f} ops lost over {seconds_text(e['during_s'])}"
            assert any(said in line and lost in line for line in lines), said
    d, u, lazy = (_event(exp.events, "redis", "del"), _event(exp.events, "redis", "unlink"),
                  _event(exp.events, "redis-lazyfree", "del"))
    # the server's evidence: a plain DEL held it as long as its SLOWLOG entry says, and freed nothing later; UNLINK
    # and lazyfree's DEL left the set to a thread that INFO says went on freeing it after the command returned
    assert d["evidence_s"] == d["server_s"] and "SLOWLOG DEL" in d["evidence"] and math.isnan(d["background_s"])
    for e in (u, lazy):
        assert e["background_s"] > 0 and "lazyfree: freed in the background" in e["evidence"]
        # the window reaches at least the time the server was seen done freeing it (or is said open)
        assert e["background_end_s"] == pytest.approx(e["t_s"] + e["command_s"] + e["background_s"])
        assert e["window_open"] or e["affected_end_s"] >= e["background_end_s"] - 1e-9


def _evidence_ms(evidence: str) -> list[float]:
    """The durations (ms) the events table's evidence quotes (``SLOWLOG EXISTS 317 ms; LATENCY expire-del 317 ms``)."""
    return [float(m.replace(",", "")) for m in re.findall(r"(?:SLOWLOG|LATENCY) \S+ ([\d,.]+) ms", evidence)]


@pytest.mark.speed
def test_an_expiry_and_an_lrem_at_one_second_are_said_to_overlap_and_charged_once_by_the_servers_evidence(
        del_vs_unlink):
    from ycsbctl.report.summary import findings

    out, proc, _ = del_vs_unlink
    _ok(proc)
    exp = load(out)
    first = findings(exp, exp.points("p99"))
    text = " ".join(proc.stderr.split())
    for target in ("redis", "redis-lazyfree"):
        expiry, lrem = _event(exp.events, target, "expire"), _event(exp.events, target, "lrem")
        # the evidence is the longest duration the server's records quote (SLOWLOG, the latency monitor: read back from
        # a real server in tests/stores/test_redis_disturb.py); the expired set's deletion, the LREM's own entry
        assert expiry["evidence_s"] * 1000 == pytest.approx(max(_evidence_ms(expiry["evidence"])), abs=0.5)  # whole ms
        assert "INFO expired_keys +1" in expiry["evidence"] and lrem["evidence"].startswith("SLOWLOG LREM ")
        assert lrem["evidence_s"] == lrem["server_s"]
        def names(v: object) -> set[str]:
            return set(v.split(", ")) if isinstance(v, str) and v else set()

        assert lrem["event"] in names(expiry["overlaps"]) and expiry["event"] in names(lrem["overlaps"])
        if names(expiry["overlaps"]) | names(lrem["overlaps"]) > {expiry["event"], lrem["event"]}:
            # a third event in their group: the UNLINK at 3 s, whose window (until its background free was done)
            # reached 5 s on this host; the two still share one charge, and the expiry's stall is the server's
            assert expiry["charged_to"] == lrem["charged_to"]
            assert expiry["stall_s"] >= expiry["evidence_s"] - 2 * INTERVAL_S - 1e-9
            continue
        blamed = expiry["evidence_s"] >= 2 * lrem["evidence_s"]
        assert expiry["charged_to"] == lrem["charged_to"] == (
            expiry["event"] if blamed else f"{expiry['event']}+{lrem['event']}")
        # the expiry's stall covers what the server says its deletion held it, less the partial intervals at its edges
        assert expiry["stall_s"] >= expiry["evidence_s"] - 2 * INTERVAL_S - 1e-9
        # the operations lost are counted once: the two rows add up to the loss over their one window, no more
        start, end = min(expiry["t_s"], lrem["t_s"]), max(expiry["affected_end_s"], lrem["affected_end_s"])
        union = _lost(exp, expiry["run_id"], start, end, expiry["pre_ops_per_s"])
        assert (
            expiry["ops_lost"] + lrem["ops_lost"] == pytest.approx(union) and lrem["ops_lost"] == lrem["stall_s"] == 0
        )
        # the first screen and the console's line of each event say so
        if blamed:
            line = next(f for f in first if f.startswith(f"LREM ({lrem['event']}): "))
            assert (
                f"{target} overlapped {expiry['event']}: charged there by the server's evidence (SLOWLOG LREM" in line
            )
            line = next(f for f in first if f.startswith(f"EXPIRE ({expiry['event']}): "))
            assert f"{target} stalled {seconds_text(expiry['stall_s'])}" in line
            assert f"overlapped {lrem['event']}, charged here by the server's evidence (" in line
            assert f"overlapped {expiry['event']}: its cost charged to {expiry['event']}" in text


def test_the_console_line_of_an_event_says_its_slowdown_its_evidence_and_where_an_overlaps_cost_went():
    import pandas as pd

    from ycsbctl.experiment.disturb import event_lines
    from ycsbctl.results.events import EVENT_COLUMNS

    base = dict.fromkeys(EVENT_COLUMNS) | {"occurrence": 1, "started_s": 5.0, "command_s": 0.59, "stall_est_s": 0.6,
                                           "max_latency_us": 590_000.0, "error": None}
    rows = [base | {"event": "expire:set:300k@5s", "server_s": 0.579, "stall_s": 0.6, "slow_s": 0.7, "ops_lost": 4775.0,
                    "evidence": "LATENCY expire-del 580 ms", "overlaps": "lrem:list:100k@5s",
                    "charged_to": "expire:set:300k@5s"},
            base | {"event": "lrem:list:100k@5s", "server_s": 0.0024, "stall_s": 0.0, "slow_s": 0.0, "ops_lost": 0.0,
                    "stall_est_s": 0.0, "evidence": "SLOWLOG LREM 2.4 ms", "overlaps": "expire:set:300k@5s",
                    "charged_to": "expire:set:300k@5s"}]
    expiry, lrem = event_lines(pd.DataFrame(rows))
    assert expiry == ("expire:set:300k@5s at 5.00 s: command 590 ms (SLOWLOG 579 ms), stalled 600 ms; slowed: below "
                      "50 % for 700 ms, 4,775 ops lost (stall est. 0.60 s), max latency 590 ms; server: LATENCY "
                      "expire-del 580 ms; overlapped lrem:list:100k@5s: this event charged, the server's evidence "
                      "blaming it")
    assert lrem.endswith("no stall, not slowed (0 ops lost) (stall est. 0.00 s), max latency 590 ms; server: SLOWLOG "
                         "LREM 2.4 ms; overlapped expire:set:300k@5s: its cost charged to expire:set:300k@5s, the "
                         "server's evidence blaming it")
